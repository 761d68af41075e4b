package vision

// Params tunes the stone classifier. The zero value means the defaults, which were chosen on the
// evaluation photographs as a whole (never per image); each frame also calibrates itself from its
// own points (board brightness, black-stone level, grid-line contrast).
type Params struct {
	// BlackMaxRel caps the black threshold: a point darker than this fraction of the board
	// around it may be black (the per-frame threshold sits between the black and empty levels).
	BlackMaxRel float64
	// WhiteMinRel is the least brightness (relative to the board) of a white stone.
	WhiteMinRel float64
	// WhiteMinChroma is the least colour difference from the board of a white stone of WhiteMinRel.
	WhiteMinChroma float64
	// ShadowLine: a darkish point that still shows the grid lines this clearly (relative to its own
	// brightness) is a shadow on the board, not a stone.
	ShadowLine float64
	// Spacing is the canonical image's pixels between lines (0: about 360 px across the grid, 20
	// for 19x19). More costs time; fewer blurs the grid lines the classifier looks for.
	Spacing int
	// ObscuredMinPoints is the smallest group of adjacent unexplained points reported as Obscured.
	ObscuredMinPoints int
	// Net, when not nil, is the learned reader to use instead of the committed one (training
	// and the leave-one-source-out evaluation set it).
	Net PointModel
	// HandTuned reads with the hand-set thresholds of classify instead of the learned reader
	// (kept to compare the two).
	HandTuned bool
	// PointsAlone reads each point by the learned reader alone, without weighing the points it is
	// unsure of against the frame's sure ones (adapt.go): kept to measure what that adds.
	PointsAlone bool
}

func (p Params) withDefaults() Params {
	if p.BlackMaxRel == 0 {
		p.BlackMaxRel = 0.62
	}
	if p.WhiteMinRel == 0 {
		p.WhiteMinRel = 1.03
	}
	if p.WhiteMinChroma == 0 {
		p.WhiteMinChroma = 0.028
	}
	if p.ShadowLine == 0 {
		p.ShadowLine = 0.15
	}
	if p.ObscuredMinPoints == 0 {
		p.ObscuredMinPoints = 2
	}
	return p
}
