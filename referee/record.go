package referee

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"tengen/clock"
	"tengen/engine"
	"tengen/engine/sgf"
)

// Record returns the game's SGF record: set-up, handicap, every recorded move with its clock
// time (BL/WL, OB/OW in overtime) and the referee's comments (illegal moves, stop, resumption,
// director actions, the count). Illegal moves appear only in comments. It is nil before the set-up.
func (t *Table) Record() *sgf.Record {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.game == nil {
		return nil
	}
	return t.record()
}

func (t *core) record() *sgf.Record {
	g := t.game
	s := t.setup
	r := sgf.FromGame(g)
	r.Rules, r.BlackName, r.WhiteName, r.BlackRank, r.WhiteRank = rulesName(s.Rules), s.Black.Name, s.White.Name, s.Black.Rank, s.White.Rank
	r.Date, r.Event, r.Round, r.Result, r.Application = s.Date, s.Event, s.Round, t.result, t.cfg.Application
	if s.Table != "" {
		r.GameName = "Table " + s.Table
	}
	if t.clk != nil {
		c := t.clk.Control()
		r.TimeLimit = c.Main.Seconds()
		r.Overtime = overtimeText(c)
	}
	if n := t.notes[0]; n != nil {
		r.Comment = strings.Join(n.Comments, "\n")
	}
	for i, p := range g.Moves() {
		n := t.notes[p.Number]
		if n == nil {
			continue
		}
		m := &r.Moves[i]
		m.Comment = strings.Join(n.Comments, "\n")
		if n.Time != nil {
			tl := timeLeft(*n.Time, sideOf(p.Move.Color))
			if p.Move.Color == engine.Black {
				m.BlackTime = tl
			} else {
				m.WhiteTime = tl
			}
		}
	}
	return r
}

// rulesName is the SGF RU value of a preset.
func rulesName(preset string) string {
	switch strings.ToLower(preset) {
	case "aga", "aga-area":
		return "AGA"
	case "aga-territory":
		return "AGA (territory counting)"
	case "japanese":
		return "Japanese"
	case "chinese":
		return "Chinese"
	case "tromp-taylor":
		return "Tromp-Taylor"
	case "new-zealand":
		return "NZ"
	}
	return preset
}

func overtimeText(c clock.Control) string {
	switch c.Kind {
	case clock.ByoYomi:
		return fmt.Sprintf("%dx%g byo-yomi", c.Periods, c.Period.Seconds())
	case clock.Canadian:
		return fmt.Sprintf("%d/%g Canadian", c.Stones, c.Period.Seconds())
	case clock.Fischer:
		return fmt.Sprintf("%g fischer", c.Increment.Seconds())
	}
	return ""
}

// timeLeft is one side's clock as SGF writes it after its move: seconds left (whole tenths),
// and in overtime the periods (byo-yomi) or stones (Canadian) left.
func timeLeft(st clock.State, side clock.Side) sgf.TimeLeft {
	ss := st.Side(side)
	tl := sgf.TimeLeft{HasSeconds: true}
	d := ss.Main
	if ss.InOvertime {
		d = ss.PeriodLeft
		tl.HasPeriods = true
		tl.Periods = ss.Periods
		if st.Control.Kind == clock.Canadian {
			tl.Periods = ss.Stones
		}
	}
	tl.Seconds = math.Floor(d.Seconds()*10) / 10
	return tl
}

// saveSGF rewrites the game's SGF atomically; a failure is logged and shown, never fatal.
func (t *Table) saveSGF() {
	if err := t.writeSGF(); err != nil {
		t.log.Error("writing the SGF", "path", t.opts.SGFPath, "err", err)
		t.setBanner(Verdict{Kind: VerdictDirector, At: t.lastAt, Says: []Phrase{phrase("The game record cannot be written ({{.Err}}): call the director.", "Err", err.Error())}})
	}
}

// writeSGF rewrites the game's SGF. A record shorter than the file it replaces (a journal cut
// back after damage, a director's undo) never loses the longer one: it is kept beside it first, as
// game.sgf.longer-<time>.
func (t *Table) writeSGF() error {
	if t.game == nil {
		return nil
	}
	data := t.record().MarshalSGF()
	if old, err := os.ReadFile(t.opts.SGFPath); err == nil && len(old) > len(data) {
		keep := fmt.Sprintf("%s.longer-%s", t.opts.SGFPath, t.live.Now().UTC().Format("20060102T150405.000"))
		if err := WriteFileAtomic(keep, old, !t.opts.NoSync); err != nil {
			return fmt.Errorf("keeping the longer record: %w", err)
		}
		t.log.Warn("the game record is shorter than the file it replaces; the longer one is kept", "kept", keep)
	}
	return WriteFileAtomic(t.opts.SGFPath, data, !t.opts.NoSync)
}

// fileGame copies the finished game into the games directory under a name a director can find.
func (t *Table) fileGame() {
	if t.opts.GamesDir == "" || t.game == nil {
		return
	}
	path := filepath.Join(t.opts.GamesDir, GameFileName(t.setup))
	if err := WriteFileAtomic(path, t.record().MarshalSGF(), !t.opts.NoSync); err != nil {
		t.log.Error("filing the game", "path", path, "err", err)
		t.setBanner(Verdict{Kind: VerdictDirector, At: t.lastAt, Says: []Phrase{phrase("The finished game cannot be filed ({{.Err}}): call the director.", "Err", err.Error())}})
		return
	}
	t.gamePath = path
}

// GameFileName is the name a finished game is filed under:
// <date>_<event>_R<round>_T<table>_<black>-vs-<white>.sgf, with unsafe characters replaced.
func GameFileName(s Setup) string {
	parts := []string{clean(s.Date, "undated")}
	if s.Event != "" {
		parts = append(parts, clean(s.Event, ""))
	}
	if s.Round != "" {
		parts = append(parts, "R"+clean(s.Round, ""))
	}
	if s.Table != "" {
		parts = append(parts, "T"+clean(s.Table, ""))
	}
	parts = append(parts, clean(s.Black.Name, "Black")+"-vs-"+clean(s.White.Name, "White"))
	return strings.Join(parts, "_") + ".sgf"
}

// clean keeps letters, digits, '-' and '.'; other runs become one '-'. Empty gives def.
func clean(s, def string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.TrimSpace(s) {
		ok := r == '-' || r == '.' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r > 127 && r != 0xfffd
		if ok {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-.")
	if len(out) > 60 {
		out = out[:60]
	}
	if out == "" {
		return def
	}
	return out
}

// WriteFileAtomic writes data to path through a temporary file in the same directory, fsynced
// and renamed over path (and the directory fsynced), so readers see the old or the new file,
// never a torn one.
func WriteFileAtomic(path string, data []byte, sync bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	if sync {
		d, err := os.Open(dir)
		if err != nil {
			return err
		}
		defer d.Close()
		return d.Sync()
	}
	return nil
}
