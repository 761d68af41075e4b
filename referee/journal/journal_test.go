package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func payloads(n int) [][]byte {
	var out [][]byte
	for i := 0; i < n; i++ {
		out = append(out, []byte(fmt.Sprintf(`{"seq":%d,"k":"press","pad":"%0*d"}`, i, i%7+1, i)))
	}
	return out
}

func writeJournal(t *testing.T, dir string, recs [][]byte) {
	t.Helper()
	j, got, rec, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 || !rec.Clean() {
		t.Fatalf("fresh journal: %d records, %v", len(got), rec)
	}
	for _, r := range recs {
		if err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	want := payloads(20)
	writeJournal(t, dir, want)
	j, got, rec, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if !rec.Clean() || rec.Records != len(want) {
		t.Fatalf("recovery %v", rec)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("record %d: %q want %q", i, got[i], want[i])
		}
	}
	// Appending after a reopen continues the same file.
	if err := j.Append([]byte("more")); err != nil {
		t.Fatal(err)
	}
	j.Close()
	_, got, _, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want)+1 || string(got[len(got)-1]) != "more" {
		t.Fatalf("after append: %d records, last %q", len(got), got[len(got)-1])
	}
}

// TestTruncateLastRecordEveryOffset cuts the file at every byte offset inside its last record
// and checks that all earlier records survive, the tail is cut and saved, and the journal
// accepts new records afterwards.
func TestTruncateLastRecordEveryOffset(t *testing.T) {
	base := t.TempDir()
	want := payloads(6)
	writeJournal(t, base, want)
	full, err := os.ReadFile(filepath.Join(base, FileName))
	if err != nil {
		t.Fatal(err)
	}
	lastLen := int64(recordHeader + len(want[len(want)-1]))
	start := int64(len(full)) - lastLen
	for cut := start; cut < int64(len(full)); cut++ {
		dir := filepath.Join(base, fmt.Sprint("cut", cut))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, FileName), full[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		j, got, rec, err := Open(dir)
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if len(got) != len(want)-1 {
			t.Fatalf("cut %d: %d records, want %d", cut, len(got), len(want)-1)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("cut %d: record %d changed", cut, i)
			}
		}
		if cut == start {
			if !rec.Clean() {
				t.Fatalf("cut at a record boundary should be clean: %v", rec)
			}
		} else {
			if rec.Clean() || rec.Good != start || rec.Cut != cut-start || rec.SavedTo == "" {
				t.Fatalf("cut %d: recovery %+v", cut, rec)
			}
			saved, err := os.ReadFile(rec.SavedTo)
			if err != nil || !bytes.Equal(saved, full[start:cut]) {
				t.Fatalf("cut %d: saved tail %q, %v", cut, saved, err)
			}
		}
		if err := j.Append([]byte("after")); err != nil {
			t.Fatal(err)
		}
		j.Close()
		_, got, rec, err = Open(dir)
		if err != nil || !rec.Clean() || len(got) != len(want) || string(got[len(got)-1]) != "after" {
			t.Fatalf("cut %d: reopen: %d records, %v, %v", cut, len(got), rec, err)
		}
	}
}

// TestCorruptLastRecordEveryByte flips one bit in every byte of the last record.
func TestCorruptLastRecordEveryByte(t *testing.T) {
	want := payloads(4)
	var img []byte
	img = append(img, Magic...)
	for _, p := range want {
		img = append(img, Encode(p)...)
	}
	start := len(img) - (recordHeader + len(want[len(want)-1]))
	for i := start; i < len(img); i++ {
		bad := append([]byte(nil), img...)
		bad[i] ^= 0x10
		got, good, err := Decode(bad)
		var ce *CorruptError
		if !errors.As(err, &ce) {
			t.Fatalf("byte %d: err %v, want CorruptError", i, err)
		}
		if len(got) != len(want)-1 || good != int64(start) || ce.Offset != int64(start) {
			t.Fatalf("byte %d: %d records, good %d, %v", i, len(got), good, err)
		}
	}
}

// TestCorruptMiddleKeepsTheRest: a flipped byte in the middle of a journal loses only the record
// it hit: the records after it are kept, the damaged bytes saved aside, and the file rewritten
// without them so that it opens clean next time.
func TestCorruptMiddleKeepsTheRest(t *testing.T) {
	dir := t.TempDir()
	want := payloads(5)
	writeJournal(t, dir, want)
	path := filepath.Join(dir, FileName)
	data, _ := os.ReadFile(path)
	// Corrupt the payload of record 2.
	off := len(Magic)
	for i := 0; i < 2; i++ {
		off += recordHeader + len(want[i])
	}
	data[off+recordHeader+1] ^= 0xff
	os.WriteFile(path, data, 0o644)
	j, got, rec, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	wantKept := [][]byte{want[0], want[1], want[3], want[4]}
	if len(got) != len(wantKept) || len(rec.Skipped) != 1 || rec.Skipped[0].Reason != "checksum mismatch" ||
		rec.Skipped[0].From != int64(off) || rec.Cut != 0 {
		t.Fatalf("%d records, %+v", len(got), rec)
	}
	for i := range wantKept {
		if !bytes.Equal(got[i], wantKept[i]) {
			t.Fatalf("record %d = %q, want %q", i, got[i], wantKept[i])
		}
	}
	if saved, err := os.ReadFile(rec.Skipped[0].SavedTo); err != nil || len(saved) != recordHeader+len(want[2]) {
		t.Fatalf("the damaged bytes saved: %d bytes, %v", len(saved), err)
	}
	if !strings.Contains(rec.String(), "damaged bytes skipped") {
		t.Errorf("report %q", rec.String())
	}
	if err := j.Append([]byte("after")); err != nil {
		t.Fatal(err)
	}
	j.Close()
	j, got, rec, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if !rec.Clean() || len(got) != 5 || string(got[4]) != "after" {
		t.Fatalf("reopened: %d records, %+v", len(got), rec)
	}
}

