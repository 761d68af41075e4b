package sgf

import (
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"

	"tengen/engine"
)

// Record is one Go game as the referee keeps it: the game information of the root node, the root's
// setup stones and the main line's moves. Variations are not part of a record (Parse keeps them).
type Record struct {
	Size        int     // SZ: board size (square boards only); 19 when absent
	Komi        float64 // KM as written (some servers write 750 for 7.5; the record does not guess)
	HasKomi     bool    // KM was present
	Handicap    int     // HA: number of handicap stones, 0 for none
	Rules       string  // RU as written, e.g. "Japanese", "AGA", "Chinese"
	BlackName   string  // PB
	WhiteName   string  // PW
	BlackRank   string  // BR
	WhiteRank   string  // WR
	Date        string  // DT
	Event       string  // EV
	Round       string  // RO
	Place       string  // PC
	Result      string  // RE, e.g. "B+3.5", "W+R", "0"
	GameName    string  // GN
	GameComment string  // GC: a comment about the whole game
	Comment     string  // C of the root node
	TimeLimit   float64 // TM: main time in seconds, 0 when absent
	Overtime    string  // OT: overtime method as written, e.g. "5x30 byo-yomi"
	Application string  // AP: the program that wrote the record, e.g. "Tengen:1.0"
	Setup       []Stone // AB, then AW, then AE of the root node (AE as Color engine.Empty)
	Moves       []Move  // the main line: the root's move if any, then each later node with a move, setup, C or times
	// Warnings lists values that could not be read and were ignored (an unreadable KM or BL, say), so
	// that an audit can mention them without refusing the game. MarshalSGF does not write them.
	Warnings []string
}

// Stone is one setup stone: Color Black (AB), White (AW) or Empty (AE, the point is cleared).
type Stone struct {
	Color engine.Color
	Point engine.Point
}

// Move is one main-line node: normally a move (B or W) with its comment and the clock times written
// with it. A node that carries only setup stones or a comment has Color engine.Empty and no move.
type Move struct {
	Color     engine.Color // Black or White; Empty for a node without a move
	Point     engine.Point // the point played, unless Pass
	Pass      bool
	Setup     []Stone  // setup stones in this node, placed before its move
	Comment   string   // C
	BlackTime TimeLeft // BL, OB
	WhiteTime TimeLeft // WL, OW
	Offset    int      // byte offset of the node in the input, 0 for records built in code
}

// TimeLeft is one side's clock as written in a node: seconds left (BL/WL) and, in overtime, the
// periods or stones left (OB/OW).
type TimeLeft struct {
	Seconds    float64
	Periods    int
	HasSeconds bool
	HasPeriods bool
}

// IsMove reports whether the node holds a move (a stone or a pass).
func (m Move) IsMove() bool { return m.Color == engine.Black || m.Color == engine.White }

// Engine returns the move as the engine plays it.
func (m Move) Engine() engine.Move {
	return engine.Move{Color: m.Color, Point: m.Point, Pass: m.Pass}
}

// MoveCount returns the number of moves (stones and passes) in the main line.
func (r *Record) MoveCount() int {
	n := 0
	for _, m := range r.Moves {
		if m.IsMove() {
			n++
		}
	}
	return n
}

// ReadRecord parses data and returns the first game's record.
func ReadRecord(data []byte) (*Record, error) {
	c, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return RecordFromTree(c.Games[0])
}

