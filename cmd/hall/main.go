// Command hall is the tournament hall's side of Tengen: `hall init` writes the hall's Mosquitto
// broker set-up (configuration, users, ACL, credentials, systemd unit) and `hall serve` runs the
// hall dashboard, a web page of every table fed by the broker. Flags and wiring only: the work is
// in hall/brokerconf and hall/dashboard.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"tengen/config"
	"tengen/hall/brokerconf"
	"tengen/hall/dashboard"
	"tengen/hall/gotha"
	"tengen/hall/link"
	"tengen/hall/wire"
)

const usage = `Usage:
  hall init DIR [--hall NAME] --tables N [--first 1] [--port 1883] [--bind ADDR] [--data DIR]
            [--bridge-users U1,U2] [--bridge HOST:PORT --bridge-user U --bridge-credentials MAIN/credentials]
      writes the hall's broker set-up into DIR: mosquitto.conf, passwd, acl, credentials (0600),
      tengen-hall-broker.service; start the broker with  mosquitto -c DIR/mosquitto.conf
  hall serve [--hall NAME] [--broker mqtt://127.0.0.1:1883] [--ca CA.crt] --credentials DIR/credentials [--listen :8080]
             [--gotha TOURNAMENT.xml --round N]
      the hall dashboard: every table at http://THIS-MACHINE:8080/; with an OpenGotha file, round N's
      pairings are published to the tables and the results page exports OpenGotha XML and EGF results
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		var ee exitError
		if !errors.As(err, &ee) {
			fmt.Fprintln(os.Stderr, "hall:", err)
			ee.code = 1
		}
		os.Exit(ee.code)
	}
}

type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError{2}
	}
	switch args[0] {
	case "init":
		return runInit(args[1:], stdout, stderr)
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprintf(stderr, "hall: unknown command %q\n%s", args[0], usage)
	return exitError{2}
}

// parseInterspersed parses flags before and after positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
}

func runInit(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	hall := fs.String("hall", config.DefaultHallName, "the hall's name (lower-case letters, digits, - and _): kiosk.toml [hall] name")
	tables := fs.Int("tables", 0, "number of tables (users table-1 .. table-N)")
	port := fs.Int("port", brokerconf.DefaultPort, "the broker's LAN port")
	bind := fs.String("bind", "", "listen on this address only (default: every interface)")
	data := fs.String("data", "", "persistence directory (default DIR/data)")
	first := fs.Int("first", 1, "the first table's number (a satellite broker of a big hall serves tables --first to --first+--tables-1)")
	bridgeUsers := fs.String("bridge-users", "", "on the main broker: comma-separated users for satellite brokers' bridges")
	bridge := fs.String("bridge", "", "on a satellite broker: the main broker's HOST:PORT to bridge to")
	bridgeUser := fs.String("bridge-user", "", "with --bridge: the bridge user made on the main broker with --bridge-users")
	bridgeCreds := fs.String("bridge-credentials", "", "with --bridge: the main broker's credentials file (for the bridge user's password)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitError{2}
	}
	if len(pos) != 1 || *tables < 1 {
		fmt.Fprintln(stderr, "hall init: give one DIR and --tables N")
		fs.Usage()
		return exitError{2}
	}
	o := brokerconf.Options{Hall: *hall, Tables: *tables, First: *first, Port: *port, Bind: *bind, DataDir: *data}
	if *bridgeUsers != "" {
		o.BridgeUsers = strings.Split(*bridgeUsers, ",")
	}
	if *bridge != "" {
		if *bridgeUser == "" || *bridgeCreds == "" {
			fmt.Fprintln(stderr, "hall init: --bridge needs --bridge-user and --bridge-credentials")
			return exitError{2}
		}
		pw, err := brokerconf.ReadPassword(*bridgeCreds, *bridgeUser)
		if err != nil {
			return err
		}
		o.Bridge = &brokerconf.Bridge{Address: *bridge, User: *bridgeUser, Password: pw}
	}
	creds, err := brokerconf.Generate(pos[0], o)
	if err != nil {
		return err
	}
	dir, _ := filepath.Abs(pos[0])
	fmt.Fprintf(stdout, "hall %q: tables %d to %d, %d users; credentials in %s (mode 0600)\n", *hall, o.First, o.First+o.Tables-1, len(creds), filepath.Join(dir, brokerconf.CredentialsFile))
	fmt.Fprintf(stdout, "start the broker:    mosquitto -c %s\n", filepath.Join(dir, brokerconf.ConfFile))
	fmt.Fprintf(stdout, "or as a service:     cp %s /etc/systemd/system/ && systemctl enable --now %s\n", filepath.Join(dir, brokerconf.UnitFile), brokerconf.UnitFile)
	fmt.Fprintf(stdout, "start the dashboard: hall serve --hall %s --broker mqtt://127.0.0.1:%d --credentials %s\n", *hall, *port, filepath.Join(dir, brokerconf.CredentialsFile))
	return nil
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	hall := fs.String("hall", config.DefaultHallName, "the hall's name")
	broker := fs.String("broker", "mqtt://127.0.0.1:1883", "the hall's broker")
	caFile := fs.String("ca", "", "with an mqtts:// --broker: the CA certificate (PEM) that signed the broker's; \"\" = the system's authorities")
	credsPath := fs.String("credentials", "", "the hall's credentials file (`hall init` wrote it): the director's line logs in to the broker and the web page")
	listen := fs.String("listen", ":8080", "the web page's address")
	gothaPath := fs.String("gotha", "", "an OpenGotha tournament file: its round --round is published to the tables and its results exported")
	round := fs.Int("round", 0, "with --gotha: the round the hall plays")
	if _, err := parseInterspersed(fs, args); err != nil {
		return exitError{2}
	}
	if *credsPath == "" {
		fmt.Fprintln(stderr, "hall serve: give --credentials FILE")
		return exitError{2}
	}
	pw, err := brokerconf.ReadPassword(*credsPath, brokerconf.DirectorUser)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	store := dashboard.NewStore(*hall)
	so := dashboard.Options{DirectorPassword: pw, Logger: log}
	var assign []wire.Assignment
	if *gothaPath != "" {
		data, err := os.ReadFile(*gothaPath)
		if err != nil {
			return err
		}
		t, err := gotha.Parse(data)
		if err != nil {
			return fmt.Errorf("%s: %w", *gothaPath, err)
		}
		if *round < 1 || *round > t.Rounds {
			return fmt.Errorf("--round %d: the tournament has rounds 1 to %d", *round, t.Rounds)
		}
		so.Tournament, so.TournamentXML, so.Round = t, data, *round
		assign = t.Assignments(*round)
		fmt.Fprintf(stdout, "%s, round %d: %d tables assigned\n", t.Name, *round, len(assign))
	}
	srv, err := dashboard.NewServer(store, so)
	if err != nil {
		return err
	}
	followed, err := dashboard.Follow(ctx, store, link.Options{URL: *broker, CAFile: *caFile, User: brokerconf.DirectorUser, Password: pw, Logger: log}, nil, assign...)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "hall %q dashboard on http://%s/ (broker %s)\n", *hall, l.Addr(), *broker)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	if err := hs.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-followed
	return nil
}
