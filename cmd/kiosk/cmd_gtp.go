package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"tengen/engine"
	"tengen/engine/gtp"
)

// runGTP speaks GTP v2 on stdin/stdout: the rules engine as a referee (genmove plays random legal moves).
func runGTP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gtp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rules := fs.String("rules", "aga", "ruleset: "+strings.Join(engine.PresetNames(), ", "))
	size := fs.Int("size", 19, "board size (2..25)")
	komi := fs.Float64("komi", 0, "komi (default: the ruleset's)")
	seed := fs.Uint64("seed", 1, "seed of genmove's random moves")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	r, err := engine.Preset(*rules)
	if err != nil {
		return err
	}
	cfg := gtp.Config{Rules: r, Size: *size, Seed: *seed, Version: version}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "komi" {
			cfg.Komi = komi
		}
	})
	e, err := gtp.New(cfg)
	if err != nil {
		return err
	}
	return e.Run(ctx, os.Stdin, stdout)
}
