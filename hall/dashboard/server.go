package dashboard

import (
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"tengen/clock"
	"tengen/hall/gotha"
)

//go:embed web
var webFiles embed.FS

// SessionCookie is the director's login cookie.
const SessionCookie = "tengen_hall_director"

// sessionLife is how long a director's login lasts.
const sessionLife = 12 * time.Hour

// Options configures the web server.
type Options struct {
	// DirectorPassword logs the director in (the hall's director password from `hall init`'s
	// credentials); "" = nobody can log in.
	DirectorPassword string
	Logger           *slog.Logger
	// KeepAlive is how often the live stream sends a comment to keep proxies from closing it; 0 = 15s.
	KeepAlive time.Duration
	// Tournament, when set, is the OpenGotha tournament (and TournamentXML its file) whose round
	// Round the hall plays: the results page then offers its results as OpenGotha XML and in the
	// EGF format.
	Tournament    *gotha.Tournament
	TournamentXML []byte
	Round         int
}

// Server serves the hall's pages from a Store.
type Server struct {
	store *Store
	o     Options
	log   *slog.Logger
	tmpl  *template.Template
	mux   *http.ServeMux

	mu       sync.Mutex
	sessions map[string]time.Time // token -> expiry
}

// NewServer returns the dashboard's web server for store.
func NewServer(store *Store, o Options) (*Server, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.KeepAlive <= 0 {
		o.KeepAlive = 15 * time.Second
	}
	s := &Server{store: store, o: o, log: o.Logger, sessions: map[string]time.Time{}}
	t, err := template.New("").Funcs(template.FuncMap{
		"board":  boardSVG,
		"clock":  clockFace,
		"left":   clockLeft,
		"moveNo": func(i int) int { return i + 1 },
		"key":    AlertKey,
		"color":  colorWord,
		"vertex": func(m string) string { _, v, _ := strings.Cut(m, " "); return v },
		"last": func(moves []string) string {
			if len(moves) == 0 {
				return ""
			}
			return moves[len(moves)-1]
		},
		"tmpl":      func(t time.Time) string { return t.Local().Format("15:04:05") },
		"add":       func(a, b int) int { return a + b },
		"withTable": func(p page, t Table) page { p.Table = &t; return p },
	}).ParseFS(webFiles, "web/*.html")
	if err != nil {
		return nil, fmt.Errorf("dashboard templates: %w", err)
	}
	s.tmpl = t
	static, err := fs.Sub(webFiles, "web")
	if err != nil {
		return nil, err
	}
	m := http.NewServeMux()
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /{$}", s.overview)
	m.HandleFunc("GET /card/{n}", s.tablePage("card"))
	m.HandleFunc("GET /table/{n}", s.tablePage("table.html"))
	m.HandleFunc("GET /table/{n}/live", s.tablePage("live"))
	m.HandleFunc("GET /table/{n}/sgf", s.sgf)
	m.HandleFunc("POST /table/{n}/ack", s.ack)
	m.HandleFunc("POST /table/{n}/result", s.setResult)
	m.HandleFunc("GET /results", s.results)
	m.HandleFunc("GET /export/opengotha.xml", s.exportGotha)
	m.HandleFunc("GET /export/egf.txt", s.exportEGF)
	m.HandleFunc("GET /events", s.events)
	m.HandleFunc("GET /login", s.loginForm)
	m.HandleFunc("POST /login", s.login)
	m.HandleFunc("POST /logout", s.logout)
	s.mux = m
	return s, nil
}

// ServeHTTP serves the pages.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'")
	s.mux.ServeHTTP(w, r)
}

// page is what every template gets.
type page struct {
	Hall     string
	Director bool   // logged in as the director
	CSRF     string // the session's token, echoed by the director's forms
	Tables   []Table
	Table    *Table
	Now      time.Time
	Error    string
	Round    int // the tournament's round the hall plays (0: no tournament loaded)
}

func (s *Server) page(r *http.Request) page {
	tok, ok := s.session(r)
	p := page{Hall: s.store.Hall(), Director: ok, Now: time.Now()}
	if s.o.Tournament != nil {
		p.Round = s.o.Round
	}
	if ok {
		p.CSRF = tok
	}
	return p
}

