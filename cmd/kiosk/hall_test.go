package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tengen/config"
	"tengen/hall/brokerconf"
	"tengen/hall/dashboard"
	"tengen/hall/link"
	"tengen/hall/publish"
	"tengen/hall/wire"
	"tengen/internal/halltest"
	"tengen/referee"
)

// hallConfig is table n's kiosk.toml for the test broker, its password in a one-line file.
func hallConfig(t *testing.T, b *halltest.Broker, n int, password string) config.Config {
	t.Helper()
	return hallConfigAt(t, b.URL(), n, password, "")
}

// hallConfigAt is table n's kiosk.toml for the broker at url, with more [hall] lines.
func hallConfigAt(t *testing.T, url string, n int, password, more string) config.Config {
	t.Helper()
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "hall.pw")
	if err := os.WriteFile(pwFile, []byte(password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := "table = " + string(rune('0'+n)) + "\n[paths]\njournal_dir = \"" + filepath.Join(dir, "journal") + "\"\n" +
		"[hall]\nurl = \"" + url + "\"\nname = \"" + halltest.Hall + "\"\npassword_file = \"" + pwFile + "\"\n" + more
	cfg, err := config.Parse([]byte(src), "kiosk.toml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestTwoKiosksReachTheHall: two tables configured with [hall] play the demo; the kiosk's wiring
// publishes both, and a dashboard ends with both games, every move once, and their results.
func TestTwoKiosksReachTheHall(t *testing.T) {
	b := halltest.Start(t, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := dashboard.NewStore(halltest.Hall)
	done, err := dashboard.Follow(ctx, store, link.Options{URL: b.URL(), User: brokerconf.DirectorUser,
		Password: b.Creds[brokerconf.DirectorUser], ClientID: "dashboard-" + t.Name()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	log := slog.New(slog.DiscardHandler)
	var cfgs []config.Config
	for n := 1; n <= 2; n++ {
		cfg := hallConfig(t, b, n, b.Creds[brokerconf.TableUser(n)])
		if err := os.MkdirAll(cfg.Paths.JournalDir, 0o755); err != nil {
			t.Fatal(err)
		}
		startHall(ctx, &wg, cfg, log, nil)
		cfgs = append(cfgs, cfg)
	}
	for _, cfg := range cfgs {
		if _, err := halltest.Play(ctx, cfg.Paths.JournalDir, 0); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := halltest.Moves()
	for n := 1; n <= 2; n++ {
		waitForTable(t, store, n, "the demo game", func(tab dashboard.Table) bool {
			return tab.State.Result == "B+3.5" && slices.Equal(tab.Moves, want) && tab.State.Black.Name != ""
		})
	}
	cancel()
	wg.Wait()
	<-done
}

// TestDoctorHallLogin: kiosk doctor's hall check logs in with the table's credentials; a wrong
// password is said in words.
func TestDoctorHallLogin(t *testing.T) {
	b := halltest.Start(t, 1)
	ctx := context.Background()
	if err := checkHallLogin(ctx, hallConfig(t, b, 1, b.Creds[brokerconf.TableUser(1)])); err != nil {
		t.Fatalf("the right password: %v", err)
	}
	err := checkHallLogin(ctx, hallConfig(t, b, 1, "wrong"))
	var re *link.RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "wrong user name or password") {
		t.Fatalf("a wrong password: %v", err)
	}
	b.Kill()
	if err := checkHallLogin(ctx, hallConfig(t, b, 1, "x")); err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("no broker: %v", err)
	}
}

// TestSetupOffersTheAssignment: the set-up screen's defaults carry the hall's assignment kept
// beside the journal, only when the table is in a hall and the assignment is its own.
func TestSetupOffersTheAssignment(t *testing.T) {
	b := halltest.Start(t, 1)
	cfg := hallConfig(t, b, 1, "x")
	if err := os.MkdirAll(cfg.Paths.JournalDir, 0o755); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	k := &kiosk{cfg: cfg, log: log}
	if s := k.setupDefaults(); s.Black.Name != "" {
		t.Fatalf("players without an assignment: %+v", s)
	}
	write := func(a wire.Assignment) {
		data, _ := json.Marshal(a)
		if err := os.WriteFile(filepath.Join(cfg.Paths.JournalDir, publish.AssignmentFileName), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(wire.Assignment{Round: 4, Table: 2, Black: wire.Player{Name: "Other"}})
	if s := k.setupDefaults(); s.Black.Name != "" {
		t.Fatalf("another table's assignment was offered: %+v", s)
	}
	write(wire.Assignment{Round: 4, Table: 1, Black: wire.Player{Name: "Olga Ivanova", Rank: "3k"}, White: wire.Player{Name: "Anna Nowak", Rank: "3d"}, Komi: 6.5, TimeControl: "60m+15/300s"})
	s := k.setupDefaults()
	if s.Black.Name != "Olga Ivanova" || s.White.Rank != "3d" || s.Round != "4" || s.Table != "1" || s.TimeControl != "60m+15/300s" || s.Komi == nil || *s.Komi != 6.5 {
		t.Fatalf("set-up %+v", s)
	}
	k.cfg.Hall.URL = ""
	if s := k.setupDefaults(); s.Black.Name != "" {
		t.Fatalf("a table out of the hall offered the assignment: %+v", s)
	}
}

// TestHallOverTLS: a table whose kiosk.toml names the hall's TLS listener (mqtts://) and its CA
// (ca_file) passes kiosk doctor's hall check and its game reaches the dashboard; with the wrong
// CA, doctor says the broker's certificate is not signed by the CA it was given.
func TestHallOverTLS(t *testing.T) {
	b, tl := halltest.StartTLS(t, 1)
	cfg := hallConfigAt(t, tl.URL(), 1, b.Creds[brokerconf.TableUser(1)], "ca_file = \""+tl.CAFile+"\"\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := checkHallLogin(ctx, cfg); err != nil {
		t.Fatalf("doctor over TLS with the hall's CA: %v", err)
	}

	other, _, err := halltest.NewCA("Another CA")
	if err != nil {
		t.Fatal(err)
	}
	wrong := cfg
	wrong.Hall.CAFile = filepath.Join(t.TempDir(), "ca.crt")
	if err := halltest.WriteCertPEM(wrong.Hall.CAFile, other); err != nil {
		t.Fatal(err)
	}
	err = checkHallLogin(ctx, wrong)
	var te *link.TLSError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "not signed by the certificate authority in "+wrong.Hall.CAFile) {
		t.Fatalf("doctor with another CA: %v", err)
	}

	store := dashboard.NewStore(halltest.Hall)
	done, err := dashboard.Follow(ctx, store, link.Options{URL: b.URL(), User: brokerconf.DirectorUser,
		Password: b.Creds[brokerconf.DirectorUser], ClientID: "dashboard-" + t.Name()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(cfg.Paths.JournalDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	startHall(ctx, &wg, cfg, slog.New(slog.DiscardHandler), nil)
	if _, err := halltest.Play(ctx, cfg.Paths.JournalDir, 0); err != nil {
		t.Fatal(err)
	}
	want, _ := halltest.Moves()
	waitForTable(t, store, 1, "the game over TLS", func(tab dashboard.Table) bool {
		return tab.State.Result == "B+3.5" && slices.Equal(tab.Moves, want)
	})
	cancel()
	wg.Wait()
	<-done
}

// TestAssignmentOfferedLive: a kiosk running in the hall gets the director's pairing for its table
// while it runs and offers it to the screens as a set-up (the table's own rules under it), once:
// the broker sending the retained pairing again after it restarts offers nothing new, and a
// pairing the kiosk started with is not offered again.
func TestAssignmentOfferedLive(t *testing.T) {
	b := halltest.Start(t, 2)
	cfg := hallConfig(t, b, 1, b.Creds[brokerconf.TableUser(1)])
	cfg.Game.Rules = "japanese"
	if err := os.MkdirAll(cfg.Paths.JournalDir, 0o755); err != nil {
		t.Fatal(err)
	}
	k := &kiosk{cfg: cfg, log: slog.New(slog.DiscardHandler)}
	offers := make(chan referee.Setup, 10)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	startHall(ctx, &wg, cfg, k.log, assignmentOffer(k.configSetup(), k.setupDefaults(), func(s referee.Setup) { offers <- s }))

	pairing := wire.Assignment{Round: 3, Table: 1, Black: wire.Player{Name: "Olga Ivanova", Rank: "3k"},
		White: wire.Player{Name: "Anna Nowak", Rank: "3d"}, Komi: 6.5, TimeControl: "60m+15/300s"}
	store := dashboard.NewStore(halltest.Hall)
	followed, err := dashboard.Follow(ctx, store, link.Options{URL: b.URL(), User: brokerconf.DirectorUser,
		Password: b.Creds[brokerconf.DirectorUser], ClientID: "dashboard-" + t.Name()}, nil,
		pairing, wire.Assignment{Round: 3, Table: 2, Black: wire.Player{Name: "Other"}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-offers:
		if s.Black.Name != "Olga Ivanova" || s.White.Rank != "3d" || s.Round != "3" || s.Table != "1" || s.Rules != "japanese" ||
			s.TimeControl != "60m+15/300s" || s.Komi == nil || *s.Komi != 6.5 {
			t.Fatalf("offered %+v", s)
		}
	case <-ctx.Done():
		t.Fatal("the pairing published while the kiosk runs was not offered")
	}

	// The broker restarts: the publisher reconnects, gets the retained pairing again (and keeps
	// it again beside the journal), and nothing new is offered.
	kept := filepath.Join(cfg.Paths.JournalDir, publish.AssignmentFileName)
	before, err := os.Stat(kept)
	if err != nil {
		t.Fatal(err)
	}
	b.Kill()
	b.Restart()
	for {
		if fi, err := os.Stat(kept); err == nil && fi.ModTime().After(before.ModTime()) {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the publisher did not get the retained pairing again after the broker's restart")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	select {
	case s := <-offers:
		t.Fatalf("the same pairing offered again: %+v", s)
	default:
	}

	// A kiosk started with the pairing already kept does not offer it again.
	again := assignmentOffer(k.configSetup(), k.setupDefaults(), func(s referee.Setup) { t.Errorf("offered again at start: %+v", s) })
	again(pairing)
	cancel()
	wg.Wait()
	<-followed
}

// TestPINLockReachesTheHall: wrong director PINs at a table in a hall, typed on the director
// screen's pad (not journaled) and on a director action (journaled as refused), lock the PIN at
// the fifth; the lock is journaled once, and the dashboard shows it as one alert of the table,
// with the lock's length and the wrong PINs, which the director acknowledges. A PIN typed while
// locked makes no second alert.
func TestPINLockReachesTheHall(t *testing.T) {
	b := halltest.Start(t, 1)
	cfg := hallConfig(t, b, 1, b.Creds[brokerconf.TableUser(1)])
	hash, err := config.HashPIN("2468")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Director.PINHash = hash
	if err := os.MkdirAll(cfg.Paths.JournalDir, 0o755); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	k := &kiosk{cfg: cfg, log: log}
	k.pinCheck, k.pinLockedFor = k.checkPIN()
	tab, err := referee.Open(referee.Options{JournalDir: cfg.Paths.JournalDir, CheckPIN: k.pinCheck, PINLockedFor: k.pinLockedFor,
		NoSync: true, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tab.Close() })
	k.tab = tab
	h := k.handlers()
	if err := h.Setup(referee.Setup{Rules: "aga", Size: 9, Black: referee.Player{Name: "Ann"}, White: referee.Player{Name: "Bo"}}); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := dashboard.NewStore(halltest.Hall)
	done, err := dashboard.Follow(ctx, store, link.Options{URL: b.URL(), User: brokerconf.DirectorUser,
		Password: b.Creds[brokerconf.DirectorUser], ClientID: "dashboard-" + t.Name()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	startHall(ctx, &wg, cfg, log, nil)

	for i := 0; i < config.PINFailsBeforeLock-1; i++ {
		if err := h.CheckPIN("1111"); !errors.Is(err, referee.ErrBadPIN) {
			t.Fatalf("wrong PIN %d on the pad: %v", i+1, err)
		}
	}
	if err := h.Director("1111", referee.DirectorAction{Kind: referee.DirectorPause}); !errors.Is(err, referee.ErrBadPIN) {
		t.Fatalf("the fifth wrong PIN, on a director action: %v", err)
	}
	if k.pinLockedFor() <= 0 {
		t.Fatal("not locked after five wrong PINs")
	}
	if err := h.CheckPIN("2468"); !errors.Is(err, referee.ErrBadPIN) { // refused while locked: no second lock
		t.Fatalf("the right PIN while locked: %v", err)
	}
	records, err := publish.JournalRecords(filepath.Join(cfg.Paths.JournalDir, "journal.tgj"))
	if err != nil {
		t.Fatal(err)
	}
	got := waitForTable(t, store, 1, fmt.Sprintf("all %d journal records", records), func(tab dashboard.Table) bool {
		return tab.State.Seq >= uint64(records)
	})
	var pinAlerts []wire.Verdict
	for _, a := range got.OpenAlerts() {
		if a.Kind == wire.KindPINLocked {
			pinAlerts = append(pinAlerts, a)
		}
	}
	if len(pinAlerts) != 1 || pinAlerts[0].Message != "Director PIN locked for 1 min after 5 wrong PINs" {
		t.Fatalf("the dashboard's PIN alerts: %+v, want one", pinAlerts)
	}
	if !store.Acknowledge(1, dashboard.AlertKey(pinAlerts[0])) {
		t.Fatal("the director could not acknowledge the PIN's lock")
	}
	if got, _ := store.Table(1); len(got.OpenAlerts()) != 0 {
		t.Errorf("open alerts after acknowledging: %+v", got.OpenAlerts())
	}
	cancel()
	wg.Wait()
	<-done
}

// waitForTable polls the dashboard's table n until done says it shows what the test waits for
// (what), and fails the test with what the table shows after 30 s.
func waitForTable(t *testing.T, store *dashboard.Store, n int, what string, done func(dashboard.Table) bool) dashboard.Table {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		tab, _ := store.Table(n)
		if done(tab) {
			return tab
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: table %d on the dashboard has %d moves, result %q, record %d", what, n, len(tab.Moves), tab.State.Result, tab.State.Seq)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
