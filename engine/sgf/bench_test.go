package sgf

import (
	"os"
	"path/filepath"
	"testing"

	"tengen/internal/shareddata"
)

// BenchmarkParse measures SGF reading throughput (MB/s) over the Tygem collections of the shared
// corpus: 3,710 19x19 games in four files.
func BenchmarkParse(b *testing.B) {
	dir := shareddata.Path(b, "sgf-corpus", "tygem-9d-2005-11")
	files, _ := filepath.Glob(filepath.Join(dir, "*.sgf"))
	var data [][]byte
	total := 0
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
		total += len(d)
	}
	b.Run("tree", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range data {
				if _, err := Parse(d); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("records", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range data {
				if _, err := ReadRecords(d); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