// TestCorruptTailIsCut: damage with no good record after it (a torn last write) is cut as before.
func TestCorruptTailIsCut(t *testing.T) {
	dir := t.TempDir()
	want := payloads(5)
	writeJournal(t, dir, want)
	path := filepath.Join(dir, FileName)
	data, _ := os.ReadFile(path)
	data[len(data)-3] ^= 0xff
	os.WriteFile(path, data, 0o644)
	j, got, rec, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if len(got) != 4 || rec.Reason != "checksum mismatch" || rec.Cut == 0 || len(rec.Skipped) != 0 {
		t.Fatalf("%d records, %+v", len(got), rec)
	}
}

func TestTornHeaderAndForeignFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	os.WriteFile(path, []byte(Magic[:3]), 0o644)
	j, got, rec, err := Open(dir)
	if err != nil || len(got) != 0 || !rec.Recreate {
		t.Fatalf("torn header: %v %v %+v", err, got, rec)
	}
	j.Close()

	dir2 := t.TempDir()
	os.WriteFile(filepath.Join(dir2, FileName), []byte("hello, this is not a journal"), 0o644)
	if _, _, _, err := Open(dir2); !errors.Is(err, ErrNotJournal) {
		t.Fatalf("foreign file: %v", err)
	}
	// The foreign file must be left untouched.
	if b, _ := os.ReadFile(filepath.Join(dir2, FileName)); string(b) != "hello, this is not a journal" {
		t.Fatal("foreign file modified")
	}
}

func TestAppendRejects(t *testing.T) {
	j, _, _, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(nil); !errors.Is(err, ErrEmptyRecord) {
		t.Fatalf("empty: %v", err)
	}
	if err := j.Append(make([]byte, MaxRecord+1)); !errors.Is(err, ErrEmptyRecord) {
		t.Fatalf("oversized: %v", err)
	}
	j.Close()
	if err := j.Append([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	var img []byte
	img = append(img, Magic...)
	for _, p := range payloads(3) {
		img = append(img, Encode(p)...)
	}
	f.Add(img)
	f.Add(img[:len(img)-3])
	f.Add([]byte(Magic))
	f.Add([]byte{})
	f.Add([]byte(Magic + "\xff\xff\xff\xff\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, good, err := Decode(data)
		if good < 0 || good > int64(len(data)) {
			t.Fatalf("good %d outside 0..%d", good, len(data))
		}
		if err == nil && good != int64(len(data)) && len(data) != 0 {
			t.Fatalf("no error but only %d of %d bytes good", good, len(data))
		}
		// The good prefix must decode cleanly to the same records.
		if good >= int64(len(Magic)) {
			again, g2, err2 := Decode(data[:good])
			if err2 != nil || g2 != good || len(again) != len(recs) {
				t.Fatalf("good prefix does not re-decode: %v %d %d", err2, g2, len(again))
			}
			// Re-encoding the records reproduces the prefix exactly.
			var re []byte
			re = append(re, Magic...)
			for _, r := range recs {
				re = append(re, Encode(r)...)
			}
			if !bytes.Equal(re, data[:good]) {
				t.Fatal("re-encoding differs from the good prefix")
			}
		}
	})
}

// BenchmarkAppend measures one durable append (write + fsync) of a typical record.
func BenchmarkAppend(b *testing.B) {
	j, _, _, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	rec := bytes.Repeat([]byte("x"), 420) // about an observation record on 19x19
	b.ReportAllocs()
	b.SetBytes(int64(len(rec)))
	for b.Loop() {
		if err := j.Append(rec); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOneWriter: a journal open in one place cannot be opened in another (a second kiosk, a
// replay or a tool); the refusal names the holder's PID and touches nothing; closing releases it.
func TestOneWriter(t *testing.T) {
	dir := t.TempDir()
	j, _, _, err := Open(dir, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append([]byte(`{"k":"setup"}`)); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, err = Open(dir, WithoutSync())
	var iu *InUseError
	if !errors.Is(err, ErrInUse) || !errors.As(err, &iu) || iu.PID != os.Getpid() {
		t.Fatalf("second Open: %v, want in use by PID %d", err, os.Getpid())
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("in use by PID %d", os.Getpid())) {
		t.Errorf("message %q", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, FileName))
	if !bytes.Equal(before, after) {
		t.Error("the refused Open changed the journal")
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j2, recs, _, err := Open(dir, WithoutSync())
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	defer j2.Close()
	if len(recs) != 1 {
		t.Fatalf("%d records after reopening, want 1", len(recs))
	}
}
