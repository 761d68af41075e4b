// Package fonttrim makes a TrueType font cheaper to hold in memory by keeping only the glyphs a
// chosen set of characters can reach.
//
// Fyne parses every outline of a font when it first draws text in it (go-text keeps each glyph's
// points as Go values), about 1.5 MB for each style of the theme's Noto Sans, much of it for
// scripts a screen may never show (Greek, IPA, the rarer extensions of Latin and Cyrillic). A trimmed font has the same
// glyph numbers, metrics and layout tables, so the kept characters shape and draw exactly as before;
// the other glyphs' outlines are empty and their characters are no longer in the character map, so
// a renderer shows its replacement mark for them as for any character the font lacks.
package fonttrim

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/font/opentype/tables"

	"tengen/internal/sfnt"
)

// ErrNotTrueType means the data is not a single TrueType-outline font (a collection, a CFF font or
// something else), which Trim does not handle.
var ErrNotTrueType = sfnt.ErrNotTrueType

// Trim returns a copy of ttf that maps only the characters keep accepts and holds the outlines of
// only the glyphs those characters can reach: through the character map, the glyph substitutions
// of the layout table (ligatures, alternates, local forms; every substitution counted whatever its
// context) and composite glyphs' parts. Every other table is copied unchanged.
func Trim(ttf []byte, keep func(rune) bool) ([]byte, error) {
	tabs, err := sfnt.Read(ttf)
	if err != nil {
		return nil, fmt.Errorf("fonttrim: %w", err)
	}
	get := func(tag string) []byte {
		for _, t := range tabs {
			if t.Tag == tag {
				return t.Data
			}
		}
		return nil
	}
	head, maxp, loca, glyf := get("head"), get("maxp"), get("loca"), get("glyf")
	if head == nil || maxp == nil || loca == nil || glyf == nil {
		return nil, fmt.Errorf("%w: no head, maxp, loca or glyf table", ErrNotTrueType)
	}
	if len(head) < 54 || len(maxp) < 6 {
		return nil, errors.New("fonttrim: head or maxp table too short")
	}
	n := int(binary.BigEndian.Uint16(maxp[4:]))
	long := binary.BigEndian.Uint16(head[50:]) == 1
	offsets, err := tables.ParseLoca(loca, n, long)
	if err != nil {
		return nil, fmt.Errorf("fonttrim: %w", err)
	}
	for g := 0; g < n; g++ {
		if offsets[g] > offsets[g+1] || int(offsets[g+1]) > len(glyf) {
			return nil, fmt.Errorf("fonttrim: glyph %d lies outside the glyf table", g)
		}
	}
	face, err := font.ParseTTF(bytes.NewReader(ttf))
	if err != nil {
		return nil, fmt.Errorf("fonttrim: %w", err)
	}

	kept := make([]bool, n)
	kept[0] = true // .notdef: what a missing character is drawn with
	var chars []mapping
	for it := face.Cmap.Iter(); it.Next(); {
		r, g := it.Char()
		if keep(r) && int(g) < n {
			kept[g] = true
			chars = append(chars, mapping{r, g})
		}
	}
	closeOverSubstitutions(kept, face.GSUB)
	closeOverComponents(kept, glyf, offsets)

	newGlyf, newLoca := rebuildGlyphs(kept, glyf, offsets, long)
	out := make([]sfnt.Table, 0, len(tabs))
	for _, t := range tabs {
		switch t.Tag {
		case "glyf":
			t.Data = newGlyf
		case "loca":
			t.Data = newLoca
		case "cmap":
			t.Data = buildCmap(chars)
		case "post":
			t.Data = withoutGlyphNames(t.Data)
		}
		out = append(out, t)
	}
	return sfnt.Assemble(out), nil
}

// withoutGlyphNames returns a post table of version 3, which names no glyph: the names are for
// people editing the font, and the parsed font keeps them all.
func withoutGlyphNames(post []byte) []byte {
	if len(post) < 32 {
		return post
	}
	out := slices.Clone(post[:32])
	binary.BigEndian.PutUint32(out, 0x00030000)
	return out
}

// mapping is one character and the glyph it maps to.
type mapping struct {
	r rune
	g font.GID
}

