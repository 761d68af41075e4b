// Package journal is the referee's append-only event log: a file of length-prefixed records, each
// with its own CRC-32C checksum, written with one write call and made durable with fsync before
// Append returns. On open the whole file is checked: a damaged record in the middle (a flipped
// bit) is skipped, the reading resynchronizing at the next whole record with a good checksum, so
// that every good record after it is kept; a torn or corrupt tail (a crash in the middle of a
// write) is cut at the last good record. Damaged bytes are saved aside for the director and
// reported, and the file is rewritten without them. One process at a time holds a journal (an OS
// lock on journal.lock beside it).
//
// File layout (all integers big-endian):
//
//	header   8 bytes  "TGJRNL1\n"
//	record   4 bytes  payload length n (1..MaxRecord)
//	         4 bytes  CRC-32C (Castagnoli) of the 4 length bytes followed by the payload
//	         n bytes  payload (opaque to this package; the referee writes one JSON object)
package journal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Magic is the 8-byte header every journal file starts with.
const Magic = "TGJRNL1\n"

// MaxRecord is the largest payload accepted, in bytes. A length field above it is treated as
// corruption rather than a reason to allocate a huge buffer.
const MaxRecord = 1 << 20

// recordHeader is the size of the length and checksum fields before each payload.
const recordHeader = 8

// FileName is the journal's file name inside its directory.
const FileName = "journal.tgj"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrNotJournal is returned when a file does not start with Magic.
var ErrNotJournal = errors.New("journal: not a Tengen journal (bad header)")

// ErrEmptyRecord is returned by Append for an empty or oversized payload.
var ErrEmptyRecord = errors.New("journal: record must be 1..MaxRecord bytes")

// ErrClosed is returned by Append after Close.
var ErrClosed = errors.New("journal: closed")

// CorruptError says where and why decoding stopped.
type CorruptError struct {
	Offset int64  // byte offset of the first bad record (everything before it is good)
	Reason string // what was wrong: "torn header", "torn payload", "checksum mismatch", ...
}

// Error says what was wrong and where.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("journal: %s at byte %d", e.Reason, e.Offset)
}

// Encode returns the on-disk form of one record (length, checksum, payload).
func Encode(payload []byte) []byte {
	buf := make([]byte, recordHeader+len(payload))
	binary.BigEndian.PutUint32(buf[0:4], uint32(len(payload)))
	copy(buf[recordHeader:], payload)
	binary.BigEndian.PutUint32(buf[4:8], checksum(buf[0:4], payload))
	return buf
}

func checksum(lenBytes, payload []byte) uint32 {
	c := crc32.Update(0, castagnoli, lenBytes)
	return crc32.Update(c, castagnoli, payload)
}

// Decode parses a whole journal file image (header included). It returns the payloads of the
// good records (sub-slices of data), the length of the good prefix, and nil or a *CorruptError
// describing the first bad byte. A file shorter than the header is reported as a torn header
// with good = 0; a wrong header is ErrNotJournal. Decode never panics, whatever data holds.
func Decode(data []byte) (records [][]byte, good int64, err error) {
	if len(data) < len(Magic) {
		if !bytes.HasPrefix([]byte(Magic), data) {
			return nil, 0, ErrNotJournal
		}
		if len(data) == 0 {
			return nil, 0, nil
		}
		return nil, 0, &CorruptError{Offset: 0, Reason: "torn file header"}
	}
	if string(data[:len(Magic)]) != Magic {
		return nil, 0, ErrNotJournal
	}
	off := int64(len(Magic))
	for off < int64(len(data)) {
		rest := data[off:]
		if len(rest) < recordHeader {
			return records, off, &CorruptError{Offset: off, Reason: "torn record header"}
		}
		n := binary.BigEndian.Uint32(rest[0:4])
		if n == 0 || n > MaxRecord {
			return records, off, &CorruptError{Offset: off, Reason: fmt.Sprintf("impossible record length %d", n)}
		}
		if uint64(len(rest)-recordHeader) < uint64(n) {
			return records, off, &CorruptError{Offset: off, Reason: "torn record payload"}
		}
		payload := rest[recordHeader : recordHeader+int(n)]
		if binary.BigEndian.Uint32(rest[4:8]) != checksum(rest[0:4], payload) {
			return records, off, &CorruptError{Offset: off, Reason: "checksum mismatch"}
		}
		records = append(records, payload)
		off += recordHeader + int64(n)
	}
	return records, off, nil
}

// Span is a damaged stretch of a journal file that was skipped.
type Span struct {
	From, To int64  // byte offsets in the file as it was
	Reason   string // what was wrong at From
	SavedTo  string // where its bytes were saved
}

