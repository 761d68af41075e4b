package readertrain

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"tengen/vision/evalset"
)

// cached is what a calibration cache keeps of one box-labelled photo: the corners of the board
// found in it, or why it was skipped.
type cached struct {
	Corners *[4][2]float64 `json:"corners,omitempty"`
	Size    int            `json:"size,omitempty"`
	Lens    float64        `json:"lens,omitempty"`
	Skip    string         `json:"skip,omitempty"`
}

// PrepareCached is Prepare with the boards found in box-labelled photos kept in the JSON file
// path between runs (finding them takes minutes; training experiments need not repeat it). A
// photo missing from the file is prepared as Prepare does and added to it. A photo read from the
// file is prepared from the cached corners, so its calibration carries no board side or
// confidence; the reader uses neither.
func PrepareCached(photos []evalset.Photo, path string) ([]*Photo, []Skipped, error) {
	known := map[string]cached{}
	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, nil, fmt.Errorf("readertrain: calibration cache: %w", err)
	default:
		if err := json.Unmarshal(raw, &known); err != nil {
			return nil, nil, fmt.Errorf("readertrain: calibration cache %s: %w", path, err)
		}
	}
	var out []*Photo
	var skipped []Skipped
	changed := false
	for _, ph := range photos {
		c, ok := known[ph.Rel]
		if ph.Corners != nil || !ok {
			p, err := prepare(ph, 0, 0)
			if ph.Corners == nil {
				if err != nil {
					known[ph.Rel] = cached{Skip: err.Error()}
				} else {
					q := p.foundCorners
					known[ph.Rel] = cached{Corners: &q, Size: p.Cal.Size, Lens: p.foundLens}
				}
				changed = true
			}
			if err != nil {
				skipped = append(skipped, Skipped{Rel: ph.Rel, Reason: err})
				continue
			}
			out = append(out, p)
			continue
		}
		if c.Corners == nil {
			skipped = append(skipped, Skipped{Rel: ph.Rel, Reason: errors.New(c.Skip)})
			continue
		}
		ph.Corners = c.Corners
		p, err := prepare(ph, c.Size, c.Lens)
		if err != nil {
			skipped = append(skipped, Skipped{Rel: ph.Rel, Reason: err})
			continue
		}
		out = append(out, p)
	}
	if changed {
		raw, err := json.MarshalIndent(known, "", " ")
		if err != nil {
			return nil, nil, fmt.Errorf("readertrain: calibration cache: %w", err)
		}
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			return nil, nil, fmt.Errorf("readertrain: calibration cache: %w", err)
		}
	}
	return out, skipped, nil
}
