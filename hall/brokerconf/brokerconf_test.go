package brokerconf_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"tengen/hall/brokerconf"
	"tengen/hall/link"
	"tengen/hall/wire"
	"tengen/internal/halltest"
)

// client connects one user to the broker with a bare paho client and collects what it receives.
type client struct {
	c    *paho.Client
	recv chan *paho.Publish
}

func connect(ctx context.Context, b *halltest.Broker, user, pw string) (*client, *paho.Connack, error) {
	conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", b.Port))
	if err != nil {
		return nil, nil, err
	}
	cl := &client{recv: make(chan *paho.Publish, 16)}
	cl.c = paho.NewClient(paho.ClientConfig{ClientID: user + "-test", Conn: conn,
		OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
			cl.recv <- pr.Packet
			return true, nil
		}}})
	ca, err := cl.c.Connect(ctx, &paho.Connect{ClientID: user + "-test", CleanStart: true, KeepAlive: 30,
		Username: user, UsernameFlag: true, Password: []byte(pw), PasswordFlag: true})
	if err != nil {
		conn.Close()
		return nil, ca, err
	}
	return cl, ca, nil
}

// TestGeneratedHallOnARealBroker starts Mosquitto with the generated files and checks what each
// user may do: table 1 publishes its own topics, not table 2's; the screen reads; a wrong
// password is refused (reason code 0x87) and said in words.
func TestGeneratedHallOnARealBroker(t *testing.T) {
	b := halltest.Start(t, 3)
	ctx := halltest.Context(t, 30*time.Second)

	dir, _, err := connect(ctx, b, brokerconf.DirectorUser, b.Creds[brokerconf.DirectorUser])
	if err != nil {
		t.Fatalf("director: %v\n%s", err, b.Log())
	}
	defer dir.c.Disconnect(&paho.Disconnect{})
	if _, err := dir.c.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: wire.AllTables(halltest.Hall), QoS: 1}}}); err != nil {
		t.Fatal(err)
	}
	t1, _, err := connect(ctx, b, brokerconf.TableUser(1), b.Creds[brokerconf.TableUser(1)])
	if err != nil {
		t.Fatalf("table 1: %v\n%s", err, b.Log())
	}
	defer t1.c.Disconnect(&paho.Disconnect{})

	own := wire.TableTopic(halltest.Hall, 1, wire.KindEvents)
	if _, err := t1.c.Publish(ctx, &paho.Publish{Topic: own, QoS: 1, Payload: []byte("mine")}); err != nil {
		t.Fatalf("table 1 publishing its own events: %v", err)
	}
	select {
	case p := <-dir.recv:
		if p.Topic != own || string(p.Payload) != "mine" {
			t.Fatalf("director got %s %q", p.Topic, p.Payload)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the director did not get table 1's own message")
	}

	// Table 1 posing as table 2: Mosquitto 2.0.11 answers an MQTT v5 client's QoS 1 PUBLISH with a
	// PUBACK of reason 0x87 (not authorized) and delivers nothing, retains nothing.
	other := wire.TableTopic(halltest.Hall, 2, wire.KindState)
	resp, err := t1.c.Publish(ctx, &paho.Publish{Topic: other, QoS: 1, Retain: true, Payload: []byte("forged")})
	if err == nil || resp == nil || resp.ReasonCode != 0x87 {
		t.Fatalf("table 1 publishing as table 2: PUBACK %+v, err %v; want reason 0x87", resp, err)
	}
	// A message table 1 may send, after the forged one: when it arrives, the forged one would have.
	if _, err := t1.c.Publish(ctx, &paho.Publish{Topic: own, QoS: 1, Payload: []byte("after")}); err != nil {
		t.Fatal(err)
	}
	for got := false; !got; {
		select {
		case p := <-dir.recv:
			if p.Topic == other {
				t.Fatalf("the ACL let table 1 publish as table 2: %q", p.Payload)
			}
			got = string(p.Payload) == "after"
		case <-time.After(5 * time.Second):
			t.Fatal("the director did not get table 1's second message")
		}
	}
	// Nor was it retained: a fresh screen subscribing to table 2 gets nothing.
	scr, _, err := connect(ctx, b, brokerconf.ScreenUser, b.Creds[brokerconf.ScreenUser])
	if err != nil {
		t.Fatal(err)
	}
	defer scr.c.Disconnect(&paho.Disconnect{})
	if _, err := scr.c.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: other, QoS: 1}}}); err != nil {
		t.Fatal(err)
	}
	// The screen may not publish anything.
	if resp, err := scr.c.Publish(ctx, &paho.Publish{Topic: own, QoS: 1, Payload: []byte("screen")}); err == nil || resp == nil || resp.ReasonCode != 0x87 {
		t.Fatalf("the screen publishing a table's message: PUBACK %+v, err %v; want reason 0x87", resp, err)
	}
	// A table reads its own assignment and nobody else's.
	if _, err := t1.c.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{
		{Topic: wire.AssignTopic(halltest.Hall, 1), QoS: 1}, {Topic: wire.AssignTopic(halltest.Hall, 2), QoS: 1}}}); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		if _, err := dir.c.Publish(ctx, &paho.Publish{Topic: wire.AssignTopic(halltest.Hall, n), QoS: 1, Retain: true,
			Payload: fmt.Appendf(nil, `{"table":%d}`, n)}); err != nil {
			t.Fatalf("director assigning table %d: %v", n, err)
		}
	}
	select {
	case p := <-t1.recv:
		if p.Topic != wire.AssignTopic(halltest.Hall, 1) {
			t.Fatalf("table 1 got %s", p.Topic)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("table 1 did not get its assignment")
	}
	select {
	case p := <-t1.recv:
		t.Fatalf("table 1 got %s %q: another table's assignment", p.Topic, p.Payload)
	case p := <-scr.recv:
		t.Fatalf("the screen got %s %q", p.Topic, p.Payload)
	case p := <-dir.recv:
		if p.Topic == own && string(p.Payload) == "screen" {
			t.Fatal("the read-only screen published a table's message")
		}
		t.Fatalf("unexpected %s %q", p.Topic, p.Payload)
	case <-time.After(time.Second):
	}

	// Wrong credentials: Mosquitto 2.0.11 refuses them with 0x87 (not authorized), not 0x86, for
	// a known user with a wrong password and for an unknown user alike; link says it in words.
	_, ca, err := connect(ctx, b, brokerconf.TableUser(1), "wrong")
	if err == nil {
		t.Fatal("a wrong password was accepted")
	}
	if ca == nil || ca.ReasonCode != 0x87 {
		t.Fatalf("wrong password: connack %+v, err %v; want reason 0x87", ca, err)
	}
	if _, ca, err = connect(ctx, b, "table-99", "x"); err == nil || ca == nil || ca.ReasonCode != 0x87 {
		t.Fatalf("unknown user: connack %+v, err %v", ca, err)
	}
	re := &link.RefusedError{URL: b.URL(), User: "table-1", Code: ca.ReasonCode}
	if !errors.Is(re, link.ErrRefused) || !strings.Contains(re.Error(), "wrong user name or password") {
		t.Fatalf("refusal said as %q", re.Error())
	}
}

