// Package gpiocdev reads GPIO input lines with a chosen bias (pull-up or pull-down) through the
// Linux GPIO character device (/dev/gpiochip*, uAPI v2). `kiosk doctor` uses it to find stuck and
// shorted buttons, which needs each line's pull switched both ways; the kiosk itself reads its
// buttons through clock/gpio.
//
// The kernel structures are encoded byte by byte (little-endian, as on every Raspberry Pi), so the
// layout does not depend on Go's struct alignment on 32- or 64-bit ARM.
package gpiocdev

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"
)

// Sizes of the uAPI v2 structures (linux/gpio.h) and the ioctl numbers derived from them.
const (
	chipInfoSize    = 68  // struct gpiochip_info
	lineInfoSize    = 256 // struct gpio_v2_line_info
	lineRequestSize = 592 // struct gpio_v2_line_request
	lineConfigSize  = 272 // struct gpio_v2_line_config
	lineValuesSize  = 16  // struct gpio_v2_line_values

	iocGetChipInfo  = 2<<30 | chipInfoSize<<16 | 0xB4<<8 | 0x01 // _IOR(0xB4, 0x01, gpiochip_info)
	iocGetLineInfo  = 3<<30 | lineInfoSize<<16 | 0xB4<<8 | 0x05 // _IOWR(0xB4, 0x05, gpio_v2_line_info)
	iocGetLine      = 3<<30 | lineRequestSize<<16 | 0xB4<<8 | 0x07
	iocSetConfig    = 3<<30 | lineConfigSize<<16 | 0xB4<<8 | 0x0D
	iocGetValues    = 3<<30 | lineValuesSize<<16 | 0xB4<<8 | 0x0E
	flagInput       = 1 << 2
	flagBiasPullUp  = 1 << 8
	flagBiasPullDn  = 1 << 9
	consumerName    = "tengen-doctor"
	offRequestFd    = 588 // offset of fd in gpio_v2_line_request
	offRequestLines = 560 // num_lines
	offRequestCfg   = 288 // config
)

// ErrNoChips means the machine has no GPIO character devices (not a Raspberry Pi, or no access).
var ErrNoChips = errors.New("no GPIO chips (/dev/gpiochip*)")

// ErrNoLine means no chip has a line of that name.
var ErrNoLine = errors.New("no GPIO line of that name")

type line struct {
	chip   string
	offset uint32
	fd     int // request fd, -1 until requested
}

// Lines is a set of GPIO lines found by name ("GPIO17") on the machine's GPIO chips.
type Lines struct {
	chips []string
	lines map[string]*line
}

// Open lists the GPIO chips matching pattern (normally "/dev/gpiochip*").
func Open(pattern string) (*Lines, error) {
	chips, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	if len(chips) == 0 {
		return nil, fmt.Errorf("%w: none match %s", ErrNoChips, pattern)
	}
	return &Lines{chips: chips, lines: map[string]*line{}}, nil
}

func ioctl(fd int, req uintptr, buf []byte) error {
	_, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, uintptr(unsafe.Pointer(&buf[0])))
	if e != 0 {
		return e
	}
	return nil
}

func cstring(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// find locates the line called name (case-insensitive) on any chip.
func (l *Lines) find(name string) (*line, error) {
	if ln, ok := l.lines[strings.ToUpper(name)]; ok {
		return ln, nil
	}
	var errs []error
	for _, chip := range l.chips {
		f, err := os.Open(chip)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fd := int(f.Fd())
		info := make([]byte, chipInfoSize)
		if err := ioctl(fd, iocGetChipInfo, info); err != nil {
			f.Close()
			errs = append(errs, fmt.Errorf("%s: chip info: %w", chip, err))
			continue
		}
		n := binary.LittleEndian.Uint32(info[64:])
		for off := uint32(0); off < n; off++ {
			li := make([]byte, lineInfoSize)
			binary.LittleEndian.PutUint32(li[64:], off)
			if err := ioctl(fd, iocGetLineInfo, li); err != nil {
				continue
			}
			if strings.EqualFold(cstring(li[:32]), name) {
				f.Close()
				ln := &line{chip: chip, offset: off, fd: -1}
				l.lines[strings.ToUpper(name)] = ln
				return ln, nil
			}
		}
		f.Close()
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w %q: %w", ErrNoLine, name, errors.Join(errs...))
	}
	return nil, fmt.Errorf("%w %q on %s", ErrNoLine, name, strings.Join(l.chips, ", "))
}

// putConfig writes a gpio_v2_line_config with only flags set.
func putConfig(b []byte, pullUp bool) {
	flags := uint64(flagInput | flagBiasPullDn)
	if pullUp {
		flags = flagInput | flagBiasPullUp
	}
	binary.LittleEndian.PutUint64(b[0:], flags)
}

// SetPull makes the line an input with a pull-up (up) or pull-down bias, requesting it first.
func (l *Lines) SetPull(name string, up bool) error {
	ln, err := l.find(name)
	if err != nil {
		return err
	}
	if ln.fd >= 0 {
		cfg := make([]byte, lineConfigSize)
		putConfig(cfg, up)
		if err := ioctl(ln.fd, iocSetConfig, cfg); err != nil {
			return fmt.Errorf("%s: set bias: %w", name, err)
		}
		return nil
	}
	f, err := os.Open(ln.chip)
	if err != nil {
		return err
	}
	defer f.Close()
	req := make([]byte, lineRequestSize)
	binary.LittleEndian.PutUint32(req[0:], ln.offset)
	copy(req[256:288], consumerName)
	putConfig(req[offRequestCfg:offRequestCfg+lineConfigSize], up)
	binary.LittleEndian.PutUint32(req[offRequestLines:], 1)
	if err := ioctl(int(f.Fd()), iocGetLine, req); err != nil {
		if errors.Is(err, syscall.EBUSY) {
			return fmt.Errorf("%s is in use (is the kiosk running? sudo systemctl stop tengen-kiosk): %w", name, err)
		}
		return fmt.Errorf("%s: request line: %w", name, err)
	}
	ln.fd = int(int32(binary.LittleEndian.Uint32(req[offRequestFd:])))
	return nil
}

// Read returns the line's level (true = high). SetPull must have been called first.
func (l *Lines) Read(name string) (bool, error) {
	ln, err := l.find(name)
	if err != nil {
		return false, err
	}
	if ln.fd < 0 {
		return false, fmt.Errorf("%s: not requested (call SetPull first)", name)
	}
	v := make([]byte, lineValuesSize)
	binary.LittleEndian.PutUint64(v[8:], 1) // mask: our one line
	if err := ioctl(ln.fd, iocGetValues, v); err != nil {
		return false, fmt.Errorf("%s: read: %w", name, err)
	}
	return binary.LittleEndian.Uint64(v[0:])&1 == 1, nil
}

// Close releases every requested line.
func (l *Lines) Close() error {
	var errs []error
	for _, ln := range l.lines {
		if ln.fd >= 0 {
			errs = append(errs, syscall.Close(ln.fd))
			ln.fd = -1
		}
	}
	return errors.Join(errs...)
}
