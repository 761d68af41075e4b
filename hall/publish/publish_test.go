package publish_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"tengen/hall/brokerconf"
	"tengen/hall/dashboard"
	"tengen/hall/link"
	"tengen/hall/publish"
	"tengen/hall/wire"
	"tengen/internal/halltest"
	"tengen/referee"
)

// publisher runs a table's publisher until stop is called.
func publisher(t *testing.T, b *halltest.Broker, table int, dir, password string, onError func(error)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- publish.Run(ctx, publish.Options{Hall: halltest.Hall, Table: table, JournalDir: dir, URL: b.URL(),
			User: brokerconf.TableUser(table), Password: password, Poll: 50 * time.Millisecond, OnError: onError})
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("publisher: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// follow starts a dashboard store following the broker as the director.
func follow(t *testing.T, b *halltest.Broker) *dashboard.Store {
	ctx, cancel := context.WithCancel(context.Background())
	s := dashboard.NewStore(halltest.Hall)
	done, err := dashboard.Follow(ctx, s, link.Options{URL: b.URL(), User: brokerconf.DirectorUser, Password: b.Creds[brokerconf.DirectorUser],
		ClientID: "dashboard-" + t.Name()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-done })
	return s
}

// waitFor polls cond until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDemoReachesTheDashboardThroughABrokerKill plays the demo game at a table while its
// publisher sends it to a real Mosquitto and a dashboard follows; the broker is killed with SIGKILL
// mid-game and started again on the same port and persistence, and the publisher is restarted
// once (a power cut at the table). The dashboard ends with the game's every move exactly once,
// the final state and result, and every journal record counted once.
func TestDemoReachesTheDashboardThroughABrokerKill(t *testing.T) {
	b := halltest.Start(t, 2)
	want, err := halltest.Moves()
	if err != nil {
		t.Fatal(err)
	}
	s := follow(t, b)
	followed := time.Now()
	dir := t.TempDir()
	stop := publisher(t, b, 1, dir, b.Creds[brokerconf.TableUser(1)], nil)

	ctx := halltest.Context(t, 2*time.Minute)
	played := make(chan error, 1)
	var final referee.State
	go func() {
		var err error
		final, err = halltest.Play(ctx, dir, 12)
		played <- err
	}()
	moves := func() int { tab, _ := s.Table(1); return len(tab.Moves) }
	// The broker saves its sessions every 2 seconds (autosave_interval): killed before it saved the
	// dashboard's, it would forget the subscription, and what tables publish until the dashboard
	// is back would reach nobody. A dashboard follows for hours; here it waits for one save.
	waitFor(t, time.Minute, "the dashboard shows 8 moves", func() bool { return moves() >= 8 && time.Since(followed) > 3*time.Second })
	b.Kill()
	t.Logf("broker killed at %d moves on the dashboard", moves())
	time.Sleep(700 * time.Millisecond)
	b.Restart()
	waitFor(t, time.Minute, "the dashboard shows 16 moves", func() bool { return moves() >= 16 })
	stop() // the table's power cut: the publisher starts again from its state file,
	// which lost its last 10 acknowledgements (it is not fsynced): those records go out again.
	stateFile := filepath.Join(dir, publish.StateFileName)
	var ack struct {
		Game string `json:"game"`
		Seq  uint64 `json:"seq"`
	}
	if b, err := os.ReadFile(stateFile); err != nil || json.Unmarshal(b, &ack) != nil || ack.Seq < 20 {
		t.Fatalf("state file %s: %+v, %v", stateFile, ack, err)
	}
	ack.Seq -= 10
	if b, err := json.Marshal(ack); err != nil || os.WriteFile(stateFile, b, 0o644) != nil {
		t.Fatal("rewriting the state file")
	}
	publisher(t, b, 1, dir, b.Creds[brokerconf.TableUser(1)], nil)
	if err := <-played; err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "the dashboard shows the game's end", func() bool {
		tab, _ := s.Table(1)
		return tab.State.Result != "" && len(tab.Moves) == len(want)
	})
	// Let anything sent twice arrive before counting.
	time.Sleep(500 * time.Millisecond)
	tab, _ := s.Table(1)
	if !slices.Equal(tab.Moves, want) {
		t.Fatalf("dashboard moves\n%v\nwant\n%v", tab.Moves, want)
	}
	if tab.State.Result != final.Result || tab.State.Result != "B+3.5" {
		t.Errorf("dashboard result %q, table %q, want B+3.5", tab.State.Result, final.Result)
	}
	last := lastSeq(t, dir)
	if tab.LastSeq != last || uint64(tab.Events)+tab.Gaps != last {
		t.Errorf("dashboard: last seq %d, %d events applied + %d lost = %d; journal has %d records", tab.LastSeq, tab.Events, tab.Gaps, uint64(tab.Events)+tab.Gaps, last)
	}
	if tab.Dups < 10 {
		t.Errorf("%d events dropped as sent twice, want at least the 10 the state file forgot", tab.Dups)
	}
	if tab.Gaps != 0 {
		t.Errorf("%d events lost on the way", tab.Gaps)
	}
	t.Logf("%d journal records, %d moves; %d events sent again and dropped by sequence number", last, len(tab.Moves), tab.Dups)
	if tab.State.Black.Name == "" || len(tab.State.Position) != 81 || tab.SGF == nil {
		t.Errorf("state incomplete: black %q, position %d points, SGF %d bytes", tab.State.Black.Name, len(tab.State.Position), len(tab.SGF))
	}
	if _, err := os.Stat(filepath.Join(dir, publish.StateFileName)); err != nil {
		t.Errorf("no acknowledged-sequence file: %v", err)
	}
}

// lastSeq reads the acknowledged sequence the publisher saved (it equals the journal's last once
// everything is acknowledged) and checks it against the journal's record count.
func lastSeq(t *testing.T, dir string) uint64 {
	t.Helper()
	n, err := publish.JournalRecords(filepath.Join(dir, "journal.tgj"))
	if err != nil {
		t.Fatal(err)
	}
	return uint64(n)
}

// TestWrongPasswordIsSaid: a kiosk with a wrong password gets a refusal that says so.
func TestWrongPasswordIsSaid(t *testing.T) {
	b := halltest.Start(t, 1)
	errs := make(chan error, 8)
	publisher(t, b, 1, t.TempDir(), "not-the-password", func(err error) {
		select {
		case errs <- err:
		default:
		}
	})
	select {
	case err := <-errs:
		var re *link.RefusedError
		if !errors.As(err, &re) || !errors.Is(err, link.ErrRefused) {
			t.Fatalf("error %v is not a refusal", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "wrong user name or password") || !strings.Contains(msg, "table-1") {
			t.Fatalf("refusal said as %q", msg)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no error for a wrong password")
	}
}

// TestAssignmentReachesTheTable: the assignment the director publishes for table 1 reaches table
// 1's publisher (and is kept beside its journal); table 2's does not.
func TestAssignmentReachesTheTable(t *testing.T) {
	b := halltest.Start(t, 2)
	got := make(chan wire.Assignment, 4)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- publish.Run(ctx, publish.Options{Hall: halltest.Hall, Table: 1, JournalDir: dir, URL: b.URL(),
			User: "table-1", Password: b.Creds["table-1"], OnAssignment: func(a wire.Assignment) { got <- a }})
	}()
	defer func() { cancel(); <-done }()
	actx, acancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer acancel()
	cm, err := link.Dial(actx, link.Options{URL: b.URL(), ClientID: "director-assign", User: brokerconf.DirectorUser, Password: b.Creds[brokerconf.DirectorUser]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cm.AwaitConnection(actx); err != nil {
		t.Fatal(err)
	}
	for n := 2; n >= 1; n-- {
		a, _ := json.Marshal(wire.Assignment{Round: 3, Table: n, Black: wire.Player{Name: fmt.Sprintf("Black %d", n)}, White: wire.Player{Name: "W"}, Komi: 6.5})
		if _, err := cm.Publish(actx, &paho.Publish{Topic: wire.AssignTopic(halltest.Hall, n), QoS: 1, Retain: true, Payload: a}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case a := <-got:
		if a.Table != 1 || a.Black.Name != "Black 1" || a.Round != 3 {
			t.Fatalf("table 1 got %+v", a)
		}
	case <-actx.Done():
		t.Fatal("table 1 got no assignment")
	}
	select {
	case a := <-got:
		t.Fatalf("table 1 got another assignment: %+v", a)
	case <-time.After(500 * time.Millisecond):
	}
	kept, err := os.ReadFile(filepath.Join(dir, publish.AssignmentFileName))
	if err != nil || !strings.Contains(string(kept), `"Black 1"`) {
		t.Fatalf("assignment kept beside the journal: %q, %v", kept, err)
	}
}
