package gpiocdev

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The ioctl numbers must equal the kernel's (linux/gpio.h, checked against the C macros).
func TestIoctlNumbers(t *testing.T) {
	for _, tt := range []struct {
		name      string
		got, want uint32
	}{
		{"GPIO_GET_CHIPINFO_IOCTL", iocGetChipInfo, 0x8044b401},
		{"GPIO_V2_GET_LINEINFO_IOCTL", iocGetLineInfo, 0xc100b405},
		{"GPIO_V2_GET_LINE_IOCTL", iocGetLine, 0xc250b407},
		{"GPIO_V2_LINE_SET_CONFIG_IOCTL", iocSetConfig, 0xc110b40d},
		{"GPIO_V2_LINE_GET_VALUES_IOCTL", iocGetValues, 0xc010b40e},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %#x, want %#x", tt.name, tt.got, tt.want)
		}
	}
}

func TestNoChips(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "gpiochip*"))
	if !errors.Is(err, ErrNoChips) {
		t.Errorf("Open on a machine without chips = %v, want ErrNoChips", err)
	}
}

// A file that is not a GPIO chip: the line is not found, with a clear error, and nothing panics.
func TestNotAChip(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gpiochip0"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Open(filepath.Join(dir, "gpiochip*"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.SetPull("GPIO17", true); !errors.Is(err, ErrNoLine) {
		t.Errorf("SetPull = %v, want ErrNoLine", err)
	}
	if _, err := l.Read("GPIO17"); !errors.Is(err, ErrNoLine) {
		t.Errorf("Read = %v, want ErrNoLine", err)
	}
}

// On a machine with GPIO chips (a Pi), look a real line up; skipped elsewhere.
func TestRealChip(t *testing.T) {
	l, err := Open("/dev/gpiochip*")
	if errors.Is(err, ErrNoChips) {
		t.Skip("no GPIO hardware here (/dev/gpiochip*): this check of a real line runs on a Pi; the fake-chip tests cover the rest")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.find("GPIO17"); err != nil && !errors.Is(err, ErrNoLine) {
		t.Errorf("find GPIO17: %v", err)
	}
}
