package systemd

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// execKeys are the unit directives that run a command.
var execKeys = []string{"ExecCondition", "ExecStartPre", "ExecStart", "ExecStartPost", "ExecReload", "ExecStop", "ExecStopPost"}

// TestUnitsRunNothingAsRoot: each unit names an unprivileged user, and no command of either runs
// with the + or ! prefix (root, or root's identity with the sandbox) or under DynamicUser.
func TestUnitsRunNothingAsRoot(t *testing.T) {
	for _, unit := range units {
		t.Run(unit, func(t *testing.T) {
			d := directives(t, unit)
			if len(d["User"]) != 1 || d["User"][0] == "" || d["User"][0] == "root" || d["User"][0] == "0" {
				t.Errorf("User=%q: the unit must run as one unprivileged user", d["User"])
			}
			if len(d["Group"]) != 1 || d["Group"][0] == "root" || d["Group"][0] == "0" {
				t.Errorf("Group=%q: the unit must run with one unprivileged group", d["Group"])
			}
			if len(d["DynamicUser"]) > 0 {
				t.Errorf("DynamicUser=%q: the units use their fixed users (install-pi makes them)", d["DynamicUser"])
			}
			for _, key := range execKeys {
				for _, cmd := range d[key] {
					if prefix := cmd[:len(cmd)-len(strings.TrimLeft(cmd, "-@:+!|"))]; strings.ContainsAny(prefix, "+!") {
						t.Errorf("%s=%s runs with privileges (prefix %q)", key, cmd, prefix)
					}
				}
			}
			if d["NoNewPrivileges"] == nil || d["NoNewPrivileges"][0] != "yes" {
				t.Error("NoNewPrivileges=yes missing")
			}
			if len(d["CapabilityBoundingSet"]) != 1 || d["CapabilityBoundingSet"][0] != "" {
				t.Errorf("CapabilityBoundingSet=%q: want it empty", d["CapabilityBoundingSet"])
			}
		})
	}
}

// TestDisplayIsALogindSession pins down what the unprivileged X server needs from its unit: a PAM
// session (pam_systemd, so logind knows the session and hands Xorg the devices) on tty7 as the
// controlling terminal, Xorg itself with -keeptty (its logind support is off without it) on vt7,
// and a single command: every Exec line of a unit with PAMName= opens a session of its own, and a
// second session on tty7 would take the seat's active session, with the devices, from Xorg.
func TestDisplayIsALogindSession(t *testing.T) {
	d := directives(t, "tengen-display.service")
	want := map[string]string{
		"User": "tengen-display", "Group": "tengen-display", "PAMName": "tengen-display",
		"TTYPath": "/dev/tty7", "StandardInput": "tty-fail", "StandardOutput": "journal", "StandardError": "journal",
		"UtmpIdentifier": "tty7", "TTYVTDisallocate": "yes", "RuntimeDirectory": "tengen-display",
		"RuntimeDirectoryMode": "0750", "LogsDirectory": "tengen-display", "ProtectSystem": "strict",
		"ProtectHome": "yes", "PrivateTmp": "yes", "BindPaths": "/tmp/.X11-unix",
		"RestrictAddressFamilies": "AF_UNIX AF_NETLINK", "SystemCallFilter": "@system-service",
	}
	for k, v := range want {
		if !slices.Contains(d[k], v) {
			t.Errorf("%s=%s missing (have %q)", k, v, d[k])
		}
	}
	if !slices.Contains(d["Environment"], "XDG_SESSION_TYPE=x11 XDG_SESSION_CLASS=user") {
		t.Errorf("the session must be announced to pam_systemd as an X11 user session (have Environment=%q)", d["Environment"])
	}
	for _, key := range execKeys {
		if n := len(d[key]); key == "ExecStart" && n != 1 || key != "ExecStart" && n != 0 {
			t.Errorf("%s appears %d times: the unit runs one command, ExecStart (each Exec line would be a logind session of its own)", key, n)
		}
	}
	if len(d["ExecStart"]) != 1 {
		t.FailNow()
	}
	start := d["ExecStart"][0]
	xorg := regexp.MustCompile(`exec /usr/lib/xorg/Xorg :0 vt7 -keeptty .*'$`).FindString(start)
	if xorg == "" {
		t.Fatalf("ExecStart does not end by running /usr/lib/xorg/Xorg :0 vt7 -keeptty in place of the shell:\n%s", start)
	}
	for _, opt := range []string{"-nolisten tcp", "-auth /run/tengen-display/Xauthority", "-logfile /var/log/tengen-display/", "-nocursor", "-s 0 -dpms"} {
		if !strings.Contains(xorg, opt) {
			t.Errorf("Xorg is started without %s: %s", opt, xorg)
		}
	}
	// The server starts only once tty7 is in the foreground and logind calls the session active.
	chvt := strings.Index(start, "/usr/bin/chvt 7")
	active := strings.Index(start, `/usr/bin/loginctl show-session "$XDG_SESSION_ID" -p Active --value`)
	if chvt < 0 || active < 0 || !(chvt < active && active < strings.Index(start, xorg)) {
		t.Errorf("ExecStart must switch to tty7, then wait for logind to make the session active, then start Xorg:\n%s", start)
	}
	// None of the cgroup filters: pam_systemd moves the process into the session's scope, out of
	// their reach, so they would only decorate the rating.
	for _, key := range []string{"DevicePolicy", "DeviceAllow", "IPAddressDeny", "IPAddressAllow"} {
		if len(d[key]) > 0 {
			t.Errorf("%s=%q does not bind a process that pam_systemd moved into its session scope", key, d[key])
		}
	}
}

// TestDisplayPAMService: the PAM service the display unit names is the shipped one, and it opens a
// logind session (pam_systemd, required) without running anything else as root on every start.
func TestDisplayPAMService(t *testing.T) {
	b, err := os.ReadFile("tengen-display.pam")
	if err != nil {
		t.Fatal(err)
	}
	type rule struct{ typ, control, module string }
	var rules []rule
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if strings.HasPrefix(f[0], "@") {
			t.Errorf("%q: no includes (Debian's common-* files change with the packages installed)", l)
			continue
		}
		if len(f) < 3 {
			t.Fatalf("not a PAM rule: %q", l)
		}
		rules = append(rules, rule{f[0], f[1], f[2]})
	}
	has := func(r rule) bool { return slices.Contains(rules, r) }
	for _, r := range []rule{{"account", "required", "pam_unix.so"}, {"session", "required", "pam_unix.so"}, {"session", "required", "pam_systemd.so"}} {
		if !has(r) {
			t.Errorf("%s %s %s missing", r.typ, r.control, r.module)
		}
	}
	for _, r := range rules {
		switch r.module {
		case "pam_unix.so", "pam_systemd.so", "pam_loginuid.so":
		default:
			// pam_permit would let anyone who asks for this service in; pam_motd, pam_mail and
			// the like would run as root at every start of the display.
			t.Errorf("%s %s %s: the display's session runs nothing but pam_unix, pam_loginuid and pam_systemd", r.typ, r.control, r.module)
		}
	}
}
