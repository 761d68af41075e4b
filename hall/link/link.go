// Package link connects the hall's programs (a kiosk's publisher, the dashboard) to the hall's
// MQTT broker with paho's autopaho (MQTT v5, reconnecting by itself), and says in words why a
// broker refused a connection.
package link

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

// Options is one connection.
type Options struct {
	URL      string // mqtt://host:1883 or mqtts://host:8883
	ClientID string // stable across restarts: the broker keeps the session under it
	User     string
	Password string
	// CAFile is the PEM file of the certificate authority that signed the broker's TLS
	// certificate (an mqtts:// URL): trusted instead of the system's authorities. "" = the
	// system's authorities.
	CAFile string
	// SessionExpiry keeps the session (subscriptions, queued QoS 1 messages) this long after a
	// disconnection; 0 = the session ends with the connection.
	SessionExpiry time.Duration
	// OnUp is called at every (re)connection, from autopaho's goroutine: it must not block.
	OnUp func(*autopaho.ConnectionManager)
	// OnReceive gets every message received.
	OnReceive func(topic string, payload []byte)
	Logger    *slog.Logger
}

// ErrRefused is wrapped by the error Dial's onError gets and Check returns for a broker's refusal (CONNACK reason >= 0x80).
var ErrRefused = errors.New("the broker refused the connection")

// RefusedError is a broker's refusal with its MQTT v5 reason code.
type RefusedError struct {
	URL, User string
	Code      byte
}

// Error says why, in words.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s: the broker at %s refused user %q: %s", ErrRefused, e.URL, e.User, Explain(e.Code))
}

// Unwrap makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// Explain is a CONNACK reason code in words, with the fix where there is one.
func Explain(code byte) string {
	switch code {
	case 0x86, 0x04: // v5, v3.1.1
		return "bad user name or password (check the user and the password file against the hall's credentials)"
	case 0x87, 0x05: // what Mosquitto 2.0 answers a wrong password with
		return "not authorized: a wrong user name or password, or a user this broker does not know (check [hall] user and password_file against the hall's credentials file)"
	case 0x85:
		return "client identifier not valid"
	case 0x88, 0x03:
		return "server unavailable"
	case 0x89:
		return "server busy"
	case 0x8A:
		return "banned"
	case 0x84, 0x01:
		return "unsupported protocol version (the broker must speak MQTT v5: Mosquitto 2)"
	}
	return fmt.Sprintf("reason code 0x%02x", code)
}

// TLSError is a TLS broker whose certificate this side does not accept (or a port that does not
// speak TLS), with what to do about it.
type TLSError struct {
	URL string
	Why string // in words, with the fix
	Err error  // the TLS or X.509 error
}

// Error says why, in words.
func (e *TLSError) Error() string {
	return fmt.Sprintf("the broker at %s: %s (%v)", e.URL, e.Why, e.Err)
}

// Unwrap gives the TLS or X.509 error.
func (e *TLSError) Unwrap() error { return e.Err }

// explainTLS turns a TLS handshake's failure into a *TLSError, and returns other errors as they are.
func explainTLS(rawURL, caFile string, err error) error {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var record tls.RecordHeaderError
	trusted := "the system's certificate authorities"
	if caFile != "" {
		trusted = "the certificate authority in " + caFile
	}
	switch {
	case errors.As(err, &unknown):
		why := "its TLS certificate is not signed by " + trusted
		if caFile == "" {
			why += ": set [hall] ca_file to the hall's CA certificate (ca.crt)"
		} else {
			why += ": is ca_file the hall's CA certificate (ca.crt), the one that signed the broker's certificate?"
		}
		return &TLSError{URL: rawURL, Why: why, Err: err}
	case errors.As(err, &host):
		return &TLSError{URL: rawURL, Why: "its TLS certificate is not for this host name: name the broker in [hall] url as its certificate does", Err: err}
	case errors.As(err, &invalid):
		return &TLSError{URL: rawURL, Why: "its TLS certificate is not valid (expired, not yet valid, or not for a server): renew the broker's certificate, and check this table's clock", Err: err}
	case errors.As(err, &record):
		return &TLSError{URL: rawURL, Why: "this port does not speak TLS: use the broker's TLS listener (8883) with mqtts://, or mqtt:// for its plain one", Err: err}
	}
	return err
}

// tlsConfig is the TLS set-up for a broker at u: its host name checked, trusting o.CAFile's
// authorities when given.
func tlsConfig(u *url.URL, caFile string) (*tls.Config, error) {
	c := &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12}
	if caFile == "" {
		return c, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("the hall's CA certificate: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("the hall's CA certificate %s holds no PEM certificate (BEGIN CERTIFICATE)", caFile)
	}
	c.RootCAs = pool
	return c, nil
}

