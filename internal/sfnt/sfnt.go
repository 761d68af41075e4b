// Package sfnt reads and writes the table directory of a TrueType font file: the part every font
// the kiosk makes or changes (the board's shapes font, the trimmed theme fonts) has in common.
package sfnt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrNotTrueType means the data is not a single TrueType-outline font (a collection, a CFF font or
// something else).
var ErrNotTrueType = errors.New("sfnt: not a TrueType-outline font")

// Table is one font table and its four-letter tag.
type Table struct {
	Tag  string
	Data []byte
}

// Read returns the font's tables in directory order, each a slice of font.
func Read(font []byte) ([]Table, error) {
	if len(font) < 12 {
		return nil, fmt.Errorf("%w: %d bytes", ErrNotTrueType, len(font))
	}
	switch v := binary.BigEndian.Uint32(font); v {
	case 0x00010000, 0x74727565: // 1.0, "true"
	default:
		return nil, fmt.Errorf("%w: version %#08x", ErrNotTrueType, v)
	}
	num := int(binary.BigEndian.Uint16(font[4:]))
	if len(font) < 12+16*num {
		return nil, errors.New("sfnt: table directory cut short")
	}
	tabs := make([]Table, 0, num)
	for i := range num {
		rec := font[12+16*i:]
		off, length := uint64(binary.BigEndian.Uint32(rec[8:])), uint64(binary.BigEndian.Uint32(rec[12:]))
		if off+length > uint64(len(font)) {
			return nil, fmt.Errorf("sfnt: table %q lies outside the file", rec[:4])
		}
		tabs = append(tabs, Table{Tag: string(rec[:4]), Data: font[off : off+length]})
	}
	return tabs, nil
}

// Assemble returns a font file holding tables: the directory, then the tables sorted by tag, each
// on a 4-byte boundary with its checksum, and the head table's whole-font checksum adjustment set.
func Assemble(tables []Table) []byte {
	tables = slices.Clone(tables)
	slices.SortFunc(tables, func(a, b Table) int { return strings.Compare(a.Tag, b.Tag) })
	n := len(tables)
	search, sel := 1, 0
	for search*2 <= n {
		search *= 2
		sel++
	}
	out := make([]byte, 12+16*n)
	binary.BigEndian.PutUint32(out[0:], 0x00010000)
	binary.BigEndian.PutUint16(out[4:], uint16(n))
	binary.BigEndian.PutUint16(out[6:], uint16(16*search))
	binary.BigEndian.PutUint16(out[8:], uint16(sel))
	binary.BigEndian.PutUint16(out[10:], uint16(16*(n-search)))
	headAt := -1
	for i, t := range tables {
		at := len(out)
		if t.Tag == "head" && len(t.Data) >= 12 {
			headAt = at
		}
		out = append(out, t.Data...)
		if at == headAt {
			binary.BigEndian.PutUint32(out[at+8:], 0) // the adjustment is summed as zero
		}
		rec := out[12+16*i:] // after the append, which may have moved out
		copy(rec[:4], t.Tag)
		binary.BigEndian.PutUint32(rec[4:], Checksum(out[at:]))
		binary.BigEndian.PutUint32(rec[8:], uint32(at))
		binary.BigEndian.PutUint32(rec[12:], uint32(len(t.Data)))
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	if headAt >= 0 {
		binary.BigEndian.PutUint32(out[headAt+8:], 0xB1B0AFBA-Checksum(out))
	}
	return out
}

// Checksum is the TrueType table checksum: the sum of the data as big-endian 32-bit words, the
// last padded with zeros.
func Checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}
