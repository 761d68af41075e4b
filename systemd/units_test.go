package systemd

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tengen/internal/testenv"
)

var units = []string{"tengen-kiosk.service", "tengen-display.service"}

func analyze(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("systemd-analyze")
	if err != nil {
		testenv.Missing(t, "systemd-analyze is not installed")
	}
	return p
}

// stageUnits copies the units into a temporary directory. systemd-analyze verify insists that every
// Exec command exists on this machine, so commands that are only on a Pi (the kiosk binary, Xorg)
// are pointed at stub scripts; everything else in the units is verified as shipped.
func stageUnits(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	stubs := filepath.Join(dir, "stub")
	if err := os.Mkdir(stubs, 0o755); err != nil {
		t.Fatal(err)
	}
	execRe := regexp.MustCompile(`^(Exec[A-Za-z]*=)([-@:+!]*)(/[^ ]+)(.*)$`)
	for _, u := range units {
		src, err := os.ReadFile(u)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, line := range strings.Split(string(src), "\n") {
			if m := execRe.FindStringSubmatch(line); m != nil {
				if _, err := os.Stat(m[3]); err != nil {
					stub := filepath.Join(stubs, filepath.Base(m[3]))
					if err := os.WriteFile(stub, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
						t.Fatal(err)
					}
					line = m[1] + m[2] + stub + m[4]
				}
			}
			out = append(out, line)
		}
		if err := os.WriteFile(filepath.Join(dir, u), []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestUnitsVerify(t *testing.T) {
	sa := analyze(t)
	dir := stageUnits(t)
	args := []string{"verify", "--man=no"}
	for _, u := range units {
		args = append(args, filepath.Join(dir, u))
	}
	cmd := exec.Command(sa, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		for _, u := range units {
			if strings.Contains(line, u) {
				t.Errorf("systemd-analyze verify complains: %s", line)
			}
		}
	}
}

// TestHallDropInVerifies: the kiosk unit with the hall drop-in (scripts/install-pi --hall-broker)
// still verifies and keeps its security rating; the drop-in's lines are added to the unit as
// systemd adds a drop-in's (both lists widen the unit's, nothing else changes).
func TestHallDropInVerifies(t *testing.T) {
	sa := analyze(t)
	dir := stageUnits(t)
	dropIn, err := os.ReadFile("tengen-kiosk-hall.conf")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(dropIn), "IPAddressAllow=@BROKER@") || !strings.Contains(string(dropIn), "RestrictAddressFamilies=AF_INET AF_INET6") {
		t.Fatalf("the drop-in lost its lines:\n%s", dropIn)
	}
	unit := filepath.Join(dir, "tengen-kiosk.service")
	base, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	merged := string(base) + "\n" + strings.ReplaceAll(string(dropIn), "@BROKER@", "192.168.1.10")
	if err := os.WriteFile(unit, []byte(merged), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sa, "verify", "--man=no", unit, filepath.Join(dir, "tengen-display.service"))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "tengen-kiosk.service") {
		t.Fatalf("systemd-analyze verify with the hall drop-in: %v\n%s", err, out)
	}
	level, word, _ := securityLevel(t, sa, dir, "tengen-kiosk.service")
	t.Logf("systemd-analyze security tengen-kiosk.service with the hall drop-in: %.1f %s", level, word)
	if level > MaxExposure {
		t.Errorf("exposure %.1f with the hall drop-in is above %.1f", level, MaxExposure)
	}
}

var exposureRe = regexp.MustCompile(`Overall exposure level for ([^:]+): ([0-9.]+) (\S+)`)

// securityLevel runs `systemd-analyze security --offline=true` on a staged unit and returns its
// overall exposure level, its word for it, and the whole report.
func securityLevel(t *testing.T, sa, dir, unit string) (float64, string, []byte) {
	t.Helper()
	cmd := exec.Command(sa, "security", "--offline=true", "--no-pager", filepath.Join(dir, unit))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && !exposureRe.Match(out) {
		t.Fatalf("systemd-analyze security %s: %v\n%s", unit, err, out)
	}
	m := exposureRe.FindSubmatch(out)
	if m == nil {
		t.Fatalf("no exposure level in the output:\n%s", out)
	}
	level, err := strconv.ParseFloat(string(m[2]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return level, string(m[3]), out
}

// TestSecurityRating: every unit, the X server's as much as the kiosk's, rates at most MaxExposure.
func TestSecurityRating(t *testing.T) {
	sa := analyze(t)
	dir := stageUnits(t)
	for _, u := range units {
		t.Run(u, func(t *testing.T) {
			level, word, out := securityLevel(t, sa, dir, u)
			t.Logf("systemd-analyze security %s: %.1f %s", u, level, word)
			if level > MaxExposure {
				t.Errorf("exposure %.1f %s is above %.1f; what is still exposed:\n%s", level, word, MaxExposure, failing(out))
			}
		})
	}
}

// TestSecurityRatingFailsAbove: the rating test reads the level systemd-analyze prints, and a unit
// without a sandbox (the display unit as it was before it dropped root: Xorg as root, 6.9 with
// systemd 252) rates far above the bar, so a sandbox lost in an edit cannot pass unnoticed.
func TestSecurityRatingFailsAbove(t *testing.T) {
	sa := analyze(t)
	dir := t.TempDir()
	bare := "[Unit]\nDescription=an X server as root\n\n[Service]\nExecStart=/bin/true\nProtectHome=yes\nNoNewPrivileges=yes\n"
	if err := os.WriteFile(filepath.Join(dir, "bare.service"), []byte(bare), 0o644); err != nil {
		t.Fatal(err)
	}
	level, word, _ := securityLevel(t, sa, dir, "bare.service")
	t.Logf("a unit with no sandbox: %.1f %s", level, word)
	if level <= MaxExposure {
		t.Errorf("a unit running as root with no sandbox rates %.1f, within the bar of %.1f", level, MaxExposure)
	}
}

func failing(out []byte) string {
	var b strings.Builder
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "✗") {
			b.WriteString(strings.TrimRight(l, " ") + "\n")
		}
	}
	return b.String()
}

// directives parses a unit into key -> values (a key may repeat).
func directives(t *testing.T, unit string) map[string][]string {
	t.Helper()
	f, err := os.Open(unit)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' || l[0] == '[' {
			continue
		}
		// A line ending in a backslash goes on in the next one, the backslash read as a space
		// (systemd.syntax(7)).
		for strings.HasSuffix(l, "\\") && sc.Scan() {
			l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(sc.Text())
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Errorf("%s: not a directive: %q", unit, l)
			continue
		}
		d[k] = append(d[k], v)
	}
	return d
}

