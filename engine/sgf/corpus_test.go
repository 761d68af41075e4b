package sgf

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/internal/shareddata"
)

// corpusFiles lists the .sgf/.SGF files under dir.
func corpusFiles(tb testing.TB, dir string) []string {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".sgf") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// TestCorpusReads reads every game of the shared corpus into records and checks the game and move
// counts against the corpus MANIFEST.
func TestCorpusReads(t *testing.T) {
	root := shareddata.Path(t, "sgf-corpus")
	// Games and moves as MANIFEST.md counts them, except yenw: its 1,192,771 moves leave out the 2,724
	// moves of the 15 games its replayer stopped in (index.tsv: 14 with setup in node 1, counted as 0
	// moves, and Sweeper/0008.sgf, the move on an occupied point).
	want := map[string][2]int{
		"yenw-computer-go-dataset-AI": {7259, 1192771 + 2724},
		"tygem-9d-2005-11":            {3710, 801670},
		"gnugo-regression-games":      {479, 82490},
		"gnugo-selfplay-9x9-resolved": {150, 9220},
	}
	for set, w := range want {
		t.Run(set, func(t *testing.T) {
			games, moves, setupAfterRoot := 0, 0, 0
			for _, f := range corpusFiles(t, filepath.Join(root, set)) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				recs, err := ReadRecords(data)
				if err != nil {
					t.Errorf("%s: %v", f, err)
					continue
				}
				for _, r := range recs {
					games++
					moves += r.MoveCount()
					for _, m := range r.Moves {
						if len(m.Setup) > 0 {
							setupAfterRoot++
							break
						}
					}
				}
			}
			if games != w[0] || moves != w[1] {
				t.Errorf("games %d moves %d, MANIFEST says %d and %d", games, moves, w[0], w[1])
			}
			t.Logf("%s: %d games, %d moves, %d with setup after the root", set, games, moves, setupAfterRoot)
		})
	}
}
