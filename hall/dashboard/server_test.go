package dashboard

import (
	"bufio"
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"tengen/hall/wire"
)

func fedServer(t *testing.T) (*Store, *httptest.Server) {
	t.Helper()
	s := NewStore("h")
	at := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	st := wire.State{Hall: "h", Table: 3, Game: "g", Seq: 5, Size: 9, Round: "2",
		Position: "X" + strings.Repeat(".", 9) + "O" + strings.Repeat(".", 70), Moves: []string{"B A9", "W B8"}, ToMove: "B",
		Black: wire.Player{Name: "Ann", Rank: "3d"}, White: wire.Player{Name: "Bo", Rank: "2d"},
		Clock:  &wire.Clock{Black: wire.Side{Text: "9:00", MillisLeft: 540000}, White: wire.Side{Text: "8:00", MillisLeft: 480000}, AsOf: at},
		Alerts: []wire.Verdict{{Kind: "illegal", Message: "Illegal move: ko", At: at}}}
	b, _ := json.Marshal(st)
	if err := s.Handle(wire.TableTopic("h", 3, wire.KindState), b); err != nil {
		t.Fatal(err)
	}
	if err := s.Handle(wire.TableTopic("h", 3, wire.KindSGF), []byte("(;SZ[9];B[aa];W[bb])")); err != nil {
		t.Fatal(err)
	}
	srv, err := NewServer(s, Options{DirectorPassword: "secret", KeepAlive: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(srv)
	t.Cleanup(web.Close)
	return s, web
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	r, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// TestPages: what each page shows of a table, and what is not there.
func TestPages(t *testing.T) {
	_, web := fedServer(t)
	tests := []struct {
		path   string
		status int
		want   []string
	}{
		{"/", 200, []string{`id="t-3"`, "card alert", "Ann 3d", "Bo 2d", "9:00", "8:00", "Black to play · move 2", "Illegal move: ko", `circle class="stone X"`}},
		{"/table/3", 200, []string{`data-table="3"`, "round 2", "<li>B A9</li><li>W B8</li>", `/table/3/sgf`, ">A</text>", ">9</text>"}},
		{"/results", 200, []string{"Ann 3d", "playing"}},
		{"/table/3/sgf", 200, []string{"(;SZ[9];B[aa];W[bb])"}},
		{"/table/4", 404, nil},
		{"/table/x", 404, nil},
	}
	for _, tc := range tests {
		code, body := get(t, web.Client(), web.URL+tc.path)
		if code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.path, code, tc.status)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s lacks %q", tc.path, w)
			}
		}
		if strings.Contains(body, "Acknowledge") {
			t.Errorf("%s offers an acknowledge button to a visitor", tc.path)
		}
	}
}

