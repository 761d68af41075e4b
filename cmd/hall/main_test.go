package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"tengen/hall/brokerconf"
	"tengen/hall/wire"
	"tengen/internal/halltest"
)

// TestInit: `hall init` writes the set-up and says the next commands; bad usage exits 2.
func TestInit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hall")
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"init", dir, "--hall", "egc", "--tables", "3", "--port", "18883"}, &out, &errOut); err != nil {
		t.Fatalf("%v: %s", err, errOut.String())
	}
	for _, f := range []string{brokerconf.ConfFile, brokerconf.PasswdFile, brokerconf.ACLFile, brokerconf.CredentialsFile, brokerconf.UnitFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if !strings.Contains(out.String(), "hall serve --hall egc --broker mqtt://127.0.0.1:18883 --credentials "+filepath.Join(dir, brokerconf.CredentialsFile)) {
		t.Errorf("init does not say how to start the dashboard:\n%s", out.String())
	}
	for _, args := range [][]string{{"init", dir}, {"init"}, {"serve"}, {"nonsense"}, {}} {
		err := run(context.Background(), args, io.Discard, io.Discard)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("hall %v: %v, want exit status 2", args, err)
		}
	}
}

// TestServe: `hall serve` logs in to a real broker with the credentials file, serves the page,
// and stops with its context.
func TestServe(t *testing.T) {
	b := halltest.Start(t, 1)
	port := halltest.FreePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--hall", halltest.Hall, "--broker", b.URL(), "--credentials",
			filepath.Join(b.Dir, brokerconf.CredentialsFile), "--listen", fmt.Sprintf("127.0.0.1:%d", port)}, &out, io.Discard)
	}()
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := http.Get(url)
		if err == nil {
			body, _ := io.ReadAll(r.Body)
			r.Body.Close()
			if r.StatusCode != 200 || !strings.Contains(string(body), "Tengen hall <b>"+halltest.Hall+"</b>") {
				t.Fatalf("status %d: %s", r.StatusCode, body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dashboard does not answer: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("hall serve did not stop with its context")
	}
}

// TestServeWithGotha: `hall serve --gotha FILE --round 2` publishes round 2's pairings, table 1
// reads its own (and only its own), and the result table 1 reports comes out in the OpenGotha XML
// and the EGF results.
func TestServeWithGotha(t *testing.T) {
	b := halltest.Start(t, 3)
	port := halltest.FreePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve", "--hall", halltest.Hall, "--broker", b.URL(), "--credentials",
			filepath.Join(b.Dir, brokerconf.CredentialsFile), "--listen", fmt.Sprintf("127.0.0.1:%d", port),
			"--gotha", filepath.Join("..", "..", "hall", "gotha", "testdata", "tournament.xml"), "--round", "2"}, &out, io.Discard)
	}()
	tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
	defer tcancel()
	conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", b.Port))
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *paho.Publish, 8)
	c := paho.NewClient(paho.ClientConfig{Conn: conn, OnPublishReceived: []func(paho.PublishReceived) (bool, error){
		func(pr paho.PublishReceived) (bool, error) { got <- pr.Packet; return true, nil }}})
	if _, err := c.Connect(tctx, &paho.Connect{ClientID: "t1", CleanStart: true, KeepAlive: 30, Username: "table-1", UsernameFlag: true,
		Password: []byte(b.Creds["table-1"]), PasswordFlag: true}); err != nil {
		t.Fatal(err)
	}
	defer c.Disconnect(&paho.Disconnect{})
	if _, err := c.Subscribe(tctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{
		{Topic: wire.AssignTopic(halltest.Hall, 1), QoS: 1}, {Topic: wire.AssignTopic(halltest.Hall, 2), QoS: 1}}}); err != nil {
		t.Fatal(err)
	}
	var a wire.Assignment
	select {
	case p := <-got:
		if p.Topic != wire.AssignTopic(halltest.Hall, 1) {
			t.Fatalf("table 1 got %s", p.Topic)
		}
		if a, err = wire.ParseAssignment(p.Payload); err != nil {
			t.Fatal(err)
		}
	case <-tctx.Done():
		t.Fatal("table 1 got no assignment")
	}
	if a.Round != 2 || a.Black.Name != "Olga Ivanova" || a.White.Name != "Anna Nowak" || a.Komi != 6.5 || a.TimeControl != "60m+15/300s" {
		t.Fatalf("assignment %+v", a)
	}
	select {
	case p := <-got:
		t.Fatalf("table 1 also got %s", p.Topic)
	case <-time.After(300 * time.Millisecond):
	}
	st, _ := json.Marshal(wire.State{Hall: halltest.Hall, Table: 1, Game: "g", Seq: 9, Round: "2", Size: 19, Result: "W+12.5"})
	if _, err := c.Publish(tctx, &paho.Publish{Topic: wire.TableTopic(halltest.Hall, 1, wire.KindState), QoS: 1, Retain: true, Payload: st}); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	var xmlOut string
	for deadline := time.Now().Add(10 * time.Second); ; {
		r, err := http.Get(base + "/export/opengotha.xml")
		if err == nil {
			body, _ := io.ReadAll(r.Body)
			r.Body.Close()
			xmlOut = string(body)
			if strings.Contains(xmlOut, `result="RESULT_WHITEWINS" roundNumber="2" tableNumber="1"`) {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("table 1's result is not in the OpenGotha export:\n%s", xmlOut)
		}
		time.Sleep(50 * time.Millisecond)
	}
	r, err := http.Get(base + "/export/egf.txt")
	if err != nil {
		t.Fatal(err)
	}
	egf, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if !strings.Contains(string(egf), "1 Nowak Anna 3d PL Krak 4+/w0 2+/w0\n") {
		t.Fatalf("EGF results:\n%s", egf)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
