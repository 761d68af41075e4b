package framepipe

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
)

// header builds a raw header for the malformed-input table.
func header(magic string, version, kind, channels, reserved byte, w, h uint32, plen uint32) []byte {
	b := make([]byte, HeaderSize)
	copy(b, magic)
	b[4], b[5], b[6], b[7] = version, kind, channels, reserved
	binary.LittleEndian.PutUint32(b[8:], w)
	binary.LittleEndian.PutUint32(b[12:], h)
	binary.LittleEndian.PutUint64(b[16:], 7)
	binary.LittleEndian.PutUint64(b[24:], 123)
	binary.LittleEndian.PutUint32(b[32:], plen)
	return b
}

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	pix := make([]byte, 4*3*3)
	for i := range pix {
		pix[i] = byte(i)
	}
	small := []byte{1, 2, 3}
	if err := w.WriteFrame(1, 1_700_000_000_000_000_001, 4, 3, pix); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFrame(2, -5, 1, 1, small); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteError("cannot open /dev/video0: no such device"); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteEnd(2); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	m, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	want := Header{Kind: KindFrame, Width: 4, Height: 3, Channels: 3, Seq: 1, Time: 1_700_000_000_000_000_001, PayloadLen: 36}
	if m.Header != want || !bytes.Equal(m.Payload, pix) {
		t.Fatalf("frame 1 = %+v %v, want %+v %v", m.Header, m.Payload, want, pix)
	}
	m, err = r.Next()
	if err != nil || m.Seq != 2 || m.Time != -5 || !bytes.Equal(m.Payload, small) {
		t.Fatalf("frame 2 = %+v, %v", m, err)
	}
	m, err = r.Next()
	if err != nil || m.Kind != KindError || m.Text() != "cannot open /dev/video0: no such device" {
		t.Fatalf("error message = %+v %q, %v", m.Header, m.Text(), err)
	}
	m, err = r.Next()
	if err != nil || m.Kind != KindEnd || m.Seq != 2 || len(m.Payload) != 0 {
		t.Fatalf("end message = %+v, %v", m, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last message: %v, want io.EOF", err)
	}
}

func TestWriterRejects(t *testing.T) {
	w := NewWriter(io.Discard)
	if err := w.WriteFrame(1, 0, 2, 2, make([]byte, 11)); !errors.Is(err, ErrMalformed) {
		t.Errorf("short pixels: %v", err)
	}
	if err := w.WriteFrame(1, 0, 0, 2, nil); !errors.Is(err, ErrMalformed) {
		t.Errorf("zero width: %v", err)
	}
	var buf bytes.Buffer
	if err := NewWriter(&buf).WriteError(strings.Repeat("x", MaxErrorText+10)); err != nil {
		t.Fatal(err)
	}
	m, err := NewReader(&buf).Next()
	if err != nil || len(m.Payload) != MaxErrorText {
		t.Fatalf("long error text: %d bytes, %v", len(m.Payload), err)
	}
}

func TestReaderRejects(t *testing.T) {
	good := header(Magic, Version, byte(KindFrame), 3, 0, 2, 2, 12)
	tests := []struct {
		name string
		in   []byte
		want string // in the error text
	}{
		{"bad magic", header("TGFQ", Version, 1, 3, 0, 2, 2, 12), "bad magic"},
		{"bad version", header(Magic, 2, 1, 3, 0, 2, 2, 12), "version 2"},
		{"reserved byte", header(Magic, Version, 1, 3, 9, 2, 2, 12), "reserved"},
		{"kind zero", header(Magic, Version, 0, 3, 0, 2, 2, 12), "unknown message kind 0"},
		{"kind four", header(Magic, Version, 4, 0, 0, 0, 0, 0), "unknown message kind 4"},
		{"width zero", header(Magic, Version, 1, 3, 0, 0, 2, 0), "frame size 0x2"},
		{"height zero", header(Magic, Version, 1, 3, 0, 2, 0, 0), "frame size 2x0"},
		{"width too large", header(Magic, Version, 1, 3, 0, 8193, 1, 8193*3), "8193x1"},
		{"height too large", header(Magic, Version, 1, 3, 0, 1, 1<<31, 3), "limit 8192"},
		{"four channels", header(Magic, Version, 1, 4, 0, 2, 2, 16), "4 channels"},
		{"one channel", header(Magic, Version, 1, 1, 0, 2, 2, 4), "1 channels"},
		{"payload short of pixels", header(Magic, Version, 1, 3, 0, 2, 2, 11), "needs 12"},
		{"payload beyond pixels", header(Magic, Version, 1, 3, 0, 2, 2, 13), "needs 12"},
		{"absurd payload", header(Magic, Version, 1, 3, 0, 2, 2, 0xffffffff), "payload of"},
		{"end with size", header(Magic, Version, 2, 0, 0, 2, 2, 0), "end message with size"},
		{"end with payload", header(Magic, Version, 2, 0, 0, 0, 0, 4), "end message with 4 payload"},
		{"error with channels", header(Magic, Version, 3, 3, 0, 0, 0, 4), "error message with size"},
		{"error text too long", header(Magic, Version, 3, 0, 0, 0, 0, MaxErrorText+1), "limit 65536"},
		{"cut inside header", good[:20], "inside a header (20 of 36"},
		{"cut inside payload", append(append([]byte{}, good...), 1, 2, 3), "inside a payload (3 of 12"},
		{"cut error text", append(header(Magic, Version, 3, 0, 0, 0, 0, 10), 'a'), "inside a payload (1 of 10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(bytes.NewReader(tc.in))
			_, err := r.Next()
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %q, want it to mention %q", err, tc.want)
			}
			if _, again := r.Next(); again != err {
				t.Fatalf("second Next = %v, want the same error", again)
			}
		})
	}
}

