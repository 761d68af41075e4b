// Package gotha reads an OpenGotha tournament file (its XML: players, games with their round,
// table, colours, handicap and result, and the general parameters: komi, board size, time system)
// into the hall's table assignments, writes the tables' results back into the same XML, and
// writes the results in the EGF's tournament results format. A file it cannot read is an error
// that says why; reading never panics.
package gotha

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"tengen/clock"
	"tengen/hall/wire"
)

// MaxFile bounds the XML read (a congress of 1,000 players and 10 rounds is about 2 MB).
const MaxFile = 32 << 20

// ErrFormat is wrapped by every error about a file that is not a usable OpenGotha tournament.
var ErrFormat = errors.New("gotha: not an OpenGotha tournament")

// The results OpenGotha writes (the _BYDEF forms are games not played, decided by the director).
const (
	ResultUnknown   = "RESULT_UNKNOWN"
	ResultWhiteWins = "RESULT_WHITEWINS"
	ResultBlackWins = "RESULT_BLACKWINS"
	ResultEqual     = "RESULT_EQUAL"
	ResultBothLose  = "RESULT_BOTHLOSE"
	ResultBothWin   = "RESULT_BOTHWIN"
	byDef           = "_BYDEF"
)

// Player is one registered player.
type Player struct {
	Name, FirstName string
	Rank            string // as OpenGotha writes it: "3D", "12K"
	Country, Club   string
	EGFPin          string
}

// Key is how OpenGotha's games name a player: name and first name in upper case, joined.
func (p Player) Key() string { return strings.ToUpper(p.Name + p.FirstName) }

// Full is the player's name as a table shows it: "Firstname Name".
func (p Player) Full() string { return strings.TrimSpace(p.FirstName + " " + p.Name) }

// Game is one pairing.
type Game struct {
	Round, Table int    // from 1
	Black, White string // player keys
	Handicap     int
	Result       string // RESULT_...
}

// Tournament is what the hall uses of an OpenGotha file.
type Tournament struct {
	Name, ShortName, Location, BeginDate string
	Komi                                 float64
	Size                                 int
	Rounds                               int
	TimeControl                          string // the clock's compact form ("60m+5x30s"), "" when the file's cannot be said
	BasicMinutes                         int    // the main time in minutes
	Players                              map[string]Player
	Games                                []Game
}

type xmlFile struct {
	XMLName xml.Name `xml:"Tournament"`
	Players []struct {
		Name      string `xml:"name,attr"`
		FirstName string `xml:"firstName,attr"`
		Rank      string `xml:"rank,attr"`
		Country   string `xml:"country,attr"`
		Club      string `xml:"club,attr"`
		EGFPin    string `xml:"egfPin,attr"`
	} `xml:"Players>Player"`
	Games []struct {
		Round    string `xml:"roundNumber,attr"`
		Table    string `xml:"tableNumber,attr"`
		Black    string `xml:"blackPlayer,attr"`
		White    string `xml:"whitePlayer,attr"`
		Handicap string `xml:"handicap,attr"`
		Result   string `xml:"result,attr"`
	} `xml:"Games>Game"`
	General struct {
		Name       string `xml:"name,attr"`
		ShortName  string `xml:"shortName,attr"`
		Location   string `xml:"location,attr"`
		BeginDate  string `xml:"beginDate,attr"`
		Komi       string `xml:"komi,attr"`
		Size       string `xml:"size,attr"`
		Rounds     string `xml:"numberOfRounds,attr"`
		BasicTime  string `xml:"basicTime,attr"`
		System     string `xml:"complementaryTimeSystem,attr"`
		StdByoYomi string `xml:"stdByoYomiTime,attr"`
		CanMoves   string `xml:"nbMovesCanTime,attr"`
		CanTime    string `xml:"canByoYomiTime,attr"`
		Fischer    string `xml:"fischerTime,attr"`
	} `xml:"TournamentParameterSet>GeneralParameterSet"`
}

