package demo

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"

	"tengen/engine"
	"tengen/engine/sgf"
)

// RandomPosition returns a legal-looking position on a size x size board, deterministic in seed:
// random moves that cluster as real games do (most near earlier stones, some in open corners and
// sides), alternating colours, captures taken off, until about fill (0..0.8) of the points hold a
// stone.
func RandomPosition(seed uint64, size int, fill float64) []Stone {
	g := &rng{s: hash64(seed, 0x905)}
	board := make([]Stone, size*size)
	target := int(math.Round(clamp01(fill) * float64(size*size)))
	target = min(target, size*size*8/10)
	player := Black
	count := 0
	var last []engine.Point
	for tries := 0; count < target && tries < 40*size*size; tries++ {
		var p engine.Point
		if len(last) > 0 && g.chance(0.75) {
			q := last[int(g.f()*float64(len(last)))]
			p = engine.Point{X: q.X + int(math.Round(g.normal()*1.6)), Y: q.Y + int(math.Round(g.normal()*1.6))}
		} else {
			// Open play: prefer the third and fourth lines.
			line := func() int {
				v := 2 + int(g.f()*float64(size-4))
				if g.chance(0.5) && size > 7 {
					v = 2 + int(g.f()*3)
					if g.chance(0.5) {
						v = size - 1 - v
					}
				}
				return v
			}
			p = engine.Point{X: line(), Y: line()}
		}
		if !p.In(size) || board[p.Y*size+p.X] != Empty {
			continue
		}
		pl, err := engine.Place(board, size, p, player)
		if err != nil || len(pl.Suicide) > 0 {
			continue
		}
		// Self-atari fills of a few stones are rare in real positions.
		if len(pl.Captured) == 0 && pl.Liberties == 1 && g.chance(0.8) {
			continue
		}
		board[p.Y*size+p.X] = player
		captured := pl.Captured
		for _, q := range captured {
			board[q.Y*size+q.X] = Empty
		}
		count += 1 - len(captured)
		last = append(last, p)
		if len(last) > 12 {
			last = last[1:]
		}
		player = player.Opponent()
	}
	return board
}

// PositionAfter replays the record's setup stones and its first moves main-line moves (captured
// stones taken off) and returns the board.
func PositionAfter(rec *sgf.Record, moves int) ([]Stone, error) {
	size := rec.Size
	if size < 2 || size > 25 {
		return nil, fmt.Errorf("demo: board size %d out of range 2..25", size)
	}
	board := make([]Stone, size*size)
	set := func(st []sgf.Stone) {
		for _, s := range st {
			if s.Point.In(size) {
				board[s.Point.Y*size+s.Point.X] = s.Color
			}
		}
	}
	set(rec.Setup)
	played := 0
	for _, m := range rec.Moves {
		if played >= moves {
			break
		}
		set(m.Setup)
		if !m.IsMove() {
			continue
		}
		played++
		if m.Pass {
			continue
		}
		if !m.Point.In(size) || board[m.Point.Y*size+m.Point.X] != Empty {
			return nil, fmt.Errorf("demo: move %d at %v is not on an empty point", played, m.Point)
		}
		pl, err := engine.Place(board, size, m.Point, m.Color)
		if err != nil {
			return nil, fmt.Errorf("demo: move %d: %w", played, err)
		}
		board[m.Point.Y*size+m.Point.X] = m.Color
		for _, q := range append(pl.Captured, pl.Suicide...) { // suicide under rules that allow it
			board[q.Y*size+q.X] = Empty
		}
	}
	return board, nil
}

// BoardText writes a board as size lines of '.', 'X' (black) and 'O' (white), row 0 first: the text
// observe.ParseText reads.
func BoardText(size int, stones []Stone) string {
	var b strings.Builder
	for row := range size {
		for col := range size {
			switch stones[row*size+col] {
			case Black:
				b.WriteByte('X')
			case White:
				b.WriteByte('O')
			default:
				b.WriteByte('.')
			}
		}
		if row < size-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Sample is one rendered training photo and its labels.
type Sample struct {
	Image   *image.RGBA   // the photo
	Size    int           // board size
	Corners [4][2]float64 // corner intersections in pixels: top-left, top-right, bottom-right, bottom-left as seen
	Stones  []Stone       // what lies on each point, row-major, row 0 = the top of the picture, column 0 = its left
	Covered []bool        // points a hand hides (partly), row-major
	Look    Look          // how it was drawn
	Hand    *Hand         // the hand over the board, if any
}

// SampleOptions say what RenderSample draws.
type SampleOptions struct {
	Size       int     // board size
	W, H       int     // frame size
	Stones     []Stone // the position; nil for RandomPosition with a random fill
	Hard       bool    // HardLook instead of RandomLook
	HandChance float64 // probability of a hand over the board (0: never)
	Hand       *Hand   // the hand to draw, instead of a random one
}

// RenderSample renders one random photo: the look and (unless given) the position and hand are
// drawn from seed.
func RenderSample(seed uint64, opt SampleOptions) (Sample, error) {
	if opt.Size < 2 || opt.Size > 25 {
		return Sample{}, fmt.Errorf("demo: board size %d out of range 2..25", opt.Size)
	}
	g := &rng{s: hash64(seed, 0x5a3)}
	stones := opt.Stones
	if stones == nil {
		fill := g.f() * g.f() * 0.75 // sparse boards are common, dense ones rarer
		stones = RandomPosition(hash64(seed, 1), opt.Size, fill)
	}
	if len(stones) != opt.Size*opt.Size {
		return Sample{}, errors.New("demo: the position does not fit the board")
	}
	look := RandomLook(seed)
	if opt.Hard {
		look = HardLook(seed)
	}
	r, err := NewLookRenderer(look, opt.Size)
	if err != nil {
		return Sample{}, err
	}
	sc := Scene{Size: opt.Size, Stones: stones, Frame: seed}
	if opt.Hand != nil {
		h := *opt.Hand
		sc.Hand = &h
	} else if g.chance(opt.HandChance) {
		p := Black
		if g.chance(0.5) {
			p = White
		}
		n := float64(opt.Size - 1)
		sc.Hand = &Hand{Player: p, Col: g.in(0, n), Row: g.in(0, n), Reach: g.in(0.3, 1), Holding: g.chance(0.6)}
	}
	img, err := r.Render(opt.W, opt.H, sc)
	if err != nil {
		return Sample{}, err
	}
	return Sample{Image: img, Size: opt.Size, Corners: r.Corners(opt.W, opt.H), Stones: stones,
		Covered: r.Covered(opt.W, opt.H, sc), Look: r.Look(), Hand: sc.Hand}, nil
}

func pointOf(i, size int) engine.Point { return engine.Point{X: i % size, Y: i / size} }