// failingReader returns its error after giving data.
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// flakyReader fails once with err, then reads from r.
type flakyReader struct {
	err error
	r   io.Reader
}

func (f *flakyReader) Read(p []byte) (int, error) {
	if f.err != nil {
		err := f.err
		f.err = nil
		return 0, err
	}
	return f.r.Read(p)
}

func TestReaderPassesIOErrors(t *testing.T) {
	// A deadline before the first byte of a message: the Reader stays usable.
	var buf bytes.Buffer
	NewWriter(&buf).WriteEnd(3)
	r := NewReader(&flakyReader{err: os.ErrDeadlineExceeded, r: &buf})
	_, err := r.Next()
	if !errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, ErrMalformed) || r.Broken() != nil {
		t.Fatalf("header read: %v (broken: %v)", err, r.Broken())
	}
	if m, err := r.Next(); err != nil || m.Kind != KindEnd || m.Seq != 3 {
		t.Fatalf("after the deadline: %+v, %v", m, err)
	}
	// An error inside a message: out of step for good.
	good := header(Magic, Version, byte(KindFrame), 3, 0, 2, 2, 12)
	r = NewReader(&failingReader{data: good, err: os.ErrClosed})
	_, err = r.Next()
	if !errors.Is(err, os.ErrClosed) || errors.Is(err, ErrMalformed) || r.Broken() != err {
		t.Fatalf("payload read: %v (broken: %v)", err, r.Broken())
	}
}

// A header announcing the largest frame, followed by a few bytes, must not make the Reader
// allocate the whole frame.
func TestReaderBoundedAllocation(t *testing.T) {
	in := append(header(Magic, Version, 1, 3, 0, MaxDimension, MaxDimension, MaxDimension*MaxDimension*3), 1, 2, 3)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := NewReader(bytes.NewReader(in))
	if _, err := r.Next(); !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v", err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 3*readChunk {
		t.Fatalf("allocated %d bytes for a 3-byte payload", grew)
	}
	if cap(r.buf) > 2*readChunk {
		t.Fatalf("buffer grew to %d bytes", cap(r.buf))
	}
}

func TestReaderReusesBuffer(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	pix := make([]byte, 64*48*3)
	for i := 0; i < 3; i++ {
		pix[0] = byte(i)
		if err := w.WriteFrame(uint64(i+1), 0, 64, 48, pix); err != nil {
			t.Fatal(err)
		}
	}
	r := NewReader(&buf)
	var first *byte
	for i := 0; i < 3; i++ {
		m, err := r.Next()
		if err != nil || m.Payload[0] != byte(i) {
			t.Fatalf("frame %d: %v", i, err)
		}
		if i == 0 {
			first = &m.Payload[0]
		} else if &m.Payload[0] != first {
			t.Fatal("the payload buffer was not reused")
		}
	}
}

func FuzzReader(f *testing.F) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.WriteFrame(1, 99, 2, 1, []byte{1, 2, 3, 4, 5, 6})
	w.WriteError("boom")
	w.WriteEnd(1)
	f.Add(buf.Bytes())
	f.Add(header(Magic, Version, 1, 3, 0, 1, 1, 3))
	f.Add(header(Magic, Version, 3, 0, 0, 0, 0, 70000))
	f.Add([]byte("TGFP"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReader(bytes.NewReader(in))
		for i := 0; ; i++ {
			m, err := r.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, ErrMalformed) {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if m.check() != nil || len(m.Payload) != m.PayloadLen {
				t.Fatalf("accepted a bad message %+v", m.Header)
			}
			if i > len(in)/HeaderSize {
				t.Fatal("more messages than the input can hold")
			}
			// What was read writes back to the same bytes.
			var out bytes.Buffer
			if err := NewWriter(&out).write(m.Header, m.Payload); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(in, out.Bytes()) {
				t.Fatalf("re-encoded %+v is not in the input", m.Header)
			}
		}
	})
}
