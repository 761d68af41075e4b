package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"tengen/internal/testenv"
)

// fyneCacheChild makes the test binary act as the kiosk starting up in TestWithFyneCache.
const fyneCacheChild = "TENGEN_FYNE_CACHE_CHILD"

// TestWithFyneCache starts this test binary without FYNE_CACHE: withFyneCache must execute it
// again with the kiosk's value, and must keep a value a person has set.
func TestWithFyneCache(t *testing.T) {
	if os.Getenv(fyneCacheChild) == "1" {
		if err := withFyneCache(); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("child sees %s=%q\n", fyneCacheEnv, os.Getenv(fyneCacheEnv))
		return
	}
	for _, tc := range []struct{ set, want string }{
		{"", kioskFyneCache},
		{"45s", "45s"},
	} {
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, fyneCacheEnv+"=") {
				env = append(env, kv)
			}
		}
		if tc.set != "" {
			env = append(env, fyneCacheEnv+"="+tc.set)
		}
		out, err := testenv.RunAlone(t, "TestWithFyneCache", append(env, fyneCacheChild+"=1"))
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		want := fmt.Sprintf("child sees %s=%q", fyneCacheEnv, tc.want)
		if n := bytes.Count(out, []byte("child sees")); n != 1 || !bytes.Contains(out, []byte(want)) {
			t.Errorf("set %q: want one line %q, got:\n%s", tc.set, want, out)
		}
	}
}
