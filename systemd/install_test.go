package systemd

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"

	"tengen/internal/testenv"
)

const installPi = "../scripts/install-pi"

// fakeRoot makes the smallest file system install-pi works on: the account files of a fresh
// Raspberry Pi OS (which already has the video group), and stub kiosk and kiosk-camera binaries.
func fakeRoot(t *testing.T) (root, binary string) {
	t.Helper()
	dir := t.TempDir()
	root = filepath.Join(dir, "root")
	files := map[string]string{
		"etc/passwd":  "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n",
		"etc/group":   "root:x:0:\nvideo:x:44:pi\npi:x:1000:\n",
		"etc/shadow":  "root:*:19000:0:99999:7:::\npi:*:19000:0:99999:7:::\n",
		"etc/gshadow": "root:*::\nvideo:!::pi\npi:!::\n",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	binary = filepath.Join(dir, "kiosk")
	if err := os.WriteFile(binary, []byte("#!/bin/sh\necho kiosk v1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kiosk-camera"), []byte("#!/bin/sh\necho camera v1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root, binary
}

// snapshot describes every file under root: path, type and mode, owner, size, content hash, link.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		st := info.Sys().(*syscall.Stat_t)
		line := fmt.Sprintf("%s %v %d:%d", rel, info.Mode(), st.Uid, st.Gid)
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %d %x", len(b), sha256.Sum256(b))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func install(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(installPi, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("install-pi %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestInstallPiNeedsTheCameraHelper: a kiosk without its camera helper beside it could never read
// the camera, so install-pi refuses it with the reason instead of installing half a table.
func TestInstallPiNeedsTheCameraHelper(t *testing.T) {
	root, bin := fakeRoot(t)
	if err := os.Remove(filepath.Join(filepath.Dir(bin), "kiosk-camera")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(installPi, "--root", root, "--binary", bin, "--dry-run")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("install-pi accepted a kiosk without kiosk-camera:\n%s", out)
	}
	if !strings.Contains(string(out), "no camera helper") {
		t.Errorf("the refusal does not say why:\n%s", out)
	}
}

func TestInstallPiDryRunChangesNothing(t *testing.T) {
	root, bin := fakeRoot(t)
	before := snapshot(t, root)
	out := install(t, "--root", root, "--binary", bin, "--dry-run")
	if after := snapshot(t, root); after != before {
		t.Errorf("--dry-run changed the root:\nbefore\n%s\nafter\n%s", before, after)
	}
	for _, want := range []string{"would    create user tengen (", "would    create user tengen-display (",
		"would    install /etc/pam.d/tengen-display", "would    install /usr/local/bin/kiosk",
		"would    install /usr/local/bin/kiosk-camera",
		"would    install the default /etc/tengen/kiosk.toml", "would    enable tengen-kiosk.service", "would be made (dry run)"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run does not say %q:\n%s", want, out)
		}
	}
}

// TestInstallPiIdempotent installs into a fake root twice: the second run changes nothing and says
// so; an edited configuration survives; a new binary is the only change a third run makes.
func TestInstallPiIdempotent(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Missing(t, "creating users under --root needs root (CI runs as root)")
	}
	for _, tool := range []string{"useradd", "groupadd", "usermod", "systemctl"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s is not installed", tool)
		}
	}
	root, bin := fakeRoot(t)
	out := install(t, "--root", root, "--binary", bin)
	if !strings.Contains(out, "change(s) made") || strings.Contains(out, " 0 change(s)") {
		t.Fatalf("first run made no changes:\n%s", out)
	}
	first := snapshot(t, root)

	// What a table needs is there.
	passwd, _ := os.ReadFile(filepath.Join(root, "etc/passwd"))
	if !strings.Contains(string(passwd), "tengen:x:") || !strings.Contains(string(passwd), ":/var/lib/tengen:/usr/sbin/nologin") {
		t.Errorf("no tengen user with home /var/lib/tengen and no login:\n%s", passwd)
	}
	group, _ := os.ReadFile(filepath.Join(root, "etc/group"))
	for _, g := range []string{"video", "gpio", "input", "render"} {
		found := false
		for _, l := range strings.Split(string(group), "\n") {
			if strings.HasPrefix(l, g+":") && strings.Contains(l, "tengen") {
				found = true
			}
		}
		if !found {
			t.Errorf("tengen is not in group %s:\n%s", g, group)
		}
	}
	if !strings.Contains(string(group), "video:x:44:pi,tengen,tengen-display") {
		t.Errorf("the existing video group lost a member or its id:\n%s", group)
	}
	// The X server's user: no login, its own group, the GPU's groups, and not group tengen (the
	// kiosk's journal, games and configuration); the kiosk reads its cookie through tengen-display.
	if !regexp.MustCompile(`(?m)^tengen-display:x:[0-9]+:[0-9]+:[^:]*:/nonexistent:/usr/sbin/nologin$`).Match(passwd) {
		t.Errorf("no tengen-display user without a home or a login:\n%s", passwd)
	}
	members := func(g string) []string {
		for _, l := range strings.Split(string(group), "\n") {
			if f := strings.Split(l, ":"); len(f) == 4 && f[0] == g {
				return strings.Split(f[3], ",")
			}
		}
		t.Errorf("no group %s:\n%s", g, group)
		return nil
	}
	for g, want := range map[string]bool{"video": true, "render": true, "tengen": false, "input": false, "gpio": false} {
		if got := slices.Contains(members(g), "tengen-display"); got != want {
			t.Errorf("tengen-display in group %s: %v, want %v", g, got, want)
		}
	}
	if !slices.Contains(members("tengen-display"), "tengen") {
		t.Errorf("the kiosk's user tengen cannot read the display's cookie: not in group tengen-display:\n%s", group)
	}
	pam, err := os.ReadFile(filepath.Join(root, "etc/pam.d/tengen-display"))
	if want, _ := os.ReadFile("tengen-display.pam"); err != nil || string(pam) != string(want) {
		t.Errorf("the display's PAM service is not installed as shipped: %v", err)
	}
	for _, f := range []string{"usr/local/bin/kiosk", "usr/local/bin/kiosk-camera", "etc/systemd/system/tengen-kiosk.service",
		"etc/systemd/system/tengen-display.service", "etc/tengen/kiosk.toml"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("not installed: %v", err)
		}
	}
	for _, u := range []string{"tengen-kiosk.service", "tengen-display.service"} {
		if _, err := os.Lstat(filepath.Join(root, "etc/systemd/system/multi-user.target.wants", u)); err != nil {
			t.Errorf("%s not enabled: %v", u, err)
		}
	}

	out = install(t, "--root", root, "--binary", bin)
	if !strings.Contains(out, "install-pi: 0 change(s) made") {
		t.Errorf("second run changed something:\n%s", out)
	}
	if second := snapshot(t, root); second != first {
		t.Errorf("second run changed the root:\nfirst\n%s\nsecond\n%s", first, second)
	}

	conf := filepath.Join(root, "etc/tengen/kiosk.toml")
	edited := []byte("table = 7\n")
	if err := os.WriteFile(conf, edited, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho kiosk v2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out = install(t, "--root", root, "--binary", bin)
	if !strings.Contains(out, "install-pi: 1 change(s) made") || !strings.Contains(out, "change   install /usr/local/bin/kiosk") {
		t.Errorf("a new binary should be the only change:\n%s", out)
	}
	if got, _ := os.ReadFile(conf); string(got) != string(edited) {
		t.Errorf("the table's configuration was overwritten: %q", got)
	}

	// A table in a hall: the drop-in lets the kiosk reach its broker's address, and only that.
	dropIn := filepath.Join(root, "etc/systemd/system/tengen-kiosk.service.d/hall.conf")
	if _, err := os.Stat(dropIn); err == nil {
		t.Fatalf("a hall drop-in was installed without --hall-broker")
	}
	out = install(t, "--root", root, "--binary", bin, "--hall-broker", "192.168.1.10")
	if !strings.Contains(out, "install-pi: 1 change(s) made") {
		t.Errorf("--hall-broker should add the drop-in alone:\n%s", out)
	}
	got, err := os.ReadFile(dropIn)
	if err != nil || !strings.Contains(string(got), "\nIPAddressAllow=192.168.1.10\n") || strings.Contains(string(got), "@BROKER@") {
		t.Errorf("the hall drop-in: %v\n%s", err, got)
	}
	if out := install(t, "--root", root, "--binary", bin, "--hall-broker", "192.168.1.10"); !strings.Contains(out, "install-pi: 0 change(s) made") {
		t.Errorf("the same broker again changed something:\n%s", out)
	}
	if out, err := exec.Command(installPi, "--root", root, "--binary", bin, "--hall-broker", "broker.local").CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "give the broker's IP address") {
		t.Errorf("a broker's name (systemd allows only addresses) was taken: %v\n%s", err, out)
	}
}