// Recovery reports what Open found in an existing journal.
type Recovery struct {
	// Skipped are damaged stretches with good records after them: the records after each were
	// kept (the file was rewritten without the damage), and the damaged bytes saved aside.
	Skipped  []Span
	Records  int    // good records kept
	Good     int64  // bytes kept (header included)
	Cut      int64  // bytes cut from the tail (0 when the file was clean)
	Reason   string // why the tail was cut; empty when clean
	SavedTo  string // where the cut bytes were saved (empty when nothing was cut)
	Recreate bool   // the file was absent or held only a torn header and was (re)started
}

// Clean reports whether nothing had to be cut or skipped.
func (r Recovery) Clean() bool { return r.Cut == 0 && len(r.Skipped) == 0 }

// String describes the recovery in one line for the log and the director's screen.
func (r Recovery) String() string {
	if r.Clean() {
		return fmt.Sprintf("journal: %d records, clean", r.Records)
	}
	s := fmt.Sprintf("journal: %d good records kept", r.Records)
	for _, sp := range r.Skipped {
		s += fmt.Sprintf("; %d damaged bytes skipped at byte %d (%s), the records after them kept", sp.To-sp.From, sp.From, sp.Reason)
		if sp.SavedTo != "" {
			s += ", saved to " + sp.SavedTo
		}
	}
	if r.Cut > 0 {
		s += fmt.Sprintf("; %d bytes cut at byte %d (%s)", r.Cut, r.Good, r.Reason)
		if r.SavedTo != "" {
			s += "; cut bytes saved to " + r.SavedTo
		}
	}
	return s
}

// recordAt decodes the record at off: its payload and size, or why there is none.
func recordAt(data []byte, off int64) (payload []byte, size int64, reason string) {
	rest := data[off:]
	if len(rest) < recordHeader {
		return nil, 0, "torn record header"
	}
	n := binary.BigEndian.Uint32(rest[0:4])
	if n == 0 || n > MaxRecord {
		return nil, 0, fmt.Sprintf("impossible record length %d", n)
	}
	if uint64(len(rest)-recordHeader) < uint64(n) {
		return nil, 0, "torn record payload"
	}
	payload = rest[recordHeader : recordHeader+int(n)]
	if binary.BigEndian.Uint32(rest[4:8]) != checksum(rest[0:4], payload) {
		return nil, 0, "checksum mismatch"
	}
	return payload, recordHeader + int64(n), ""
}

// scan decodes data from off (a bad record) to the end, skipping damage: after a bad record it
// looks for the next offset where a whole record with a good checksum starts (a false match has
// odds of 1 in 2^32), and goes on from there. It returns the records found and the bad spans; a
// last span that reaches the end of data is a torn or damaged tail.
func scan(data []byte, off int64) (records [][]byte, bad []Span) {
	end := int64(len(data))
	for off < end {
		payload, size, reason := recordAt(data, off)
		if reason == "" {
			records = append(records, payload)
			off += size
			continue
		}
		next := end
		for y := off + 1; y+recordHeader <= end; y++ {
			if _, _, r := recordAt(data, y); r == "" {
				next = y
				break
			}
		}
		bad = append(bad, Span{From: off, To: next, Reason: reason})
		off = next
	}
	return records, bad
}

// resynced is the journal rewritten with records only (the damaged spans saved aside and noted
// in rec): the file image to write.
func (j *Journal) resynced(data []byte, records [][]byte, bad []Span, rec *Recovery) ([]byte, error) {
	for i := range bad {
		sp := &bad[i]
		sp.SavedTo = fmt.Sprintf("%s.damaged-%d", j.path, sp.From)
		if err := writeFileSync(sp.SavedTo, data[sp.From:sp.To]); err != nil {
			return nil, fmt.Errorf("journal: saving the damaged bytes: %w", err)
		}
		if sp.To == int64(len(data)) { // the tail: cut, as a torn tail always was
			rec.Cut, rec.Reason, rec.SavedTo = sp.To-sp.From, sp.Reason, sp.SavedTo
			continue
		}
		rec.Skipped = append(rec.Skipped, *sp)
	}
	img := []byte(Magic)
	for _, r := range records {
		img = append(img, Encode(r)...)
	}
	if rec.Cut > 0 {
		rec.Good = int64(len(img))
	}
	return img, nil
}

// Journal is an open journal file, safe for concurrent use. Append returns only once the record
// is on stable storage.
type Journal struct {
	mu     sync.Mutex
	f      *os.File
	lock   *os.File // the directory's lock, held until Close
	path   string
	size   int64
	closed bool
	noSync bool
	fault  func() error // WithFault
}

// Option adjusts Open.
type Option func(*Journal)

// WithoutSync turns fsync off. Only tests of logic that do not care about durability use it.
func WithoutSync() Option { return func(j *Journal) { j.noSync = true } }

// WithFault makes every Append first ask fault, and fail with its error as a full or failing disk
// would, writing nothing (tests of what the table does then).
func WithFault(fault func() error) Option { return func(j *Journal) { j.fault = fault } }

