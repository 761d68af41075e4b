// Package imagefile decodes image files (board photos, camera stills) into BGR GoCV Mats.
//
// Decoding is done in Go rather than by OpenCV's imgcodecs: that module pulls GDAL, Poppler and
// some 130 other shared libraries into the kiosk process (about 30 MB resident, measured with
// /proc/PID/smaps) for a job the Go standard library and golang.org/x/image already do.
package imagefile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // photos and camera stills
	"image/png"
	"io"
	"os"

	"gocv.io/x/gocv"
	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
)

// ErrNotImage means a file could not be decoded as an image.
var ErrNotImage = errors.New("vision: not a readable image")

// ErrTooLarge means an image's header announces more pixels, or deeper samples, than Decode
// takes; it is refused before any pixel is decoded. Errors wrapping it wrap ErrNotImage too.
var ErrTooLarge = errors.New("too many megapixels")

// ErrTruncated means an image file ends before its pixels do. Errors wrapping it wrap ErrNotImage too.
var ErrTruncated = errors.New("truncated")

// maxImagePixels bounds the size of an image file Load decodes: four times a 12-megapixel
// phone photo. A larger header is refused before any pixel is decoded, so a crafted file cannot
// exhaust the table's memory.
const maxImagePixels = 4 * 4032 * 3024

// maxDecodeBytes bounds the memory a decoding takes: the decoder's image (its samples, 8 bytes a
// pixel for 16-bit RGB) plus the BGR Mat (3 bytes a pixel), counted from the header before any
// pixel is decoded. A 12-megapixel phone photo is counted at 85 MB as JPEG or 8-bit PNG (up to 14.4
// megapixels pass); a 16-bit PNG passes up to 9.1 megapixels.
const maxDecodeBytes = 96 << 20

// decodedBytesPerPixel is what the Go decoder's image holds per pixel for a colour model, at most.
func decodedBytesPerPixel(m color.Model) int {
	switch m {
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel:
		return 4
	case color.YCbCrModel, color.NYCbCrAModel:
		return 4 // 4:4:4 with alpha at most; 4:2:0 JPEGs take 1.5
	case color.Gray16Model:
		return 2
	}
	return 1 // grey, paletted
}

// bitDepth names the samples of a colour model for messages.
func bitDepth(m color.Model) string {
	switch m {
	case color.RGBA64Model, color.NRGBA64Model, color.Gray16Model:
		return "16-bit"
	}
	return "8-bit"
}

// Load decodes an image file (JPEG, PNG, BMP, TIFF or WebP) as BGR, ignoring EXIF
// orientation (raw pixels). The caller closes the Mat. Errors wrap ErrNotImage when the file is
// not a decodable image.
func Load(path string) (gocv.Mat, error) {
	f, err := os.Open(path)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("imagefile: %w", err)
	}
	defer f.Close()
	m, err := Decode(bufio.NewReader(f))
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Decode decodes an image stream (JPEG, PNG, BMP, TIFF or WebP) as a BGR Mat the caller
// closes. Errors wrap ErrNotImage.
func Decode(r io.Reader) (gocv.Mat, error) {
	var head bytes.Buffer
	cfg, format, err := image.DecodeConfig(io.TeeReader(r, &head))
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return gocv.Mat{}, fmt.Errorf("%w (%w): the %s file ends in its header", ErrNotImage, ErrTruncated, format)
	}
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	if err := checkSize(cfg, format); err != nil {
		return gocv.Mat{}, err
	}
	rest := &eofReader{r: r}
	img, _, err := image.Decode(io.MultiReader(&head, rest))
	// The decoders report a file that ends too soon as a format error ("short Huffman data", "not
	// enough pixel data"): a failure after the file's end was reached is a truncated file.
	if err != nil && (rest.eof || errors.Is(err, io.ErrUnexpectedEOF)) {
		return gocv.Mat{}, fmt.Errorf("%w (%w): the %s file ends before its %dx%d pixels do", ErrNotImage, ErrTruncated, format, cfg.Width, cfg.Height)
	}
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("%w: %s: %v", ErrNotImage, format, err)
	}
	b := img.Bounds()
	if b.Empty() {
		return gocv.Mat{}, fmt.Errorf("%w: %s image has no pixels", ErrNotImage, format)
	}
	m := gocv.NewMatWithSize(b.Dy(), b.Dx(), gocv.MatTypeCV8UC3)
	dst, err := m.DataPtrUint8()
	if err != nil {
		m.Close()
		return gocv.Mat{}, fmt.Errorf("imagefile: image buffer: %w", err)
	}
	toBGR(dst, img)
	return m, nil
}

