package app

import (
	"slices"

	"github.com/capacitor-hud/hud/hud/config"
)

// settingsFile is the tray's settings file: created with comments on the
// first run, read again when it changes, each problem in it logged once
// (not again on every reload while the file still has it).
type settingsFile struct {
	path   string
	getenv func(string) string
	logf   func(string, ...any)
	told   []string
}

func openSettings(path string, getenv func(string) string, logf func(string, ...any)) *settingsFile {
	if created, err := config.EnsureFile(path); err != nil {
		logf("%v", err)
	} else if created {
		logf("created the settings file %s", path)
	}
	return &settingsFile{path: path, getenv: getenv, logf: logf}
}

// Load reads the file (Options.Config); the defaults stand in for what
// cannot be read.
func (s *settingsFile) Load() config.Config {
	cfg, problems := config.Load(s.path, s.getenv)
	var text []string
	for _, p := range problems {
		text = append(text, p.String())
	}
	if !slices.Equal(text, s.told) {
		for _, t := range text {
			s.logf("settings: %s", t)
		}
		s.told = text
	}
	return cfg
}