// closeOverSubstitutions adds to kept every glyph a substitution can put in place of kept glyphs.
// Contexts are ignored (every rule counts as if it applied), so the set may hold a few glyphs no
// text reaches, never too few.
func closeOverSubstitutions(kept []bool, gsub font.GSUB) {
	add := func(g tables.GlyphID, changed *bool) {
		if int(g) < len(kept) && !kept[g] {
			kept[g] = true
			*changed = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, lk := range gsub.Lookups {
			for _, st := range lk.Subtables {
				cov := st.Cov()
				if cov == nil {
					continue
				}
				for g := range kept {
					if !kept[g] {
						continue
					}
					i, ok := cov.Index(tables.GlyphID(g))
					if !ok {
						continue
					}
					switch s := st.(type) {
					case tables.SingleSubs:
						switch d := s.Data.(type) {
						case tables.SingleSubstData1:
							add(tables.GlyphID(int(g)+int(d.DeltaGlyphID)), &changed)
						case tables.SingleSubstData2:
							if i < len(d.SubstituteGlyphIDs) {
								add(d.SubstituteGlyphIDs[i], &changed)
							}
						}
					case tables.MultipleSubs:
						if i < len(s.Sequences) {
							for _, o := range s.Sequences[i].SubstituteGlyphIDs {
								add(o, &changed)
							}
						}
					case tables.AlternateSubs:
						if i < len(s.AlternateSets) {
							for _, o := range s.AlternateSets[i].AlternateGlyphIDs {
								add(o, &changed)
							}
						}
					case tables.LigatureSubs:
						if i < len(s.LigatureSets) {
							for _, l := range s.LigatureSets[i].Ligatures {
								if allKept(kept, l.ComponentGlyphIDs) {
									add(l.LigatureGlyph, &changed)
								}
							}
						}
					case tables.ReverseChainSingleSubs:
						if i < len(s.SubstituteGlyphIDs) {
							add(s.SubstituteGlyphIDs[i], &changed)
						}
					}
				}
			}
		}
	}
}

func allKept(kept []bool, gs []tables.GlyphID) bool {
	for _, g := range gs {
		if int(g) >= len(kept) || !kept[g] {
			return false
		}
	}
	return true
}

// Composite glyph flags (the OpenType glyf table).
const (
	argsAreWords     = 0x0001
	haveScale        = 0x0008
	moreComponents   = 0x0020
	haveXYScale      = 0x0040
	haveTwoByTwo     = 0x0080
	haveInstructions = 0x0100
	compositeHeader  = 10
)

// closeOverComponents adds to kept the parts of every kept composite glyph, and theirs.
func closeOverComponents(kept []bool, glyf []byte, offsets []uint32) {
	var stack []int
	for g := range kept {
		if kept[g] {
			stack = append(stack, g)
		}
	}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		gids, _, _ := components(glyf[offsets[g]:offsets[g+1]])
		for _, c := range gids {
			if int(c) < len(kept) && !kept[c] {
				kept[c] = true
				stack = append(stack, int(c))
			}
		}
	}
}

// components returns the glyphs a composite glyph's data is made of (none for a simple glyph), where
// its component records end, and whether instructions follow them. Data cut short ends the list.
func components(data []byte) (gids []uint16, end int, instructions bool) {
	if len(data) < compositeHeader || int16(binary.BigEndian.Uint16(data)) >= 0 {
		return nil, 0, false
	}
	for p := compositeHeader; p+4 <= len(data); {
		gids = append(gids, binary.BigEndian.Uint16(data[p+2:]))
		flags, next := nextComponent(data, p)
		if flags&moreComponents == 0 {
			return gids, min(next, len(data)), flags&haveInstructions != 0
		}
		p = next
	}
	return gids, len(data), false
}