// Open opens (or creates) the journal in dir and returns it with the payloads of every good record
// and a report of any tail that had to be cut. The cut bytes are saved beside the journal as
// journal.tgj.cut-<offset> before the file is truncated, so even a damaged tail can be inspected.
func Open(dir string, opts ...Option) (*Journal, [][]byte, Recovery, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, Recovery{}, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{path: filepath.Join(dir, FileName)}
	for _, o := range opts {
		o(j)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, nil, Recovery{}, err
	}
	j.lock = lock
	ok := false
	defer func() {
		if !ok {
			lock.Close()
		}
	}()
	f, err := os.OpenFile(j.path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, Recovery{}, fmt.Errorf("journal: %w", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, Recovery{}, fmt.Errorf("journal: read %s: %w", j.path, err)
	}
	records, good, derr := Decode(data)
	var rec Recovery
	var ce *CorruptError
	switch {
	case errors.Is(derr, ErrNotJournal):
		f.Close()
		return nil, nil, Recovery{}, fmt.Errorf("%s: %w", j.path, derr)
	case errors.As(derr, &ce) && good > 0:
		// Records may follow the damage (a flipped byte in the middle, not a torn tail): keep them.
		later, bad := scan(data, good)
		if len(bad) > 0 && bad[0].To < int64(len(data)) {
			records = append(records, later...)
			img, err := j.resynced(data, records, bad, &rec)
			if err != nil {
				f.Close()
				return nil, nil, Recovery{}, err
			}
			if err := f.Truncate(0); err != nil {
				f.Close()
				return nil, nil, Recovery{}, fmt.Errorf("journal: %w", err)
			}
			if _, err := f.WriteAt(img, 0); err != nil {
				f.Close()
				return nil, nil, Recovery{}, fmt.Errorf("journal: rewriting without the damaged records: %w", err)
			}
			data, good = img, int64(len(img))
			records, _, _ = Decode(img)
			break
		}
		fallthrough
	case errors.As(derr, &ce):
		rec.Reason = ce.Reason
		rec.Cut = int64(len(data)) - good
		saved := fmt.Sprintf("%s.cut-%d", j.path, good)
		if err := writeFileSync(saved, data[good:]); err != nil {
			f.Close()
			return nil, nil, Recovery{}, fmt.Errorf("journal: saving the corrupt tail: %w", err)
		}
		rec.SavedTo = saved
	}
	if good == 0 {
		// Empty, or only a torn header: start the file afresh.
		rec.Recreate = true
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, nil, Recovery{}, fmt.Errorf("journal: %w", err)
		}
		if _, err := f.WriteAt([]byte(Magic), 0); err != nil {
			f.Close()
			return nil, nil, Recovery{}, fmt.Errorf("journal: %w", err)
		}
		good = int64(len(Magic))
	} else if good < int64(len(data)) {
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, nil, Recovery{}, fmt.Errorf("journal: cutting the tail: %w", err)
		}
	}
	if !j.noSync {
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, nil, Recovery{}, fmt.Errorf("journal: %w", err)
		}
		if err := syncDir(dir); err != nil {
			f.Close()
			return nil, nil, Recovery{}, err
		}
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, Recovery{}, fmt.Errorf("journal: %w", err)
	}
	j.f = f
	j.size = good
	rec.Records = len(records)
	rec.Good = good
	// Copy the payloads out of the file image so callers may keep them.
	out := make([][]byte, len(records))
	for i, r := range records {
		out[i] = append([]byte(nil), r...)
	}
	ok = true
	return j, out, rec, nil
}

// Path returns the journal file's path.
func (j *Journal) Path() string { return j.path }

// Size returns the number of bytes durably written (header included).
func (j *Journal) Size() int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.size
}

// Append writes one record and fsyncs the file before returning. On a failed or short write
// the file is cut back to its previous length, so a later Append still continues a valid file.
func (j *Journal) Append(payload []byte) error {
	if len(payload) == 0 || len(payload) > MaxRecord {
		return ErrEmptyRecord
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return ErrClosed
	}
	if j.fault != nil {
		if err := j.fault(); err != nil {
			return fmt.Errorf("journal: append: %w", err)
		}
	}
	buf := Encode(payload)
	if _, err := j.f.Write(buf); err != nil {
		// Best effort: drop a partial record so the file stays decodable.
		_ = j.f.Truncate(j.size)
		_, _ = j.f.Seek(j.size, io.SeekStart)
		return fmt.Errorf("journal: append: %w", err)
	}
	if !j.noSync {
		if err := j.f.Sync(); err != nil {
			return fmt.Errorf("journal: fsync: %w", err)
		}
	}
	j.size += int64(len(buf))
	return nil
}

// Close closes the file. Records already appended are durable.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil
	}
	j.closed = true
	return errors.Join(j.f.Close(), j.lock.Close())
}

func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("journal: fsync %s: %w", dir, err)
	}
	return nil
}
