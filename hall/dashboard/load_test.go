package dashboard_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
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

var (
	loadTables = flag.Int("hall.load", 0, "run TestHallLoad with this many simulated tables (the README's figures: 1000)")
	loadFor    = flag.Duration("hall.loadfor", time.Minute, "how long the simulated tables play in TestHallLoad")
)

// Environment of the simulated tables' child process.
const (
	loadChildEnv = "TENGEN_HALL_LOAD_CHILD" // "URL tables seconds"
	loadCredsEnv = "TENGEN_HALL_LOAD_CREDS" // the credentials file
)

// TestHallLoad: many simulated tables (a child process: each table its own MQTT connection, a
// clock event every second, a move every 3 to 7 seconds with its retained state and SGF, all QoS
// 1) publish through one Mosquitto into the dashboard's store. It reports the publish-to-dashboard
// latency (p50, p99), the broker's and the dashboard's CPU and peak memory, and checks that the
// dashboard has every event each table sent, once. Run: go test ./hall/dashboard -run HallLoad
// -hall.load 1000 -timeout 20m
func TestHallLoad(t *testing.T) {
	if spec := os.Getenv(loadChildEnv); spec != "" {
		simulateTables(t, spec)
		return
	}
	if *loadTables <= 0 {
		t.Skip("the load test runs with -hall.load N (the README's figures: -hall.load 1000)")
	}
	testenv.SelfExec(t)
	n := *loadTables
	b := halltest.Start(t, n)
	store := dashboard.NewStore(halltest.Hall)
	var mu sync.Mutex
	var lat, steady []time.Duration // all events; those published 10 s or more after the first
	var firstAt time.Time
	var received atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cm, err := link.Dial(ctx, link.Options{URL: b.URL(), ClientID: "load-dashboard", User: brokerconf.DirectorUser,
		Password: b.Creds[brokerconf.DirectorUser], SessionExpiry: time.Hour,
		OnReceive: func(topic string, payload []byte) {
			now := time.Now()
			received.Add(1)
			if err := store.Handle(topic, payload); err != nil {
				t.Errorf("dashboard refused %s: %v", topic, err)
				return
			}
			if strings.HasSuffix(topic, "/"+wire.KindEvents) {
				if e, err := wire.ParseEvent(payload); err == nil {
					mu.Lock()
					lat = append(lat, now.Sub(e.At))
					if firstAt.IsZero() {
						firstAt = e.At
					}
					if e.At.Sub(firstAt) >= 10*time.Second {
						steady = append(steady, now.Sub(e.At))
					}
					mu.Unlock()
				}
			}
		},
		OnUp: func(cm *autopaho.ConnectionManager) {
			go func() {
				if _, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: wire.AllTables(halltest.Hall), QoS: 1}}}); err != nil {
					t.Errorf("subscribe: %v", err)
				}
			}()
		}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cm.AwaitConnection(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the subscription

	exe, _ := os.Executable()
	child := exec.Command(exe, "-test.run=^TestHallLoad$", "-test.v")
	child.Env = append(os.Environ(), loadChildEnv+"="+fmt.Sprintf("%s %d %d", b.URL(), n, int(loadFor.Seconds())),
		loadCredsEnv+"="+b.Dir+"/"+brokerconf.CredentialsFile)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	child.Stderr = os.Stderr
	var self0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self0)
	broker0 := procCPU(b.PID())
	start := time.Now()
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	sent := map[int]uint64{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var n, seq int
		if _, err := fmt.Sscanf(sc.Text(), "SENT %d %d", &n, &seq); err == nil {
			sent[n] = uint64(seq)
		}
	}
	if err := child.Wait(); err != nil {
		t.Fatalf("simulated tables: %v", err)
	}
	played := time.Since(start)
	var total uint64
	for _, s := range sent {
		total += s
	}
	// Everything sent was acknowledged by the broker: wait for the dashboard to have it.
	deadline := time.Now().Add(time.Minute)
	for {
		var have uint64
		for _, tab := range store.Tables() {
			have += uint64(tab.Events)
		}
		if have >= total || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	var self1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self1)
	broker1 := procCPU(b.PID())
	if len(sent) != n {
		t.Errorf("%d tables reported, want %d", len(sent), n)
	}
	lost, dups := uint64(0), 0
	for tn, s := range sent {
		tab, _ := store.Table(tn)
		if uint64(tab.Events) != s || tab.LastSeq != s || tab.Gaps != 0 {
			lost += s - min(s, uint64(tab.Events))
		}
		dups += tab.Dups
	}
	mu.Lock()
	slices.Sort(lat)
	slices.Sort(steady)
	p := func(q float64) time.Duration { return lat[int(q*float64(len(lat)-1))].Round(100 * time.Microsecond) }
	ps := func(q float64) time.Duration {
		if len(steady) == 0 {
			return 0
		}
		return steady[int(q*float64(len(steady)-1))].Round(100 * time.Microsecond)
	}
	mu.Unlock()
	dashCPU := cpuOf(self1) - cpuOf(self0)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d tables for %v: %d events sent and acknowledged (%.0f/s), %d messages received in all; lost %d, sent twice %d",
		n, played.Round(time.Second), total, float64(total)/played.Seconds(), received.Load(), lost, dups)
	t.Logf("publish to dashboard: p50 %v, p90 %v, p99 %v, max %v (%d events); from 10 s on: p50 %v, p90 %v, p99 %v (%d events)",
		p(0.5), p(0.9), p(0.99), lat[len(lat)-1].Round(time.Millisecond), len(lat), ps(0.5), ps(0.9), ps(0.99), len(steady))
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		t.Logf("machine: %d cores, load average %s", runtime.NumCPU(), strings.Join(strings.Fields(string(la))[:3], " "))
	}
	t.Logf("broker: CPU %.1f%% of one core, peak RSS %s", 100*(broker1-broker0).Seconds()/played.Seconds(), procPeak(b.PID()))
	t.Logf("dashboard (this process): CPU %.1f%% of one core, peak RSS %d MB, Go heap in use %d MB",
		100*dashCPU.Seconds()/played.Seconds(), self1.Maxrss/1024, ms.HeapInuse>>20)
	if lost != 0 || dups != 0 {
		t.Errorf("lost %d events, %d sent twice", lost, dups)
	}
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

// procPeak is a process's peak resident memory from /proc.
func procPeak(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "?"
}

// simulateTables is the child process: spec is "URL tables seconds". Each table connects as its
// own user and plays until the time is up, then prints "SENT table lastseq".
func simulateTables(t *testing.T, spec string) {
	var url string
	var n, secs int
	if _, err := fmt.Sscanf(spec, "%s %d %d", &url, &n, &secs); err != nil {
		t.Fatal(err)
	}
	creds, err := brokerconf.ParseCredentials(must(os.ReadFile(os.Getenv(loadCredsEnv))))
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(url, "mqtt://")
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	var outMu sync.Mutex
	clients := make([]*paho.Client, n+1)
	for i := 1; i <= n; i++ {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		c := paho.NewClient(paho.ClientConfig{Conn: conn, PacketTimeout: time.Minute})
		user := brokerconf.TableUser(i)
		if _, err := c.Connect(context.Background(), &paho.Connect{ClientID: "load-" + user, CleanStart: true, KeepAlive: 60,
			Username: user, UsernameFlag: true, Password: []byte(creds[user]), PasswordFlag: true}); err != nil {
			t.Fatalf("%s: %v", user, err)
		}
		clients[i] = c
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
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
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