// withoutInstructions returns a glyph's data without its hinting instructions, which go-text
// never runs (it draws unhinted outlines). Data it cannot make sense of is returned as it is.
func withoutInstructions(data []byte) []byte {
	if len(data) < compositeHeader {
		return data
	}
	contours := int(int16(binary.BigEndian.Uint16(data)))
	if contours < 0 {
		_, end, instr := components(data)
		if !instr {
			return data
		}
		out := slices.Clone(data[:end])
		// Clear the flag on the last component record, the one that announced the instructions.
		for p := compositeHeader; p+4 <= len(out); {
			flags := binary.BigEndian.Uint16(out[p:])
			if flags&moreComponents == 0 {
				binary.BigEndian.PutUint16(out[p:], flags&^haveInstructions)
				break
			}
			_, p = nextComponent(out, p)
		}
		return out
	}
	at := compositeHeader + 2*contours // the instructions' length
	if at+2 > len(data) {
		return data
	}
	n := int(binary.BigEndian.Uint16(data[at:]))
	if n == 0 || at+2+n > len(data) {
		return data
	}
	out := make([]byte, 0, len(data)-n)
	out = append(out, data[:at]...)
	out = append(out, 0, 0)
	return append(out, data[at+2+n:]...)
}

// nextComponent returns the flags of the component record at p and where the next one starts.
func nextComponent(data []byte, p int) (flags uint16, next int) {
	flags = binary.BigEndian.Uint16(data[p:])
	p += 4
	if flags&argsAreWords != 0 {
		p += 4
	} else {
		p += 2
	}
	switch {
	case flags&haveScale != 0:
		p += 2
	case flags&haveXYScale != 0:
		p += 4
	case flags&haveTwoByTwo != 0:
		p += 8
	}
	return flags, p
}

// rebuildGlyphs returns the glyf and loca tables with the outlines of the glyphs not kept removed,
// in loca's own format (a shorter glyf table keeps every offset in range).
func rebuildGlyphs(kept []bool, glyf []byte, offsets []uint32, long bool) (newGlyf, newLoca []byte) {
	n := len(kept)
	loca := make([]uint32, n+1)
	for g := range n {
		loca[g] = uint32(len(newGlyf))
		if kept[g] {
			newGlyf = append(newGlyf, withoutInstructions(glyf[offsets[g]:offsets[g+1]])...)
			if len(newGlyf)%2 == 1 { // the short format counts in 2-byte words
				newGlyf = append(newGlyf, 0)
			}
		}
	}
	loca[n] = uint32(len(newGlyf))
	if long {
		newLoca = make([]byte, 4*(n+1))
		for i, o := range loca {
			binary.BigEndian.PutUint32(newLoca[4*i:], o)
		}
	} else {
		newLoca = make([]byte, 2*(n+1))
		for i, o := range loca {
			binary.BigEndian.PutUint16(newLoca[2*i:], uint16(o/2))
		}
	}
	return newGlyf, newLoca
}

// buildCmap returns a cmap table with one subtable (Windows, full Unicode, format 12) mapping chars.
func buildCmap(chars []mapping) []byte {
	slices.SortFunc(chars, func(a, b mapping) int { return int(a.r) - int(b.r) })
	type group struct {
		first, last rune
		glyph       font.GID
	}
	var groups []group
	for _, c := range chars {
		if k := len(groups) - 1; k >= 0 {
			if last := &groups[k]; c.r == last.last+1 && int(c.g) == int(last.glyph)+int(c.r-last.first) {
				last.last = c.r
				continue
			}
		}
		groups = append(groups, group{c.r, c.r, c.g})
	}
	sub := make([]byte, 16+12*len(groups))
	binary.BigEndian.PutUint16(sub[0:], 12)
	binary.BigEndian.PutUint32(sub[4:], uint32(len(sub)))
	binary.BigEndian.PutUint32(sub[12:], uint32(len(groups)))
	for i, g := range groups {
		rec := sub[16+12*i:]
		binary.BigEndian.PutUint32(rec[0:], uint32(g.first))
		binary.BigEndian.PutUint32(rec[4:], uint32(g.last))
		binary.BigEndian.PutUint32(rec[8:], uint32(g.glyph))
	}
	out := make([]byte, 12, 12+len(sub))
	binary.BigEndian.PutUint16(out[2:], 1)  // one encoding record
	binary.BigEndian.PutUint16(out[4:], 3)  // Windows
	binary.BigEndian.PutUint16(out[6:], 10) // full Unicode
	binary.BigEndian.PutUint32(out[8:], 12)
	return append(out, sub...)
}
