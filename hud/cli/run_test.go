package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The menu's offer to install the hooks is `hud install` without flags:
// with CLAUDE_CONFIG_DIR set it wires that directory and remembers it, a
// second click changes nothing, and what install prints goes to the log,
// never to the tray's stdout.
func TestInstallFromMenu(t *testing.T) {
	tests := []struct {
		name      string
		hook      bool   // a hud-hook on $PATH
		configDir string // CLAUDE_CONFIG_DIR, under home
		wantErr   string
		settings  string // the settings file that must name the hook, under home
		logged    []string
	}{
		{name: "default config dir", hook: true, settings: ".claude/settings.json",
			logged: []string{"install: Installed "}},
		{name: "CLAUDE_CONFIG_DIR is wired and remembered", hook: true, configDir: ".claude-work", settings: ".claude-work/settings.json",
			logged: []string{"install: Installed ", "install: hud follows the sessions of "}},
		{name: "no hook to install", wantErr: "cannot find hud-hook"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, bin := t.TempDir(), t.TempDir()
			if tt.hook {
				if err := os.WriteFile(filepath.Join(bin, "hud-hook"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			vars := map[string]string{"PATH": bin}
			if tt.configDir != "" {
				vars["CLAUDE_CONFIG_DIR"] = filepath.Join(home, tt.configDir)
			}
			var stdout, stderr bytes.Buffer
			env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Home: home,
				Getenv: func(k string) string { return vars[k] }, Now: func() time.Time { return statusNow }}
			var logged []string
			click := installFromMenu(env, func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) })

			err := click()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("first click: %v", err)
			}
			if err := click(); err != nil {
				t.Fatalf("second click: %v", err)
			}
			b, err := os.ReadFile(filepath.Join(home, tt.settings))
			if err != nil || !strings.Contains(string(b), filepath.Join(bin, "hud-hook")) {
				t.Errorf("%s does not run the hook (%v):\n%s", tt.settings, err, b)
			}
			if tt.configDir != "" {
				if b, _ := os.ReadFile(filepath.Join(home, ".capacitor", "config-dirs.json")); !strings.Contains(string(b), tt.configDir) {
					t.Errorf("config-dirs.json does not list %s:\n%s", tt.configDir, b)
				}
			}
			all := strings.Join(logged, "\n")
			for _, want := range append(tt.logged, "install: hud-hook is already installed") {
				if !strings.Contains(all, want) {
					t.Errorf("the log lacks %q:\n%s", want, all)
				}
			}
			if stdout.Len() > 0 || stderr.Len() > 0 {
				t.Errorf("printed to the tray's stdout %q / stderr %q", stdout.String(), stderr.String())
			}
		})
	}
}
