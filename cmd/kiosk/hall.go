package main

import (
	"context"
	"log/slog"
	"reflect"
	"sync"

	"tengen/config"
	"tengen/hall/brokerconf"
	"tengen/hall/link"
	"tengen/hall/publish"
	"tengen/hall/wire"
	"tengen/referee"
)

// startHall starts the table's hall publisher when the configuration names a broker ([hall] url):
// it reads the journal directory and publishes on its own goroutine (wg), so the referee never
// waits for the network. onAssignment (nil: none) gets each assignment of the table the director
// publishes. A password that cannot be read is logged and the table plays on.
func startHall(ctx context.Context, wg *sync.WaitGroup, cfg config.Config, log *slog.Logger, onAssignment func(wire.Assignment)) {
	h := cfg.Hall
	if h.URL == "" {
		return
	}
	user := cfg.HallUser()
	pw, err := brokerconf.ReadPassword(h.PasswordFile, user)
	if err != nil {
		log.Error("hall: no broker password; the table plays without the hall", "err", err)
		return
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		err := publish.Run(ctx, publish.Options{Hall: h.Name, Table: cfg.HallTable(), JournalDir: cfg.Paths.JournalDir,
			URL: h.URL, CAFile: h.CAFile, User: user, Password: pw, Logger: log, OnAssignment: onAssignment})
		if err != nil {
			log.Error("hall publisher", "err", err)
		}
	}()
}

// checkHallLogin logs in to the hall's broker once with the table's credentials (`kiosk doctor`).
func checkHallLogin(ctx context.Context, cfg config.Config) error {
	pw, err := brokerconf.ReadPassword(cfg.Hall.PasswordFile, cfg.HallUser())
	if err != nil {
		return err
	}
	return link.Check(ctx, link.Options{URL: cfg.Hall.URL, CAFile: cfg.Hall.CAFile, ClientID: "tengen-doctor-" + cfg.HallUser(), User: cfg.HallUser(), Password: pw})
}

// hallSetup puts the table's hall assignment (kept beside the journal by the publisher) over the
// set-up screen's defaults, when the table is in a hall and has one.
func hallSetup(cfg config.Config, s referee.Setup, log *slog.Logger) referee.Setup {
	if cfg.Hall.URL == "" {
		return s
	}
	a, ok := publish.ReadAssignment(cfg.Paths.JournalDir)
	if !ok || a.Table != cfg.HallTable() {
		return s
	}
	log.Info("the set-up offers the hall's assignment", "round", a.Round, "black", a.Black.Name, "white", a.White.Name)
	return publish.SetupOf(a, s)
}

// assignmentOffer is what the hall publisher calls with each assignment: the set-up it makes
// (base, the table's configured settings, with the assignment over them) goes to offer when it
// differs from the one offered last, first being the set-up the screens started with (the broker
// sends the retained assignment again at every connection, and the kiosk may have started with it).
func assignmentOffer(base, first referee.Setup, offer func(referee.Setup)) func(wire.Assignment) {
	var mu sync.Mutex
	last := first
	return func(a wire.Assignment) {
		s := publish.SetupOf(a, base)
		mu.Lock()
		same := reflect.DeepEqual(s, last)
		last = s
		mu.Unlock()
		if !same {
			offer(s)
		}
	}
}