// TestDirectorAcknowledges: a visitor cannot acknowledge, a wrong password is refused, the
// director logs in and acknowledges (with the session's token) and the alert is gone.
func TestDirectorAcknowledges(t *testing.T) {
	s, web := fedServer(t)
	tab, _ := s.Table(3)
	key := AlertKey(tab.State.Alerts[0])
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	post := func(path string, form url.Values) int {
		r, err := c.PostForm(web.URL+path, form)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	if code := post("/table/3/ack", url.Values{"alert": {key}}); code != http.StatusForbidden {
		t.Fatalf("a visitor's acknowledgement: status %d", code)
	}
	if code := post("/login", url.Values{"password": {"wrong"}}); code != http.StatusUnauthorized {
		t.Fatalf("a wrong password: status %d", code)
	}
	if code := post("/login", url.Values{"password": {"secret"}}); code != http.StatusOK {
		t.Fatalf("logging in: status %d", code)
	}
	_, page := get(t, c, web.URL+"/table/3")
	i := strings.Index(page, `name="csrf" value="`)
	if i < 0 || !strings.Contains(page, "Acknowledge") {
		t.Fatal("the director's page has no acknowledge form")
	}
	csrf := page[i+len(`name="csrf" value="`):]
	csrf = csrf[:strings.IndexByte(csrf, '"')]
	if code := post("/table/3/ack", url.Values{"alert": {key}, "csrf": {"forged"}}); code != http.StatusForbidden {
		t.Fatalf("an acknowledgement without the session's token: status %d", code)
	}
	if code := post("/table/3/ack", url.Values{"alert": {key}, "csrf": {csrf}}); code != http.StatusOK {
		t.Fatalf("acknowledging: status %d", code)
	}
	if _, page := get(t, c, web.URL+"/"); strings.Contains(page, "card alert") || strings.Contains(page, "Illegal move: ko") {
		t.Fatal("the acknowledged alert is still shown")
	}
}

// TestLiveStream: the event stream names a table when it changes.
func TestLiveStream(t *testing.T) {
	s, web := fedServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", web.URL+"/events", nil)
	r, err := web.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if ct := r.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		b, _ := json.Marshal(wire.Event{Game: "g", Seq: 6, Kind: "out", Moves: []string{"B C7"}})
		_ = s.Handle(wire.TableTopic("h", 3, wire.KindEvents), b)
	}()
	sc := bufio.NewScanner(r.Body)
	var prev string
	for sc.Scan() {
		line := sc.Text()
		if prev == "event: table" {
			if line != "data: 3" {
				t.Fatalf("event data %q, want table 3", line)
			}
			return
		}
		prev = line
	}
	t.Fatalf("the stream ended without naming table 3: %v", sc.Err())
}

// TestBoardSVG: stones where the position has them, the last move marked, coordinates on request.
func TestBoardSVG(t *testing.T) {
	pos := "X" + strings.Repeat(".", 79) + "O"
	svg := string(boardSVG(9, pos, "W J1", true))
	if strings.Count(svg, `class="stone X"`) != 1 || strings.Count(svg, `class="stone O"`) != 1 {
		t.Fatalf("stones drawn wrong: %s", svg)
	}
	if !strings.Contains(svg, `cx="200" cy="200" r="4.5"`) {
		t.Error("the last move (J1, bottom right) is not marked")
	}
	for _, tc := range []struct {
		v    string
		x, y int
	}{{"A9", 0, 0}, {"J1", 8, 8}, {"B pass", -1, -1}, {"I5", -1, -1}, {"Z99", -1, -1}, {"", -1, -1}} {
		if x, y := parseVertex(tc.v, 9); x != tc.x || y != tc.y {
			t.Errorf("parseVertex(%q) = %d,%d want %d,%d", tc.v, x, y, tc.x, tc.y)
		}
	}
	if bad := string(boardSVG(9, "X", "", false)); !strings.Contains(bad, "no board yet") {
		t.Error("a short position is drawn")
	}
}

