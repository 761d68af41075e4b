package main

import (
	"fmt"
	"os"

	"tengen/config"
)

// kioskUnit is the kiosk's systemd unit as scripts/install-pi installs it: a machine that has it
// is an installed table, even in a shell where systemd's variables are not set.
const kioskUnit = "/etc/systemd/system/tengen-kiosk.service"

// shippedConfig is where scripts/install-pi puts the shipped configuration with its defaults.
const shippedConfig = "/usr/local/share/doc/tengen/kiosk.toml"

// configFile is where the kiosk's configuration comes from. kiosk run and kiosk doctor both find
// it here, and say the same about a missing file (missing).
type configFile struct {
	path      string
	explicit  bool // named by --config (run) or -config (doctor)
	installed bool // an installed table: under systemd (ConfigurationDirectory=), or its kiosk unit is installed
}

// locateConfig finds the configuration file: flagPath when given, else config.Locate. getenv is
// os.Getenv and exists reports whether a file exists (outside tests).
func locateConfig(flagPath string, getenv func(string) string, exists func(string) bool) configFile {
	f := configFile{path: flagPath, explicit: flagPath != ""}
	if !f.explicit {
		f.path = config.Locate(getenv)
	}
	f.installed = getenv("CONFIGURATION_DIRECTORY") != "" || exists(kioskUnit)
	return f
}

// fileExists reports whether path names an existing file.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// load reads the configuration. A file the command line names must be there (its absence is an
// error, as any other reading error); otherwise a missing file gives the defaults and found is
// false.
func (f configFile) load() (cfg config.Config, found bool, err error) {
	if f.explicit {
		cfg, err = config.Load(f.path)
		return cfg, err == nil, err
	}
	return config.LoadIfExists(f.path)
}

// missing says what the kiosk does without its configuration file: kiosk run logs it and kiosk
// doctor puts it in its checklist (a warning), in the same words.
func (f configFile) missing() string {
	if f.installed {
		return fmt.Sprintf("no configuration file at %s: this installed table starts with the default settings at the set-up screen, not the demo", f.path)
	}
	return fmt.Sprintf("no configuration file at %s: kiosk run plays the built-in demo game (with --camera, it uses the default settings)", f.path)
}

// missingFix is what to do about a missing configuration file.
func (f configFile) missingFix() string {
	return fmt.Sprintf("copy %s to %s and set it up (then run kiosk doctor again)", shippedConfig, f.path)
}
