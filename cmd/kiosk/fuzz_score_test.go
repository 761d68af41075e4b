package main

import (
	"strings"
	"testing"

	"tengen/engine"
)

// FuzzParseDead: kiosk score's --dead list names stones of the final position only, each one a
// point the list spells.
func FuzzParseDead(f *testing.F) {
	for _, s := range []string{"", "C3", "C3,D4", " c3 , ,G7", "A1", "Z9", "C3,,C3", "\u00e91"} {
		f.Add(s)
	}
	rules, err := engine.Preset("japanese")
	if err != nil {
		f.Fatal(err)
	}
	g, err := engine.NewGame(9, rules)
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range []string{"C3", "D4", "G7", "E5"} {
		p, _ := engine.ParsePoint(v, 9)
		if _, err := g.Play(engine.Move{Color: g.ToMove(), Point: p}); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, list string) {
		dead, err := parseDead(list, g)
		if err != nil {
			return
		}
		items := strings.Split(strings.ToUpper(list), ",")
		for _, p := range dead {
			if g.At(p) == engine.Empty {
				t.Fatalf("--dead %q: %v is empty", list, p)
			}
			found := false
			for _, it := range items {
				found = found || strings.TrimSpace(it) == p.GTP(9)
			}
			if !found {
				t.Fatalf("--dead %q: %v is not in the list", list, p)
			}
		}
	})
}