// Parse reads an OpenGotha tournament file.
func Parse(data []byte) (*Tournament, error) {
	if len(data) > MaxFile {
		return nil, fmt.Errorf("%w: %d bytes, over %d", ErrFormat, len(data), MaxFile)
	}
	var f xmlFile
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = charsetReader
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	t := &Tournament{Name: f.General.Name, ShortName: f.General.ShortName, Location: f.General.Location,
		BeginDate: f.General.BeginDate, Players: map[string]Player{}}
	var err error
	num := func(what, s string, lo, hi int) int {
		if err != nil {
			return 0
		}
		n, e := strconv.Atoi(strings.TrimSpace(s))
		if e != nil || n < lo || n > hi {
			err = fmt.Errorf("%w: %s %q is not a number from %d to %d", ErrFormat, what, s, lo, hi)
		}
		return n
	}
	if f.General.Komi != "" {
		k, e := strconv.ParseFloat(f.General.Komi, 64)
		if e != nil || k < -100 || k > 100 {
			return nil, fmt.Errorf("%w: komi %q", ErrFormat, f.General.Komi)
		}
		t.Komi = k
	}
	t.Size = 19
	if f.General.Size != "" {
		t.Size = num("board size", f.General.Size, 2, 25)
	}
	if f.General.Rounds != "" {
		t.Rounds = num("number of rounds", f.General.Rounds, 0, 99)
	}
	if err != nil {
		return nil, err
	}
	t.BasicMinutes, _ = strconv.Atoi(f.General.BasicTime)
	t.TimeControl = timeControl(f.General.BasicTime, f.General.System, f.General.StdByoYomi, f.General.CanMoves, f.General.CanTime, f.General.Fischer)
	for _, p := range f.Players {
		pl := Player{Name: p.Name, FirstName: p.FirstName, Rank: strings.TrimSpace(p.Rank), Country: p.Country, Club: p.Club, EGFPin: p.EGFPin}
		if pl.Name == "" {
			return nil, fmt.Errorf("%w: a player without a name", ErrFormat)
		}
		t.Players[pl.Key()] = pl
	}
	for i, g := range f.Games {
		gm := Game{Round: num("round", g.Round, 1, 99), Table: num("table", g.Table, 1, wire.MaxTable), Black: g.Black, White: g.White, Result: g.Result}
		if g.Handicap != "" {
			gm.Handicap = num("handicap", g.Handicap, 0, 9)
		}
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		for _, k := range []string{g.Black, g.White} {
			if _, ok := t.Players[k]; !ok {
				return nil, fmt.Errorf("%w: game %d (round %d, table %d) names player %q, who is not registered", ErrFormat, i+1, gm.Round, gm.Table, k)
			}
		}
		if gm.Result == "" {
			gm.Result = ResultUnknown
		}
		t.Games = append(t.Games, gm)
		t.Rounds = max(t.Rounds, gm.Round)
	}
	return t, nil
}

// charsetReader accepts the encodings OpenGotha writes (UTF-8, and ISO-8859-1 in old files).
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "":
		return in, nil
	case "iso-8859-1", "latin1", "iso8859-1":
		b, err := io.ReadAll(in)
		if err != nil {
			return nil, err
		}
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return strings.NewReader(string(r)), nil
	}
	return nil, fmt.Errorf("encoding %q is not supported", label)
}

// timeControl says an OpenGotha time system in the clock's compact form, or "" when it cannot
// (OpenGotha's standard byo-yomi does not say how many periods: one is taken, as it counts).
func timeControl(basic, system, std, canMoves, canTime, fischer string) string {
	b, err := strconv.Atoi(basic)
	if err != nil || b < 0 {
		return ""
	}
	tc := fmt.Sprintf("%dm", b)
	switch system {
	case "SUDDENDEATH", "":
	case "STDBYOYOMI":
		tc += "+1x" + std + "s"
	case "CANBYOYOMI":
		tc += "+" + canMoves + "/" + canTime + "s"
	case "FISCHER":
		tc += "+" + fischer + "s"
	default:
		return ""
	}
	if _, err := clock.ParseControl(tc); err != nil {
		return ""
	}
	return tc
}