func (s *Server) render(w http.ResponseWriter, name string, p page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.tmpl.ExecuteTemplate(w, name, p); err != nil {
		s.log.Warn("dashboard page", "page", name, "err", err)
	}
}

func (s *Server) overview(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Tables = s.store.Tables()
	s.render(w, "overview.html", p)
}

func (s *Server) results(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Tables = s.store.Tables()
	s.render(w, "results.html", p)
}

// tableOf finds the table of the request's {n}, or answers 404.
func (s *Server) tableOf(w http.ResponseWriter, r *http.Request) (*Table, bool) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		http.NotFound(w, r)
		return nil, false
	}
	t, ok := s.store.Table(n)
	if !ok {
		http.Error(w, "no such table (yet)", http.StatusNotFound)
		return nil, false
	}
	return &t, true
}

// tablePage renders one table of the request's path with the named template (its card on the
// hall page, its own page, or the live part of that page).
func (s *Server) tablePage(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t, ok := s.tableOf(w, r)
		if !ok {
			return
		}
		p := s.page(r)
		p.Table = t
		s.render(w, name, p)
	}
}

func (s *Server) sgf(w http.ResponseWriter, r *http.Request) {
	t, ok := s.tableOf(w, r)
	if !ok {
		return
	}
	if len(t.SGF) == 0 {
		http.Error(w, "no SGF from this table yet", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/x-go-sgf")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-table-%d.sgf"`, s.store.Hall(), t.Number))
	_, _ = w.Write(t.SGF)
}

// roundResults is the tournament with the results the tables of its round reported.
func (s *Server) roundResults() (*gotha.Tournament, int) {
	t := *s.o.Tournament
	t.Games = append([]gotha.Game(nil), s.o.Tournament.Games...)
	n := 0
	round := strconv.Itoa(s.o.Round)
	for _, tab := range s.store.Tables() {
		if tab.State.Round != "" && tab.State.Round != round {
			continue
		}
		res, ok := gotha.ResultOf(tab.Result())
		if !ok {
			continue
		}
		if t.SetResult(s.o.Round, tab.Number, res) == nil {
			n++
		}
	}
	return &t, n
}

func (s *Server) exportGotha(w http.ResponseWriter, r *http.Request) {
	if s.o.Tournament == nil {
		http.Error(w, "no OpenGotha tournament loaded (hall serve --gotha FILE --round N)", http.StatusNotFound)
		return
	}
	t, n := s.roundResults()
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-round-%d.xml"`, s.store.Hall(), s.o.Round))
	if err := t.WriteXML(s.o.TournamentXML, w); err != nil {
		s.log.Warn("OpenGotha export", "err", err)
	}
	s.log.Info("OpenGotha results exported", "round", s.o.Round, "results", n)
}

func (s *Server) exportEGF(w http.ResponseWriter, r *http.Request) {
	if s.o.Tournament == nil {
		http.Error(w, "no OpenGotha tournament loaded (hall serve --gotha FILE --round N)", http.StatusNotFound)
		return
	}
	t, _ := s.roundResults()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-egf.txt"`, s.store.Hall()))
	if err := t.WriteEGF(w); err != nil {
		s.log.Warn("EGF export", "err", err)
	}
}

// events is the live stream: one "table" event with the table's number at each change.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	changes, stop := s.store.Subscribe()
	defer stop()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	fmt.Fprint(w, "retry: 2000\n: hello\n\n")
	fl.Flush()
	keep := time.NewTicker(s.o.KeepAlive)
	defer keep.Stop()
	pending := map[int]bool{}
	flushEvery := time.NewTicker(250 * time.Millisecond) // a busy table nudges the page at most 4 times a second
	defer flushEvery.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case n := <-changes:
			pending[n] = true
		case <-flushEvery.C:
			if len(pending) == 0 {
				continue
			}
			for n := range pending {
				fmt.Fprintf(w, "event: table\ndata: %d\n\n", n)
			}
			clear(pending)
			fl.Flush()
		case <-keep.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			fl.Flush()
		}
	}
}