// eofReader notes whether its reader has reached the end of the file.
type eofReader struct {
	r   io.Reader
	eof bool
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if errors.Is(err, io.EOF) {
		e.eof = true
	}
	return n, err
}

// checkSize refuses a header whose image would not fit the decoding bounds.
func checkSize(cfg image.Config, format string) error {
	w, h := int64(cfg.Width), int64(cfg.Height)
	if w <= 0 || h <= 0 {
		return fmt.Errorf("%w: %s image of %dx%d pixels", ErrNotImage, format, w, h)
	}
	mp := float64(w*h) / 1e6
	if w*h > maxImagePixels {
		return fmt.Errorf("%w (%w): %s image of %dx%d pixels is %.1f megapixels, at most %.1f",
			ErrNotImage, ErrTooLarge, format, w, h, mp, float64(maxImagePixels)/1e6)
	}
	bpp := int64(decodedBytesPerPixel(cfg.ColorModel))
	if need := w * h * (bpp + 3); need > maxDecodeBytes {
		return fmt.Errorf("%w (%w): %s %s image of %dx%d pixels (%.1f megapixels) takes %d MB to decode, at most %d MB (at most %.1f megapixels): save it smaller or with 8-bit samples",
			ErrNotImage, ErrTooLarge, bitDepth(cfg.ColorModel), format, w, h, mp, need>>20, maxDecodeBytes>>20,
			float64(maxDecodeBytes)/float64(bpp+3)/1e6)
	}
	return nil
}

// toBGR writes img's pixels into dst (rows of 3*width bytes, blue first). Alpha is dropped without
// blending and 16-bit samples keep their high byte, as OpenCV's IMREAD_COLOR does.
func toBGR(dst []byte, img image.Image) {
	b := img.Bounds()
	w := b.Dx()
	switch src := img.(type) {
	case *image.YCbCr:
		ycbcrToBGR(dst, src)
	case *image.Gray:
		for y := 0; y < b.Dy(); y++ {
			row := dst[y*3*w : (y+1)*3*w]
			px := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < w; x++ {
				row[3*x], row[3*x+1], row[3*x+2] = px[x], px[x], px[x]
			}
		}
	case *image.NRGBA:
		copyRGBX(dst, src.Pix, src.PixOffset(b.Min.X, b.Min.Y), src.Stride, w, b.Dy())
	case *image.RGBA:
		copyRGBX(dst, src.Pix, src.PixOffset(b.Min.X, b.Min.Y), src.Stride, w, b.Dy())
	default:
		for y := 0; y < b.Dy(); y++ {
			row := dst[y*3*w : (y+1)*3*w]
			for x := 0; x < w; x++ {
				c := color.NRGBA64Model.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA64)
				row[3*x], row[3*x+1], row[3*x+2] = byte(c.B>>8), byte(c.G>>8), byte(c.R>>8)
			}
		}
	}
}

// copyRGBX copies 4-byte RGBA/NRGBA pixels (alpha ignored) into BGR rows.
func copyRGBX(dst, pix []byte, off, stride, w, h int) {
	for y := 0; y < h; y++ {
		row := dst[y*3*w : (y+1)*3*w]
		px := pix[off+y*stride:]
		for x := 0; x < w; x++ {
			row[3*x], row[3*x+1], row[3*x+2] = px[4*x+2], px[4*x+1], px[4*x]
		}
	}
}

