// Package systemd holds the Raspberry Pi table's systemd units (tengen-kiosk.service, the hardened
// kiosk; tengen-display.service, the bare X server it draws on). It has no Go code of its own: its
// tests run systemd-analyze on the units so a unit that systemd would reject, or a loosened sandbox,
// fails `go test`.
package systemd

// MaxExposure is the highest `systemd-analyze security` exposure level tengen-kiosk.service may have
// (0 = fully sandboxed, 10 = unprotected). The unit measured 1.2 with systemd 252.
const MaxExposure = 3.0
