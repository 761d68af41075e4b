package config

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// PINIterations is the PBKDF2-SHA256 work factor for new PIN hashes, so that a copied configuration
// file does not hand over the PIN at a glance. It is kept modest because the director waits for
// every check on the table's own CPU (BenchmarkCheckPIN measures one); a 4-digit PIN cannot be made
// safe against a determined search by hashing alone, only against reading.
const PINIterations = 50_000

// hashScheme names the only hash format: pbkdf2-sha256$<iterations>$<salt>$<key>, base64 (raw std).
const hashScheme = "pbkdf2-sha256"

// ErrBadPIN is returned by HashPIN for a PIN that is not 4 to 12 digits.
var ErrBadPIN = errors.New("a director PIN is 4 to 12 digits")

// HashPIN returns the string to store as director.pin_hash for pin (4 to 12 digits).
func HashPIN(pin string) (string, error) {
	if !validPIN(pin) {
		return "", ErrBadPIN
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("config: salt for PIN hash: %w", err)
	}
	key, err := pbkdf2.Key(sha256.New, pin, salt, PINIterations, 32)
	if err != nil {
		return "", fmt.Errorf("config: PIN hash: %w", err)
	}
	enc := base64.RawStdEncoding
	return fmt.Sprintf("%s$%d$%s$%s", hashScheme, PINIterations, enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

// CheckPIN reports whether pin matches a hash made by HashPIN, comparing in constant time. A malformed
// hash never matches.
func CheckPIN(hash, pin string) bool {
	h, err := parseHash(hash)
	if err != nil || !validPIN(pin) {
		return false
	}
	key, err := pbkdf2.Key(sha256.New, pin, h.salt, h.iter, len(h.key))
	if err != nil {
		return false
	}
	return subtle.ConstantTimeCompare(key, h.key) == 1
}

func validPIN(pin string) bool {
	if len(pin) < 4 || len(pin) > 12 {
		return false
	}
	for _, c := range pin {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

type pinHash struct {
	iter      int
	salt, key []byte
}

// parseHash checks a stored hash's format without doing the (slow) key derivation.
func parseHash(s string) (pinHash, error) {
	parts := strings.Split(s, "$")
	if len(parts) != 4 || parts[0] != hashScheme {
		return pinHash{}, fmt.Errorf("not a PIN hash (expected %s$<iterations>$<salt>$<key>)", hashScheme)
	}
	iter, err := strconv.Atoi(parts[1])
	if err != nil || iter < 1000 || iter > 10_000_000 {
		return pinHash{}, fmt.Errorf("PIN hash iteration count %q is out of range (1000..10000000)", parts[1])
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[2])
	if err != nil || len(salt) < 8 || len(salt) > 64 {
		return pinHash{}, errors.New("PIN hash salt is not 8..64 bytes of base64")
	}
	key, err := enc.DecodeString(parts[3])
	if err != nil || len(key) < 16 || len(key) > 64 {
		return pinHash{}, errors.New("PIN hash key is not 16..64 bytes of base64")
	}
	return pinHash{iter: iter, salt: salt, key: key}, nil
}
