package vision

import "testing"

// TestGridChecks pins the two grid checks of an unsure fit to the figures they were set on: the
// unsure fits of the labelled photos' variants and the Roboflow photos, right and wrong (19x19
// unless said).
func TestGridChecks(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		lined, empty, sure, nodes int
		kept, want                bool
	}{
		{"an empty blurred board, most lines seen", 299, 356, 5, 361, true, true},
		{"a dense game (t1_001), right", 119, 219, 231, 361, true, true},
		{"a dense game (t2_102), right", 59, 81, 290, 361, true, true},
		{"a tilted Roboflow game, right", 111, 246, 226, 361, true, true},
		{"a crowded Roboflow game, right", 71, 105, 273, 361, true, true},
		{"a Roboflow grid off the board, stones read unsure", 114, 213, 176, 361, true, false},
		{"a Roboflow grid a part of the board", 62, 141, 36, 361, true, false},
		{"a 9x9 grid on clutter", -9, 42, 8, 81, true, false},
		{"no stones and few lines", 100, 361, 0, 361, true, false},
	} {
		got := linedEnough(tc.lined, tc.empty, tc.nodes, tc.kept) || vouchedEnough(tc.lined, tc.sure, tc.nodes)
		if got != tc.want {
			t.Errorf("%s: lined %d, empty %d, sure stones %d of %d: kept %v, want %v", tc.name, tc.lined, tc.empty, tc.sure, tc.nodes, got, tc.want)
		}
	}
}
