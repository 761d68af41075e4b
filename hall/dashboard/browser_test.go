package dashboard_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tengen/hall/brokerconf"
	"tengen/hall/dashboard"
	"tengen/hall/link"
	"tengen/hall/publish"
	"tengen/internal/halltest"
	"tengen/internal/testenv"
)

// chromium returns Debian's Chromium, or calls testenv.Missing.
func chromium(t *testing.T) string {
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	testenv.Missing(t, "chromium is not installed (Debian package chromium)")
	return ""
}

// hall is a broker, a dashboard following it and its web server.
type hall struct {
	broker *halltest.Broker
	store  *dashboard.Store
	web    *httptest.Server
}

func startHall(t *testing.T, tables int) *hall {
	b := halltest.Start(t, tables)
	ctx, cancel := context.WithCancel(context.Background())
	s := dashboard.NewStore(halltest.Hall)
	done, err := dashboard.Follow(ctx, s, link.Options{URL: b.URL(), User: brokerconf.DirectorUser,
		Password: b.Creds[brokerconf.DirectorUser], ClientID: "dashboard-" + t.Name()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := dashboard.NewServer(s, dashboard.Options{DirectorPassword: b.Creds[brokerconf.DirectorUser], KeepAlive: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(srv)
	t.Cleanup(func() { web.CloseClientConnections(); web.Close(); cancel(); <-done })
	return &hall{broker: b, store: s, web: web}
}

// playTable plays the demo at table n at speed times real time with its publisher running; the
// returned channel gets the game's end.
func (h *hall) playTable(t *testing.T, n int, speed float64) <-chan error {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	pubDone := make(chan struct{})
	go func() {
		defer close(pubDone)
		_ = publish.Run(ctx, publish.Options{Hall: halltest.Hall, Table: n, JournalDir: dir, URL: h.broker.URL(),
			User: brokerconf.TableUser(n), Password: h.broker.Creds[brokerconf.TableUser(n)], Poll: 50 * time.Millisecond})
	}()
	played := make(chan error, 1)
	go func() {
		_, err := halltest.Play(ctx, dir, speed)
		played <- err
	}()
	t.Cleanup(func() { cancel(); <-pubDone })
	return played
}

// TestDashboardInChromium: the hall page in headless Chromium shows the table that plays the
// demo, a move arriving live (by the event stream: the page is not reloaded), the demo's illegal
// ko retake as an alert on the table's card, and the table's own page with its board; a
// screenshot of the hall is kept.
func TestDashboardInChromium(t *testing.T) {
	exe := chromium(t)
	h := startHall(t, 2)
	played := h.playTable(t, 1, 6)

	deadline := time.Now().Add(time.Minute)
	for {
		if tab, ok := h.store.Table(1); ok && len(tab.Moves) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("table 1 did not reach the dashboard")
		}
		time.Sleep(50 * time.Millisecond)
	}

	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// Waits are polls in the page: a DevTools node query races with the live updates replacing it.
	if err := chromedp.Do(ctx, chromedp.Navigate(h.web.URL+"/"), chromedp.Poll[chromedp.Void](`document.querySelector("#t-1 .status") !== null`)); err != nil {
		t.Fatalf("loading the hall page: %v", err)
	}
	movesShown := func() int {
		// Read in one evaluation: the live updates replace the card between two DevTools calls.
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const s = document.querySelector("#t-1 .status"); return s ? s.textContent : ""; })()`))
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if i := strings.Index(text, "move "); i >= 0 {
			fmt.Sscanf(text[i+5:], "%d", &n)
		}
		return n
	}
	first := movesShown()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.stayed = true`)); err != nil {
		t.Fatal(err)
	}
	// A later move on the card, the page never reloaded (window.stayed survives).
	pctx, pcancel := context.WithTimeout(ctx, 45*time.Second)
	_, err := chromedp.Run(pctx, chromedp.Poll[bool](fmt.Sprintf(`window.stayed === true && (() => {
		const s = document.querySelector("#t-1 .status"); const m = s && /move (\d+)/.exec(s.textContent);
		return m !== null && Number(m[1]) > %d; })()`, first), chromedp.WithPollingInterval(100*time.Millisecond)))
	pcancel()
	if err != nil {
		t.Fatalf("no move arrived live after move %d: %v", first, err)
	}
	t.Logf("the card showed move %d at load, then move %d live", first, movesShown())

	// The demo's illegal ko retake: an alert on the card.
	actx2, acancel := context.WithTimeout(ctx, 90*time.Second)
	alert, err := chromedp.Run(actx2, chromedp.Poll[string](`(() => { const a = document.querySelector("#t-1.alert .alerts"); return a ? a.textContent : ""; })()`,
		chromedp.WithPollingInterval(100*time.Millisecond)))
	acancel()
	if err != nil {
		t.Fatalf("no alert on the card: %v", err)
	}
	if !strings.Contains(alert, "Illegal move") {
		t.Errorf("the card's alert says %q, want the illegal move", alert)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(os.TempDir(), "tengen-hall-dashboard.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the hall: %s (%d bytes)", path, len(shot))

	if err := <-played; err != nil {
		t.Fatal(err)
	}
	// The table's page: the board with as many stones as the position, the moves, the result.
	deadline = time.Now().Add(30 * time.Second)
	var tab dashboard.Table
	for {
		tab, _ = h.store.Table(1)
		if tab.State.Result != "" && len(tab.Moves) == 32 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game's end did not reach the dashboard: %d moves, result %q", len(tab.Moves), tab.State.Result)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(h.web.URL+"/table/1"), chromedp.Poll[chromedp.Void](`document.querySelector("#table .boardbox svg") !== null`)); err != nil {
		t.Fatal(err)
	}
	stones, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#table .boardbox circle.stone").length`))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Count(tab.State.Position, "X") + strings.Count(tab.State.Position, "O")
	if stones != want || want == 0 {
		t.Errorf("the table's board shows %d stones, the position has %d", stones, want)
	}
	items, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#table ol.moves li").length`))
	if err != nil || items != 32 {
		t.Errorf("the move list has %d moves (%v), want 32", items, err)
	}
	result, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const r = document.querySelector("#table .result"); return r ? r.textContent : ""; })()`))
	if err != nil || result != tab.State.Result {
		t.Errorf("the page's result %q (%v), want %q", result, err, tab.State.Result)
	}
}
