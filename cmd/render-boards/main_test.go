package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tengen/engine/sgf"
	"tengen/internal/shareddata"
	"tengen/vision/observe"
)

func TestParseFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		ok   bool
	}{
		{"out", []string{"-out", "x"}, true},
		{"sheet", []string{"-sheet", "x.png", "-n", "4"}, true},
		{"neither", []string{"-n", "4"}, false},
		{"both", []string{"-out", "x", "-sheet", "y.png"}, false},
		{"bad size", []string{"-out", "x", "-sizes", "30:1"}, false},
		{"bad weight", []string{"-out", "x", "-sizes", "19:zero"}, false},
		{"bad frame", []string{"-out", "x", "-frames", "640by480"}, false},
		{"no scenes", []string{"-out", "x", "-n", "0"}, false},
		{"late", []string{"-out", "x", "-late", "0.2"}, true},
		{"late past the game", []string{"-out", "x", "-late", "1.5"}, false},
		{"late negative", []string{"-out", "x", "-late", "-0.1"}, false},
		{"sizes and frames", []string{"-out", "x", "-sizes", "9,19:3", "-frames", "320x240, 640x480"}, true},
		{"first", []string{"-out", "x", "-n", "300", "-first", "600"}, true},
		{"first negative", []string{"-out", "x", "-first", "-1"}, false},
		{"first past the names", []string{"-out", "x", "-n", "10", "-first", "999995"}, false},
	} {
		_, err := parseFlags(tc.args, io.Discard)
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v: err %v", tc.name, tc.args, err)
		}
	}
}

// TestWritesLabelledPictures writes a few scenes and reads them back: a PNG of the frame size and a
// label whose board observe.ParseText reads, corners inside the frame and covered points on the board.
func TestWritesLabelledPictures(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	err := run(context.Background(), []string{"-out", dir, "-n", "4", "-sizes", "9:1,19:1", "-frames", "320x240",
		"-hands", "1", "-workers", "2"}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		base := filepath.Join(dir, []string{"000000", "000001", "000002", "000003"}[i])
		js, err := os.ReadFile(base + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var lab label
		if err := json.Unmarshal(js, &lab); err != nil {
			t.Fatal(err)
		}
		o, err := observe.ParseText(lab.Stones)
		if err != nil || o.Size != lab.Size {
			t.Errorf("%s: stones of a %d board read as %d (%v)", base, lab.Size, o.Size, err)
		}
		for _, c := range lab.Corners {
			if c[0] < 0 || c[1] < 0 || c[0] > 320 || c[1] > 240 {
				t.Errorf("%s: corner %v outside the frame", base, c)
			}
		}
		for _, p := range lab.Covered {
			if p[0] < 0 || p[1] < 0 || p[0] >= lab.Size || p[1] >= lab.Size {
				t.Errorf("%s: covered point %v off the board", base, p)
			}
		}
		f, err := os.Open(base + ".png")
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != 320 || img.Bounds().Dy() != 240 {
			t.Errorf("%s: png %v, %v", base, img.Bounds(), err)
		}
	}
	if !strings.Contains(out.String(), "4 scenes") {
		t.Errorf("output %q", out.String())
	}
}

// TestFirstNumbersTheFilesOnly writes the same two scenes numbered from 0 and from 5: the files
// differ in name alone, so a set written beside another (-first) holds the scenes it would alone.
func TestFirstNumbersTheFilesOnly(t *testing.T) {
	plain, moved := t.TempDir(), t.TempDir()
	args := []string{"-n", "2", "-sizes", "9:1", "-frames", "160x120", "-seed", "7", "-workers", "1"}
	if err := run(context.Background(), append([]string{"-out", plain}, args...), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), append([]string{"-out", moved, "-first", "5"}, args...), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	for i, ext := range []string{".json", ".png", ".json", ".png"} {
		a, errA := os.ReadFile(filepath.Join(plain, fmt.Sprintf("%06d%s", i/2, ext)))
		b, errB := os.ReadFile(filepath.Join(moved, fmt.Sprintf("%06d%s", 5+i/2, ext)))
		if errA != nil || errB != nil {
			t.Fatalf("scene %d%s: %v, %v", i/2, ext, errA, errB)
		}
		if string(a) != string(b) {
			t.Errorf("scene %d%s differs when numbered from 5", i/2, ext)
		}
	}
	if _, err := os.Stat(filepath.Join(moved, "000000.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("-first 5 wrote 000000.json (%v)", err)
	}
}

// TestCorpusPositions takes boards from real 9x9 games: anywhere in a game, and with -late 0.2
// at a move at least four fifths of the way through it.
func TestCorpusPositions(t *testing.T) {
	c, err := loadCorpus(shareddata.Path(t, "sgf-corpus", "gnugo-selfplay-9x9-resolved"))
	if err != nil {
		t.Fatal(err)
	}
	for _, late := range []float64{0, 0.2} {
		found := 0
		for seed := range uint64(20) {
			st, src, ok := c.position(9, late, mix(seed))
			if !ok {
				continue
			}
			found++
			if len(st) != 81 || !strings.Contains(src, "gnugo-selfplay") {
				t.Errorf("late %v, seed %d: %d points from %q", late, seed, len(st), src)
			}
			move, moves, err := sourceMove(src)
			if err != nil {
				t.Fatal(err)
			}
			share := late
			if share == 0 {
				share = 1 // the whole game
			}
			if move > moves || float64(move) < float64(moves)*(1-share)-1 {
				t.Errorf("late %v: %q: move %d of %d", late, src, move, moves)
			}
		}
		if found < 15 {
			t.Errorf("late %v: %d of 20 positions from the corpus", late, found)
		}
	}
	if _, _, ok := c.position(19, 0, 1); ok {
		t.Error("a 19x19 board from a 9x9 corpus")
	}
}

// sourceMove reads a position's source ("PATH#RECORD@MOVE") back: the move and its game's length.
func sourceMove(src string) (move, moves int, err error) {
	path, at, _ := strings.Cut(src, "#")
	k, m, _ := strings.Cut(at, "@")
	rec, err1 := strconv.Atoi(k)
	move, err2 := strconv.Atoi(m)
	data, err3 := os.ReadFile(path)
	if err := errors.Join(err1, err2, err3); err != nil {
		return 0, 0, fmt.Errorf("source %q: %w", src, err)
	}
	recs, err := sgf.ReadRecords(data)
	if err != nil || rec >= len(recs) {
		return 0, 0, fmt.Errorf("source %q: %d records: %w", src, len(recs), err)
	}
	return move, recs[rec].MoveCount(), nil
}
