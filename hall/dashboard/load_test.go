package dashboard_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"tengen/hall/brokerconf"
	"tengen/hall/dashboard"
	"tengen/hall/link"
	"tengen/hall/wire"
	"tengen/internal/halltest"
	"tengen/internal/testenv"
)

// loadFor is how long the simulated tables play in each run of BenchmarkHallLoad.
var loadFor = flag.Duration("hall.loadfor", time.Minute, "how long the simulated tables play in each run of BenchmarkHallLoad")

// Environment of the simulated tables' child process.
const (
	loadChildEnv = "TENGEN_HALL_LOAD_CHILD" // "URL tables seconds"
	loadCredsEnv = "TENGEN_HALL_LOAD_CREDS" // the credentials file
	loadWebEnv   = "TENGEN_HALL_LOAD_WEB"   // the dashboard's web address, for a projector page; "" = none
)

// TestMain makes the test binary the simulated tables when BenchmarkHallLoad starts it as its
// child process (loadChildEnv set), and runs the tests otherwise.
func TestMain(m *testing.M) {
	if spec := os.Getenv(loadChildEnv); spec != "" {
		if err := simulateTables(spec, os.Getenv(loadCredsEnv), os.Getenv(loadWebEnv)); err != nil {
			fmt.Fprintln(os.Stderr, "simulated tables:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// BenchmarkHallLoad: 100 and 1,000 simulated tables (a child process: each table its own MQTT
// connection and user, a clock event every second, a move every 3 to 7 seconds with its retained
// state and SGF, all QoS 1) publish through one real Mosquitto into the dashboard (this process)
// for -hall.loadfor (1 min). In the projector run the dashboard's web server also serves one
// hall page as a browser keeps it live (the child process again): the live stream, and each
// table's card fetched again at each of its changes, six requests at a time. One op is one such
// run, on a broker of its own. It reports the press-to-dashboard latency (from the event's time,
// taken just before its publish, to the dashboard's store having it: p50, p90, p99, max, and the
// p99 from the 10th second on), the rate of events (and of cards served), the broker's and the
// dashboard's CPU (percent of one core) and peak resident memory, and fails when the dashboard
// lacks an event a table sent or got one twice. Run:
//
//	go test ./hall/dashboard -run '^$' -bench HallLoad -benchmem -benchtime 1x -timeout 30m
func BenchmarkHallLoad(b *testing.B) {
	for _, c := range []struct {
		tables    int
		projector bool
	}{{100, false}, {1000, false}, {1000, true}} {
		name := fmt.Sprintf("tables=%d", c.tables)
		if c.projector {
			name += "-projector"
		}
		b.Run(name, func(b *testing.B) { benchLoad(b, c.tables, c.projector) })
	}
}

// loadRun is what one run of the load measured.
type loadRun struct {
	played           time.Duration // from the tables' start to the dashboard having everything
	sent, received   uint64        // events acknowledged by the broker; messages the dashboard got
	lost, dups       uint64
	lat, steady      []time.Duration // every event's latency; those published 10 s or more after the first
	brokerCPU        time.Duration
	dashCPU          time.Duration
	brokerKB, dashKB int64 // peak resident memory
	dashHeapMB       uint64
	tablesReported   int
	cards            uint64 // the projector's card requests answered
}

func benchLoad(b *testing.B, n int, projector bool) {
	testenv.SelfExec(b)
	var all loadRun
	for range b.N {
		b.StopTimer()
		r := loadOnce(b, n, projector)
		all.played += r.played
		all.sent += r.sent
		all.received += r.received
		all.lost += r.lost
		all.cards += r.cards
		all.dups += r.dups
		all.lat = append(all.lat, r.lat...)
		all.steady = append(all.steady, r.steady...)
		all.brokerCPU += r.brokerCPU
		all.dashCPU += r.dashCPU
		all.brokerKB = max(all.brokerKB, r.brokerKB)
		all.dashKB = max(all.dashKB, r.dashKB)
		all.dashHeapMB = max(all.dashHeapMB, r.dashHeapMB)
		if r.tablesReported != n {
			b.Errorf("%d tables reported what they sent, want %d", r.tablesReported, n)
		}
	}
	if len(all.lat) == 0 {
		b.Fatal("the dashboard measured no event")
	}
	slices.Sort(all.lat)
	slices.Sort(all.steady)
	ms := func(d []time.Duration, q float64) float64 {
		if len(d) == 0 {
			return 0
		}
		return float64(d[int(q*float64(len(d)-1))]) / float64(time.Millisecond)
	}
	secs := all.played.Seconds()
	b.ReportMetric(float64(all.sent)/secs, "events/s")
	if projector {
		b.ReportMetric(float64(all.cards)/secs, "cards/s")
	}
	b.ReportMetric(ms(all.lat, 0.5), "p50-ms")
	b.ReportMetric(ms(all.lat, 0.9), "p90-ms")
	b.ReportMetric(ms(all.lat, 0.99), "p99-ms")
	b.ReportMetric(ms(all.lat, 1), "max-ms")
	b.ReportMetric(ms(all.steady, 0.99), "p99-after-10s-ms")
	b.ReportMetric(100*all.brokerCPU.Seconds()/secs, "broker-cpu-%")
	b.ReportMetric(float64(all.brokerKB)/1024, "broker-peak-MiB")
	b.ReportMetric(100*all.dashCPU.Seconds()/secs, "dashboard-cpu-%")
	b.ReportMetric(float64(all.dashKB)/1024, "dashboard-peak-MiB")
	b.ReportMetric(float64(all.dashHeapMB), "dashboard-heap-MiB")
	b.ReportMetric(float64(all.lost), "lost")
	b.ReportMetric(float64(all.dups), "twice")
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		b.Logf("%d tables: %d events sent and acknowledged in %v, %d messages received in all; machine: %d cores, load average %s",
			n, all.sent, all.played.Round(time.Second), all.received, runtime.NumCPU(), strings.Join(strings.Fields(string(la))[:3], " "))
	}
	if all.lost != 0 || all.dups != 0 {
		b.Errorf("%d tables: the dashboard lacks %d events and got %d twice", n, all.lost, all.dups)
	}
}

// loadOnce is one run: its own broker, dashboard store and simulated tables. The timer runs
// while the tables play and the dashboard catches up.
func loadOnce(b *testing.B, n int, projector bool) loadRun {
	br := halltest.Start(b, n)
	defer br.Kill()
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store := dashboard.NewStore(halltest.Hall)
	var r loadRun
	var mu sync.Mutex
	var firstAt time.Time
	var received atomic.Uint64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	subscribed := make(chan error, 1)
	cm, err := link.Dial(ctx, link.Options{URL: br.URL(), ClientID: "load-dashboard", User: brokerconf.DirectorUser,
		Password: br.Creds[brokerconf.DirectorUser], SessionExpiry: time.Hour,
		Logger: quiet,
		OnReceive: func(topic string, payload []byte) {
			now := time.Now()
			received.Add(1)
			if err := store.Handle(topic, payload); err != nil {
				b.Errorf("dashboard refused %s: %v", topic, err)
				return
			}
			if strings.HasSuffix(topic, "/"+wire.KindEvents) {
				if e, err := wire.ParseEvent(payload); err == nil {
					mu.Lock()
					r.lat = append(r.lat, now.Sub(e.At))
					if firstAt.IsZero() {
						firstAt = e.At
					}
					if e.At.Sub(firstAt) >= 10*time.Second {
						r.steady = append(r.steady, now.Sub(e.At))
					}
					mu.Unlock()
				}
			}
		},
		OnUp: func(cm *autopaho.ConnectionManager) {
			go func() {
				_, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: wire.AllTables(halltest.Hall), QoS: 1}}})
				select {
				case subscribed <- err:
				default:
				}
			}()
		}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := cm.AwaitConnection(ctx); err != nil {
		b.Fatal(err)
	}
	if err := <-subscribed; err != nil {
		b.Fatalf("subscribe: %v", err)
	}

	webURL := ""
	if projector {
		srv, err := dashboard.NewServer(store, dashboard.Options{Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		web := httptest.NewServer(srv)
		defer web.Close()
		webURL = web.URL
	}

	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	child := exec.Command(exe)
	child.Env = append(os.Environ(), loadChildEnv+"="+fmt.Sprintf("%s %d %d", br.URL(), n, int(loadFor.Seconds())),
		loadCredsEnv+"="+filepath.Join(br.Dir, brokerconf.CredentialsFile), loadWebEnv+"="+webURL)
	out, err := child.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	child.Stderr = os.Stderr
	resetPeakRSS()
	b.StartTimer()
	if err := child.Start(); err != nil {
		b.Fatal(err)
	}
	// Rates and CPU count from the tables' first move on, not their connections (the broker
	// checks each password with PBKDF2).
	var self0 syscall.Rusage
	var broker0 time.Duration
	var start time.Time
	sent := map[int]uint64{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if sc.Text() == "PLAYING" {
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self0)
			broker0 = procCPU(br.PID())
			start = time.Now()
			continue
		}
		var tn, seq int
		if _, err := fmt.Sscanf(sc.Text(), "SENT %d %d", &tn, &seq); err == nil {
			sent[tn] = uint64(seq)
		}
		var cards, failed uint64
		if _, err := fmt.Sscanf(sc.Text(), "CARDS %d %d", &cards, &failed); err == nil {
			r.cards = cards
			if failed != 0 || cards == 0 {
				b.Errorf("the projector page: %d cards served, %d requests failed", cards, failed)
			}
		}
	}
	if err := child.Wait(); err != nil {
		b.Fatalf("simulated tables: %v", err)
	}
	if start.IsZero() {
		b.Fatal("the simulated tables never started playing")
	}
	for _, s := range sent {
		r.sent += s
	}
	// Everything sent was acknowledged by the broker: wait for the dashboard to have it.
	deadline := time.Now().Add(time.Minute)
	for {
		var have uint64
		for _, tab := range store.Tables() {
			have += uint64(tab.Events)
		}
		if have >= r.sent || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.played = time.Since(start)
	b.StopTimer()
	var self1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self1)
	r.brokerCPU = procCPU(br.PID()) - broker0
	r.dashCPU = cpuOf(self1) - cpuOf(self0)
	r.brokerKB = procPeakKB(br.PID())
	r.dashKB = procPeakKB(os.Getpid())
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	r.dashHeapMB = m.HeapInuse >> 20
	r.received = received.Load()
	r.tablesReported = len(sent)
	for tn, s := range sent {
		tab, _ := store.Table(tn)
		if uint64(tab.Events) != s || tab.LastSeq != s || tab.Gaps != 0 {
			lost := s - min(s, uint64(tab.Events))
			if lost == 0 {
				lost = 1 // a gap or a wrong last sequence with the count right is still a loss
			}
			r.lost += lost
		}
		r.dups += uint64(tab.Dups)
	}
	cancel()
	<-cm.Done()
	mu.Lock()
	defer mu.Unlock()
	return r
}

// resetPeakRSS sets this process's peak resident memory back to its current one, so that each
// run measures its own (Linux 4.0 and later; an older kernel leaves the peak since the start).
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

func cpuOf(r syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// procCPU is a process's user and system time from /proc.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// procPeakKB is a process's peak resident memory in KiB from /proc (0 when unknown).
func procPeakKB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}

// simulateTables is the child process: spec is "URL tables seconds", credentials the hall's
// credentials file. Each table connects as its own user; once all are connected they play until
// the time is up (it prints "PLAYING" when they start), and each prints "SENT table lastseq". With a web address, a projector page
// follows the dashboard meanwhile, and prints "CARDS served failed" at the end.
func simulateTables(spec, credentials, web string) error {
	var url string
	var n, secs int
	if _, err := fmt.Sscanf(spec, "%s %d %d", &url, &n, &secs); err != nil {
		return fmt.Errorf("spec %q: %w", spec, err)
	}
	text, err := os.ReadFile(credentials)
	if err != nil {
		return err
	}
	creds, err := brokerconf.ParseCredentials(text)
	if err != nil {
		return err
	}
	host := strings.TrimPrefix(url, "mqtt://")
	clients := make([]*paho.Client, n+1)
	for i := 1; i <= n; i++ {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			return err
		}
		c := paho.NewClient(paho.ClientConfig{Conn: conn, PacketTimeout: time.Minute})
		user := brokerconf.TableUser(i)
		if _, err := c.Connect(context.Background(), &paho.Connect{ClientID: "load-" + user, CleanStart: true, KeepAlive: 60,
			Username: user, UsernameFlag: true, Password: []byte(creds[user]), PasswordFlag: true}); err != nil {
			return fmt.Errorf("%s: %w", user, err)
		}
		clients[i] = c
	}
	fmt.Println("PLAYING")
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	var outMu sync.Mutex
	if web != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			served, failed := projectorPage(ctx, web)
			outMu.Lock()
			fmt.Printf("CARDS %d %d\n", served, failed)
			outMu.Unlock()
		}()
	}
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func(i int, c *paho.Client) {
			defer wg.Done()
			seq := playTable(ctx, i, c)
			outMu.Lock()
			fmt.Printf("SENT %d %d\n", i, seq)
			outMu.Unlock()
			_ = c.Disconnect(&paho.Disconnect{})
		}(i, clients[i])
	}
	wg.Wait()
	return nil
}

