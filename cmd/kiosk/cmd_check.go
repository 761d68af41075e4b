package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"tengen/engine"
	"tengen/engine/sgf"
)

// runCheck audits SGF game records: it replays the main line of every game under a ruleset and
// reports every illegal move with the rule it breaks, and, under simple ko, the first move that
// recreates an earlier whole-board position (Japanese art. 12; not a violation).
//
// Exit status: 0 when every game replays without an illegal move; 1 when any move is illegal;
// 2 when no move is illegal but some file or game could not be read (or on a usage error).
// A file that does not parse counts as one unreadable record; so does each game of a collection
// whose record cannot be read (a rectangular board, a point off the board), and the rest of a file
// that stops parsing after some complete games. The other files and games are still checked. Files
// are read streaming (sgf.ReplayAll): a collection of any size is checked in little memory.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	rulesName := flags.String("rules", "", "ruleset for every game: "+strings.Join(engine.PresetNames(), ", ")+
		" (default: each game's RU, else japanese)")
	quiet := flags.Bool("quiet", false, "print only files with illegal moves, notes or errors (and the summary)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "Usage: kiosk check [--rules R] [--quiet] FILE.sgf|DIR...")
		fmt.Fprintln(stderr, "Replays every game (directories recursively, *.sgf and *.SGF) and reports each illegal move.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return exitError{code: 2}
	}
	if flags.NArg() == 0 {
		flags.Usage()
		return exitError{code: 2}
	}
	var fixed *engine.Rules
	if *rulesName != "" {
		r, err := engine.Preset(*rulesName)
		if err != nil {
			fmt.Fprintf(stderr, "kiosk check: %s\n", errorWords(err))
			return exitError{code: 2}
		}
		fixed = &r
	}
	a := auditor{out: stdout, fixed: fixed, quiet: *quiet}
	for _, arg := range flags.Args() {
		files, err := sgfFiles(arg)
		if err != nil {
			fmt.Fprintf(stdout, "%s: unreadable: %s\n", arg, errorWords(err))
			a.unreadable++
		}
		for _, f := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			a.checkFile(f)
		}
	}
	fmt.Fprintf(stdout, "games: %d, moves: %d, illegal: %d, unreadable: %d\n", a.games, a.moves, a.illegal, a.unreadable)
	switch {
	case a.illegal > 0:
		return exitError{code: 1}
	case a.unreadable > 0:
		return exitError{code: 2}
	}
	return nil
}

// sgfFiles returns path itself if it is a file, or every .sgf/.SGF file below it (in lexical order)
// if it is a directory.
func sgfFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".sgf") {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}

// auditor accumulates the counts of a check run and prints each file's findings.
type auditor struct {
	out        io.Writer
	fixed      *engine.Rules // nil: each game's RU picks the rules
	quiet      bool
	games      int
	moves      int
	illegal    int
	unreadable int
	checker    sgf.Checker // one game and parser buffers reused across every file
}

// rulesFor returns the ruleset for a game: --rules, else its RU when that names a preset, else
// japanese.
func (a *auditor) rulesFor(rec *sgf.Record) engine.Rules {
	if a.fixed != nil {
		return *a.fixed
	}
	name := sgf.PresetForRU(rec.Rules)
	if name == "" {
		name = "japanese"
	}
	r, _ := engine.Preset(name)
	return r
}

// gameReport is what one game of a file contributes to the report.
type gameReport struct {
	number int
	name   string // GN
	lines  []string
}

func (a *auditor) checkFile(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(a.out, "%s: unreadable: %s\n", path, errorWords(err))
		a.unreadable++
		return
	}
	var reports []gameReport
	games, moves, illegal, bad := 0, 0, 0, 0
	perr := a.checker.ReplayAll(data, a.rulesFor, func(number int, rp *sgf.Replay, rec *sgf.Record, err error) {
		g := gameReport{number: number}
		if rec != nil {
			g.name = rec.GameName
			for _, w := range rec.Warnings {
				g.lines = append(g.lines, "note: "+w)
			}
		}
		if err != nil {
			g.lines = append(g.lines, "unreadable: "+errorWords(err))
			bad++
			reports = append(reports, g)
			return
		}
		games++
		moves += rp.Moves
		for _, il := range rp.Illegal {
			illegal++
			g.lines = append(g.lines, fmt.Sprintf("move %d %s: %v", il.Number, moveName(il.Move, rec.Size), il.Err))
		}
		for _, n := range rp.Notes {
			g.lines = append(g.lines, fmt.Sprintf("note: move %d: %s", n.Number, n.Text))
		}
		if r := rp.Repetitions; len(r) > 0 {
			// Legal under simple ko (a superko ruleset reports the move as illegal instead):
			// Japanese art. 12 lets the players end the game with no result.
			line := fmt.Sprintf("repetition: move %d %s recreates the whole-board position after move %d (Japanese rules art. 12: the game may end with no result)",
				r[0].Number, moveName(r[0].Move, rec.Size), r[0].Earlier)
			if len(r) > 1 {
				line += fmt.Sprintf("; %d more moves repeat a position", len(r)-1)
			}
			g.lines = append(g.lines, line)
		}
		reports = append(reports, g)
	})
	if perr != nil && len(reports) == 0 {
		fmt.Fprintf(a.out, "%s: unreadable: %s\n", path, errorWords(perr))
		a.unreadable++
		return
	}
	if perr != nil {
		bad++
	}
	a.games += games
	a.moves += moves
	a.illegal += illegal
	a.unreadable += bad
	var lines []string
	for _, g := range reports {
		label := ""
		if len(reports) > 1 || perr != nil {
			label = fmt.Sprintf("game %d: ", g.number)
			if g.name != "" {
				label = fmt.Sprintf("game %d (%s): ", g.number, g.name)
			}
		}
		for _, l := range g.lines {
			lines = append(lines, "  "+label+l)
		}
	}
	if perr != nil {
		lines = append(lines, fmt.Sprintf("  unreadable after game %d (the rest of the file is not checked): %s", len(reports), errorWords(perr)))
	}
	status := "ok"
	switch {
	case illegal > 0 && bad > 0:
		status = fmt.Sprintf("%d illegal, %d unreadable", illegal, bad)
	case illegal > 0:
		status = fmt.Sprintf("%d illegal", illegal)
	case bad > 0:
		status = fmt.Sprintf("%d unreadable", bad)
	}
	if a.quiet && len(lines) == 0 {
		return
	}
	fmt.Fprintf(a.out, "%s: %s, %s: %s\n", path, plural(games, "game"), plural(moves, "move"), status)
	for _, l := range lines {
		fmt.Fprintln(a.out, l)
	}
}

// moveName names a move for a report: "Black D4", "White pass".
func moveName(m engine.Move, size int) string {
	c := "Black"
	if m.Color == engine.White {
		c = "White"
	}
	if m.Pass {
		return c + " pass"
	}
	return c + " " + m.Point.GTP(size)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
