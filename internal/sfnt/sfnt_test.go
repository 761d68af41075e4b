package sfnt

import (
	"bytes"
	"errors"
	"testing"
)

// A font assembled and read back has the same tables, sorted by tag, and its checksums add up
// to the magic number the format asks for.
func TestAssembleRead(t *testing.T) {
	head := make([]byte, 54)
	head[8], head[9] = 0xde, 0xad // a stale adjustment: Assemble must not sum it
	in := []Table{{"post", []byte{0, 3, 0, 0}}, {"head", head}, {"cmap", []byte{1, 2, 3}}}
	font := Assemble(in)
	tabs, err := Read(font)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"cmap", "head", "post"}
	if len(tabs) != len(want) {
		t.Fatalf("%d tables, want %d", len(tabs), len(want))
	}
	for i, tag := range want {
		if tabs[i].Tag != tag {
			t.Errorf("table %d is %q, want %q", i, tabs[i].Tag, tag)
		}
	}
	if !bytes.Equal(tabs[0].Data, []byte{1, 2, 3}) {
		t.Errorf("cmap read back as %v", tabs[0].Data)
	}
	if sum := Checksum(font); sum != 0xB1B0AFBA {
		t.Errorf("whole-font checksum %#x, want 0xB1B0AFBA", sum)
	}
	if in[1].Data[8] != 0xde {
		t.Error("Assemble changed its input")
	}
}

func TestReadRefuses(t *testing.T) {
	good := Assemble([]Table{{"head", make([]byte, 54)}})
	cut := good[:20]
	outside := bytes.Clone(good)
	outside[12+12] = 0x7f // the head table's length: far past the file
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNotTrueType},
		{"CFF font", append([]byte("OTTO"), good[4:]...), ErrNotTrueType},
		{"collection", append([]byte("ttcf"), good[4:]...), ErrNotTrueType},
		{"directory cut short", cut, nil},
		{"table outside the file", outside, nil},
	} {
		_, err := Read(tc.data)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
		} else if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// FuzzRead: any data gives tables or an error, never a panic, and the tables lie inside it.
func FuzzRead(f *testing.F) {
	f.Add(Assemble([]Table{{"head", make([]byte, 54)}, {"glyf", []byte{1, 2}}}))
	f.Add([]byte{0, 1, 0, 0, 0, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		tabs, err := Read(data)
		if err != nil {
			return
		}
		for _, tb := range tabs {
			if len(tb.Data) > len(data) {
				t.Fatalf("table %q longer than the file", tb.Tag)
			}
		}
	})
}
