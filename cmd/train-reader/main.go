// Command train-reader trains the learned stone reader on the labelled photos of
// ../shared/vision-eval (and rendered boards, with -renders), prints the leave-one-source-out
// table (-loso), and writes the weights the kiosk embeds (-out). `scripts/train-reader` runs it.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tengen/internal/shareddata"
	"tengen/vision"
	"tengen/vision/evalset"
	"tengen/vision/readertrain"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "train-reader:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("train-reader", flag.ContinueOnError)
	shared := fs.String("shared", "", "the shared data directory (default: ../shared beside the repository)")
	renders := fs.String("renders", "", "a directory of rendered boards (cmd/render-boards) to train and evaluate on too")
	out := fs.String("out", "", "write the weights trained on every source here (e.g. vision/reader.weights)")
	loso := fs.Bool("loso", false, "print the leave-one-source-out table")
	def := readertrain.DefaultOptions()
	variants := fs.Int("variants", def.Variants, "augmented copies of each photo")
	epochs := fs.Int("epochs", def.Train.Epochs, "passes over the training points")
	hidden := fs.String("hidden", "32,16", "hidden layer widths")
	seed := fs.Uint64("seed", def.Seed, "random seed")
	dump := fs.String("dump", "", "with -loso: draw every held-out photo read with a mistake into this directory")
	castShadows := fs.Bool("shadows", def.CastShadows, "let some augmented copies be lit by a low lamp whose stones throw shadows")
	members := fs.Int("members", def.Members, "networks in the committee, each from its own seed")
	sure := fs.Float64("sure", float64(def.Sure), "the committee's first member reads alone a point it is this sure of (0: every member reads every point)")
	foldWeights := fs.String("foldweights", "", "with -loso: write each fold's reader to this directory as SOURCE.weights")
	hold := fs.String("hold", "", "with -loso: hold out only these sources (comma-separated), for quicker experiments")
	average := fs.Float64("average", def.Train.AverageFrom, "average the weights of every step after this share of the training (0: the last step's weights)")
	mask := fs.Float64("mask", def.Train.MaskRate, "hide each kind of input of each training point with this probability (0: never)")
	maskKinds := fs.String("maskkinds", "", "with -mask: hide only these kinds of input (indexes into vision.NetInputGroups, comma-separated; default all)")
	cache := fs.String("cache", "", "a file keeping the boards found in box-labelled photos between runs (made if missing): finding them takes minutes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opt := def
	opt.Variants, opt.Seed, opt.Train.Epochs, opt.Train.Seed, opt.Dump, opt.Members = *variants, *seed, *epochs, *seed, *dump, *members
	opt.Sure = float32(*sure)
	opt.CastShadows = *castShadows
	opt.Train.AverageFrom = *average
	opt.Train.MaskRate = *mask
	if *maskKinds != "" {
		groups := vision.NetInputGroups()
		opt.Train.MaskGroups = nil
		for _, f := range strings.Split(*maskKinds, ",") {
			k, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || k < 0 || k >= len(groups) {
				return fmt.Errorf("-maskkinds %q: want indexes 0 to %d", *maskKinds, len(groups)-1)
			}
			opt.Train.MaskGroups = append(opt.Train.MaskGroups, groups[k])
		}
	}
	opt.FoldWeights = *foldWeights
	opt.Train.Hidden = nil
	if *hold != "" {
		opt.HoldOut = strings.Split(*hold, ",")
	}
	for _, w := range strings.Split(*hidden, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n <= 0 {
			return fmt.Errorf("-hidden %q: want widths like 32,16", *hidden)
		}
		opt.Train.Hidden = append(opt.Train.Hidden, n)
	}
	root := *shared
	if root == "" {
		r, err := shareddata.Root()
		if err != nil {
			return err
		}
		root = r
	}
	photos, err := evalset.Load(filepath.Join(root, "vision-eval"))
	if err != nil {
		return err
	}
	if *renders != "" {
		rs, err := evalset.LoadRenders(*renders)
		if err != nil {
			return err
		}
		photos = append(photos, rs...)
	}
	start := time.Now()
	var prepared []*readertrain.Photo
	var skipped []readertrain.Skipped
	if *cache != "" {
		prepared, skipped, err = readertrain.PrepareCached(photos, *cache)
		if err != nil {
			return err
		}
	} else {
		prepared, skipped = readertrain.Prepare(photos)
	}
	defer func() {
		for _, p := range prepared {
			p.Close()
		}
	}()
	counts := map[string]int{}
	for _, p := range prepared {
		counts[p.Source]++
	}
	skippedBy := map[string]int{}
	for _, s := range skipped {
		skippedBy[strings.SplitN(s.Rel, "/", 2)[0]]++
		slog.Debug("skipped", "photo", s.Rel, "why", s.Reason)
	}
	fmt.Printf("photos: %d prepared %v, %d skipped %v (%s)\n", len(prepared), counts, len(skipped), skippedBy, time.Since(start).Round(time.Second))
	pool, err := readertrain.NewPool(prepared, opt)
	if err != nil {
		return err
	}
	fmt.Printf("training points: %d (%s)\n", pool.Set(prepared).Len(), time.Since(start).Round(time.Second))
	if *loso {
		folds, err := readertrain.LeaveOneSourceOut(pool, prepared, opt, func(s string) { fmt.Println(s) })
		if err != nil {
			return err
		}
		fmt.Println()
		fmt.Println("| held-out source | photos | learned reader: points right | boards exact | each point alone: points right | boards exact | hand-tuned reader: points right | boards exact |")
		fmt.Println("|---|---|---|---|---|---|---|---|")
		for _, f := range folds {
			l, a, h := f.Learned, f.Alone, f.HandTuned
			fmt.Printf("| %s | %d | %.2f%% (%d of %d wrong) | %d of %d | %.2f%% (%d wrong) | %d of %d | %.2f%% (%d wrong) | %d of %d |\n", l.Source, l.Boards,
				100*l.Accuracy(), l.Wrong, l.Points, l.Exact, l.Boards, 100*a.Accuracy(), a.Wrong, a.Exact, a.Boards, 100*h.Accuracy(), h.Wrong, h.Exact, h.Boards)
		}
	}
	if *out != "" {
		net, err := readertrain.Train(pool, prepared, opt)
		if err != nil {
			return err
		}
		raw, err := net.MarshalBinary()
		if err != nil {
			return err
		}
		if err := os.WriteFile(*out, raw, 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s (%d bytes, %d members)\n", *out, len(raw), len(net.Members))
		for src, ps := range readertrain.BySource(prepared) {
			r, err := readertrain.Evaluate(src, ps, vision.Params{Net: net}, "")
			if err != nil {
				return err
			}
			fmt.Println("trained on all, dev figure:", r)
		}
	}
	fmt.Printf("done in %s\n", time.Since(start).Round(time.Second))
	return nil
}
