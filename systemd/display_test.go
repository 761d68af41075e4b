package systemd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestDisplaySession runs tengen-display.service's own start command headless, with Xvfb standing in
// for Xorg (same server options, minus the ones only Xorg has: vt7 -keeptty -novtswitch -logfile)
// and stubs for the two steps that need a real console and logind (chvt, and loginctl, which calls
// the session active on its third question): the command makes a cookie the kiosk's group can read
// and nobody else, switches to tty7, waits until the session is active, and only then starts the
// server with the cookie; the kiosk unit's wait sees the server accept it, a client with the cookie
// gets in and one without is refused.
func TestDisplaySession(t *testing.T) {
	for _, tool := range []string{"Xvfb", "xauth", "mcookie", "xwd", "xset"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s is not installed", tool)
		}
	}
	d := directives(t, "tengen-display.service")
	dir := t.TempDir()
	cookie := filepath.Join(dir, "Xauthority")
	const display = 73
	disp := ":" + strconv.Itoa(display)

	start := shellBody(t, d["ExecStart"][0])
	at := strings.Index(start, "exec /usr/lib/xorg/Xorg ")
	if at < 0 {
		t.Fatalf("ExecStart does not exec /usr/lib/xorg/Xorg:\n%s", start)
	}
	script, server := start[:at], strings.Fields(start[at+len("exec "):])

	// The steps before the server, on the temporary cookie and display, with stubs for the console.
	stubs := filepath.Join(dir, "bin")
	if err := os.Mkdir(stubs, 0o755); err != nil {
		t.Fatal(err)
	}
	chvtLog, loginctlLog := filepath.Join(dir, "chvt.log"), filepath.Join(dir, "loginctl.log")
	writeStub(t, filepath.Join(stubs, "chvt"), `echo "$*" >>`+chvtLog)
	writeStub(t, filepath.Join(stubs, "loginctl"), `echo "$*" >>`+loginctlLog+`; [ "$(wc -l <`+loginctlLog+`)" -ge 3 ] && echo yes || echo no`)
	for _, r := range [][2]string{
		{"/run/tengen-display/Xauthority", cookie}, {" add :0 ", " add " + disp + " "},
		{"/usr/bin/xauth", "xauth"}, {"/usr/bin/mcookie", "mcookie"},
		{"/usr/bin/chvt", filepath.Join(stubs, "chvt")}, {"/usr/bin/loginctl", filepath.Join(stubs, "loginctl")},
	} {
		if !strings.Contains(script, r[0]) {
			t.Fatalf("the start command no longer has %q:\n%s", r[0], script)
		}
		script = strings.ReplaceAll(script, r[0], r[1])
	}
	if strings.Contains(script, "chgrp") || strings.Contains(script, "chown") {
		t.Errorf("the cookie's group is the unit's Group= (tengen-display), not changed afterwards:\n%s", script)
	}

	// Without a logind session the command refuses before touching the console.
	cmd := exec.Command("/bin/sh", "-ec", script+"echo started")
	cmd.Env = append(os.Environ(), "XDG_SESSION_ID=")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "no logind session") || strings.Contains(string(out), "started") {
		t.Errorf("the start command went on without a logind session: %v\n%s", err, out)
	}
	if _, err := os.Stat(chvtLog); err == nil {
		t.Error("the start command switched VT without a logind session")
	}
	if err := os.Remove(cookie); err != nil {
		t.Fatal(err)
	}

	// The server: Xorg's options on Xvfb.
	if server[0] != "/usr/lib/xorg/Xorg" {
		t.Fatalf("the start command runs %s, want Xorg", server[0])
	}
	xargs := []string{"Xvfb"}
	for i := 1; i < len(server); i++ {
		a := strings.TrimSuffix(server[i], "'")
		switch a {
		case "vt7", "-keeptty", "-novtswitch":
			continue
		case "-logfile":
			i++
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
	srv := exec.CommandContext(ctx, "/bin/sh", "-ec", script+"exec "+strings.Join(xargs, " "))
	srv.Env = append(os.Environ(), "XDG_SESSION_ID=c7")
	var srvOut strings.Builder
	srv.Stdout, srv.Stderr = &srvOut, &srvOut
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Signal(os.Interrupt); srv.Wait() }()

	// The kiosk unit's ExecStartPre: waits until the server accepts it, with the kiosk's cookie.
	k := directives(t, "tengen-kiosk.service")
	if len(k["ExecStartPre"]) != 1 {
		t.Fatalf("the kiosk unit should wait for the display in one ExecStartPre, has %q", k["ExecStartPre"])
	}
	wait := shellBody(t, k["ExecStartPre"][0])
	if !strings.Contains(wait, "-display :0 ") || !slices.Contains(k["Environment"], "XAUTHORITY=/run/tengen-display/Xauthority") {
		t.Fatalf("the kiosk's wait does not ask display :0 with the display's cookie:\n%s", wait)
	}
	waitCmd := exec.CommandContext(ctx, "/bin/sh", "-c", strings.ReplaceAll(wait, "-display :0 ", "-display "+disp+" "))
	waitCmd.Env = append(os.Environ(), "XAUTHORITY="+cookie)
	if out, err := waitCmd.CombinedOutput(); err != nil {
		t.Fatalf("the kiosk's wait did not see the display: %v\n%s\nserver:\n%s", err, out, srvOut.String())
	}

	if got, _ := os.ReadFile(chvtLog); string(got) != "7\n" {
		t.Errorf("chvt was run with %q, want 7 once", got)
	}
	asked, _ := os.ReadFile(loginctlLog)
	if lines := strings.Split(strings.TrimSpace(string(asked)), "\n"); len(lines) != 3 || lines[0] != "show-session c7 -p Active --value" {
		t.Errorf("logind was asked %q; want the session's Active property until it said yes (the third time)", asked)
	}

	st, err := os.Stat(cookie)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o640 {
		t.Errorf("cookie file mode %v, want 0640 (group tengen-display reads it, others not)", st.Mode().Perm())
	}
	list, err := exec.Command("xauth", "-f", cookie, "list").Output()
	if err != nil || !strings.Contains(string(list), "MIT-MAGIC-COOKIE-1") {
		t.Fatalf("no cookie in the file: %v %q", err, list)
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

func writeStub(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}
