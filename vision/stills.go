package vision

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"tengen/vision/imagefile"
)

// imageExts are the still-image file name extensions a DirSource reads.
var imageExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".bmp": true, ".tif": true, ".tiff": true, ".webp": true}

// DirSource reads the still images of a directory in name order (raw pixels, EXIF rotation
// ignored); Next returns ErrEnd after the last. A file that does not decode is an error for
// that call only: the next call moves on.
type DirSource struct {
	files    []string
	i        int
	start    time.Time
	interval time.Duration
}

// OpenDir lists the images in dir. Frame i gets time start + i*interval.
func OpenDir(dir string, start time.Time, interval time.Duration) (*DirSource, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("vision: %w", err)
	}
	var files []string
	for _, e := range ents {
		if !e.IsDir() && imageExts[strings.ToLower(filepath.Ext(e.Name()))] {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("vision: no images in %s", dir)
	}
	return &DirSource{files: files, start: start, interval: interval}, nil
}

// Len returns the number of images.
func (s *DirSource) Len() int { return len(s.files) }

// Next reads the next image.
func (s *DirSource) Next(ctx context.Context, dst *gocv.Mat) (FrameInfo, error) {
	if err := ctx.Err(); err != nil {
		return FrameInfo{}, err
	}
	if s.i >= len(s.files) {
		return FrameInfo{}, ErrEnd
	}
	name := s.files[s.i]
	s.i++
	info := FrameInfo{Time: s.start.Add(time.Duration(s.i-1) * s.interval), Seq: uint64(s.i), Name: name}
	if err := ReadImage(name, dst); err != nil {
		return info, err
	}
	return info, nil
}

// Close does nothing; it is there to satisfy Source.
func (s *DirSource) Close() error { return nil }

// ErrNotImage means a file could not be decoded as an image.
var ErrNotImage = imagefile.ErrNotImage

// ReadImage decodes an image file into dst as BGR, ignoring EXIF orientation (raw pixels).
func ReadImage(path string, dst *gocv.Mat) error {
	m, err := LoadImage(path)
	if err != nil {
		return err
	}
	defer m.Close()
	m.CopyTo(dst)
	return nil
}

// LoadImage decodes an image file (JPEG, PNG, BMP, TIFF or WebP) as BGR, ignoring EXIF
// orientation (raw pixels). The caller closes the Mat. Errors wrap ErrNotImage when the file is
// not a decodable image. The decoding is imagefile.Load's (in Go, not OpenCV's imgcodecs).
func LoadImage(path string) (gocv.Mat, error) {
	return imagefile.Load(path)
}
