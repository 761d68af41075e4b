package hoshi

import (
	"reflect"
	"testing"
)

func TestPoints(t *testing.T) {
	tests := []struct {
		size int
		want [][2]int
	}{
		{5, nil},
		{6, nil},
		{7, [][2]int{{2, 2}, {2, 4}, {4, 2}, {4, 4}, {3, 3}}},
		{8, [][2]int{{2, 2}, {2, 5}, {5, 2}, {5, 5}}},
		{9, [][2]int{{2, 2}, {2, 6}, {6, 2}, {6, 6}, {4, 4}}},
		{13, [][2]int{{3, 3}, {3, 9}, {9, 3}, {9, 9}, {6, 6}}},
		{14, [][2]int{{3, 3}, {3, 10}, {10, 3}, {10, 10}}},
		{19, [][2]int{{3, 3}, {3, 9}, {3, 15}, {9, 3}, {9, 9}, {9, 15}, {15, 3}, {15, 9}, {15, 15}}},
	}
	for _, tc := range tests {
		if got := Points(tc.size); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Points(%d) = %v, want %v", tc.size, got, tc.want)
		}
	}
}
