package link_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"tengen/hall/brokerconf"
	"tengen/hall/link"
	"tengen/hall/wire"
	"tengen/internal/halltest"
)

// TestTLS: a broker with the TLS lines of its generated configuration enabled (a CA and a server
// certificate made for the test). A table connecting with mqtts:// and the hall's CA logs in and
// its retained state reaches the director on the plain listener; with another CA, or none, the
// refusal says the certificate is not signed by what the table trusts; mqtts:// to the plain port
// says the handshake failed and asks whether that is the TLS listener.
func TestTLS(t *testing.T) {
	b, tl := halltest.StartTLS(t, 2)
	ctx := halltest.Context(t, 30*time.Second)
	user := brokerconf.TableUser(1)
	table := link.Options{URL: tl.URL(), ClientID: "tls-table-1", User: user, Password: b.Creds[user], CAFile: tl.CAFile}
	if err := link.Check(ctx, table); err != nil {
		t.Fatalf("kiosk doctor's check over TLS with the hall's CA: %v", err)
	}

	// Delivery: table 1 publishes its retained state over TLS; the director reads it on the plain listener.
	got := make(chan string, 1)
	dir, err := link.Dial(ctx, link.Options{URL: b.URL(), ClientID: "tls-director", User: brokerconf.DirectorUser,
		Password: b.Creds[brokerconf.DirectorUser],
		OnReceive: func(topic string, payload []byte) {
			select {
			case got <- topic + " " + string(payload):
			default:
			}
		},
		OnUp: func(cm *autopaho.ConnectionManager) {
			go func() {
				_, _ = cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: wire.AllTables(halltest.Hall), QoS: 1}}})
			}()
		}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 16)
	cm, err := link.Dial(ctx, table, func(err error) {
		select {
		case errc <- err:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := cm.AwaitConnection(ctx); err != nil {
		var errs []error
		for len(errc) > 0 {
			errs = append(errs, <-errc)
		}
		t.Fatalf("the table over TLS: %v %v", err, errs)
	}
	topic := wire.TableTopic(halltest.Hall, 1, wire.KindState)
	if _, err := cm.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Retain: true, Payload: []byte(`{"table":1,"seq":7}`)}); err != nil {
		t.Fatalf("publish over TLS: %v", err)
	}
	if err := dir.AwaitConnection(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		if m != topic+` {"table":1,"seq":7}` {
			t.Fatalf("the director got %q", m)
		}
	case <-ctx.Done():
		t.Fatal("the table's state sent over TLS never reached the director")
	}

	// Another hall's CA, and the system's authorities: a clear refusal, in Check and in Dial.
	other, _, err := halltest.NewCA("Another CA")
	if err != nil {
		t.Fatal(err)
	}
	otherFile := filepath.Join(t.TempDir(), "other-ca.crt")
	if err := halltest.WriteCertPEM(otherFile, other); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, ca, want string }{
		{"another CA", otherFile, "not signed by the certificate authority in " + otherFile},
		{"no CA", "", "set [hall] ca_file to the hall's CA certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := table
			o.CAFile = tc.ca
			err := link.Check(ctx, o)
			var te *link.TLSError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), tc.want) || errors.Is(err, link.ErrRefused) {
				t.Fatalf("Check: %v, want a TLS error saying %q", err, tc.want)
			}
			errc := make(chan error, 1)
			dctx, cancel := context.WithCancel(ctx)
			defer cancel()
			o.ClientID += "-" + strings.ReplaceAll(tc.name, " ", "-")
			cm, err := link.Dial(dctx, o, func(err error) {
				select {
				case errc <- err:
				default:
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-errc:
				if !errors.As(err, &te) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Dial's error: %v, want a TLS error saying %q", err, tc.want)
				}
			case <-ctx.Done():
				t.Fatal("Dial with the wrong CA reported nothing")
			}
			cancel()
			<-cm.Done()
		})
	}

	// mqtts:// to the plain listener.
	o := table
	o.URL = strings.Replace(b.URL(), "mqtt://", "mqtts://", 1)
	if err := link.Check(ctx, o); err == nil || !strings.Contains(err.Error(), "the TLS handshake failed: is this port the broker's TLS listener") {
		t.Fatalf("mqtts:// to the plain port: %v", err)
	}
	// A CA with a plain broker is a mistake said before connecting.
	o = table
	o.URL = b.URL()
	if err := link.Check(ctx, o); err == nil || !strings.Contains(err.Error(), "is for a TLS broker") {
		t.Fatalf("a CA file with mqtt://: %v", err)
	}
}
