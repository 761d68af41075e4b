// Package brokerconf writes a hall's Mosquitto 2 broker set-up: mosquitto.conf (a LAN listener,
// persistence, passwords, an ACL, TLS lines to uncomment), the password file (hashed as Mosquitto 2
// hashes: PBKDF2-SHA512, 101 iterations, a 12-byte salt), the ACL (a table publishes only under
// its own topics and reads only its own assignment; a read-only user for screens; the director
// reads everything and publishes assignments), the credentials in clear (mode 0600, for the
// director to hand out) and a systemd unit that starts the broker.
package brokerconf

import (
	"bufio"
	"bytes"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"tengen/hall/wire"
)

// File names written into the configuration directory.
const (
	ConfFile        = "mosquitto.conf"
	PasswdFile      = "passwd"
	ACLFile         = "acl"
	CredentialsFile = "credentials"
	UnitFile        = "tengen-hall-broker.service"
)

// User names besides the tables' ("table-N").
const (
	DirectorUser = "director" // the dashboard and the director: reads every table, publishes assignments
	ScreenUser   = "screen"   // a read-only screen
)

// DefaultPort is MQTT's registered port.
const DefaultPort = 1883

// Options is one hall's broker set-up.
type Options struct {
	Hall    string // topic level, wire.CheckHall
	Tables  int    // tables First..First+Tables-1 get a user each
	First   int    // the first table's number; 0 = 1
	Port    int    // the LAN listener's port; 0 = DefaultPort
	Bind    string // the listener's address; "" = every interface
	DataDir string // persistence location; "" = DIR/data
	// RunAs is the user Mosquitto drops to when started as root ("" = mosquitto, Debian's). Tests
	// running as root set root, since a mosquitto user cannot read their temporary directory.
	RunAs string
	// Broker is the mosquitto program the unit starts; "" = /usr/sbin/mosquitto.
	Broker string
	// Rand is the source of passwords and salts; nil = crypto/rand.
	Rand io.Reader
	// BridgeUsers are users for satellite brokers bridged to this one (a big hall): each may
	// publish every table's topics and read every assignment.
	BridgeUsers []string
	// Bridge, on a satellite broker, forwards its tables' messages to the hall's main broker and
	// brings their assignments back.
	Bridge *Bridge
}

// Bridge is a satellite broker's connection to the hall's main broker.
type Bridge struct {
	Address  string // host:port of the main broker
	User     string // one of the main broker's BridgeUsers
	Password string
}

// TableUser is the user name of table n.
func TableUser(n int) string { return "table-" + strconv.Itoa(n) }

// Credentials maps user names to passwords in clear.
type Credentials map[string]string

// Generate writes the set-up into dir (created if missing) and returns the credentials. Run as
// root, it gives the password file, the ACL and the persistence directory to the broker's user.
// Existing files are replaced; a hall re-initialised gets new passwords.
func Generate(dir string, o Options) (Credentials, error) {
	if err := wire.CheckHall(o.Hall); err != nil {
		return nil, err
	}
	if o.First == 0 {
		o.First = 1
	}
	if o.Tables < 1 || o.First < 1 || o.First+o.Tables-1 > wire.MaxTable {
		return nil, fmt.Errorf("brokerconf: tables %d to %d: give numbers from 1 to %d", o.First, o.First+o.Tables-1, wire.MaxTable)
	}
	for _, u := range o.BridgeUsers {
		if u == "" || u == DirectorUser || u == ScreenUser || strings.HasPrefix(u, "table-") || strings.ContainsAny(u, ": \t\n") {
			return nil, fmt.Errorf("brokerconf: bridge user %q: choose another name", u)
		}
	}
	if b := o.Bridge; b != nil && (b.Address == "" || b.User == "" || strings.ContainsAny(b.Address+b.User+b.Password, " \t\n")) {
		return nil, fmt.Errorf("brokerconf: the bridge needs the main broker's host:port, a bridge user and its password")
	}
	if o.Port == 0 {
		o.Port = DefaultPort
	}
	if o.Port < 1 || o.Port > 65535 {
		return nil, fmt.Errorf("brokerconf: port %d out of range", o.Port)
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.RunAs == "" {
		o.RunAs = "mosquitto"
	}
	if o.Broker == "" {
		o.Broker = "/usr/sbin/mosquitto"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("brokerconf: %w", err)
	}
	dir = abs
	if o.DataDir == "" {
		o.DataDir = filepath.Join(dir, "data")
	}
	// The directory is open to the broker's user, which reads the password file and ACL after
	// dropping privileges; the credentials in clear stay root's (0600).
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("brokerconf: %w", err)
	}
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("brokerconf: %w", err)
	}
	users := []string{DirectorUser, ScreenUser}
	for n := o.First; n < o.First+o.Tables; n++ {
		users = append(users, TableUser(n))
	}
	users = append(users, o.BridgeUsers...)
	creds := Credentials{}
	var passwd bytes.Buffer
	for _, u := range users {
		pw, err := password(o.Rand)
		if err != nil {
			return nil, err
		}
		creds[u] = pw
		line, err := HashLine(u, pw, o.Rand)
		if err != nil {
			return nil, err
		}
		passwd.WriteString(line + "\n")
	}
	files := []struct {
		name string
		data []byte
		mode os.FileMode
	}{
		{PasswdFile, passwd.Bytes(), 0o600},
		{ACLFile, []byte(ACL(o.Hall, o.First, o.Tables, o.BridgeUsers...)), 0o600},
		{CredentialsFile, creds.marshal(o.Hall), 0o600},
		{ConfFile, []byte(conf(dir, o)), 0o644},
		{UnitFile, []byte(unit(dir, o)), 0o644},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, f.data, f.mode); err != nil {
			return nil, fmt.Errorf("brokerconf: %w", err)
		}
		if err := os.Chmod(p, f.mode); err != nil { // WriteFile keeps an existing file's mode
			return nil, fmt.Errorf("brokerconf: %w", err)
		}
	}
	if err := giveTo(o.RunAs, o.DataDir, filepath.Join(dir, PasswdFile), filepath.Join(dir, ACLFile)); err != nil {
		return nil, err
	}
	return creds, nil
}

