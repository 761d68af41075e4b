package observe

import "time"

// Stabilizer turns a stream of per-frame readings into board observations the referee can act on.
// It emits a reading only once it has been unchanged for the hold time (measured with the frames'
// own timestamps) and no point is Obscured: frames with hands over the board are never used.
// Each distinct stable position is emitted once; a position that returns after a hand has been
// over the board unchanged is not emitted again. It is not safe for concurrent use.
type Stabilizer struct {
	hold    time.Duration
	minConf float32

	cand      Observation // the reading being timed
	candSince time.Time
	haveCand  bool
	last      Observation // the last emitted observation
	haveLast  bool
}

// NewStabilizer returns a Stabilizer that needs a reading to hold for hold before emitting it.
func NewStabilizer(hold time.Duration) *Stabilizer {
	if hold < 0 {
		hold = 0
	}
	return &Stabilizer{hold: hold}
}

// SetMinConfidence makes frames with any point below c count as unusable (like a hand); 0 disables it.
func (s *Stabilizer) SetMinConfidence(c float32) { s.minConf = c }

// Hold returns the configured hold time.
func (s *Stabilizer) Hold() time.Duration { return s.hold }

// Add feeds one frame's reading. It returns the stable observation and true when the reading has
// just become stable and differs from the last one emitted. The returned value is a copy.
// A malformed observation, an Obscured point or too low a confidence resets the timer.
func (s *Stabilizer) Add(o Observation) (Observation, bool) {
	if o.Valid() != nil || o.AnyObscured() || (s.minConf > 0 && o.MinConfidence() < s.minConf) {
		s.haveCand = false
		return Observation{}, false
	}
	if !s.haveCand || !s.cand.SameStones(o) || o.Time.Before(s.candSince) {
		s.cand = o.Clone()
		s.candSince = o.Time
		s.haveCand = true
	} else {
		// Keep the newest frame's confidence, time and sequence number.
		s.cand.Time, s.cand.Seq = o.Time, o.Seq
		s.cand.TakeReadings(o)
	}
	if o.Time.Sub(s.candSince) < s.hold {
		return Observation{}, false
	}
	if s.haveLast && s.last.SameStones(s.cand) {
		return Observation{}, false
	}
	s.last = s.cand.Clone()
	s.haveLast = true
	return s.last.Clone(), true
}

// Last returns the last emitted observation and whether there is one.
func (s *Stabilizer) Last() (Observation, bool) {
	if !s.haveLast {
		return Observation{}, false
	}
	return s.last.Clone(), true
}

// Reset forgets the timed reading and the last emitted one (e.g. after a recalibration or a new game),
// so the next stable reading is emitted even if it equals the previous one.
func (s *Stabilizer) Reset() {
	s.haveCand = false
	s.haveLast = false
	s.cand = Observation{}
	s.last = Observation{}
}
