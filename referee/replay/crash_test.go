package replay

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"tengen/demo"
)

// buildKiosk builds the kiosk binary for the subprocess tests.
func buildKiosk(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kiosk")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, "tengen/cmd/kiosk")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the kiosk: %v\n%s", err, out)
	}
	return bin
}

// TestCrashResume kills `kiosk replay` with SIGKILL at 100 random moments, restarts it on the same
// journal each time, and checks that the final SGF is byte for byte that of an uninterrupted run.
// The session is the built-in demo seen by an ideal camera (--labels): a 32-move game with a
// forgotten capture, an illegal ko retake (AGA rule 8), passes, marking and the count.
func TestCrashResume(t *testing.T) {
	kills := 100
	if testing.Short() {
		kills = 15
	}
	bin := buildKiosk(t)
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.sgf")
	args := []string{"replay", "--demo", "--labels"}
	if out, err := exec.Command(bin, append(args, "--journal", filepath.Join(dir, "j0"), "--out", ref)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	want, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	// The kill moments are random times of the game (the demo's length of virtual time). Each
	// run is killed once its output shows it has reached its moment, plus a random delay of up to
	// one move's worth of time, so that kills land between, during and right after events.
	const speed = 20
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(20260314, seed))
	script, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	length := script.Duration().Seconds()
	targets := make([]float64, kills)
	for i := range targets {
		targets[i] = 1.5 + rng.Float64()*(length-3)
	}
	slices.Sort(targets)
	journal := filepath.Join(dir, "j1")
	got := filepath.Join(dir, "got.sgf")
	cuts, finished := 0, 0
	at := map[int]bool{} // move numbers the game had reached at the kills
	torn := 0
	for i, target := range targets {
		var out bytes.Buffer
		cmd := exec.Command(bin, append(args, "--journal", journal, "--out", got, "--speed", fmt.Sprint(speed))...)
		pipe, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		reached, drained := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(drained)
			sc := bufio.NewScanner(pipe)
			closed := false
			for sc.Scan() {
				line := sc.Text()
				out.WriteString(line + "\n")
				var secs float64
				if _, err := fmt.Sscanf(strings.TrimSpace(line), "%fs", &secs); err == nil && secs >= target && !closed {
					close(reached)
					closed = true
				}
			}
			if !closed {
				close(reached)
			}
		}()
		select {
		case <-reached:
		case <-time.After(60 * time.Second):
			t.Fatal("the replay did not reach its kill moment in 60s")
		}
		time.Sleep(time.Duration(rng.Int64N(int64(4600 * time.Millisecond / speed))))
		_ = cmd.Process.Kill() // SIGKILL
		<-drained              // the pipe is read to its end before Wait closes it
		if err := cmd.Wait(); err == nil {
			finished++
		}
		if strings.Contains(out.String(), "bytes cut") {
			cuts++
		}
		if b, err := os.ReadFile(filepath.Join(journal, "game.sgf")); err == nil {
			at[strings.Count(string(b), ";B[")+strings.Count(string(b), ";W[")] = true
		}
		// Every fifth kill also tears the journal's last write (as a power cut during the write
		// would): the restart must cut the torn record, and the run redoes what it lost.
		if i%5 == 4 {
			jf := filepath.Join(journal, "journal.tgj")
			if st, err := os.Stat(jf); err == nil && st.Size() > 100 {
				if err := os.Truncate(jf, st.Size()-int64(1+rng.IntN(40))); err != nil {
					t.Fatal(err)
				}
				torn++
			}
		}
	}
	out, err := exec.Command(bin, append(args, "--journal", journal, "--out", got)...).CombinedOutput()
	if err != nil {
		t.Fatalf("final run: %v\n%s", err, out)
	}
	have, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d kills at %d different move numbers (%d runs had already finished); %d journals torn, %d restarts cut a torn tail",
		kills, len(at), finished, torn, cuts)
	if torn > 0 && cuts == 0 {
		t.Errorf("%d journals were torn but no restart reported cutting a tail", torn)
	}
	if !testing.Short() && len(at) < 10 {
		t.Errorf("the kills fell at only %d different move numbers: the test does not cover the game", len(at))
	}
	if !bytes.Equal(have, want) {
		t.Fatalf("SGF after %d kills differs from the uninterrupted run:\n%s\nwant\n%s\nlast run:\n%s", kills, have, want, out)
	}
}
