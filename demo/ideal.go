package demo

import "tengen/vision/observe"

// Ideal is what a perfect camera reads from the scene: every stone, and the whole board hidden
// while a hand reaches over it (the referee waits for the hand to go). Replays and tests that
// leave vision out read the demo through it.
func (sc Scene) Ideal() observe.Observation {
	o := observe.New(sc.Size)
	for i, st := range sc.Stones {
		switch st {
		case Black:
			o.Stones[i] = observe.Black
		case White:
			o.Stones[i] = observe.White
		}
	}
	if sc.Hand != nil && sc.Hand.Reach > 0.25 {
		for i := range o.Stones {
			o.Stones[i] = observe.Obscured
		}
	}
	return o
}
