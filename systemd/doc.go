// Package systemd holds the Raspberry Pi table's systemd units (tengen-kiosk.service, the hardened
// kiosk; tengen-display.service, the bare X server it draws on, unprivileged in a logind session)
// and the display's PAM service (tengen-display.pam). It has no Go code of its own: its tests run
// systemd-analyze on the units so a unit that systemd would reject, or a loosened sandbox, fails
// `go test`, and run the display's start command on Xvfb.
package systemd

// MaxExposure is the highest `systemd-analyze security` exposure level each unit may have (0 = fully
// sandboxed, 10 = unprotected). With systemd 252 tengen-kiosk.service measured 1.2 (1.6 with the
// hall drop-in) and tengen-display.service 1.6 (6.9 when Xorg ran as root).
const MaxExposure = 3.0
