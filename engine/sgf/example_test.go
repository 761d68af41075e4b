package sgf_test

import (
	"fmt"

	"tengen/engine"
	"tengen/engine/sgf"
)

// A referee builds its record as the game goes and writes it with MarshalSGF: clock times per move
// (BL/WL, OB/OW in overtime) and its own events as comments.
func ExampleRecord_MarshalSGF() {
	rec := &sgf.Record{
		Size: 9, Komi: 7.5, HasKomi: true, Rules: "AGA", BlackName: "Ana", WhiteName: "Bo",
		Date: "2026-11-21", Application: "Tengen:dev",
	}
	rec.Moves = append(rec.Moves,
		sgf.Move{Color: engine.Black, Point: engine.Point{X: 4, Y: 4}, BlackTime: sgf.TimeLeft{Seconds: 595.5, HasSeconds: true}},
		sgf.Move{Color: engine.White, Pass: true, WhiteTime: sgf.TimeLeft{Seconds: 30, HasSeconds: true, Periods: 5, HasPeriods: true},
			Comment: "referee: White passed; pass stone to Black"},
	)
	rec.Result = "B+R"
	fmt.Print(string(rec.MarshalSGF()))
	// Output:
	// (;FF[4]GM[1]CA[UTF-8]AP[Tengen:dev]SZ[9]RU[AGA]KM[7.5]PB[Ana]PW[Bo]DT[2026-11-21]RE[B+R]
	// ;B[ee]BL[595.5];W[]WL[30]OW[5]C[referee: White passed; pass stone to Black])
}

// Reading follows the main line; the property tree keeps the variations.
func ExampleReadRecord() {
	rec, err := sgf.ReadRecord([]byte("(;SZ[9]KM[6.5]PB[Ana];B[ee](;W[cc]C[main])(;W[gg]C[variation]))"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range rec.Moves {
		fmt.Printf("%s %s %q\n", m.Color, m.Point.GTP(rec.Size), m.Comment)
	}
	// Output:
	// black E5 ""
	// white C7 "main"
}
