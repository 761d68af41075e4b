package main

import (
	"fmt"
	"os"
	"syscall"
)

// fyneCacheEnv is the environment variable Fyne reads, once and before main runs, for how long it
// keeps what it made for a canvas object that is no longer drawn: its texture, its renderer, its
// text measurements. Fyne's default is a minute.
const fyneCacheEnv = "FYNE_CACHE"

// kioskFyneCache is the kiosk's choice. The screens change every few seconds (banners, rulings,
// the counting screen), and for a minute after each change the textures and measurements of
// what went away stayed in memory beside those of what came: over the demo game that was 1 to
// 1.8 MB of the peak. Fyne cleans its caches at most every 10 s, so anything not drawn is
// released within 15 s.
const kioskFyneCache = "5s"

// withFyneCache makes sure the process runs with FYNE_CACHE set: when it is not, it sets it and
// executes the kiosk again in this process (same PID, same arguments), since Fyne has read the
// variable before main. A value already set (by a person or a unit) is kept. It returns only
// when nothing needs doing or the exec failed, which it reports.
func withFyneCache() error {
	if _, ok := os.LookupEnv(fyneCacheEnv); ok {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the kiosk's executable: %w", err)
	}
	env := append(os.Environ(), fyneCacheEnv+"="+kioskFyneCache)
	if err := syscall.Exec(exe, os.Args, env); err != nil {
		return fmt.Errorf("executing %s again with %s set: %w", exe, fyneCacheEnv, err)
	}
	return nil // not reached: Exec does not return on success
}