// giveTo makes paths the broker user's when run as root (Mosquitto reads its password file and
// ACL, and writes its persistence, after dropping to that user). Elsewhere the files stay the
// caller's, who runs the broker.
func giveTo(name string, paths ...string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup(name)
	if err != nil {
		return fmt.Errorf("brokerconf: the broker's user %q: %w (install mosquitto first, or give another user)", name, err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("brokerconf: user %q has ids %s:%s", name, u.Uid, u.Gid)
	}
	for _, p := range paths {
		if err := os.Chown(p, uid, gid); err != nil {
			return fmt.Errorf("brokerconf: %w", err)
		}
	}
	return nil
}

// password is 16 random letters and digits (about 95 bits).
func password(r io.Reader) (string, error) {
	const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 16)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", fmt.Errorf("brokerconf: random: %w", err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b), nil
}

// HashLine is one line of a Mosquitto 2 password file: user:$7$101$SALT$HASH, PBKDF2 with
// SHA-512, 101 iterations, a 12-byte salt and a 64-byte key, both in standard base64 (what
// mosquitto_passwd writes).
func HashLine(user, pw string, r io.Reader) (string, error) {
	if user == "" || strings.ContainsAny(user, ":\n\r") {
		return "", fmt.Errorf("brokerconf: user name %q", user)
	}
	salt := make([]byte, 12)
	if _, err := io.ReadFull(r, salt); err != nil {
		return "", fmt.Errorf("brokerconf: random: %w", err)
	}
	key, err := pbkdf2.Key(sha512.New, pw, salt, 101, sha512.Size)
	if err != nil {
		return "", fmt.Errorf("brokerconf: %w", err)
	}
	enc := base64.StdEncoding
	return user + ":$7$101$" + enc.EncodeToString(salt) + "$" + enc.EncodeToString(key), nil
}

// ACL is the access list: the director reads everything of the hall and writes assignments; a
// screen reads the tables; table N (from first, tables of them) writes tengen/HALL/table/N/# and
// reads its assignment only; a satellite broker's bridge user writes every table's topics and
// reads every assignment. Anonymous clients are refused by the configuration before the ACL matters.
func ACL(hall string, first, tables int, bridges ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Tengen hall %q: written by `hall init`. A client may do only what is listed for its user.\n\n", hall)
	fmt.Fprintf(&b, "user %s\ntopic read %s/%s/#\ntopic readwrite %s/%s/assign/#\n\n", DirectorUser, wire.Root, hall, wire.Root, hall)
	fmt.Fprintf(&b, "user %s\ntopic read %s/%s/table/#\n\n", ScreenUser, wire.Root, hall)
	for n := first; n < first+tables; n++ {
		fmt.Fprintf(&b, "user %s\ntopic write %s\ntopic read %s\n\n", TableUser(n), wire.TablePrefix(hall, n), wire.AssignTopic(hall, n))
	}
	for _, u := range bridges {
		fmt.Fprintf(&b, "user %s\ntopic write %s/%s/table/#\ntopic read %s/%s/assign/#\n\n", u, wire.Root, hall, wire.Root, hall)
	}
	return b.String()
}

func conf(dir string, o Options) string {
	listen := strconv.Itoa(o.Port)
	if o.Bind != "" {
		listen += " " + o.Bind
	}
	return mainConf(dir, o, listen) + bridgeConf(o)
}

// bridgeConf is a satellite's bridge to the main broker: its tables' topics out, their
// assignments in, QoS 1, a session the main broker keeps.
func bridgeConf(o Options) string {
	b := o.Bridge
	if b == nil {
		return ""
	}
	return fmt.Sprintf(`
# The bridge to the hall's main broker: this broker's tables (%[1]d to %[2]d) go out, their
# assignments come in.
connection tengen-%[3]s-tables-%[1]d
address %[4]s
bridge_protocol_version mqttv50
remote_username %[5]s
remote_password %[6]s
cleansession false
try_private true
topic %[7]s/%[3]s/table/# out 1
topic %[7]s/%[3]s/assign/# in 1
`, o.First, o.First+o.Tables-1, o.Hall, b.Address, b.User, b.Password, wire.Root)
}