// TestDirectorSetsAResult: a visitor cannot, a result the dashboard does not know is refused, the
// director's result shows on the pages over the table's and can be taken back.
func TestDirectorSetsAResult(t *testing.T) {
	_, web := fedServer(t)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	post := func(path string, form url.Values) int {
		r, err := c.PostForm(web.URL+path, form)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	if code := post("/table/3/result", url.Values{"result": {"W+R"}}); code != http.StatusForbidden {
		t.Fatalf("a visitor's result: status %d", code)
	}
	if code := post("/login", url.Values{"password": {"secret"}}); code != http.StatusOK {
		t.Fatalf("logging in: status %d", code)
	}
	_, page := get(t, c, web.URL+"/table/3")
	i := strings.Index(page, `name="csrf" value="`)
	if i < 0 || !strings.Contains(page, "Set the result") {
		t.Fatal("the director's page has no result form")
	}
	csrf := page[i+len(`name="csrf" value="`):]
	csrf = csrf[:strings.IndexByte(csrf, '"')]
	for _, bad := range []string{"W+", "B+3.7", "white wins", "B+R<script>"} {
		if code := post("/table/3/result", url.Values{"result": {bad}, "csrf": {csrf}}); code != http.StatusBadRequest {
			t.Errorf("result %q: status %d, want 400", bad, code)
		}
	}
	if code := post("/table/9/result", url.Values{"result": {"B+R"}, "csrf": {csrf}}); code != http.StatusNotFound {
		t.Errorf("a result for no table: status %d", code)
	}
	if code := post("/table/3/result", url.Values{"result": {"W+T"}, "csrf": {csrf}}); code != http.StatusOK {
		t.Fatalf("setting W+T: status %d", code)
	}
	// html/template writes "+" as &#43;: the checks read the pages unescaped.
	if _, page := get(t, web.Client(), web.URL+"/results"); !strings.Contains(html.UnescapeString(page), "<b>W+T</b> (director)") {
		t.Fatalf("the results page does not show the director's result:\n%s", page)
	}
	if _, page := get(t, web.Client(), web.URL+"/"); !strings.Contains(html.UnescapeString(page), `<b class="result">W+T</b>`) {
		t.Fatal("the card does not show the director's result")
	}
	if code := post("/table/3/result", url.Values{"result": {""}, "csrf": {csrf}}); code != http.StatusOK {
		t.Fatalf("taking the result back: status %d", code)
	}
	if _, page := get(t, web.Client(), web.URL+"/results"); strings.Contains(html.UnescapeString(page), "W+T") || !strings.Contains(page, "playing") {
		t.Fatal("the result taken back still shows")
	}
}

// TestPINLockAlert: a table's director PIN locked after wrong PINs (the journal's pin-locked
// record, which the table's publisher sends as an event and as an alert of its state) is an
// alert on the table's card with its time, listed on the table's page, and the director
// acknowledges it like the others; the table's other alerts stay.
func TestPINLockAlert(t *testing.T) {
	s, web := fedServer(t)
	tab, _ := s.Table(3)
	lockedAt := time.Date(2026, 11, 25, 10, 32, 5, 0, time.UTC)
	msg := "Director PIN locked for 1 min after 5 wrong PINs"
	ev, _ := json.Marshal(wire.Event{Game: "g", Seq: 6, Kind: "pin-locked", At: lockedAt})
	if err := s.Handle(wire.TableTopic("h", 3, wire.KindEvents), ev); err != nil {
		t.Fatal(err)
	}
	st := tab.State
	st.Seq = 6
	st.Alerts = append(st.Alerts, wire.Verdict{Kind: wire.KindPINLocked, Message: msg, At: lockedAt})
	b, _ := json.Marshal(st)
	if err := s.Handle(wire.TableTopic("h", 3, wire.KindState), b); err != nil {
		t.Fatal(err)
	}
	tab, _ = s.Table(3)
	open := tab.OpenAlerts()
	if len(open) != 2 || open[1].Kind != wire.KindPINLocked {
		t.Fatalf("open alerts %+v, want the illegal move's and the PIN's", open)
	}
	when := lockedAt.Local().Format("15:04:05")
	if _, page := get(t, web.Client(), web.URL+"/"); !strings.Contains(page, "2 alerts: "+when+" "+msg) {
		t.Errorf("the card does not show the PIN's lock with its time %s", when)
	}
	if _, page := get(t, web.Client(), web.URL+"/table/3"); !strings.Contains(page, when+" "+msg) {
		t.Errorf("the table's page does not list the PIN's lock with its time %s", when)
	}
	if !s.Acknowledge(3, AlertKey(open[1])) {
		t.Fatal("the PIN's lock could not be acknowledged")
	}
	tab, _ = s.Table(3)
	if open := tab.OpenAlerts(); len(open) != 1 || open[0].Kind != "illegal" {
		t.Errorf("after acknowledging the PIN's lock: %+v, want the illegal move's only", open)
	}
	if _, page := get(t, web.Client(), web.URL+"/"); strings.Contains(page, msg) || !strings.Contains(page, "Illegal move: ko") {
		t.Error("the card after acknowledging the PIN's lock: want the illegal move only")
	}
}
