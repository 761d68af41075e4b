package calib

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// maxFileSize bounds what Load reads; a calibration file is a few hundred bytes.
const maxFileSize = 64 << 10

// Parse decodes and validates a calibration file's contents. Errors wrap ErrCorrupt,
// ErrVersion, ErrImageSize, ErrBoardSize or ErrCorners.
func Parse(data []byte) (Calibration, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return Calibration{}, fmt.Errorf("%w: empty", ErrCorrupt)
	}
	// Read the version first so a future format gets ErrVersion, not a confusing field error.
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Calibration{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if head.Version == nil {
		return Calibration{}, fmt.Errorf("%w: no version field", ErrCorrupt)
	}
	if *head.Version != FormatVersion {
		return Calibration{}, fmt.Errorf("%w: %d (this program reads version %d)", ErrVersion, *head.Version, FormatVersion)
	}
	var c Calibration
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Calibration{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Calibration{}, fmt.Errorf("%w: trailing data after the JSON object", ErrCorrupt)
	}
	if err := c.Validate(); err != nil {
		return Calibration{}, err
	}
	return c, nil
}

// Marshal encodes a valid calibration as indented JSON.
func Marshal(c Calibration) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("calib: encode: %w", err)
	}
	return append(b, '\n'), nil
}

// Load reads and validates a calibration file. A missing file gives an error matching
// fs.ErrNotExist; a damaged one ErrCorrupt; others as Parse.
func Load(path string) (Calibration, error) {
	f, err := os.Open(path)
	if err != nil {
		return Calibration{}, fmt.Errorf("calib: load: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return Calibration{}, fmt.Errorf("calib: load %s: %w", path, err)
	}
	if len(data) > maxFileSize {
		return Calibration{}, fmt.Errorf("%w: %s is larger than %d bytes", ErrCorrupt, path, maxFileSize)
	}
	c, err := Parse(data)
	if err != nil {
		return Calibration{}, fmt.Errorf("load %s: %w", path, err)
	}
	return c, nil
}

// LoadFor is Load plus a check that the file was made for w x h camera frames
// (ErrImageSize otherwise).
func LoadFor(path string, w, h int) (Calibration, error) {
	c, err := Load(path)
	if err != nil {
		return Calibration{}, err
	}
	if err := c.CheckImage(w, h); err != nil {
		return Calibration{}, fmt.Errorf("load %s: %w", path, err)
	}
	return c, nil
}

// Save writes c to path atomically: a temporary file in the same directory is written,
// synced and renamed over path, then the directory is synced, so a power cut leaves either
// the old file or the new one, never a torn one.
func Save(path string, c Calibration) (err error) {
	data, err := Marshal(c)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("calib: save: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("calib: save: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("calib: save: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("calib: save: %w", err)
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("calib: save: %w", err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("calib: save: %w", err)
	}
	if d, derr := os.Open(dir); derr == nil {
		// Directory fsync makes the rename durable; not every filesystem supports it.
		_ = d.Sync()
		d.Close()
	}
	return nil
}
