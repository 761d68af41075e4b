// Package framepipe is the wire format between the camera helper (kiosk-camera) and the kiosk:
// a stream of messages, each a fixed 36-byte header followed by a payload. A frame message
// carries the pixels of one BGR image, an end message says a video file has no more frames, an
// error message carries the reason the helper is giving up. The Reader checks every header
// before trusting it, so a corrupt or hostile stream gives an error wrapping ErrMalformed, never
// a panic or an unbounded allocation.
package framepipe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Magic opens every message header.
const Magic = "TGFP"

// Version is the wire format version this package writes and reads.
const Version = 1

// HeaderSize is the size of a message header in bytes.
const HeaderSize = 36

// Limits a Reader enforces.
const (
	MaxDimension = 8192     // largest frame width or height
	MaxErrorText = 64 << 10 // largest error message payload in bytes
	ChannelsBGR  = 3        // the only pixel layout: 8-bit blue, green, red
)

// readChunk bounds how much the Reader grows its buffer ahead of the bytes actually received,
// so a header announcing a huge frame followed by nothing costs little memory.
const readChunk = 4 << 20

// ErrMalformed is wrapped by every error the Reader returns for bytes that are not a valid
// message (bad magic, version, kind, size, a stream cut inside a message).
var ErrMalformed = errors.New("framepipe: malformed stream")

// Kind says what a message is.
type Kind uint8

// Message kinds.
const (
	KindFrame Kind = 1 // one image: Width x Height x Channels bytes of pixels
	KindEnd   Kind = 2 // the source (a video file) has no more frames
	KindError Kind = 3 // the helper gives up; the payload is the reason (UTF-8 text)
)

