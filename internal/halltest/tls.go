package halltest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tengen/hall/brokerconf"
)

// TLS is a broker's TLS listener as StartTLS set it up.
type TLS struct {
	Port   int
	CAFile string // the hall's CA certificate (PEM), which signed the broker's
}

// URL is the TLS listener's mqtts:// address.
func (t TLS) URL() string { return fmt.Sprintf("mqtts://127.0.0.1:%d", t.Port) }

// StartTLS generates a hall of tables tables and enables its TLS listener as the generated
// mosquitto.conf tells a director to: a CA and a server certificate for 127.0.0.1 and localhost
// (made here with crypto/x509) put where the commented lines name them, and those lines
// uncommented; the listener is on a free port of 127.0.0.1 instead of 8883. The plain listener
// stays too.
func StartTLS(tb testing.TB, tables int) (*Broker, TLS) {
	tb.Helper()
	prog := Program(tb)
	// A port FreePort found free can be taken again before the broker binds it (by another
	// test's connection or broker): then the broker exits, or the listener is not the broker's.
	// Only a TLS handshake with the hall's CA shows the listener is ours; else the hall is set up
	// again on other ports.
	var last error
	for attempt := 0; attempt < startAttempts; attempt++ {
		b, err := generate(tb, prog, brokerconf.Options{Tables: tables})
		if err != nil {
			tb.Fatal(err)
		}
		conf := filepath.Join(b.Dir, brokerconf.ConfFile)
		certDir := conf + ".d"
		if err := os.MkdirAll(certDir, 0o700); err != nil {
			tb.Fatal(err)
		}
		ca, caKey, err := NewCA("Tengen test hall CA")
		if err != nil {
			tb.Fatal(err)
		}
		if err := writeServerCert(certDir, ca, caKey); err != nil {
			tb.Fatal(err)
		}
		text, err := os.ReadFile(conf)
		if err != nil {
			tb.Fatal(err)
		}
		pool := x509.NewCertPool()
		pool.AddCert(ca)
		port := FreePort(tb)
		if err := os.WriteFile(conf, []byte(withTLS(tb, string(text), port)), 0o644); err != nil {
			tb.Fatal(err)
		}
		if err := b.start(); err != nil {
			if !errors.Is(err, errPortTaken) {
				tb.Fatal(err)
			}
			last = err
			continue
		}
		if msg := waitTLS(b, port, pool); msg != "" {
			last = errors.New(msg)
			b.Kill()
			continue
		}
		tb.Cleanup(b.Kill)
		return b, TLS{Port: port, CAFile: filepath.Join(certDir, "ca.crt")}
	}
	tb.Fatalf("mosquitto's TLS listener: %v", last)
	return nil, TLS{}
}

// withTLS is the generated configuration text with its commented TLS lines enabled and the TLS
// listener on port of 127.0.0.1.
func withTLS(tb testing.TB, text string, port int) string {
	tb.Helper()
	var out []string
	in := false
	enabled := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "# TLS (optional)") {
			in = true
		} else if in && strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "# ") {
			l = strings.TrimPrefix(l, "#")
			if l == "listener 8883" {
				l = fmt.Sprintf("listener %d 127.0.0.1", port)
			}
			enabled++
		} else if in && l == "" {
			in = false
		}
		out = append(out, l)
	}
	if enabled == 0 {
		tb.Fatalf("no commented TLS lines in the generated configuration")
	}
	return strings.Join(out, "\n")
}

// waitTLS waits until a TLS handshake with the broker's listener on port succeeds with the CA
// pool; it returns "" then, or what went wrong (with the broker's log) after 10 s or when the
// broker has exited.
func waitTLS(b *Broker, port int, pool *x509.CertPool) string {
	deadline := time.Now().Add(10 * time.Second)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for {
		c, err := tls.DialWithDialer(&net.Dialer{Timeout: 500 * time.Millisecond}, "tcp", addr, &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
		if err == nil {
			c.Close()
			return ""
		}
		if b.PID() == 0 || b.exited() || time.Now().After(deadline) {
			return fmt.Sprintf("no TLS handshake on %s: %v; broker log: %s", addr, err, b.Log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// NewCA makes a self-signed certificate authority (ECDSA P-256, valid for a day).
func NewCA(name string) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return cert, key, err
}

// WriteCertPEM writes a certificate as PEM.
func WriteCertPEM(path string, cert *x509.Certificate) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}), 0o644)
}

// writeServerCert writes ca.crt, and server.crt and server.key signed by it for 127.0.0.1 and
// localhost, into dir.
func writeServerCert(dir string, ca *x509.Certificate, caKey *ecdsa.PrivateKey) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := WriteCertPEM(filepath.Join(dir, "ca.crt"), ca); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "server.crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "server.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
}