// Assignments are round r's tables as the hall publishes them, by table number.
func (t *Tournament) Assignments(r int) []wire.Assignment {
	var out []wire.Assignment
	for _, g := range t.Games {
		if g.Round != r {
			continue
		}
		b, w := t.Players[g.Black], t.Players[g.White]
		komi := t.Komi
		if g.Handicap > 0 {
			komi = 0.5
		}
		out = append(out, wire.Assignment{Event: t.Name, Round: r, Table: g.Table, Handicap: g.Handicap, Komi: komi,
			TimeControl: t.TimeControl, Size: t.Size,
			Black: wire.Player{Name: b.Full(), Rank: strings.ToLower(b.Rank)},
			White: wire.Player{Name: w.Full(), Rank: strings.ToLower(w.Rank)}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Table < out[j].Table })
	return out
}

// ResultOf turns an SGF result ("B+3.5", "W+R", "0", "Void") into OpenGotha's; ok is false for
// a result OpenGotha has no word for, or none yet.
func ResultOf(sgfResult string) (string, bool) {
	r := strings.TrimSpace(sgfResult)
	switch {
	case strings.HasPrefix(r, "B+"):
		return ResultBlackWins, true
	case strings.HasPrefix(r, "W+"):
		return ResultWhiteWins, true
	case r == "0" || strings.EqualFold(r, "Draw") || strings.EqualFold(r, "Jigo"):
		return ResultEqual, true
	}
	return "", false
}

// SetResult records the result of round r at table n; it is an error when no game is there.
func (t *Tournament) SetResult(r, n int, result string) error {
	for i := range t.Games {
		if t.Games[i].Round == r && t.Games[i].Table == n {
			t.Games[i].Result = result
			return nil
		}
	}
	return fmt.Errorf("gotha: no game at table %d in round %d", n, r)
}

// WriteXML copies the original file with each game's result attribute set to the tournament's:
// everything else (parameters, other attributes) is written back as it was read.
func (t *Tournament) WriteXML(orig []byte, w io.Writer) error {
	results := map[[2]int]string{}
	for _, g := range t.Games {
		results[[2]int{g.Round, g.Table}] = g.Result
	}
	dec := xml.NewDecoder(bytes.NewReader(orig))
	dec.CharsetReader = charsetReader
	enc := xml.NewEncoder(w)
	inGames := false
	for {
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("%w: %w", ErrFormat, err)
		}
		switch el := tok.(type) {
		case xml.ProcInst:
			if el.Target == "xml" {
				tok = xml.ProcInst{Target: "xml", Inst: []byte(`version="1.0" encoding="UTF-8" standalone="no"`)}
			}
		case xml.StartElement:
			switch el.Name.Local {
			case "Games":
				inGames = true
			case "Game":
				if inGames {
					tok = withResult(el, results)
				}
			}
		case xml.EndElement:
			if el.Name.Local == "Games" {
				inGames = false
			}
		}
		if err := enc.EncodeToken(tok); err != nil {
			return err
		}
	}
	return enc.Flush()
}

func withResult(el xml.StartElement, results map[[2]int]string) xml.StartElement {
	var r, n int
	for _, a := range el.Attr {
		switch a.Name.Local {
		case "roundNumber":
			r, _ = strconv.Atoi(a.Value)
		case "tableNumber":
			n, _ = strconv.Atoi(a.Value)
		}
	}
	res, ok := results[[2]int{r, n}]
	if !ok {
		return el
	}
	out := el.Copy()
	for i, a := range out.Attr {
		if a.Name.Local == "result" {
			out.Attr[i].Value = res
			return out
		}
	}
	out.Attr = append(out.Attr, xml.Attr{Name: xml.Name{Local: "result"}, Value: res})
	return out
}

