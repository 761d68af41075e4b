package imagefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"tengen/internal/shareddata"
)

// pattern is a small image with colour edges, gradients and odd dimensions (so subsampled chroma
// has a half-covered last column and row).
func pattern(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA{R: uint8(x * 255 / w), G: uint8(y * 255 / h), B: 40, A: 255}
			if (x/5+y/7)%2 == 0 {
				c = color.NRGBA{R: 200, G: 30, B: uint8(255 - x*255/w), A: 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// openCV decodes raw with OpenCV's imgcodecs, the decoder this package replaces.
func openCV(t *testing.T, raw []byte) gocv.Mat {
	t.Helper()
	m, err := gocv.IMDecode(raw, gocv.IMReadColor|gocv.IMReadIgnoreOrientation)
	if err != nil || m.Empty() {
		t.Fatalf("OpenCV cannot decode the reference image: %v", err)
	}
	return m
}

// diff compares two BGR Mats of equal size: the mean and largest absolute sample difference.
func diff(t *testing.T, want, got gocv.Mat) (mean float64, worst int) {
	t.Helper()
	if want.Cols() != got.Cols() || want.Rows() != got.Rows() || got.Type() != gocv.MatTypeCV8UC3 {
		t.Fatalf("size/type: got %dx%d type %v, want %dx%d BGR", got.Cols(), got.Rows(), got.Type(), want.Cols(), want.Rows())
	}
	a, _ := want.DataPtrUint8()
	b, _ := got.DataPtrUint8()
	var sum int
	for i := range a {
		d := int(a[i]) - int(b[i])
		if d < 0 {
			d = -d
		}
		sum += d
		worst = max(worst, d)
	}
	return float64(sum) / float64(len(a)), worst
}

// TestDecodeMatchesOpenCV decodes the same bytes with Decode and with OpenCV: lossless formats
// must agree exactly, JPEG within the rounding of two integer IDCTs.
func TestDecodeMatchesOpenCV(t *testing.T) {
	src := pattern(101, 67)
	gray := image.NewGray(src.Bounds())
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 7)
	}
	enc := func(f func(*bytes.Buffer) error) []byte {
		var buf bytes.Buffer
		if err := f(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	cases := []struct {
		name      string
		raw       []byte
		meanLimit float64
		maxLimit  int
	}{
		{"png", enc(func(b *bytes.Buffer) error { return png.Encode(b, src) }), 0, 0},
		{"png gray", enc(func(b *bytes.Buffer) error { return png.Encode(b, gray) }), 0, 0},
		{"bmp", enc(func(b *bytes.Buffer) error { return bmp.Encode(b, src) }), 0, 0},
		{"tiff", enc(func(b *bytes.Buffer) error { return tiff.Encode(b, src, nil) }), 0, 0},
		{"jpeg 4:2:0", enc(func(b *bytes.Buffer) error { return jpeg.Encode(b, src, &jpeg.Options{Quality: 90}) }), 0.2, 3},
		{"jpeg gray", enc(func(b *bytes.Buffer) error { return jpeg.Encode(b, gray, nil) }), 0.2, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := openCV(t, c.raw)
			defer want.Close()
			got, err := Decode(bytes.NewReader(c.raw))
			if err != nil {
				t.Fatal(err)
			}
			defer got.Close()
			mean, worst := diff(t, want, got)
			if mean > c.meanLimit || worst > c.maxLimit {
				t.Errorf("differs from OpenCV: mean %.3f (limit %.3f), worst %d (limit %d)", mean, c.meanLimit, worst, c.maxLimit)
			}
		})
	}
}

// TestPhotosMatchOpenCV checks real camera and phone photos (4:2:0 and 4:2:2 JPEGs of several
// sizes): the board finder and classifier are tuned on what OpenCV decodes, so the kiosk's
// decoder must give the same pixels to within IDCT rounding.
func TestPhotosMatchOpenCV(t *testing.T) {
	root := shareddata.Path(t, "vision-eval")
	var files []string
	seen := map[string]int{}
	for _, pat := range []string{"gomrade-sample/*/*.jpg", "imago-tests/*/*.jpg", "roboflow-stone-detection/*/images/*.jpg"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		for i, f := range m {
			// Every photo whose chroma is not 4:2:0, and a sample of the rest, keeps it quick.
			s := sampling(t, f)
			if s != "2x2" || i%15 == 0 {
				files = append(files, f)
				seen[s]++
			}
		}
	}
	if seen["2x2"] < 8 || seen["2x1"] == 0 || seen["1x1"] == 0 {
		t.Fatalf("want photos of 4:2:0, 4:2:2 and 4:4:4 chroma under %s, found %v", root, seen)
	}
	var worstMean float64
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := openCV(t, raw)
		got, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		mean, worst := diff(t, want, got)
		want.Close()
		got.Close()
		worstMean = max(worstMean, mean)
		if mean > 0.1 || worst > 6 {
			t.Errorf("%s: differs from OpenCV: mean %.3f, worst %d", f, mean, worst)
		}
	}
	t.Logf("%d photos (luma sampling factors %v): largest mean difference from OpenCV %.3f per sample", len(files), seen, worstMean)
}

// sampling returns the luma sampling factors of a baseline or progressive JPEG ("2x2" for 4:2:0,
// "2x1" for 4:2:2, "1x1" for 4:4:4), read from its frame header.
func sampling(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 2; i+10 < len(raw); {
		if raw[i] != 0xFF {
			break
		}
		marker, n := raw[i+1], int(binary.BigEndian.Uint16(raw[i+2:]))
		if marker == 0xC0 || marker == 0xC1 || marker == 0xC2 {
			f := raw[i+11] // first component: H<<4 | V
			return fmt.Sprintf("%dx%d", f>>4, f&15)
		}
		i += 2 + n
	}
	t.Fatalf("%s: no JPEG frame header", path)
	return ""
}

// pngHeader is a valid PNG signature and IHDR chunk claiming w x h pixels, with no image data.
func pngHeader(w, h uint32) []byte { return pngHeaderDepth(w, h, 8) }

// pngHeaderDepth is pngHeader for RGB samples of the given bit depth.
func pngHeaderDepth(w, h uint32, depth byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = depth, 2 // RGB
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestDecodeRefusesBadInput(t *testing.T) {
	var good bytes.Buffer
	if err := jpeg.Encode(&good, pattern(40, 30), nil); err != nil {
		t.Fatal(err)
	}
	var goodPNG bytes.Buffer
	if err := png.Encode(&goodPNG, pattern(400, 300)); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		raw  []byte
		want error  // besides ErrNotImage (nil: only that)
		says string // in the message
	}{
		{"empty", nil, nil, ""},
		{"text", []byte("this is not an image"), nil, ""},
		{"truncated jpeg", good.Bytes()[:good.Len()/2], ErrTruncated, "ends"},
		{"truncated png", goodPNG.Bytes()[:goodPNG.Len()/2], ErrTruncated, "ends before its 400x300 pixels"},
		{"png header only", pngHeader(64, 64), ErrTruncated, ""},
		{"png of 40000x40000 pixels", pngHeader(40000, 40000), ErrTooLarge, "1600.0 megapixels, at most 48.8"},
		// Within the pixel cap, but 16-bit samples: 384 MB for Go's image alone.
		{"16-bit png at the megapixel cap", pngHeaderDepth(8000, 6000, 16), ErrTooLarge, "16-bit png image of 8000x6000"},
		{"16-bit png of 4000x2000", pngHeaderDepth(4000, 2000, 16), ErrTruncated, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Decode(bytes.NewReader(c.raw))
			if err == nil {
				m.Close()
				t.Fatal("decoded without error")
			}
			if !errors.Is(err, ErrNotImage) {
				t.Errorf("error %v does not wrap ErrNotImage", err)
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("error %v does not wrap %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q does not say %q", err, c.says)
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.jpg")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want an error wrapping os.ErrNotExist", err)
	}
}

func FuzzDecode(f *testing.F) {
	var j, p bytes.Buffer
	_ = jpeg.Encode(&j, pattern(9, 7), nil)
	_ = png.Encode(&p, pattern(9, 7))
	f.Add(j.Bytes())
	f.Add(p.Bytes())
	f.Add(pngHeader(3, 3))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Decode(bytes.NewReader(raw))
		if err != nil {
			if !errors.Is(err, ErrNotImage) {
				t.Fatalf("error %v does not wrap ErrNotImage", err)
			}
			return
		}
		defer m.Close()
		if m.Empty() || m.Type() != gocv.MatTypeCV8UC3 {
			t.Fatalf("decoded to an empty or non-BGR Mat")
		}
	})
}
