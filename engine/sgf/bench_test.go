package sgf

import (
	"os"
	"path/filepath"
	"testing"

	"tengen/internal/shareddata"
)

// BenchmarkParse measures SGF reading throughput (MB/s) over the Tygem collections of the shared
// corpus: 3,710 19x19 games in four files (6.0 MB), as a property tree and as records.
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
		cpu0, n := cpuTime(), 0
		for b.Loop() {
			for _, d := range data {
				if _, err := Parse(d); err != nil {
					b.Fatal(err)
				}
			}
			n++
		}
		// On a shared machine wall time includes waiting for a core; CPU time does not.
		b.ReportMetric(float64(n*total)/1e6/(cpuTime()-cpu0).Seconds(), "MB/cpu-s")
	})
	b.Run("records", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		cpu0, n := cpuTime(), 0
		for b.Loop() {
			for _, d := range data {
				if _, err := ReadRecords(d); err != nil {
					b.Fatal(err)
				}
			}
			n++
		}
		b.ReportMetric(float64(n*total)/1e6/(cpuTime()-cpu0).Seconds(), "MB/cpu-s")
	})
}