// rankValue orders ranks: 30k = 0 .. 1k = 29, 1d = 30 .. 9d = 38; unknown = -1.
func rankValue(r string) int {
	r = strings.ToUpper(strings.TrimSpace(r))
	if len(r) < 2 {
		return -1
	}
	n, err := strconv.Atoi(r[:len(r)-1])
	if err != nil {
		return -1
	}
	switch r[len(r)-1] {
	case 'K':
		return 30 - n
	case 'D', 'P':
		return 29 + n
	}
	return -1
}

// score is what game g gives the player key: points (a win or a both-win 1, a jigo half) and the
// EGF symbol ("+", "-", "=", or "?" without a result).
func score(g Game, key string) (float64, string) {
	res := strings.TrimSuffix(g.Result, byDef)
	black := g.Black == key
	switch res {
	case ResultBlackWins:
		if black {
			return 1, "+"
		}
		return 0, "-"
	case ResultWhiteWins:
		if black {
			return 0, "-"
		}
		return 1, "+"
	case ResultEqual:
		return 0.5, "="
	case ResultBothWin:
		return 1, "+"
	case ResultBothLose:
		return 0, "-"
	}
	return 0, "?"
}

// WriteEGF writes the results in the EGF's tournament results format: a header of ';' lines,
// then one line per player by place (points, then rank): place, surname and first name
// (spaces inside a name as '_'), rank, country, club, then each round as
// <opponent's place><+|-|=>/<b|w><handicap>, "0-" for a round not played. A game still without a
// result is written with '?' for its symbol: the file must not be sent before every game has one.
func (t *Tournament) WriteEGF(w io.Writer) error {
	type row struct {
		key    string
		p      Player
		points float64
	}
	rows := make([]row, 0, len(t.Players))
	for k, p := range t.Players {
		rw := row{key: k, p: p}
		for _, g := range t.Games {
			if g.Black == k || g.White == k {
				pts, _ := score(g, k)
				rw.points += pts
			}
		}
		rows = append(rows, rw)
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.points != b.points {
			return a.points > b.points
		}
		if ra, rb := rankValue(a.p.Rank), rankValue(b.p.Rank); ra != rb {
			return ra > rb
		}
		return a.key < b.key
	})
	place := map[string]int{}
	for i, r := range rows {
		place[r.key] = i + 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "; EV[%s]\n; PC[%s]\n; DT[%s]\n; KM[%g]\n; TM[%d]\n; written by Tengen's hall from OpenGotha's file (time control %s)\n;\n",
		t.Name, t.Location, t.BeginDate, t.Komi, t.BasicMinutes, t.TimeControl)
	fmt.Fprintf(&b, "; Pl Name Rk Co Club")
	for r := 1; r <= t.Rounds; r++ {
		fmt.Fprintf(&b, " %d", r)
	}
	b.WriteString("\n")
	under := strings.NewReplacer(" ", "_")
	for _, r := range rows {
		rank := strings.ToLower(r.p.Rank)
		if rank == "" {
			rank = "?"
		}
		fmt.Fprintf(&b, "%d %s %s %s %s %s", place[r.key], under.Replace(r.p.Name), under.Replace(orDash(r.p.FirstName)),
			rank, orDash(strings.ToUpper(r.p.Country)), under.Replace(orDash(r.p.Club)))
		for rd := 1; rd <= t.Rounds; rd++ {
			cell := "0-"
			for _, g := range t.Games {
				if g.Round != rd || (g.Black != r.key && g.White != r.key) {
					continue
				}
				if strings.HasSuffix(g.Result, byDef) {
					_, sym := score(g, r.key)
					cell = "0" + sym
					break
				}
				opp, col := g.White, "b"
				if g.White == r.key {
					opp, col = g.Black, "w"
				}
				_, sym := score(g, r.key)
				cell = fmt.Sprintf("%d%s/%s%d", place[opp], sym, col, g.Handicap)
				break
			}
			b.WriteString(" " + cell)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}
