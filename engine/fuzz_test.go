package engine

import "testing"

// FuzzGame drives a game with arbitrary operations (moves, passes, lenient moves, undo, resumption,
// AGA 8 retractions, counts, confirmation play) and checks that nothing panics and the incremental
// chains, liberties, hash and superko table always match a rebuild.
func FuzzGame(f *testing.F) {
	f.Add([]byte{3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{0, 4, 0, 0, 0, 1, 1, 0, 1, 1, 2, 2, 250, 251, 252, 253})
	f.Add([]byte{7, 2, 10, 20, 30, 40, 254, 254, 255, 60, 70, 247, 248})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		names := PresetNames()
		r, _ := Preset(names[int(data[1])%len(names)])
		size := MinSize + int(data[0])%8
		g, err := NewGame(size, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range data[2:] {
			c := g.ToMove()
			switch {
			case op < 200:
				p := Point{int(op) % size, int(op) / size % size}
				if op%7 == 0 {
					c = c.Opponent()
				}
				g.Play(Move{Color: c, Point: p})
			case op < 240:
				p := Point{int(op) % size, int(op) / 3 % size}
				g.Apply(Move{Color: Color(1 + op%2), Point: p, Pass: op%9 == 0})
			case op == 240:
				g.Play(Move{Color: c, Pass: true})
			case op == 241:
				g.Undo()
			case op == 242:
				g.Resume(Color(1 + op%2))
			case op == 243:
				g.RetractAndPass(Move{Color: c, Point: Point{0, 0}})
			case op == 244:
				if _, err := g.Score([]Point{{0, 0}, {size - 1, size - 1}}); err != nil {
					t.Fatal(err)
				}
			case op == 245:
				if cg, err := g.Confirmation(Black); err == nil {
					cg.Play(Move{Color: Black, Point: Point{1 % size, 0}})
					cg.Play(Move{Color: White, Pass: true})
					if err := verify(cg); err != nil {
						t.Fatal(err)
					}
				}
			case op == 246:
				g.PlaceFixedHandicap(int(op) % 10)
			case op == 247:
				g.CheckAs(Move{Color: White, Point: Point{0, size - 1}})
			default:
				g.Play(Move{Color: c, Point: Point{int(op) - 250, 1}})
			}
			if err := verify(g); err != nil {
				t.Fatalf("after op %d: %v", op, err)
			}
		}
		_ = g.Moves()
	})
}
