package clock

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseControl(t *testing.T) {
	tests := []struct {
		in        string
		want      Control
		canonical string
	}{
		{"90m", Control{Kind: Absolute, Main: 90 * time.Minute}, "90m"},
		{"1h30m", Control{Kind: Absolute, Main: 90 * time.Minute}, "90m"},
		{"1H30M", Control{Kind: Absolute, Main: 90 * time.Minute}, "90m"},
		{"45s", Control{Kind: Absolute, Main: 45 * time.Second}, "45s"},
		{"1m30s", Control{Kind: Absolute, Main: 90 * time.Second}, "1m30s"},
		{"60m+5x30s", Control{Kind: ByoYomi, Main: time.Hour, Periods: 5, Period: 30 * time.Second}, "60m+5x30s"},
		{"1h+5X30s", Control{Kind: ByoYomi, Main: time.Hour, Periods: 5, Period: 30 * time.Second}, "60m+5x30s"},
		{"0+5x30s", Control{Kind: ByoYomi, Periods: 5, Period: 30 * time.Second}, "0+5x30s"},
		{"0s+1x1m", Control{Kind: ByoYomi, Periods: 1, Period: time.Minute}, "0+1x1m"},
		{"60m+25/5m", Control{Kind: Canadian, Main: time.Hour, Stones: 25, Period: 5 * time.Minute}, "60m+25/5m"},
		{"0+20/5m", Control{Kind: Canadian, Stones: 20, Period: 5 * time.Minute}, "0+20/5m"},
		{"30m+20s", Control{Kind: Fischer, Main: 30 * time.Minute, Increment: 20 * time.Second}, "30m+20s"},
		{"30m+20s<=40m", Control{Kind: Fischer, Main: 30 * time.Minute, Increment: 20 * time.Second, Cap: 40 * time.Minute}, "30m+20s<=40m"},
		{"30m+1m5s<=30m", Control{Kind: Fischer, Main: 30 * time.Minute, Increment: 65 * time.Second, Cap: 30 * time.Minute}, "30m+1m5s<=30m"},
		{"100h", Control{Kind: Absolute, Main: 100 * time.Hour}, "6000m"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseControl(tt.in)
			if err != nil {
				t.Fatalf("ParseControl(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Fatalf("ParseControl(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if s := got.String(); s != tt.canonical {
				t.Fatalf("String() = %q, want %q", s, tt.canonical)
			}
			back, err := ParseControl(got.String())
			if err != nil || back != got {
				t.Fatalf("round trip of %q: %+v, %v", got.String(), back, err)
			}
		})
	}
}

func TestParseControlErrors(t *testing.T) {
	tests := []struct {
		in       string
		offset   int // -1: a semantic error, not a *SyntaxError
		expected string
	}{
		{"", 0, "a duration"},
		{"abc", 0, "a duration"},
		{"60", 2, "a unit h, m or s"},
		{"60m+", 4, "a duration"},
		{"60m+5x", 6, "a duration"},
		{"60m+5x30", 8, "a unit"},
		{"60m+5y30s", 5, "a unit"},
		{"60m+0x30s", 4, "a count from 1 to 1000"},
		{"60m+1001x30s", 4, "a count from 1 to 1000"},
		{"60m+5x0", 6, "a period longer than zero"},
		{"60m+25/", 7, "a duration"},
		{"30m+20s<=", 9, "a duration"},
		{"30m+20s<40m", 7, "end of input"},
		{"30m+0", 4, "an increment longer than zero"},
		{"60m 5x30s", 3, `"+" and an overtime`},
		{"30s1m", 4, "units in decreasing order"},
		{"1m1m", 3, "units in decreasing order"},
		{"101h", 0, "a duration of at most"},
		{"9999999999s", 0, "at most 9 digits"},
		{"60m+5x30s+", 9, "end of input"},
		{"0", -1, "absolute time needs a main time"},
		{"0+20s", -1, "Fischer time needs a main time"},
		{"60m+20s<=30m", -1, "cap"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseControl(tt.in)
			if err == nil {
				t.Fatalf("ParseControl(%q) succeeded", tt.in)
			}
			if !errors.Is(err, ErrInvalidControl) {
				t.Errorf("error %v does not wrap ErrInvalidControl", err)
			}
			if !strings.Contains(err.Error(), tt.expected) {
				t.Errorf("error %q does not mention %q", err, tt.expected)
			}
			var se *SyntaxError
			if tt.offset < 0 {
				if errors.As(err, &se) {
					t.Errorf("want a semantic error, got syntax error %v", err)
				}
				return
			}
			if !errors.As(err, &se) {
				t.Fatalf("want *SyntaxError, got %T %v", err, err)
			}
			if se.Offset != tt.offset {
				t.Errorf("offset %d, want %d (%v)", se.Offset, tt.offset, err)
			}
		})
	}
}

func TestPresets(t *testing.T) {
	names := PresetNames()
	if len(names) < 8 {
		t.Fatalf("only %d presets", len(names))
	}
	for _, n := range names {
		c, err := Preset(n)
		if err != nil {
			t.Fatalf("preset %s: %v", n, err)
		}
		if PresetAbout(n) == "" {
			t.Errorf("preset %s has no description", n)
		}
		if got, err := ParseControlOrPreset(strings.ToUpper(n)); err != nil || got != c {
			t.Errorf("ParseControlOrPreset(%s) = %v, %v", n, got, err)
		}
	}
	if c, _ := Preset("aga-us-open"); c.String() != "90m+5x30s" {
		t.Errorf("aga-us-open = %v", c)
	}
	if _, err := Preset("nope"); !errors.Is(err, ErrInvalidControl) || !strings.Contains(err.Error(), "aga-us-open") {
		t.Errorf("unknown preset error %v should list the known ones", err)
	}
}

func TestControlJSON(t *testing.T) {
	type cfg struct {
		Control Control `json:"control"`
	}
	b, err := json.Marshal(cfg{MustParseControl("30m+20s<=40m")})
	if err != nil {
		t.Fatal(err)
	}
	var plain map[string]string
	if err := json.Unmarshal(b, &plain); err != nil || plain["control"] != "30m+20s<=40m" {
		t.Fatalf("json %s: %v", b, err)
	}
	var back cfg
	if err := json.Unmarshal([]byte(`{"control":"egf-a-fischer"}`), &back); err != nil || back.Control.String() != "45m+15s" {
		t.Fatalf("unmarshal preset: %v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"control":"60m+5x"}`), &back); err == nil {
		t.Fatal("bad control unmarshalled")
	}
}

// FuzzParseControl: the parser never panics, every accepted input is valid,
// and String() is a canonical form that parses back to the same Control.
func FuzzParseControl(f *testing.F) {
	for _, s := range []string{"90m", "60m+5x30s", "60m+25/5m", "30m+20s", "30m+20s<=40m", "0+5x30s", "1h30m15s", "60m+5x", "30m+20s<", "9999999999h", "+", "0x0", "1m+1/1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseControl(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidControl) {
				t.Fatalf("error %v does not wrap ErrInvalidControl", err)
			}
			var se *SyntaxError
			if errors.As(err, &se) && (se.Offset < 0 || se.Offset > len(s)) {
				t.Fatalf("offset %d outside input of %d bytes", se.Offset, len(s))
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted %q but invalid: %v", s, err)
		}
		canon := c.String()
		back, err := ParseControl(canon)
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", canon, s, err)
		}
		if back != c {
			t.Fatalf("round trip %q -> %+v -> %q -> %+v", s, c, canon, back)
		}
		if back.String() != canon {
			t.Fatalf("String not canonical: %q vs %q", back.String(), canon)
		}
	})
}