func mainConf(dir string, o Options, listen string) string {
	return fmt.Sprintf(`# Mosquitto 2 broker of Tengen hall %[1]q: written by `+"`hall init`"+`.
# Start it: mosquitto -c %[2]s (or the systemd unit %[3]s beside this file).
per_listener_settings false
allow_anonymous false
password_file %[4]s
acl_file %[5]s
user %[6]s

# Retained states, queued messages and sessions survive a restart. Written every 2 seconds when
# something changed, so that a power cut loses at most that (the tables publish again what the
# broker had not acknowledged, and their retained state again at every connection).
persistence true
persistence_location %[7]s/
autosave_interval 2
autosave_on_changes false

# A dashboard away for a while gets what it missed (QoS 1, a persistent session).
max_queued_messages 100000
max_inflight_messages 100
persistent_client_expiration 1d

log_dest stderr
log_type error
log_type warning
log_type notice
connection_messages true

# The hall's LAN listener.
listener %[8]s
protocol mqtt

# TLS (optional): put the hall's CA certificate, the broker's certificate and its key in
# %[2]s.d/ (ca.crt, server.crt, server.key), uncomment these lines, and point the
# kiosks at mqtts://HOST:8883 with the CA (kiosk.toml [hall] url, ca_file = a copy of ca.crt).
#listener 8883
#protocol mqtt
#certfile %[2]s.d/server.crt
#keyfile %[2]s.d/server.key
#cafile %[2]s.d/ca.crt
#tls_version tlsv1.2
`, o.Hall, filepath.Join(dir, ConfFile), UnitFile, filepath.Join(dir, PasswdFile), filepath.Join(dir, ACLFile),
		o.RunAs, strings.TrimRight(o.DataDir, "/"), listen)
}

func unit(dir string, o Options) string {
	return fmt.Sprintf(`# Tengen hall %[1]q: the MQTT broker. Written by `+"`hall init`"+`.
# Install: cp %[2]s /etc/systemd/system/ && systemctl daemon-reload && systemctl enable --now %[2]s
# (Debian's own mosquitto.service uses port 1883 too: systemctl disable --now mosquitto first.)
[Unit]
Description=Tengen hall %[1]s MQTT broker (Mosquitto)
Documentation=man:mosquitto(8) man:mosquitto.conf(5)
After=network-online.target
Wants=network-online.target

[Service]
Type=notify
NotifyAccess=main
ExecStart=%[3]s -c %[4]s
ExecReload=/bin/kill -HUP $MAINPID
Restart=on-failure
RestartSec=2

[Install]
WantedBy=multi-user.target
`, o.Hall, UnitFile, o.Broker, filepath.Join(dir, ConfFile))
}

// marshal writes the credentials file: comment lines, then "user password" lines in name order.
func (c Credentials) marshal(hall string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Tengen hall %q: MQTT users and passwords in clear. Keep this file private (mode 0600).\n", hall)
	fmt.Fprintf(&b, "# Each kiosk gets its own line (kiosk.toml [hall] user and password_file); the director's logs in to the dashboard.\n")
	names := make([]string, 0, len(c))
	for u := range c {
		names = append(names, u)
	}
	sort.Slice(names, func(i, j int) bool { return userLess(names[i], names[j]) })
	for _, u := range names {
		fmt.Fprintf(&b, "%s %s\n", u, c[u])
	}
	return b.Bytes()
}

// userLess orders director, screen, then the tables by number.
func userLess(a, b string) bool {
	rank := func(u string) (int, int) {
		switch u {
		case DirectorUser:
			return 0, 0
		case ScreenUser:
			return 1, 0
		}
		n, err := strconv.Atoi(strings.TrimPrefix(u, "table-"))
		if err != nil {
			return 3, 0
		}
		return 2, n
	}
	ra, na := rank(a)
	rb, nb := rank(b)
	if ra != rb {
		return ra < rb
	}
	if na != nb {
		return na < nb
	}
	return a < b
}

// ErrBadCredentials is wrapped by ParseCredentials.
var ErrBadCredentials = errors.New("brokerconf: bad credentials file")

// ParseCredentials reads a credentials file: '#' comments and blank lines, then "user password"
// lines (a password file for one kiosk may hold a single line, or only the password).
func ParseCredentials(data []byte) (Credentials, error) {
	c := Credentials{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 64*1024)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Fields(s)
		switch len(f) {
		case 1:
			c[""] = f[0]
		case 2:
			c[f[0]] = f[1]
		default:
			return nil, fmt.Errorf("%w: line %d: want \"user password\"", ErrBadCredentials, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadCredentials, err)
	}
	return c, nil
}

// ReadPassword reads user's password from a credentials file (or the only password a one-line
// file holds).
func ReadPassword(path, user string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	c, err := ParseCredentials(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if pw, ok := c[user]; ok {
		return pw, nil
	}
	if pw, ok := c[""]; ok && len(c) == 1 {
		return pw, nil
	}
	return "", fmt.Errorf("%s: no password for user %q", path, user)
}
