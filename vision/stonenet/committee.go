package stonenet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// Committee is several networks trained alike but from different seeds (and on different
// points held aside), whose probabilities are averaged. A network trained on a few hundred
// photos is wrong in its own way on a photo unlike them: retraining with another seed moved a
// held-out source's mistakes by half. The members rarely make the same confident mistake, so
// their mean makes fewer than any one of them.
type Committee struct {
	Members []*Net
	// Sure, when above 0, lets the first member alone read a point it gives a reading at least
	// this probability: most points of a board are plain, and asking every member costs time.
	Sure float32
}

// Inputs returns the number of inputs every member takes.
func (c *Committee) Inputs() int {
	if len(c.Members) == 0 {
		return 0
	}
	return c.Members[0].Inputs()
}

// Forward returns the mean of the members' probabilities for one point's features x.
func (c *Committee) Forward(x []float32, buf *Buffers) [Classes]float32 {
	p, _ := committeeMean(len(c.Members), c.Sure, func(i int) [Classes]float32 {
		return c.Members[i].Forward(x, buf)
	})
	return p
}

// committeeMean is the mean of n members' probabilities, read(i) giving member i's. When sure
// is above 0 and the first member gives a reading at least that probability, it is that
// member's reading alone, and all is false.
func committeeMean(n int, sure float32, read func(i int) [Classes]float32) (p [Classes]float32, all bool) {
	var sum [Classes]float32
	for i := 0; i < n; i++ {
		q := read(i)
		if i == 0 && sure > 0 && max(q[0], q[1], q[2]) >= sure {
			return q, false
		}
		for k := range sum {
			sum[k] += q[k]
		}
	}
	for k := range sum {
		sum[k] /= float32(n)
	}
	return sum, true
}

// committeeMagic starts a weights file holding a committee; a file starting with the single
// network's magic is read as a committee of one.
var committeeMagic = [8]byte{'T', 'G', 'S', 'N', 'C', 'O', 'M', '1'}

// maxMembers bounds the members read from a file.
const maxMembers = 16

// MarshalBinary writes the committee: a header, the number of members, Sure, and each member's
// bytes after their length.
func (c *Committee) MarshalBinary() ([]byte, error) {
	if len(c.Members) == 0 || len(c.Members) > maxMembers {
		return nil, fmt.Errorf("stonenet: a committee of %d members", len(c.Members))
	}
	var b bytes.Buffer
	b.Write(committeeMagic[:])
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(c.Members)))
	_ = binary.Write(&b, binary.LittleEndian, c.Sure)
	for _, m := range c.Members {
		raw, err := m.MarshalBinary()
		if err != nil {
			return nil, err
		}
		_ = binary.Write(&b, binary.LittleEndian, uint32(len(raw)))
		b.Write(raw)
	}
	return b.Bytes(), nil
}

// UnmarshalBinary reads what MarshalBinary wrote, or a single network's file as a committee of
// one. Every member must take the same inputs.
func (c *Committee) UnmarshalBinary(data []byte) error {
	if len(data) >= 8 && bytes.Equal(data[:8], magic[:]) {
		var n Net
		if err := n.UnmarshalBinary(data); err != nil {
			return err
		}
		c.Members, c.Sure = []*Net{&n}, 0
		return nil
	}
	if len(data) < 16 || !bytes.Equal(data[:8], committeeMagic[:]) {
		return fmt.Errorf("%w: bad header", ErrFormat)
	}
	count := binary.LittleEndian.Uint32(data[8:12])
	if count == 0 || count > maxMembers {
		return fmt.Errorf("%w: a committee of %d members", ErrFormat, count)
	}
	sure := math.Float32frombits(binary.LittleEndian.Uint32(data[12:16]))
	if !(sure >= 0 && sure <= 1) {
		return fmt.Errorf("%w: sure %v", ErrFormat, sure)
	}
	rest := data[16:]
	var members []*Net
	for i := uint32(0); i < count; i++ {
		if len(rest) < 4 {
			return fmt.Errorf("%w: truncated before member %d", ErrFormat, i+1)
		}
		size := binary.LittleEndian.Uint32(rest[:4])
		rest = rest[4:]
		if uint64(size) > uint64(len(rest)) {
			return fmt.Errorf("%w: member %d truncated", ErrFormat, i+1)
		}
		var n Net
		if err := n.UnmarshalBinary(rest[:size]); err != nil {
			return fmt.Errorf("member %d: %w", i+1, err)
		}
		if len(members) > 0 && n.Inputs() != members[0].Inputs() {
			return fmt.Errorf("%w: member %d takes %d inputs, member 1 %d", ErrFormat, i+1, n.Inputs(), members[0].Inputs())
		}
		members = append(members, &n)
		rest = rest[size:]
	}
	if len(rest) != 0 {
		return fmt.Errorf("%w: %d bytes after the last member", ErrFormat, len(rest))
	}
	c.Members, c.Sure = members, sure
	return nil
}

// ForwardHidden is Forward that also appends every member's last hidden activations for x to
// hidden (AppendHidden) from the same pass. When the first member alone read the point (Sure),
// hidden comes back as it was and all is false.
func (c *Committee) ForwardHidden(hidden, x []float32, buf *Buffers) (p [Classes]float32, out []float32, all bool) {
	start := len(hidden)
	p, all = committeeMean(len(c.Members), c.Sure, func(i int) [Classes]float32 {
		q, h, _ := c.Members[i].ForwardHidden(hidden, x, buf)
		hidden = h
		return q
	})
	if !all {
		hidden = hidden[:start]
	}
	return p, hidden, all
}

// AppendHidden appends every member's last hidden activations for x to out.
func (c *Committee) AppendHidden(out, x []float32, buf *Buffers) []float32 {
	for _, m := range c.Members {
		out = m.AppendHidden(out, x, buf)
	}
	return out
}
