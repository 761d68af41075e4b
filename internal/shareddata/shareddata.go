// Package shareddata locates the project's shared test data (../shared beside the repository:
// rules texts, rules cases, SGF corpus, real board photographs) for tests and benchmarks.
package shareddata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"tengen/internal/testenv"
)

// EnvVar overrides where the shared directory is; by default it is ../shared beside the module root.
const EnvVar = "TENGEN_SHARED"

// Root returns the shared data directory, or an error saying where it was looked for.
func Root() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
		return "", fmt.Errorf("shareddata: %s=%q is not a directory", EnvVar, d)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("shareddata: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			shared := filepath.Join(dir, "..", "shared")
			if st, err := os.Stat(shared); err == nil && st.IsDir() {
				return filepath.Clean(shared), nil
			}
			return "", fmt.Errorf("shareddata: no %s beside the repository", filepath.Clean(shared))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("shareddata: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Path returns the path of sub inside the shared directory. When the shared data is absent it skips
// tb with a clear message, except under CI (CI=true), where the data must be present and tb fails.
func Path(tb testing.TB, sub ...string) string {
	tb.Helper()
	root, err := Root()
	if err == nil {
		p := filepath.Join(append([]string{root}, sub...)...)
		if _, err = os.Stat(p); err == nil {
			return p
		}
	}
	testenv.Missing(tb, "shared test data absent (%v): put ../shared beside the repository", err)
	return ""
}
