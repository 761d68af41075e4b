package vision

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// fakeCapture gives `frames` grey frames, then fails every read (an unplugged camera).
type fakeCapture struct {
	frames int
	closed bool
}

func (f *fakeCapture) Read(_ context.Context, m *gocv.Mat) error {
	if f.frames <= 0 {
		return errors.New("unplugged")
	}
	f.frames--
	g := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(100, 100, 100, 0), 4, 6, gocv.MatTypeCV8UC3)
	defer g.Close()
	g.CopyTo(m)
	return nil
}

func (f *fakeCapture) Close() error { f.closed = true; return nil }

func TestLiveSourceLostAndBack(t *testing.T) {
	// The device works for 2 frames, is unplugged, fails to open twice, then works again.
	var opens int
	var caps []*fakeCapture
	open := func(context.Context) (Capture, error) {
		opens++
		switch opens {
		case 2, 3:
			return nil, errors.New("no such device")
		}
		c := &fakeCapture{frames: 2}
		caps = append(caps, c)
		return c, nil
	}
	var events []EventKind
	src := NewLiveSource(open, LiveOptions{MinBackoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond,
		FailedReads: 2, OnEvent: func(e Event) { events = append(events, e.Kind) }})
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var seqs []uint64
	for i := 0; i < 4; i++ {
		info, err := src.Next(ctx, &m)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if m.Rows() != 4 || m.Cols() != 6 {
			t.Fatalf("frame %d has size %dx%d", i, m.Cols(), m.Rows())
		}
		seqs = append(seqs, info.Seq)
	}
	if want := []EventKind{Lost, Back}; len(events) != 2 || events[0] != want[0] || events[1] != want[1] {
		t.Fatalf("events = %v, want %v", events, want)
	}
	if opens != 4 {
		t.Errorf("opened %d times, want 4", opens)
	}
	if !caps[0].closed {
		t.Error("lost capture was not closed")
	}
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Errorf("seqs = %v, want 1..4", seqs)
		}
	}
}

func TestLiveSourceCancelDuringBackoff(t *testing.T) {
	open := func(context.Context) (Capture, error) { return nil, errors.New("unplugged") }
	var lost int
	src := NewLiveSource(open, LiveOptions{MinBackoff: time.Hour, OnEvent: func(e Event) {
		if e.Kind == Lost {
			lost++
		}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	m := gocv.NewMat()
	defer m.Close()
	start := time.Now()
	_, err := src.Next(ctx, &m)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("cancel did not interrupt the backoff")
	}
	if lost != 1 || !src.Lost() {
		t.Fatalf("lost events = %d", lost)
	}
	src.Close()
	if _, err := src.Next(context.Background(), &m); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

func writeStill(t *testing.T, path string, v uint8) {
	t.Helper()
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(v), float64(v), float64(v), 0), 30, 40, gocv.MatTypeCV8UC3)
	defer m.Close()
	if !gocv.IMWrite(path, m) {
		t.Fatalf("cannot write %s", path)
	}
}

func TestDirSource(t *testing.T) {
	dir := t.TempDir()
	writeStill(t, filepath.Join(dir, "b.png"), 20)
	writeStill(t, filepath.Join(dir, "a.png"), 10)
	if err := os.WriteFile(filepath.Join(dir, "c.jpg"), []byte("not a jpeg"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeStill(t, filepath.Join(dir, "d.png"), 40)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o644)
	start := time.Unix(100, 0)
	src, err := OpenDir(dir, start, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Len() != 4 {
		t.Fatalf("Len = %d, want 4", src.Len())
	}
	m := gocv.NewMat()
	defer m.Close()
	want := []struct {
		name string
		v    uint8
		bad  bool
	}{{"a.png", 10, false}, {"b.png", 20, false}, {"c.jpg", 0, true}, {"d.png", 40, false}}
	for i, w := range want {
		info, err := src.Next(context.Background(), &m)
		if filepath.Base(info.Name) != w.name || info.Seq != uint64(i+1) || !info.Time.Equal(start.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("frame %d: info %+v", i, info)
		}
		if w.bad {
			if !errors.Is(err, ErrNotImage) {
				t.Fatalf("%s: err %v, want ErrNotImage", w.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := m.GetVecbAt(5, 5)[0]; got != w.v {
			t.Fatalf("%s: pixel %d, want %d", w.name, got, w.v)
		}
	}
	if _, err := src.Next(context.Background(), &m); !errors.Is(err, ErrEnd) {
		t.Fatalf("after last: %v", err)
	}
	if _, err := OpenDir(t.TempDir(), start, 0); err == nil {
		t.Fatal("empty directory accepted")
	}
}

func TestDrawSource(t *testing.T) {
	if _, err := NewDrawSource(0, 10, nil); err == nil {
		t.Error("a 0x10 frame was accepted")
	}
	n := 0
	src, err := NewDrawSource(8, 6, func(_ context.Context, pix []byte) (time.Time, error) {
		n++
		if n > 2 {
			return time.Time{}, ErrEnd
		}
		for i := range pix {
			pix[i] = byte(n)
		}
		pix[3*(2*8+1)], pix[3*(2*8+1)+2] = 10, 200 // (1,2): blue 10, red 200
		return time.Unix(int64(n), 0), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m := gocv.NewMat() // empty: the source makes it an 8x6 BGR frame
	defer m.Close()
	info, err := src.Next(context.Background(), &m)
	if err != nil || info.Seq != 1 || info.Time.Unix() != 1 {
		t.Fatalf("first frame: %+v %v", info, err)
	}
	if m.Cols() != 8 || m.Rows() != 6 || m.Type() != gocv.MatTypeCV8UC3 {
		t.Fatalf("frame is %dx%d %v", m.Cols(), m.Rows(), m.Type())
	}
	if px := m.GetVecbAt(2, 1); px[0] != 10 || px[1] != 1 || px[2] != 200 {
		t.Fatalf("pixel (B,G,R) = %v, want [10 1 200]", px)
	}
	if _, err := src.Next(context.Background(), &m); err != nil {
		t.Fatal(err)
	}
	if px := m.GetVecbAt(0, 0); px[0] != 2 {
		t.Fatalf("the second frame was not drawn into the same Mat: %v", px)
	}
	if _, err := src.Next(context.Background(), &m); !errors.Is(err, ErrEnd) {
		t.Fatalf("end: %v", err)
	}
	src.Close()
	if _, err := src.Next(context.Background(), &m); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}