// ycbcrToBGR converts a decoded JPEG to BGR the way libjpeg-turbo (which OpenCV decodes with)
// does by default, so a photo gives the board finder the same pixels whichever decoder read it:
// subsampled chroma (4:2:0 and 4:2:2, what cameras and phones write) is upsampled with libjpeg's
// triangle filter ("fancy upsampling") and its rounding, not by repeating samples, which would
// put 2-pixel steps into every colour edge; the colour transform is libjpeg's fixed-point one.
func ycbcrToBGR(dst []byte, src *image.YCbCr) {
	b := src.Rect
	w, h := b.Dx(), b.Dy()
	var upH, upV bool
	switch src.SubsampleRatio {
	case image.YCbCrSubsampleRatio444:
	case image.YCbCrSubsampleRatio422:
		upH = true
	case image.YCbCrSubsampleRatio420:
		upH, upV = true, true
	default: // 4:4:0, 4:1:1, 4:1:0: rare; nearest chroma sample
		for y := 0; y < h; y++ {
			row := dst[y*3*w : (y+1)*3*w]
			yi := src.YOffset(b.Min.X, b.Min.Y+y)
			for x := 0; x < w; x++ {
				ci := src.COffset(b.Min.X+x, b.Min.Y+y)
				writeBGR(row[3*x:3*x+3], src.Y[yi+x], int32(src.Cb[ci]), int32(src.Cr[ci]))
			}
		}
		return
	}
	// Chroma sample columns and rows covering the image (COffset's grid).
	c0x, c0y := b.Min.X, b.Min.Y
	if upH {
		c0x /= 2
	}
	if upV {
		c0y /= 2
	}
	cw, ch := (b.Max.X-1)-b.Min.X+1, h
	if upH {
		cw = (b.Max.X-1)/2 - c0x + 1
	}
	if upV {
		ch = (b.Max.Y-1)/2 - c0y + 1
	}
	// One output row's chroma, blended vertically first: 3x the nearer chroma row plus the
	// other (edge rows repeat), as libjpeg's h2v2 upsampler keeps it (sums scaled by 4).
	cb := make([]int32, cw)
	cr := make([]int32, cw)
	for y := 0; y < h; y++ {
		ay := b.Min.Y + y
		near, other := ay-c0y, ay-c0y
		if upV {
			near = ay/2 - c0y
			other = near + 1
			if ay%2 == 0 {
				other = near - 1
			}
			other = min(max(other, 0), ch-1)
		}
		n, o := near*src.CStride, other*src.CStride
		for i := 0; i < cw; i++ {
			if upV {
				cb[i] = 3*int32(src.Cb[n+i]) + int32(src.Cb[o+i])
				cr[i] = 3*int32(src.Cr[n+i]) + int32(src.Cr[o+i])
			} else {
				cb[i] = 4 * int32(src.Cb[n+i])
				cr[i] = 4 * int32(src.Cr[n+i])
			}
		}
		row := dst[y*3*w : (y+1)*3*w]
		yi := src.YOffset(b.Min.X, ay)
		for x := 0; x < w; x++ {
			ax := b.Min.X + x
			if !upH {
				writeBGR(row[3*x:3*x+3], src.Y[yi+x], (cb[x]+2)>>2, (cr[x]+2)>>2)
				continue
			}
			// An even column leans on the chroma sample to its left, an odd one on the one to
			// its right (3/4 and 1/4), with libjpeg's alternating rounding; edges repeat.
			i := ax/2 - c0x
			j, bias := i+1, int32(7)
			if ax%2 == 0 {
				j, bias = i-1, 8
			}
			j = min(max(j, 0), cw-1)
			var vb, vr int32
			if upV {
				vb, vr = (3*cb[i]+cb[j]+bias)>>4, (3*cr[i]+cr[j]+bias)>>4
			} else { // h2v1 (4:2:2): the sums are 4x one sample; libjpeg rounds with +1 and +2
				bias = 2
				if ax%2 == 0 {
					bias = 1
				}
				vb, vr = (3*(cb[i]>>2)+cb[j]>>2+bias)>>2, (3*(cr[i]>>2)+cr[j]>>2+bias)>>2
			}
			writeBGR(row[3*x:3*x+3], src.Y[yi+x], vb, vr)
		}
	}
}

// writeBGR stores one pixel converted from YCbCr by libjpeg's fixed-point transform (16
// fractional bits, rounded, clamped).
func writeBGR(px []byte, y uint8, cb, cr int32) {
	cb -= 128
	cr -= 128
	yy := int32(y)
	r := yy + (91881*cr+32768)>>16
	g := yy + (-22554*cb-46802*cr+32768)>>16
	bl := yy + (116130*cb+32768)>>16
	px[0], px[1], px[2] = clamp8(bl), clamp8(g), clamp8(r)
}

func clamp8(v int32) byte {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return byte(v)
}

// SavePNG writes a BGR (or grey) Mat as a PNG file, encoded in Go like the decoding (the kiosk
// does not load OpenCV's codecs).
func SavePNG(path string, m gocv.Mat) error {
	if m.Empty() || (m.Type() != gocv.MatTypeCV8UC3 && m.Type() != gocv.MatTypeCV8UC1) {
		return fmt.Errorf("imagefile: %s: an empty image or one that is not 8-bit BGR or grey", path)
	}
	pix, err := m.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("imagefile: %w", err)
	}
	w, h, ch := m.Cols(), m.Rows(), m.Channels()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ {
		o := img.Pix[4*i : 4*i+4]
		if ch == 1 {
			o[0], o[1], o[2] = pix[i], pix[i], pix[i]
		} else {
			o[0], o[1], o[2] = pix[3*i+2], pix[3*i+1], pix[3*i]
		}
		o[3] = 255
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("imagefile: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("imagefile: %s: %w", path, err)
	}
	return f.Close()
}
