package sgf

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tengen/engine"
	"tengen/internal/shareddata"
)

// BenchmarkCheckCorpus measures the audit of kiosk check (sgf.ReplayAll: parse streaming and replay
// every move under Japanese rules with full legality checks) over the 7,259 one-game 19x19 files of
// the yenw set, one game per op, and the same files loaded by GNU Go (GTP loadsgf) for comparison.
// parse-only and replay-only split the cost between building the tree and the engine.
func BenchmarkCheckCorpus(b *testing.B) {
	dir := shareddata.Path(b, "sgf-corpus", "yenw-computer-go-dataset-AI")
	files := corpusFiles(b, dir)
	data := make([][]byte, len(files))
	for i, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data[i] = d
	}
	rules, err := engine.Preset("japanese")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("tengen", func(b *testing.B) {
		moves := 0
		i := 0
		cpu0 := cpuTime()
		rulesFor := func(*Record) engine.Rules { return rules }
		count := func(_ int, rp *Replay, _ *Record, err error) {
			if err != nil {
				b.Fatal(err)
			}
			moves += rp.Moves
		}
		for b.Loop() {
			if err := ReplayAll(data[i%len(data)], rulesFor, count); err != nil {
				b.Fatal(err)
			}
			i++
		}
		cpu := (cpuTime() - cpu0).Seconds()
		b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
		b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
		// On a shared machine wall time includes waiting for a core; CPU time does not.
		b.ReportMetric(float64(i)/cpu, "games/cpu-s")
	})
	// The same audit through one Checker, which keeps its Game and parser buffers from file to file.
	b.Run("tengen-checker", func(b *testing.B) {
		var c Checker
		moves := 0
		i := 0
		cpu0 := cpuTime()
		rulesFor := func(*Record) engine.Rules { return rules }
		count := func(_ int, rp *Replay, _ *Record, err error) {
			if err != nil {
				b.Fatal(err)
			}
			moves += rp.Moves
		}
		for b.Loop() {
			if err := c.ReplayAll(data[i%len(data)], rulesFor, count); err != nil {
				b.Fatal(err)
			}
			i++
		}
		cpu := (cpuTime() - cpu0).Seconds()
		b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
		b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
		b.ReportMetric(float64(i)/cpu, "games/cpu-s")
	})
	// The two halves of the audit, for a breakdown: parsing alone, and replaying pre-parsed games.
	b.Run("parse-only", func(b *testing.B) {
		i := 0
		cpu0 := cpuTime()
		for b.Loop() {
			if _, err := Parse(data[i%len(data)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
		b.ReportMetric(float64(i)/(cpuTime()-cpu0).Seconds(), "games/cpu-s")
	})
	b.Run("replay-only", func(b *testing.B) {
		roots := make([]*Node, len(data))
		for i, d := range data {
			col, err := Parse(d)
			if err != nil {
				b.Fatal(err)
			}
			roots[i] = col.Games[0]
		}
		i := 0
		cpu0 := cpuTime()
		for b.Loop() {
			if _, _, err := ReplayGame(roots[i%len(roots)], rules); err != nil {
				b.Fatal(err)
			}
			i++
		}
		b.ReportMetric(float64(i)/(cpuTime()-cpu0).Seconds(), "games/cpu-s")
	})
	b.Run("gnugo", func(b *testing.B) {
		const gnugo = "/usr/games/gnugo"
		if _, err := os.Stat(gnugo); err != nil {
			b.Skip("GNU Go is not installed at " + gnugo)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cmd := exec.CommandContext(ctx, gnugo, "--mode", "gtp", "--quiet")
		in, _ := cmd.StdinPipe()
		outPipe, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() { in.Close(); cmd.Wait() }()
		out := bufio.NewReader(outPipe)
		gtp := func(command string) (string, error) {
			if _, err := io.WriteString(in, command+"\n"); err != nil {
				return "", err
			}
			var resp strings.Builder
			for {
				line, err := out.ReadString('\n')
				if err != nil {
					return resp.String(), err
				}
				if line == "\n" {
					return resp.String(), nil
				}
				resp.WriteString(line)
			}
		}
		abs := make([]string, len(files))
		for i, f := range files {
			abs[i], _ = filepath.Abs(f)
		}
		i := 0
		start := time.Now()
		cpu0 := procCPU(cmd.Process.Pid)
		for b.Loop() {
			resp, err := gtp("loadsgf " + abs[i%len(abs)])
			if err != nil {
				b.Fatal(err)
			}
			if !strings.HasPrefix(resp, "=") {
				b.Logf("gnugo loadsgf %s: %s", files[i%len(files)], strings.TrimSpace(resp))
			}
			i++
		}
		b.ReportMetric(float64(i)/time.Since(start).Seconds(), "games/s")
		if cpu := (procCPU(cmd.Process.Pid) - cpu0).Seconds(); cpu > 0 {
			b.ReportMetric(float64(i)/cpu, "games/cpu-s")
		}
	})
}

func ExampleReplayGame() {
	col, _ := Parse([]byte("(;SZ[9]KM[7];B[ee];W[ec];B[dd];W[dc];B[cc];W[];B[ed])"))
	rules, _ := engine.Preset("aga")
	rp, _, _ := ReplayGame(col.Games[0], rules)
	fmt.Println(rp.Moves, len(rp.Illegal), rp.Game.Komi())
	// Output: 7 0 7
}

// cpuTime returns the CPU time (user + system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU returns the CPU time (user + system) of process pid from /proc, in clock ticks of 10 ms.
func procCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name in parentheses: state is field 3, utime 14, stime 15.
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	var ut, st int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &st)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
