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
// reports every illegal move with the rule it breaks.
//
// Exit status: 0 when every game replays without an illegal move; 1 when any move is illegal;
// 2 when no move is illegal but some file or game could not be read (or on a usage error).
// A file that does not parse counts as one unreadable record; so does each game of a collection
// whose record cannot be read (a rectangular board, a point off the board). The other files and
// games are still checked.
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
			fmt.Fprintf(stderr, "kiosk check: %v\n", err)
			return exitError{code: 2}
		}
		fixed = &r
	}
	a := auditor{out: stdout, fixed: fixed, quiet: *quiet}
	for _, arg := range flags.Args() {
		files, err := sgfFiles(arg)
		if err != nil {
			fmt.Fprintf(stdout, "%s: unreadable: %v\n", arg, err)
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
}

// rulesFor returns the ruleset for a game with the given RU.
func (a *auditor) rulesFor(ru string) engine.Rules {
	if a.fixed != nil {
		return *a.fixed
	}
	name := sgf.PresetForRU(ru)
	if name == "" {
		name = "japanese"
	}
	r, _ := engine.Preset(name)
	return r
}

func (a *auditor) checkFile(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(a.out, "%s: unreadable: %v\n", path, err)
		a.unreadable++
		return
	}
	col, err := sgf.Parse(data)
	if err != nil {
		fmt.Fprintf(a.out, "%s: unreadable: %v\n", path, err)
		a.unreadable++
		return
	}
	var lines []string
	games, moves, illegal, bad := 0, 0, 0, 0
	for i, root := range col.Games {
		label := ""
		if len(col.Games) > 1 {
			label = fmt.Sprintf("game %d: ", i+1)
			if gn, ok := root.Get("GN"); ok && gn != "" {
				label = fmt.Sprintf("game %d (%s): ", i+1, gn)
			}
		}
		ru, _ := root.Get("RU")
		rules := a.rulesFor(ru)
		rp, rec, err := sgf.ReplayGame(root, rules)
		if err != nil {
			lines = append(lines, fmt.Sprintf("  %sunreadable: %v", label, err))
			bad++
			continue
		}
		games++
		moves += rp.Moves
		for _, il := range rp.Illegal {
			illegal++
			lines = append(lines, fmt.Sprintf("  %smove %d %s: %v", label, il.Number, moveName(il.Move, rec.Size), il.Err))
		}
		for _, w := range rec.Warnings {
			lines = append(lines, fmt.Sprintf("  %snote: %s", label, w))
		}
		for _, n := range rp.Notes {
			lines = append(lines, fmt.Sprintf("  %snote: move %d: %s", label, n.Number, n.Text))
		}
	}
	a.games += games
	a.moves += moves
	a.illegal += illegal
	a.unreadable += bad
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