// ReadRecords parses data and returns the record of every game in the collection.
func ReadRecords(data []byte) ([]*Record, error) {
	c, err := Parse(data)
	if err != nil {
		return nil, err
	}
	recs := make([]*Record, 0, len(c.Games))
	for i, g := range c.Games {
		r, err := RecordFromTree(g)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// RecordFromTree reads the game whose root node is root, following its main line. Errors are
// *SyntaxError values pointing at the offending property: a rectangular or impossible SZ, a game
// other than Go (GM), a point off the board, a node with both B and W.
func RecordFromTree(root *Node) (*Record, error) {
	r, err := GameInfo(root)
	if err != nil {
		return nil, err
	}
	n := 0
	for c := root; len(c.Children) > 0; c = c.Children[0] {
		n++
	}
	r.Moves = make([]Move, 0, n+1)
	for m, err := range r.MainLine(root) {
		if err != nil {
			return nil, err
		}
		r.Moves = append(r.Moves, m)
	}
	return r, nil
}

// GameInfo reads the root node of a game: everything of a Record except Moves. Use it with
// MainLine to walk a long game without collecting its moves.
func GameInfo(root *Node) (*Record, error) {
	r := &Record{Size: 19}
	if p := root.Prop("GM"); p != nil && strings.TrimSpace(first(p)) != "1" && strings.TrimSpace(first(p)) != "" {
		return nil, syntaxErr(p.Offset, "GM[%s]: not a game of Go (GM[1])", first(p))
	}
	if p := root.Prop("SZ"); p != nil {
		v := strings.TrimSpace(first(p))
		if a, b, ok := strings.Cut(v, ":"); ok {
			if strings.TrimSpace(a) != strings.TrimSpace(b) {
				return nil, syntaxErr(p.Offset, "SZ[%s]: rectangular boards are not supported, only square ones", v)
			}
			v = strings.TrimSpace(a)
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxSize {
			return nil, syntaxErr(p.Offset, "SZ[%s]: board size must be a whole number from 1 to %d", v, MaxSize)
		}
		r.Size = n
	}
	for _, p := range root.Props {
		v := first(&p)
		switch p.ID {
		case "KM":
			k, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(k) || math.IsInf(k, 0) {
				r.Warnings = append(r.Warnings, fmt.Sprintf("KM[%s] is not a number; ignored", v))
				continue
			}
			r.Komi, r.HasKomi = k, true
		case "HA":
			h, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || h < 0 || h > r.Size*r.Size {
				r.Warnings = append(r.Warnings, fmt.Sprintf("HA[%s] is not a number of stones; ignored", v))
				continue
			}
			r.Handicap = h
		case "TM":
			t, err := parseSeconds(v)
			if err != nil {
				r.Warnings = append(r.Warnings, fmt.Sprintf("TM[%s] is not a number of seconds; ignored", v))
				continue
			}
			r.TimeLimit = t
		case "RU":
			r.Rules = v
		case "PB":
			r.BlackName = v
		case "PW":
			r.WhiteName = v
		case "BR":
			r.BlackRank = v
		case "WR":
			r.WhiteRank = v
		case "DT":
			r.Date = v
		case "EV":
			r.Event = v
		case "RO":
			r.Round = v
		case "PC":
			r.Place = v
		case "RE":
			r.Result = v
		case "GN":
			r.GameName = v
		case "GC":
			r.GameComment = v
		case "C":
			r.Comment = v
		case "OT":
			r.Overtime = v
		case "AP":
			r.Application = v
		}
	}
	setup, err := readSetup(root, r.Size)
	if err != nil {
		return nil, err
	}
	r.Setup = setup
	return r, nil
}

// maxSetupBoards bounds the setup stones of a main line, in full boards, so that a small file of
// overlapping rectangles (AB[aa:ss] in every node) cannot expand into gigabytes.
const maxSetupBoards = 64

// MaxMoves bounds the nodes of a game's main line that carry a move, setup stones, a comment or
// clock times. The longest professional games have about 400 moves; a file with more than MaxMoves
// is refused as not a game record, so that a small file of passes cannot make a replay hold
// hundreds of megabytes of history.
const MaxMoves = 10_000

// maxLineNodes bounds every node of a main line, those without a move included.
const maxLineNodes = 10 * MaxMoves

// lineCount is what a main line has used so far of its bounds.
type lineCount struct {
	setup int // setup stones
	moves int // main-line nodes read as a Move
	nodes int // main-line nodes
}

// MainLine yields the main line of the game rooted at root as Move values, on the record's board
// size: the root's own move if it has one (its setup is the record's Setup), then one Move for every
// later node that carries a move, setup stones, a comment or clock times. It stops after the first
// error (a *SyntaxError), which includes more than 64 boards' worth of setup stones and more than
// MaxMoves moves. Unreadable clock
// times are noted in r.Warnings.
func (r *Record) MainLine(root *Node) iter.Seq2[Move, error] {
	return func(yield func(Move, error) bool) {
		count := lineCount{setup: len(r.Setup)}
		for n := root; n != nil; {
			m, ok, err := r.mainLineNode(n, n == root, &count)
			if err != nil {
				yield(m, err)
				return
			}
			if ok && !yield(m, nil) {
				return
			}
			if len(n.Children) == 0 {
				return
			}
			n = n.Children[0]
		}
	}
}

// mainLineNode reads one main-line node (the root's move only, for the root) and keeps the count of
// setup stones so far within maxSetupBoards and the moves within MaxMoves.
func (r *Record) mainLineNode(n *Node, root bool, count *lineCount) (Move, bool, error) {
	if count.nodes++; count.nodes > maxLineNodes {
		return Move{}, false, syntaxErr(n.Offset, "more than %d nodes on the main line: not a game record", maxLineNodes)
	}
	m, ok, err := readMove(r, n, r.Size, !root)
	if err != nil {
		return m, false, err
	}
	if count.setup += len(m.Setup); count.setup > maxSetupBoards*r.Size*r.Size {
		return m, false, syntaxErr(n.Offset, "more than %d boards' worth of setup stones: not a game record", maxSetupBoards)
	}
	if ok {
		if count.moves++; count.moves > MaxMoves {
			return m, false, syntaxErr(n.Offset, "more than %d moves on the main line: not a game record", MaxMoves)
		}
	}
	return m, ok, nil
}

// readSetup reads AB, AW and AE of a node, in that order.
func readSetup(n *Node, size int) ([]Stone, error) {
	var stones []Stone
	for _, c := range []struct {
		id    string
		color engine.Color
	}{{"AB", engine.Black}, {"AW", engine.White}, {"AE", engine.Empty}} {
		// All values of the identifier in the node go through one ExpandPoints, so that repeated
		// properties cannot list a point more than once.
		var values []string
		for _, p := range n.Props {
			if p.ID == c.id {
				values = append(values, p.Values...)
			}
		}
		if values == nil {
			continue
		}
		pts, err := ExpandPoints(values, size)
		if err != nil {
			// Point at the property holding the bad value.
			for _, p := range n.Props {
				if _, perr := ExpandPoints(p.Values, size); p.ID == c.id && perr != nil {
					return nil, syntaxErr(p.Offset, "%s: %v", p.ID, perr)
				}
			}
			return nil, syntaxErr(n.Offset, "%s: %v", c.id, err)
		}
		for _, pt := range pts {
			stones = append(stones, Stone{Color: c.color, Point: pt})
		}
	}
	return stones, nil
}

// readMove reads a node's move, times, comment and (unless it is the root) setup. ok is false for a
// node that carries none of them.
func readMove(r *Record, n *Node, size int, withSetup bool) (m Move, ok bool, err error) {
	m.Offset = n.Offset
	hasSetup := false
	for _, p := range n.Props {
		v := first(&p)
		switch p.ID {
		case "AB", "AW", "AE":
			hasSetup = true
		case "B", "W":
			if m.Color != engine.Empty {
				return m, false, syntaxErr(p.Offset, "a node holds two moves (B and W): one move per node")
			}
			m.Color = engine.Black
			if p.ID == "W" {
				m.Color = engine.White
			}
			pt, pass, err := ParseMove(v, size)
			if err != nil {
				return m, false, syntaxErr(p.Offset, "%s[%s]: %v", p.ID, v, err)
			}
			m.Point, m.Pass = pt, pass
		case "C":
			if withSetup {
				m.Comment = v
			}
		case "BL", "WL":
			s, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(s) || math.IsInf(s, 0) {
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s[%s] at byte %d is not a number of seconds; ignored", p.ID, v, p.Offset))
				continue
			}
			t := &m.BlackTime
			if p.ID == "WL" {
				t = &m.WhiteTime
			}
			t.Seconds, t.HasSeconds = s, true
		case "OB", "OW":
			k, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s[%s] at byte %d is not a whole number of periods; ignored", p.ID, v, p.Offset))
				continue
			}
			t := &m.BlackTime
			if p.ID == "OW" {
				t = &m.WhiteTime
			}
			t.Periods, t.HasPeriods = k, true
		}
	}
	if withSetup && hasSetup {
		if m.Setup, err = readSetup(n, size); err != nil {
			return m, false, err
		}
	}
	ok = m.Color != engine.Empty || len(m.Setup) > 0 || m.Comment != "" ||
		m.BlackTime != (TimeLeft{}) || m.WhiteTime != (TimeLeft{})
	return m, ok, nil
}

// Tree builds the SGF game tree of the record: a root with FF[4] GM[1] CA[UTF-8] and the game
// information in a fixed order, then one node per Move. Points must lie on the board; a Size of 0 is
// left out (readers take 19).
func (r *Record) Tree() *Node {
	root := &Node{}
	add := func(n *Node, id, v string) {
		if v != "" {
			n.Props = append(n.Props, Property{ID: id, Values: []string{v}})
		}
	}
	add(root, "FF", "4")
	add(root, "GM", "1")
	add(root, "CA", "UTF-8")
	add(root, "AP", r.Application)
	if r.Size > 0 {
		add(root, "SZ", strconv.Itoa(r.Size))
	}
	add(root, "RU", r.Rules)
	if r.HasKomi {
		add(root, "KM", formatFloat(r.Komi))
	}
	if r.Handicap > 0 {
		add(root, "HA", strconv.Itoa(r.Handicap))
	}
	if r.TimeLimit > 0 {
		add(root, "TM", formatFloat(r.TimeLimit))
	}
	add(root, "OT", r.Overtime)
	add(root, "PB", r.BlackName)
	add(root, "BR", r.BlackRank)
	add(root, "PW", r.WhiteName)
	add(root, "WR", r.WhiteRank)
	add(root, "DT", r.Date)
	add(root, "EV", r.Event)
	add(root, "RO", r.Round)
	add(root, "PC", r.Place)
	add(root, "GN", r.GameName)
	add(root, "RE", r.Result)
	add(root, "GC", r.GameComment)
	add(root, "C", r.Comment)
	addSetup(root, r.Setup)
	parent := root
	for _, m := range r.Moves {
		n := &Node{}
		addSetup(n, m.Setup)
		if m.IsMove() {
			id := "B"
			if m.Color == engine.White {
				id = "W"
			}
			v := ""
			if !m.Pass {
				v = FormatPoint(m.Point)
			}
			n.Props = append(n.Props, Property{ID: id, Values: []string{v}})
		}
		addTime(n, "BL", "OB", m.BlackTime)
		addTime(n, "WL", "OW", m.WhiteTime)
		add(n, "C", m.Comment)
		parent.Children = []*Node{n}
		parent = n
	}
	return root
}

func addSetup(n *Node, stones []Stone) {
	for _, c := range []struct {
		id    string
		color engine.Color
	}{{"AB", engine.Black}, {"AW", engine.White}, {"AE", engine.Empty}} {
		var vals []string
		for _, s := range stones {
			if s.Color == c.color {
				vals = append(vals, FormatPoint(s.Point))
			}
		}
		if len(vals) > 0 {
			n.Props = append(n.Props, Property{ID: c.id, Values: vals})
		}
	}
}

func addTime(n *Node, left, periods string, t TimeLeft) {
	if t.HasSeconds {
		n.Props = append(n.Props, Property{ID: left, Values: []string{formatFloat(t.Seconds)}})
	}
	if t.HasPeriods {
		n.Props = append(n.Props, Property{ID: periods, Values: []string{strconv.Itoa(t.Periods)}})
	}
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// MarshalSGF writes the record as an SGF FF[4] file in UTF-8 (see Tree for the layout).
func (r *Record) MarshalSGF() []byte {
	c := Collection{Games: []*Node{r.Tree()}}
	return c.Marshal()
}

// first returns a property's first value ("" for a property built in code without values).
func first(p *Property) string {
	if len(p.Values) == 0 {
		return ""
	}
	return p.Values[0]
}

// parseSeconds reads a TM value: seconds ("1800", "90.5"), or the "mm:ss" / "h:mm:ss" some
// programs write ("30:00").
func parseSeconds(v string) (float64, error) {
	parts := strings.Split(strings.TrimSpace(v), ":")
	if len(parts) > 3 {
		return 0, fmt.Errorf("too many fields")
	}
	total := 0.0
	for i, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || i > 0 && f >= 60 {
			return 0, fmt.Errorf("not a time")
		}
		total = total*60 + f
	}
	return total, nil
}