// brokerURL checks and completes a broker address: mqtt:// (tcp://) or mqtts:// (tls://, ssl://),
// with MQTT's default ports.
func brokerURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("broker url %q: %w", raw, err)
	}
	switch u.Scheme {
	case "mqtt", "tcp":
		u.Scheme = "mqtt"
	case "mqtts", "tls", "ssl":
		u.Scheme = "tls"
	default:
		return nil, fmt.Errorf("broker url %q: use mqtt://HOST:PORT or mqtts://HOST:PORT", raw)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("broker url %q: no host: use mqtt://HOST:PORT or mqtts://HOST:PORT", raw)
	}
	if u.Port() == "" {
		if u.Scheme == "tls" {
			u.Host += ":8883"
		} else {
			u.Host += ":1883"
		}
	}
	return u, nil
}

// prepare checks o's URL and, for a TLS broker, builds its TLS set-up (nil for a plain one).
func prepare(o Options) (*url.URL, *tls.Config, error) {
	u, err := brokerURL(o.URL)
	if err != nil {
		return nil, nil, err
	}
	if u.Scheme != "tls" {
		if o.CAFile != "" {
			return nil, nil, fmt.Errorf("broker url %q: a CA file (%s) is for a TLS broker: use mqtts://", o.URL, o.CAFile)
		}
		return u, nil, nil
	}
	tc, err := tlsConfig(u, o.CAFile)
	if err != nil {
		return nil, nil, err
	}
	return u, tc, nil
}

// Check connects once with o's credentials and disconnects: nil when the broker accepts them, a
// *RefusedError when it refuses them, another error when it cannot be reached (`kiosk doctor`).
func Check(ctx context.Context, o Options) error {
	u, tc, err := prepare(o)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return fmt.Errorf("the broker at %s cannot be reached: %w", o.URL, err)
	}
	if tc != nil {
		// The port answers: a handshake that fails is the certificate's or the port's fault.
		tconn := tls.Client(conn, tc)
		if err := tconn.HandshakeContext(ctx); err != nil {
			conn.Close()
			if err := explainTLS(o.URL, o.CAFile, err); errors.As(err, new(*TLSError)) {
				return err
			}
			return &TLSError{URL: o.URL, Why: "the TLS handshake failed: is this port the broker's TLS listener (8883)? Its plain listener (1883) takes mqtt://", Err: err}
		}
		conn = tconn
	}
	c := paho.NewClient(paho.ClientConfig{Conn: conn})
	ca, err := c.Connect(ctx, &paho.Connect{ClientID: o.ClientID + "-check", CleanStart: true, KeepAlive: 10,
		Username: o.User, UsernameFlag: o.User != "", Password: []byte(o.Password), PasswordFlag: o.Password != ""})
	if ca != nil && ca.ReasonCode >= 0x80 {
		conn.Close()
		return &RefusedError{URL: o.URL, User: o.User, Code: ca.ReasonCode}
	}
	if err != nil {
		conn.Close()
		return fmt.Errorf("the broker at %s: %w", o.URL, err)
	}
	// The broker took the login: that is the check's answer. A connection already closed under
	// the goodbye (seen once in CI under load) does not change it.
	if err := c.Disconnect(&paho.Disconnect{}); err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("the broker at %s: leaving: %w", o.URL, err)
	}
	return nil
}

// Dial starts the connection manager; it connects (and reconnects) in the background until ctx
// ends. onRefused, when set, is called with a *RefusedError each time the broker refuses the
// credentials, and with other connection errors as they come.
func Dial(ctx context.Context, o Options, onError func(error)) (*autopaho.ConnectionManager, error) {
	u, tc, err := prepare(o)
	if err != nil {
		return nil, err
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{u},
		KeepAlive:                     10,
		CleanStartOnInitialConnection: false,
		SessionExpiryInterval:         uint32(o.SessionExpiry / time.Second),
		ReconnectBackoff:              autopaho.NewExponentialBackoff(250*time.Millisecond, 5*time.Second, 500*time.Millisecond, 2),
		ConnectTimeout:                5 * time.Second,
		TlsCfg:                        tc,
		ConnectUsername:               o.User,
		ConnectPassword:               []byte(o.Password),
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			log.Info("hall broker connected", "url", o.URL, "user", o.User)
			if o.OnUp != nil {
				o.OnUp(cm)
			}
		},
		OnConnectError: func(err error) {
			var ce *autopaho.ConnackError
			if errors.As(err, &ce) {
				err = &RefusedError{URL: o.URL, User: o.User, Code: ce.ReasonCode}
			} else {
				err = explainTLS(o.URL, o.CAFile, err)
			}
			log.Warn("hall broker", "err", err)
			if onError != nil {
				onError(err)
			}
		},
		ClientConfig: paho.ClientConfig{ClientID: o.ClientID, PacketTimeout: 10 * time.Second},
	}
	if o.OnReceive != nil {
		recv := o.OnReceive
		cfg.OnPublishReceived = []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
			recv(pr.Packet.Topic, pr.Packet.Payload)
			return true, nil
		}}
	}
	cm, err := autopaho.NewConnection(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("hall broker: %w", err)
	}
	return cm, nil
}