// TestGeneratedFiles: modes, one hashed line per user, the ACL's lines for a table, and the
// credentials file read back.
func TestGeneratedFiles(t *testing.T) {
	dir := t.TempDir()
	creds, err := brokerconf.Generate(dir, brokerconf.Options{Hall: "congress", Tables: 2, Port: 18830})
	if err != nil {
		t.Fatal(err)
	}
	if len(creds) != 4 {
		t.Fatalf("%d users, want director, screen and 2 tables", len(creds))
	}
	for name, mode := range map[string]os.FileMode{brokerconf.CredentialsFile: 0o600, brokerconf.PasswdFile: 0o600, brokerconf.ACLFile: 0o600} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != mode {
			t.Errorf("%s mode %v, want %v", name, st.Mode().Perm(), mode)
		}
	}
	pw, _ := os.ReadFile(filepath.Join(dir, brokerconf.PasswdFile))
	if n := bytes.Count(pw, []byte(":$7$101$")); n != 4 {
		t.Errorf("%d PBKDF2 lines in the password file, want 4:\n%s", n, pw)
	}
	acl, _ := os.ReadFile(filepath.Join(dir, brokerconf.ACLFile))
	for _, want := range []string{"user table-2\ntopic write tengen/congress/table/2/#\ntopic read tengen/congress/assign/2\n",
		"user screen\ntopic read tengen/congress/table/#\n"} {
		if !bytes.Contains(acl, []byte(want)) {
			t.Errorf("ACL lacks %q:\n%s", want, acl)
		}
	}
	conf, _ := os.ReadFile(filepath.Join(dir, brokerconf.ConfFile))
	for _, want := range []string{"allow_anonymous false", "listener 18830\n", "persistence true", "#certfile "} {
		if !bytes.Contains(conf, []byte(want)) {
			t.Errorf("mosquitto.conf lacks %q", want)
		}
	}
	got, err := brokerconf.ReadPassword(filepath.Join(dir, brokerconf.CredentialsFile), "table-2")
	if err != nil || got != creds["table-2"] {
		t.Fatalf("ReadPassword = %q, %v; want %q", got, err, creds["table-2"])
	}
	if _, err := brokerconf.Generate(dir, brokerconf.Options{Hall: "Big Hall", Tables: 2}); err == nil {
		t.Error("a hall name with a space was accepted")
	}
	if _, err := brokerconf.Generate(dir, brokerconf.Options{Hall: "h", Tables: 0}); err == nil {
		t.Error("0 tables accepted")
	}
}