// String returns "frame", "end" or "error".
func (k Kind) String() string {
	switch k {
	case KindFrame:
		return "frame"
	case KindEnd:
		return "end"
	case KindError:
		return "error"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Header describes one message.
type Header struct {
	Kind     Kind
	Width    int    // frame width in pixels (0 for end and error)
	Height   int    // frame height in pixels (0 for end and error)
	Channels int    // bytes per pixel: ChannelsBGR for frames, 0 otherwise
	Seq      uint64 // frame number at the source, counting from 1
	// Time is when the frame was captured, in unix nanoseconds; for a video file it is the
	// frame's position in the video (nanoseconds from its start).
	Time       int64
	PayloadLen int // bytes following the header
}

// Message is a decoded message. Payload is owned by the Reader and valid until its next Next.
type Message struct {
	Header
	Payload []byte
}

// Text returns an error message's payload as a string.
func (m Message) Text() string { return string(m.Payload) }

// Writer writes messages to an io.Writer. It is not safe for concurrent use.
type Writer struct {
	w   io.Writer
	hdr [HeaderSize]byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// WriteFrame writes one BGR frame; pix holds width*height*3 bytes, row after row.
func (w *Writer) WriteFrame(seq uint64, at int64, width, height int, pix []byte) error {
	h := Header{Kind: KindFrame, Width: width, Height: height, Channels: ChannelsBGR, Seq: seq, Time: at, PayloadLen: len(pix)}
	if err := h.check(); err != nil {
		return err
	}
	return w.write(h, pix)
}

// WriteEnd writes the end-of-frames message; seq is the number of the last frame.
func (w *Writer) WriteEnd(seq uint64) error {
	return w.write(Header{Kind: KindEnd, Seq: seq}, nil)
}

// WriteError writes an error message; text longer than MaxErrorText is cut.
func (w *Writer) WriteError(text string) error {
	if len(text) > MaxErrorText {
		text = text[:MaxErrorText]
	}
	return w.write(Header{Kind: KindError, PayloadLen: len(text)}, []byte(text))
}

func (w *Writer) write(h Header, payload []byte) error {
	b := w.hdr[:]
	copy(b[0:4], Magic)
	b[4] = Version
	b[5] = byte(h.Kind)
	b[6] = byte(h.Channels)
	b[7] = 0
	binary.LittleEndian.PutUint32(b[8:], uint32(h.Width))
	binary.LittleEndian.PutUint32(b[12:], uint32(h.Height))
	binary.LittleEndian.PutUint64(b[16:], h.Seq)
	binary.LittleEndian.PutUint64(b[24:], uint64(h.Time))
	binary.LittleEndian.PutUint32(b[32:], uint32(len(payload)))
	if _, err := w.w.Write(b); err != nil {
		return fmt.Errorf("framepipe: write header: %w", err)
	}
	if len(payload) > 0 {
		if _, err := w.w.Write(payload); err != nil {
			return fmt.Errorf("framepipe: write payload: %w", err)
		}
	}
	return nil
}

// check reports whether h is a header a Reader accepts.
func (h Header) check() error {
	switch h.Kind {
	case KindFrame:
		if h.Width <= 0 || h.Height <= 0 || h.Width > MaxDimension || h.Height > MaxDimension {
			return fmt.Errorf("%w: frame size %dx%d (want 1..%d)", ErrMalformed, h.Width, h.Height, MaxDimension)
		}
		if h.Channels != ChannelsBGR {
			return fmt.Errorf("%w: %d channels (want %d)", ErrMalformed, h.Channels, ChannelsBGR)
		}
		if want := h.Width * h.Height * h.Channels; h.PayloadLen != want {
			return fmt.Errorf("%w: frame payload %d bytes, %dx%dx%d needs %d", ErrMalformed, h.PayloadLen, h.Width, h.Height, h.Channels, want)
		}
	case KindEnd, KindError:
		if h.Width != 0 || h.Height != 0 || h.Channels != 0 {
			return fmt.Errorf("%w: %s message with size %dx%dx%d", ErrMalformed, h.Kind, h.Width, h.Height, h.Channels)
		}
		if h.Kind == KindEnd && h.PayloadLen != 0 {
			return fmt.Errorf("%w: end message with %d payload bytes", ErrMalformed, h.PayloadLen)
		}
		if h.Kind == KindError && h.PayloadLen > MaxErrorText {
			return fmt.Errorf("%w: error text of %d bytes (limit %d)", ErrMalformed, h.PayloadLen, MaxErrorText)
		}
	default:
		return fmt.Errorf("%w: unknown message kind %d", ErrMalformed, uint8(h.Kind))
	}
	return nil
}

// Reader decodes messages from an io.Reader into a reused buffer. It is not safe for
// concurrent use. After an error inside a message (the stream is out of step) every later Next
// returns the same error; an error of the underlying reader before the first byte of a message
// (a read deadline passing between frames) leaves the Reader usable.
type Reader struct {
	r   io.Reader
	hdr [HeaderSize]byte
	buf []byte
	err error
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: r} }

// Next reads the next message. At a clean end of stream (between messages) it returns io.EOF;
// a stream cut inside a message, or a bad header, is an error wrapping ErrMalformed. Errors of
// the underlying reader (a deadline, a closed pipe) are returned wrapped.
func (r *Reader) Next() (Message, error) {
	if r.err != nil {
		return Message{}, r.err
	}
	m, err := r.next()
	if err != nil && !errors.Is(err, errBetweenMessages) {
		r.err = err
	}
	return m, err
}

// Broken returns the error that put the Reader out of step with the stream, or nil while
// Next may still succeed.
func (r *Reader) Broken() error { return r.err }

// errBetweenMessages marks an I/O error that came before any byte of a message.
var errBetweenMessages = errors.New("between messages")

func (r *Reader) next() (Message, error) {
	if n, err := io.ReadFull(r.r, r.hdr[:]); err != nil {
		if err == io.EOF {
			return Message{}, io.EOF
		}
		if err == io.ErrUnexpectedEOF {
			return Message{}, fmt.Errorf("%w: stream ends inside a header (%d of %d bytes): %w", ErrMalformed, n, HeaderSize, err)
		}
		if n == 0 {
			return Message{}, fmt.Errorf("framepipe: read header: %w", errors.Join(err, errBetweenMessages))
		}
		return Message{}, fmt.Errorf("framepipe: read header: %w", err)
	}
	b := r.hdr[:]
	if string(b[0:4]) != Magic {
		return Message{}, fmt.Errorf("%w: bad magic %q", ErrMalformed, b[0:4])
	}
	if b[4] != Version {
		return Message{}, fmt.Errorf("%w: version %d (want %d)", ErrMalformed, b[4], Version)
	}
	if b[7] != 0 {
		return Message{}, fmt.Errorf("%w: reserved byte is %d", ErrMalformed, b[7])
	}
	w, h := binary.LittleEndian.Uint32(b[8:]), binary.LittleEndian.Uint32(b[12:])
	plen := binary.LittleEndian.Uint32(b[32:])
	if w > MaxDimension || h > MaxDimension {
		return Message{}, fmt.Errorf("%w: frame size %dx%d (limit %d)", ErrMalformed, w, h, MaxDimension)
	}
	if plen > MaxDimension*MaxDimension*ChannelsBGR {
		return Message{}, fmt.Errorf("%w: payload of %d bytes", ErrMalformed, plen)
	}
	hd := Header{
		Kind:       Kind(b[5]),
		Channels:   int(b[6]),
		Width:      int(w),
		Height:     int(h),
		Seq:        binary.LittleEndian.Uint64(b[16:]),
		Time:       int64(binary.LittleEndian.Uint64(b[24:])),
		PayloadLen: int(plen),
	}
	if err := hd.check(); err != nil {
		return Message{}, err
	}
	payload, err := r.readPayload(hd.PayloadLen)
	if err != nil {
		return Message{}, err
	}
	return Message{Header: hd, Payload: payload}, nil
}

// readPayload reads n bytes into the reused buffer, growing it at most readChunk bytes ahead
// of what has arrived.
func (r *Reader) readPayload(n int) ([]byte, error) {
	if n <= cap(r.buf) {
		r.buf = r.buf[:n]
		if got, err := io.ReadFull(r.r, r.buf); err != nil {
			return nil, r.payloadErr(got, n, err)
		}
		return r.buf, nil
	}
	r.buf = r.buf[:0]
	for len(r.buf) < n {
		step := min(n-len(r.buf), max(readChunk, len(r.buf)))
		start := len(r.buf)
		r.buf = append(r.buf, make([]byte, step)...)
		if got, err := io.ReadFull(r.r, r.buf[start:]); err != nil {
			return nil, r.payloadErr(start+got, n, err)
		}
	}
	return r.buf, nil
}

func (r *Reader) payloadErr(got, n int, err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%w: stream ends inside a payload (%d of %d bytes): %w", ErrMalformed, got, n, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("framepipe: read payload: %w", err)
}