// projectorPage does what the hall page in a browser does until ctx ends: it loads the page,
// follows the live stream and fetches each table's card again at each "table" event, six requests
// at a time (a browser's connections to one host). It returns the cards served and the requests
// that failed.
func projectorPage(ctx context.Context, web string) (served, failed uint64) {
	c := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 6, MaxIdleConnsPerHost: 6}}
	get := func(path string) bool {
		req, err := http.NewRequestWithContext(ctx, "GET", web+path, nil)
		if err != nil {
			return false
		}
		resp, err := c.Do(req)
		if err != nil {
			return ctx.Err() != nil // cut short by the end, not a failure
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode == http.StatusOK && (err == nil || ctx.Err() != nil)
	}
	if !get("/") {
		failed++
	}
	req, err := http.NewRequestWithContext(ctx, "GET", web+"/events", nil)
	if err != nil {
		return 0, 1
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, 1
	}
	defer resp.Body.Close()
	tables := make(chan string, 100000)
	var wg sync.WaitGroup
	var ok, bad atomic.Uint64
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range tables {
				if get("/card/" + n) {
					ok.Add(1)
				} else {
					bad.Add(1)
				}
			}
		}()
	}
	sc := bufio.NewScanner(resp.Body)
	prev := ""
	for sc.Scan() {
		if n, found := strings.CutPrefix(sc.Text(), "data: "); found && prev == "event: table" {
			select {
			case tables <- n:
			default:
				bad.Add(1) // a browser this far behind would be lost too
			}
		}
		prev = sc.Text()
	}
	close(tables)
	wg.Wait()
	return ok.Load(), failed + bad.Load()
}

