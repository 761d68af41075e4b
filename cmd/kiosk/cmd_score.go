package main

import (
	"bytes"
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
func runScore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
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
	data, err := readBounded(path, maxSGFBytes)
	if err != nil {
		return err
	}
	if *rulesName != "" {
		if _, err := engine.Preset(*rulesName); err != nil {
			fmt.Fprintf(stderr, "kiosk score: %s\n", errorWords(err))
			return exitError{code: 2}
		}
	}
	// chooseRules names the ruleset of a game: --rules, else its RU when it names a preset, else japanese.
	chooseRules := func(rec *sgf.Record) (engine.Rules, string) {
		name, source := *rulesName, "--rules"
		if name == "" {
			name, source = sgf.PresetForRU(rec.Rules), "RU["+rec.Rules+"]"
			if name == "" {
				name, source = "japanese", "default"
			}
		}
		rules, err := engine.Preset(name)
		if err != nil { // a name checked above or given by PresetForRU: cannot happen
			rules, _ = engine.Preset("japanese")
		}
		rules.LiteralDame = *literalDame
		return rules, source
	}
	// The collection is replayed streaming, game by game, without building its tree: memory stays
	// small whatever the file holds. The chosen game is counted while its replay is valid.
	var (
		out      bytes.Buffer
		games    int
		scoreErr error
		ck       = sgf.Checker{MaxGames: maxScoreGames}
	)
	perr := ck.ReplayAll(data, func(rec *sgf.Record) engine.Rules {
		r, _ := chooseRules(rec)
		return r
	}, func(game int, rp *sgf.Replay, rec *sgf.Record, err error) {
		games = game
		if ctx.Err() != nil || game != *gameNum {
			return
		}
		if err != nil {
			scoreErr = fmt.Errorf("%s: %w", path, err)
			return
		}
		rules, ruleSource := chooseRules(rec)
		scoreErr = scoreGame(&out, rp, rec, rules, ruleSource, *deadList)
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	if perr != nil {
		return fmt.Errorf("%s: %w", path, perr)
	}
	if *gameNum < 1 || *gameNum > games {
		return fmt.Errorf("%s holds %s; there is no game %d", path, plural(games, "game"), *gameNum)
	}
	if scoreErr != nil {
		return scoreErr
	}
	if games > 1 {
		fmt.Fprintf(stdout, "game %d of %d\n", *gameNum, games)
	}
	_, err = stdout.Write(out.Bytes())
	return err
}

// maxScoreGames bounds the games of a collection kiosk score reads through.
const maxScoreGames = 100_000

// maxSGFBytes bounds the game record kiosk score reads: a collection of a thousand games is about
// 1.5 MB.
const maxSGFBytes = 32 << 20

// readBounded reads a whole file of at most limit bytes; a larger one is refused before it is read.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d MB: not a game record this command reads", path, limit>>20)
	}
	return data, nil
}

// scoreGame counts one replayed game and writes the breakdown and the result to w.
func scoreGame(w io.Writer, rp *sgf.Replay, rec *sgf.Record, rules engine.Rules, ruleSource, deadList string) error {
	g := rp.Game
	komiSource := "rules"
	if rec.HasKomi {
		komiSource = "KM"
		if math.Abs(rec.Komi) >= 100 {
			g.SetKomi(rec.Komi / 100)
			komiSource = fmt.Sprintf("KM[%s] read as hundredths", formatNum(rec.Komi))
		}
	}
	dead, err := parseDead(deadList, g)
	if err != nil {
		return err
	}
	sc, err := g.Score(dead)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "rules: %s (%s, %s), komi %s (%s)\n", rules.Name, ruleSource, rules.Scoring, formatNum(g.Komi()), komiSource)
	fmt.Fprintf(w, "moves: %d, dead stones: %d\n", rp.Moves, len(sc.Dead))
	if len(rp.Illegal) > 0 {
		fmt.Fprintf(w, "note: the record has %s under these rules (kiosk check lists them); they were replayed as recorded\n",
			plural(len(rp.Illegal), "illegal move"))
	}
	if g.AllAlive() && len(dead) > 0 {
		fmt.Fprintln(w, "note: four passes in a row after play resumed: every stone counts as alive (AGA rule 10)")
	}
	if !rules.SekiEyesCount {
		how := "open dame regarded as filled where that is safe (--literal-dame: as left)"
		if rules.LiteralDame {
			how = "open dame read literally (--literal-dame)"
		}
		fmt.Fprintf(w, "seki (art. 8): %s, stones in seki: %d\n", how, len(sc.Seki))
	}
	printScore(w, rules, sc)
	fmt.Fprintln(w, sc.Result)
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