func (s *Server) loginForm(w http.ResponseWriter, r *http.Request) {
	s.render(w, "login.html", s.page(r))
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	pw := r.PostFormValue("password")
	if s.o.DirectorPassword == "" || subtle.ConstantTimeCompare([]byte(pw), []byte(s.o.DirectorPassword)) != 1 {
		s.log.Warn("dashboard: a wrong director password", "from", r.RemoteAddr)
		time.Sleep(500 * time.Millisecond) // a guesser's pace
		p := s.page(r)
		p.Error = "Wrong password."
		w.WriteHeader(http.StatusUnauthorized)
		s.render(w, "login.html", p)
		return
	}
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		http.Error(w, "no randomness", http.StatusInternalServerError)
		return
	}
	tok := hex.EncodeToString(b)
	s.mu.Lock()
	now := time.Now()
	for k, exp := range s.sessions {
		if now.After(exp) {
			delete(s.sessions, k)
		}
	}
	s.sessions[tok] = now.Add(sessionLife)
	s.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: tok, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, MaxAge: int(sessionLife / time.Second)})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if tok, ok := s.session(r); ok && r.PostFormValue("csrf") == tok {
		s.mu.Lock()
		delete(s.sessions, tok)
		s.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// session returns the request's director session token when it is logged in.
func (s *Server) session(r *http.Request) (string, bool) {
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.sessions[c.Value]
	if !ok || time.Now().After(exp) {
		return "", false
	}
	return c.Value, true
}

// director checks that a form comes from the logged-in director (the session's token in it);
// otherwise it answers 403 and returns false.
func (s *Server) director(w http.ResponseWriter, r *http.Request) bool {
	tok, ok := s.session(r)
	if !ok {
		http.Error(w, "log in as the director for this", http.StatusForbidden)
		return false
	}
	if subtle.ConstantTimeCompare([]byte(r.PostFormValue("csrf")), []byte(tok)) != 1 {
		http.Error(w, "stale form: reload the page", http.StatusForbidden)
		return false
	}
	return true
}

// setResult records the director's result for a table's game.
func (s *Server) setResult(w http.ResponseWriter, r *http.Request) {
	if !s.director(w, r) {
		return
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	res := strings.TrimSpace(r.PostFormValue("result"))
	if err := s.store.SetResult(n, res); err != nil {
		status := http.StatusNotFound
		if errors.Is(err, ErrBadResult) {
			status = http.StatusBadRequest
		}
		http.Error(w, err.Error(), status)
		return
	}
	s.log.Info("dashboard: the director set a result", "table", n, "result", res)
	http.Redirect(w, r, "/table/"+strconv.Itoa(n), http.StatusSeeOther)
}

// ack acknowledges an alert: the director only, with the session's token in the form.
func (s *Server) ack(w http.ResponseWriter, r *http.Request) {
	if !s.director(w, r) {
		return
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	if !s.store.Acknowledge(n, r.PostFormValue("alert")) {
		http.Error(w, "no such open alert", http.StatusNotFound)
		return
	}
	s.log.Info("dashboard: alert acknowledged", "table", n, "alert", r.PostFormValue("alert"))
	http.Redirect(w, r, "/table/"+strconv.Itoa(n), http.StatusSeeOther)
}

// clockLeft is the milliseconds side has left now: the running side's time counted down since
// the dashboard received the clock (main time and overtime periods alike).
func clockLeft(t Table, side string) int64 {
	c := t.Clock
	if c == nil {
		return 0
	}
	s := c.Black
	if side == "W" {
		s = c.White
	}
	left := s.MillisLeft
	if c.Running == side && !s.Flagged {
		left -= time.Since(t.ClockSeen).Milliseconds()
	}
	return max(left, 0)
}

// clockFace is the side's clock as the page shows it: the table's own text when it is not
// running, the time counted down since the dashboard received it when it is (main time only; overtime
// keeps the table's text, which says the periods).
func clockFace(t Table, side string) string {
	c := t.Clock
	if c == nil {
		return "–"
	}
	s := c.Black
	if side == "W" {
		s = c.White
	}
	if c.Running != side || s.Overtime || s.Flagged {
		return s.Text
	}
	return clock.FormatRemaining(time.Duration(clockLeft(t, side)) * time.Millisecond)
}

func colorWord(c string) string {
	switch c {
	case "B":
		return "Black"
	case "W":
		return "White"
	}
	return ""
}