// playTable publishes a realistic 19x19 game until ctx ends and returns the last sequence number
// the broker acknowledged.
func playTable(ctx context.Context, table int, c *paho.Client) uint64 {
	rng := rand.New(rand.NewPCG(uint64(table), 1))
	game := "20260725T100000.000000000Z"
	var seq uint64
	pos := []byte(strings.Repeat(".", 361))
	var moves []string
	left := [2]time.Duration{60 * time.Minute, 60 * time.Minute}
	side := 0
	sgf := []byte("(;GM[1]FF[4]SZ[19]")
	pub := func(kind string, v any, retain bool) bool {
		var b []byte
		if kind == wire.KindSGF {
			b = append(append([]byte{}, sgf...), ')')
		} else {
			b, _ = json.Marshal(v)
		}
		pctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := c.Publish(pctx, &paho.Publish{Topic: wire.TableTopic(halltest.Hall, table, kind), QoS: 1, Retain: retain, Payload: b})
		return err == nil
	}
	clockNow := func() *wire.Clock {
		run := "B"
		if side == 1 {
			run = "W"
		}
		return &wire.Clock{Black: wire.Side{Text: "x", MillisLeft: left[0].Milliseconds()}, White: wire.Side{Text: "x", MillisLeft: left[1].Milliseconds()}, Running: run, AsOf: time.Now()}
	}
	time.Sleep(time.Duration(rng.IntN(1000)) * time.Millisecond) // tables do not tick together
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	nextMove := time.Now().Add(time.Duration(3000+rng.IntN(4000)) * time.Millisecond)
	for {
		select {
		case <-ctx.Done():
			return seq
		case now := <-tick.C:
			left[side] -= time.Second
			seq++
			if !pub(wire.KindEvents, wire.Event{Game: game, Seq: seq, Kind: "tick", At: time.Now(), Clock: clockNow()}, false) {
				return seq - 1
			}
			if now.Before(nextMove) {
				continue
			}
			nextMove = now.Add(time.Duration(3000+rng.IntN(4000)) * time.Millisecond)
			p := rng.IntN(361)
			for pos[p] != '.' {
				p = (p + 1) % 361
			}
			colour, mark := "B", byte('X')
			if side == 1 {
				colour, mark = "W", 'O'
			}
			pos[p] = mark
			v := fmt.Sprintf("%c%d", "ABCDEFGHJKLMNOPQRST"[p%19], 19-p/19)
			moves = append(moves, colour+" "+v)
			sgf = fmt.Appendf(sgf, ";%s[%c%c]", colour, 'a'+p%19, 'a'+p/19)
			seq++
			if !pub(wire.KindEvents, wire.Event{Game: game, Seq: seq, Kind: "out", At: time.Now(), Moves: []string{colour + " " + v}, Clock: clockNow(),
				Verdicts: []wire.Verdict{{Kind: "move", Color: colour, Message: "Move " + strconv.Itoa(len(moves)) + ": " + v, At: time.Now()}}}, false) {
				return seq - 1
			}
			side = 1 - side
			pub(wire.KindState, wire.State{Hall: halltest.Hall, Table: table, Game: game, Seq: seq, Phase: "playing", Size: 19, Komi: 6.5,
				Black: wire.Player{Name: "Black " + strconv.Itoa(table), Rank: "3k"}, White: wire.Player{Name: "White " + strconv.Itoa(table), Rank: "2k"},
				Position: string(pos), Moves: moves, ToMove: map[int]string{0: "B", 1: "W"}[side], Clock: clockNow(), Updated: time.Now()}, true)
			pub(wire.KindSGF, nil, true)
		}
	}
}
