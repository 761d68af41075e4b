package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"tengen/engine"
	"tengen/engine/sgf"
)

// runScore counts the final position of the main line of an SGF game record with engine.Game.Score
// and prints a breakdown per side; the last line is the result in SGF form ("B+3.5", "W+0.5", "0").
//
// Rules: --rules, else the record's RU when it names a preset, else japanese. Komi: the record's KM
// when present (a value of 100 or more is read as hundredths, the Fox server's habit: KM[750] = 7.5),
// else the ruleset's komi (its handicap komi after handicap stones). Dead stones: every stone named
// in --dead takes its whole chain off as dead; all other stones are alive. Without seki eyes counting
// (Japanese art. 8) every open dame that can be filled safely is regarded as filled, so only a real seki
// loses its eye points; --literal-dame reads the article literally (any live stone next to an open dame
// is in seki).
func runScore(_ context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("score", flag.ContinueOnError)
	flags.SetOutput(stderr)
	rulesName := flags.String("rules", "", "ruleset: "+strings.Join(engine.PresetNames(), ", ")+
		" (default: the record's RU, else japanese)")
	deadList := flags.String("dead", "", "dead stones as GTP points, comma-separated (each marks its whole chain), e.g. A1,Q16")
	gameNum := flags.Int("game", 1, "which game of a collection to score (1 = the first)")
	literalDame := flags.Bool("literal-dame", false, "no territory in seki (Japanese art. 8) read literally: every live stone next to an open dame is in seki "+
		"(default: every dame that can be filled safely is regarded as filled, so only a real seki loses its eye points)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "Usage: kiosk score [--rules R] [--dead A1,B2,...] [--game N] [--literal-dame] FILE.sgf")
		fmt.Fprintln(stderr, "Counts the final position of the record's main line; the last line printed is the result.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return exitError{code: 2}
	}
	if flags.NArg() != 1 {
		flags.Usage()
		return exitError{code: 2}
	}
	path := flags.Arg(0)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	col, err := sgf.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if *gameNum < 1 || *gameNum > len(col.Games) {
		return fmt.Errorf("%s holds %s; there is no game %d", path, plural(len(col.Games), "game"), *gameNum)
	}
	root := col.Games[*gameNum-1]
	name := *rulesName
	ruleSource := "--rules"
	if name == "" {
		ru, _ := root.Get("RU")
		name, ruleSource = sgf.PresetForRU(ru), "RU["+ru+"]"
		if name == "" {
			name, ruleSource = "japanese", "default"
		}
	}
	rules, err := engine.Preset(name)
	if err != nil {
		fmt.Fprintf(stderr, "kiosk score: %v\n", err)
		return exitError{code: 2}
	}
	rules.LiteralDame = *literalDame
	rp, rec, err := sgf.ReplayGame(root, rules)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	g := rp.Game
	komiSource := "rules"
	if rec.HasKomi {
		komiSource = "KM"
		if math.Abs(rec.Komi) >= 100 {
			g.SetKomi(rec.Komi / 100)
			komiSource = fmt.Sprintf("KM[%s] read as hundredths", formatNum(rec.Komi))
		}
	}
	dead, err := parseDead(*deadList, g)
	if err != nil {
		return err
	}
	sc, err := g.Score(dead)
	if err != nil {
		return err
	}
	if len(col.Games) > 1 {
		fmt.Fprintf(stdout, "game %d of %d\n", *gameNum, len(col.Games))
	}
	fmt.Fprintf(stdout, "rules: %s (%s, %s), komi %s (%s)\n", rules.Name, ruleSource, rules.Scoring, formatNum(g.Komi()), komiSource)
	fmt.Fprintf(stdout, "moves: %d, dead stones: %d\n", rp.Moves, len(sc.Dead))
	if len(rp.Illegal) > 0 {
		fmt.Fprintf(stdout, "note: the record has %s under these rules (kiosk check lists them); they were replayed as recorded\n",
			plural(len(rp.Illegal), "illegal move"))
	}
	if g.AllAlive() && len(dead) > 0 {
		fmt.Fprintln(stdout, "note: four passes in a row after play resumed: every stone counts as alive (AGA rule 10)")
	}
	if !rules.SekiEyesCount {
		how := "open dame regarded as filled where that is safe (--literal-dame: as left)"
		if rules.LiteralDame {
			how = "open dame read literally (--literal-dame)"
		}
		fmt.Fprintf(stdout, "seki (art. 8): %s, stones in seki: %d\n", how, len(sc.Seki))
	}
	printScore(stdout, rules, sc)
	fmt.Fprintln(stdout, sc.Result)
	return nil
}

// parseDead reads the --dead list; every point must hold a stone.
func parseDead(list string, g *engine.Game) ([]engine.Point, error) {
	var dead []engine.Point
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		p, err := engine.ParsePoint(s, g.Size())
		if err != nil {
			return nil, fmt.Errorf("--dead %s: %w", s, err)
		}
		if g.At(p) == engine.Empty {
			return nil, fmt.Errorf("--dead %s: the point is empty in the final position; name a stone of each dead chain", s)
		}
		dead = append(dead, p)
	}
	return dead, nil
}

// printScore writes the count as a two-column table. Under area scoring prisoners, dead stones taken
// and pass stones are shown but do not count.
func printScore(w io.Writer, r engine.Rules, sc engine.Score) {
	area := r.Scoring == engine.AreaScoring
	row := func(label string, b, wv float64, counted bool) {
		mark := ""
		if !counted {
			mark = "  (not counted)"
		}
		fmt.Fprintf(w, "  %-14s %8s %8s%s\n", label, formatNum(b), formatNum(wv), mark)
	}
	fmt.Fprintf(w, "  %-14s %8s %8s\n", "", "Black", "White")
	row("territory", float64(sc.Black.Territory), float64(sc.White.Territory), true)
	row("stones", float64(sc.Black.Stones), float64(sc.White.Stones), area)
	row("prisoners", float64(sc.Black.Prisoners), float64(sc.White.Prisoners), !area)
	row("dead taken", float64(sc.Black.DeadCaptured), float64(sc.White.DeadCaptured), !area)
	row("pass stones", float64(sc.Black.PassStones), float64(sc.White.PassStones), !area && r.PassStones)
	row("komi", sc.Black.Komi, sc.White.Komi, true)
	row("bonus", sc.Black.Bonus, sc.White.Bonus, true)
	row("total", sc.Black.Total, sc.White.Total, true)
}

func formatNum(f float64) string {
	return fmt.Sprintf("%g", f)
}