// FuzzParseCredentials: any file is read or refused with an error, never a panic, and what is
// read has no blank user or password.
func FuzzParseCredentials(f *testing.F) {
	f.Add([]byte("# c\ndirector abc\ntable-1 def\n"))
	f.Add([]byte("onlypassword\n"))
	f.Add([]byte("a b c\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := brokerconf.ParseCredentials(data)
		if err != nil {
			if !errors.Is(err, brokerconf.ErrBadCredentials) {
				t.Fatalf("error %v does not wrap ErrBadCredentials", err)
			}
			return
		}
		for u, p := range c {
			if p == "" || strings.ContainsAny(u+p, " \t\n") {
				t.Fatalf("read user %q password %q", u, p)
			}
		}
	})
}

// TestBridgedHall: a big hall's satellite broker (table 2) bridged to the main broker (table 1,
// the director): table 2's messages reach the director on the main broker, and the assignment the
// director publishes there reaches table 2 on the satellite; the bridge user may not publish as
// the director.
func TestBridgedHall(t *testing.T) {
	main := halltest.StartWith(t, brokerconf.Options{Tables: 1, BridgeUsers: []string{"bridge-east"}})
	sat := halltest.StartWith(t, brokerconf.Options{Tables: 1, First: 2, Bridge: &brokerconf.Bridge{
		Address: fmt.Sprintf("127.0.0.1:%d", main.Port), User: "bridge-east", Password: main.Creds["bridge-east"]}})
	if _, ok := sat.Creds["table-1"]; ok {
		t.Fatal("the satellite has a user for table 1")
	}
	ctx := halltest.Context(t, 60*time.Second)
	dir, _, err := connect(ctx, main, brokerconf.DirectorUser, main.Creds[brokerconf.DirectorUser])
	if err != nil {
		t.Fatal(err)
	}
	defer dir.c.Disconnect(&paho.Disconnect{})
	if _, err := dir.c.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: wire.AllTables(halltest.Hall), QoS: 1}}}); err != nil {
		t.Fatal(err)
	}
	t2, _, err := connect(ctx, sat, "table-2", sat.Creds["table-2"])
	if err != nil {
		t.Fatal(err)
	}
	defer t2.c.Disconnect(&paho.Disconnect{})
	if _, err := t2.c.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: wire.AssignTopic(halltest.Hall, 2), QoS: 1}}}); err != nil {
		t.Fatal(err)
	}
	// The bridge connects by itself a moment after the satellite starts: table 2 publishes until
	// the director has a message from it.
	topic := wire.TableTopic(halltest.Hall, 2, wire.KindEvents)
	for got := false; !got; {
		if _, err := t2.c.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: []byte("from the satellite")}); err != nil {
			t.Fatal(err)
		}
		select {
		case p := <-dir.recv:
			got = p.Topic == topic && string(p.Payload) == "from the satellite"
		case <-time.After(500 * time.Millisecond):
		case <-ctx.Done():
			t.Fatalf("table 2's message never crossed the bridge:\nmain: %s\nsatellite: %s", main.Log(), sat.Log())
		}
	}
	if _, err := dir.c.Publish(ctx, &paho.Publish{Topic: wire.AssignTopic(halltest.Hall, 2), QoS: 1, Retain: true, Payload: []byte(`{"table":2}`)}); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-t2.recv:
		if p.Topic != wire.AssignTopic(halltest.Hall, 2) {
			t.Fatalf("table 2 got %s", p.Topic)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the assignment did not cross the bridge to table 2")
	}
	br, _, err := connect(ctx, main, "bridge-east", main.Creds["bridge-east"])
	if err != nil {
		t.Fatal(err)
	}
	defer br.c.Disconnect(&paho.Disconnect{})
	if resp, err := br.c.Publish(ctx, &paho.Publish{Topic: wire.AssignTopic(halltest.Hall, 1), QoS: 1, Payload: []byte("forged")}); err == nil || resp == nil || resp.ReasonCode != 0x87 {
		t.Fatalf("the bridge user publishing an assignment: %+v, %v", resp, err)
	}
}
