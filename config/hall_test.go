package config

import (
	"strings"
	"testing"
)

// TestHallKeys: the [hall] section read, its defaults, and every mistake named with its key.
func TestHallKeys(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		badKey   string // "" = accepted
		wantUser string
		wantTab  int
	}{
		{"off by default", ``, "", "table-0", 0},
		{"top-level table", "table = 7\n[hall]\nurl = \"mqtt://10.0.0.2:1883\"\npassword_file = \"/etc/tengen/hall.pw\"\n", "", "table-7", 7},
		{"own table and user", "table = 7\n[hall]\nurl = \"mqtts://hall.lan:8883\"\nname = \"egc-2026\"\ntable = 12\nuser = \"t12\"\npassword_file = \"p\"\n", "", "t12", 12},
		{"no table", "[hall]\nurl = \"mqtt://h:1883\"\npassword_file = \"p\"\n", "hall.table", "", 0},
		{"no password file", "table = 3\n[hall]\nurl = \"mqtt://h:1883\"\n", "hall.password_file", "", 0},
		{"http url", "table = 3\n[hall]\nurl = \"http://h:1883\"\npassword_file = \"p\"\n", "hall.url", "", 0},
		{"bad name", "[hall]\nname = \"Big Hall\"\n", "hall.name", "", 0},
		{"table out of range", "[hall]\ntable = 10000\n", "hall.table", "", 0},
		{"TLS with the hall's CA", "table = 3\n[hall]\nurl = \"mqtts://hall.lan:8883\"\npassword_file = \"p\"\nca_file = \"/etc/tengen/hall-ca.crt\"\n", "", "table-3", 3},
		{"CA without TLS", "table = 3\n[hall]\nurl = \"mqtt://hall.lan:1883\"\npassword_file = \"p\"\nca_file = \"/etc/tengen/hall-ca.crt\"\n", "hall.ca_file", "", 0},
		{"misspelt key", "[hall]\nurll = \"x\"\n", "hall.urll", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.src), "kiosk.toml")
			if tc.badKey == "" {
				if err != nil {
					t.Fatal(err)
				}
				if c.HallUser() != tc.wantUser || c.HallTable() != tc.wantTab {
					t.Fatalf("user %q table %d, want %q %d", c.HallUser(), c.HallTable(), tc.wantUser, tc.wantTab)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.badKey+":") {
				t.Fatalf("error %v, want one naming %s", err, tc.badKey)
			}
		})
	}
}
