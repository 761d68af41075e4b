package systemd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tengen/doctor"
	"tengen/internal/testenv"
)

// shellBody returns the script of a directive written as `/bin/sh -ec '...'` or `/bin/sh -c '...'`.
func shellBody(t *testing.T, value string) string {
	t.Helper()
	i := strings.Index(value, "'")
	j := strings.LastIndex(value, "'")
	if !strings.HasPrefix(value, "/bin/sh -") || i < 0 || j <= i {
		t.Fatalf("not a /bin/sh -c '...' command: %s", value)
	}
	return value[i+1 : j]
}

// TestDisplaySession runs tengen-display.service's own commands headless, with Xvfb standing in for
// Xorg (same server options, minus the ones only Xorg has: vt7 -keeptty -novtswitch): the cookie
// step makes a cookie file the kiosk's group can read and nobody else, the server starts with it,
// the start-up wait sees it, a client with the cookie gets in and one without is refused.
func TestDisplaySession(t *testing.T) {
	for _, tool := range []string{"Xvfb", "xauth", "mcookie", "xwd"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s is not installed", tool)
		}
	}
	d := directives(t, "tengen-display.service")
	dir := t.TempDir()
	cookie := filepath.Join(dir, "Xauthority")
	const display = 73
	disp := ":" + strconv.Itoa(display)

	// ExecStartPre, with the cookie in the temporary directory and our own group for tengen's.
	pre := shellBody(t, d["ExecStartPre"][0])
	pre = strings.ReplaceAll(pre, "/run/tengen-display/Xauthority", cookie)
	pre = strings.ReplaceAll(pre, "/tmp/.X0-lock", "/tmp/.X"+strconv.Itoa(display)+"-lock")
	pre = strings.ReplaceAll(pre, "X11-unix/X0", "X11-unix/X"+strconv.Itoa(display))
	pre = strings.ReplaceAll(pre, " add :0 ", " add "+disp+" ")
	pre = strings.ReplaceAll(pre, "chgrp tengen", "chgrp "+strconv.Itoa(os.Getgid()))
	pre = strings.ReplaceAll(pre, "/usr/bin/xauth", "xauth")
	pre = strings.ReplaceAll(pre, "/usr/bin/mcookie", "mcookie")
	if out, err := exec.Command("/bin/sh", "-ec", pre).CombinedOutput(); err != nil {
		t.Fatalf("ExecStartPre: %v\n%s", err, out)
	}
	st, err := os.Stat(cookie)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o640 {
		t.Errorf("cookie file mode %v, want 0640 (group tengen reads it, others not)", st.Mode().Perm())
	}
	list, err := exec.Command("xauth", "-f", cookie, "list").Output()
	if err != nil || !strings.Contains(string(list), "MIT-MAGIC-COOKIE-1") {
		t.Fatalf("no cookie in the file: %v %q", err, list)
	}

	// ExecStart, on Xvfb.
	args := strings.Fields(d["ExecStart"][0])
	if args[0] != "/usr/lib/xorg/Xorg" {
		t.Fatalf("ExecStart runs %s, want Xorg", args[0])
	}
	var xargs []string
	for _, a := range args[1:] {
		switch a {
		case "vt7", "-keeptty", "-novtswitch":
			continue
		case ":0":
			a = disp
		case "/run/tengen-display/Xauthority":
			a = cookie
		}
		xargs = append(xargs, a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	server := exec.CommandContext(ctx, "Xvfb", xargs...)
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { server.Process.Signal(os.Interrupt); server.Wait() }()

	// ExecStartPost: waits until the server's socket is there.
	post := strings.ReplaceAll(shellBody(t, d["ExecStartPost"][0]), "X11-unix/X0", "X11-unix/X"+strconv.Itoa(display))
	if out, err := exec.CommandContext(ctx, "/bin/sh", "-c", post).CombinedOutput(); err != nil {
		t.Fatalf("ExecStartPost did not see the server start: %v\n%s", err, out)
	}
	if err := doctor.DialDisplay(ctx, disp); err != nil {
		t.Errorf("doctor cannot reach the display: %v", err)
	}

	client := func(xauthority string) error {
		cmd := exec.CommandContext(ctx, "xwd", "-root", "-silent", "-display", disp)
		cmd.Env = append(os.Environ(), "XAUTHORITY="+xauthority)
		cmd.Stdout = nil
		return cmd.Run()
	}
	if err := client(cookie); err != nil {
		t.Errorf("a client with the cookie (the kiosk) was refused: %v", err)
	}
	if err := client(filepath.Join(dir, "none")); err == nil {
		t.Error("a client without the cookie got in")
	}
}
