package stonenet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// committee trains n small members on the same clusters from different seeds.
func committee(t testing.TB, n int) *Committee {
	t.Helper()
	set := clusters(600, 6, 7)
	c := &Committee{}
	for k := 0; k < n; k++ {
		net, err := Train(set, TrainOptions{Hidden: []int{6}, Epochs: 2, Batch: 16, LR: 0.01, Seed: uint64(10 + k)})
		if err != nil {
			t.Fatal(err)
		}
		c.Members = append(c.Members, net)
	}
	return c
}

func TestCommitteeAveragesItsMembers(t *testing.T) {
	c := committee(t, 3)
	var buf Buffers
	for _, x := range [][]float32{{0.3, -1, 2, 0.5, 0, 1}, {2, 0, 0, 0, 1, 1}, {0, 0, 0, 0, -3, -3}} {
		var want [Classes]float64
		for _, m := range c.Members {
			p := m.Forward(x, &buf)
			for k := range want {
				want[k] += float64(p[k]) / 3
			}
		}
		got := c.Forward(x, &buf)
		for k := range got {
			if math.Abs(float64(got[k])-want[k]) > 1e-6 {
				t.Fatalf("x %v: committee %v, members' mean %v", x, got, want)
			}
		}
	}
	if c.Inputs() != 6 {
		t.Errorf("Inputs = %d, want 6", c.Inputs())
	}
}

// TestCommitteeSureAsksOnlyTheFirst: a point the first member is sure of is its reading alone;
// any other point is the members' mean.
func TestCommitteeSureAsksOnlyTheFirst(t *testing.T) {
	c := committee(t, 3)
	var buf Buffers
	full := *c
	sure, unsure := 0, 0
	set := clusters(300, 6, 9)
	for i := 0; i < set.Len(); i++ {
		x := set.Row(i)
		first := c.Members[0].Forward(x, &buf)
		c.Sure = 0.9
		got := c.Forward(x, &buf)
		if max(first[0], first[1], first[2]) >= 0.9 {
			sure++
			if got != first {
				t.Fatalf("point %d: the first member is sure (%v) but the committee read %v", i, first, got)
			}
		} else {
			unsure++
			if want := full.Forward(x, &buf); got != want {
				t.Fatalf("point %d: the first member is unsure (%v): committee %v, want the mean %v", i, first, got, want)
			}
		}
	}
	if sure == 0 || unsure == 0 {
		t.Fatalf("the test needs points of both kinds: %d sure, %d unsure", sure, unsure)
	}
}

func TestCommitteeMarshalRoundTrip(t *testing.T) {
	c := committee(t, 3)
	c.Sure = 0.97
	raw, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Committee
	if err := back.UnmarshalBinary(raw); err != nil {
		t.Fatal(err)
	}
	var b1, b2 Buffers
	x := []float32{0.3, -1, 2, 0.5, 0, 1}
	if a, b := c.Forward(x, &b1), back.Forward(x, &b2); a != b || len(back.Members) != 3 || back.Sure != 0.97 {
		t.Errorf("round trip changed the committee: %v vs %v, %d members, sure %v", a, b, len(back.Members), back.Sure)
	}

	// A single network's file is a committee of one that reads as the network does.
	single, err := c.Members[1].MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var one Committee
	if err := one.UnmarshalBinary(single); err != nil {
		t.Fatal(err)
	}
	if a, b := one.Forward(x, &b1), c.Members[1].Forward(x, &b2); a != b || len(one.Members) != 1 {
		t.Errorf("a single network read as a committee: %v vs %v", a, b)
	}

	other, err := Train(clusters(100, 4, 3), TrainOptions{Hidden: []int{3}, Epochs: 1, Batch: 8, LR: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	mixed, err := (&Committee{Members: []*Net{c.Members[0], other}}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("XXXXXXXX"), raw[8:]...)},
		{"no members", append(bytes.Clone(raw[:8]), 0, 0, 0, 0, 0, 0, 0, 0)},
		{"sure above 1", func() []byte {
			b := bytes.Clone(raw)
			binary.LittleEndian.PutUint32(b[12:], math.Float32bits(2))
			return b
		}()},
		{"sure not a number", func() []byte { b := bytes.Clone(raw); binary.LittleEndian.PutUint32(b[12:], 0x7fc00000); return b }()},
		{"too many members", func() []byte { b := bytes.Clone(raw); binary.LittleEndian.PutUint32(b[8:], 1000); return b }()},
		{"truncated", raw[:len(raw)-3]},
		{"truncated length", raw[:14]},
		{"trailing", append(bytes.Clone(raw), 0)},
		{"member of another width", mixed},
		{"damaged member", func() []byte { b := bytes.Clone(raw); copy(b[20:], "XXXXXXXX"); return b }()},
	} {
		var back Committee
		if err := back.UnmarshalBinary(tc.data); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err %v, want ErrFormat", tc.name, err)
		}
	}
	if _, err := (&Committee{}).MarshalBinary(); err == nil {
		t.Error("an empty committee was written")
	}
}

func FuzzCommitteeUnmarshal(f *testing.F) {
	c := committee(f, 2)
	raw, _ := c.MarshalBinary()
	f.Add(raw)
	single, _ := c.Members[0].MarshalBinary()
	f.Add(single)
	f.Add([]byte("TGSNCOM1\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Committee
		if err := c.UnmarshalBinary(data); err != nil {
			return
		}
		x := make([]float32, c.Inputs())
		var buf Buffers
		p := c.Forward(x, &buf)
		var sum float32
		for _, v := range p {
			sum += v
		}
		if math.Abs(float64(sum)-1) > 1e-3 && !math.IsNaN(float64(sum)) {
			t.Fatalf("probabilities sum to %v", sum)
		}
	})
}

// BenchmarkForward reads one point with a network of the committed reader's shape.
func BenchmarkForward(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	net, err := New([]int{144, 32, 16, Classes}, rng.Float64)
	if err != nil {
		b.Fatal(err)
	}
	x := make([]float32, 144)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	var buf Buffers
	b.ReportAllocs()
	for b.Loop() {
		net.Forward(x, &buf)
	}
}