// TestKioskUnitPromises pins down what the issue and the README's "Setting up a tournament table" promise about the kiosk unit, so a
// later edit cannot quietly drop one (the exposure level alone would hide a lost DeviceAllow).
func TestKioskUnitPromises(t *testing.T) {
	d := directives(t, "tengen-kiosk.service")
	want := map[string]string{
		"Type": "notify", "ExecStart": "/usr/local/bin/kiosk run", "Restart": "always", "User": "tengen",
		"SupplementaryGroups": "video gpio input render tengen-display", "StateDirectory": "tengen",
		"ConfigurationDirectory": "tengen", "ProtectSystem": "strict", "ProtectHome": "yes",
		"PrivateTmp": "yes", "NoNewPrivileges": "yes", "CapabilityBoundingSet": "",
		"DevicePolicy": "closed", "RestrictAddressFamilies": "AF_UNIX AF_NETLINK",
		"NotifyAccess": "main", "Environment": "DISPLAY=:0",
	}
	for k, v := range want {
		found := false
		for _, got := range d[k] {
			found = found || got == v
		}
		if !found {
			t.Errorf("%s=%s missing (have %q)", k, v, d[k])
		}
	}
	// Mesa finds its shader cache through XDG_CACHE_HOME: it must be the unit's cache directory.
	if !slices.Contains(d["CacheDirectory"], "tengen") || !slices.Contains(d["Environment"], "XDG_CACHE_HOME=/var/cache/tengen") {
		t.Errorf("the shader cache must live in CacheDirectory=tengen with XDG_CACHE_HOME=/var/cache/tengen (have %q, %q)",
			d["CacheDirectory"], d["Environment"])
	}
	if !strings.Contains(strings.Join(d["SystemCallFilter"], " "), "@system-service") {
		t.Error("SystemCallFilter=@system-service missing")
	}
	if len(d["WatchdogSec"]) != 1 || d["WatchdogSec"][0] == "0" {
		t.Error("the kiosk must have a watchdog (WatchdogSec)")
	}
	allowed := strings.Join(d["DeviceAllow"], ",")
	for _, dev := range []string{"char-video4linux", "char-media", "char-dma_heap", "char-gpiochip", "char-drm", "char-input"} {
		if !strings.Contains(allowed, dev) {
			t.Errorf("DeviceAllow=%s missing: the kiosk needs it", dev)
		}
	}
}

// TestUnitsHaveAStartLimit: a unit that keeps failing is restarted a few seconds apart, and only
// so many times: a crash loop reaches StartLimitBurst within StartLimitIntervalSec and stops
// (systemd-analyze verify, in TestUnitsVerify, checks the directives' syntax).
func TestUnitsHaveAStartLimit(t *testing.T) {
	for _, unit := range []string{"tengen-kiosk.service", "tengen-display.service"} {
		t.Run(unit, func(t *testing.T) {
			d := directives(t, unit)
			one := func(key string) string {
				t.Helper()
				if len(d[key]) != 1 {
					t.Fatalf("%s: want one %s=, have %q", unit, key, d[key])
				}
				return d[key][0]
			}
			interval := unitDuration(t, one("StartLimitIntervalSec"))
			restart := unitDuration(t, one("RestartSec"))
			burst, err := strconv.Atoi(one("StartLimitBurst"))
			if err != nil || burst < 3 {
				t.Fatalf("StartLimitBurst=%s: want a number of at least 3", one("StartLimitBurst"))
			}
			if interval <= 0 {
				t.Fatalf("StartLimitIntervalSec=%s: no start limit", one("StartLimitIntervalSec"))
			}
			if restart < 2*time.Second {
				t.Errorf("RestartSec=%v: restarts closer than 2 s", restart)
			}
			// A start that fails at once comes back every RestartSec: the burst must be reached
			// within the interval, or the limit never stops a crash loop.
			if loop := time.Duration(burst) * restart; loop >= interval {
				t.Errorf("%d restarts %v apart take %v, not within StartLimitIntervalSec=%v: the limit never trips", burst, restart, loop, interval)
			}
		})
	}
}

// unitDuration reads a systemd time span of the forms the units use: "5s", "10min", "2h", "0".
func unitDuration(t *testing.T, v string) time.Duration {
	t.Helper()
	v = strings.TrimSpace(v)
	if v == "0" || v == "infinity" {
		return 0
	}
	units := map[string]time.Duration{"s": time.Second, "sec": time.Second, "min": time.Minute, "m": time.Minute, "h": time.Hour}
	i := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if i <= 0 {
		t.Fatalf("time span %q: want a number and a unit", v)
	}
	n, _ := strconv.Atoi(v[:i])
	u, ok := units[v[i:]]
	if !ok {
		t.Fatalf("time span %q: unit %q not understood here", v, v[i:])
	}
	return time.Duration(n) * u
}
