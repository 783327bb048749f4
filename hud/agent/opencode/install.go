package opencode

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"

	"github.com/capacitor-hud/hud/hud/install"
)

// Setup is how `hud install opencode` wires hud-hook into opencode. It
// runs no hook commands, so hud gives it a plugin of its own (opencode.js,
// embedded), written to opencode's global plugins directory with the
// hook's path in it: opencode loads every file there at its start, and
// the plugin runs `hud-hook opencode <event>` for the events that carry
// state.
//
// Built on the call, nothing at package level but the embedded plugin
// (data, no code): hud-hook links this package and never calls Setup, so
// the linker leaves it all out of the hook.
func (OpenCode) Setup() *install.Setup {
	return &install.Setup{
		Product: "opencode",
		Files: []install.File{{
			What: "plugin",
			Path: pluginFile,
			Install: func(opts install.Options) (install.Result, error) {
				return install.EditFile(opts, pluginWriter(opts.HookPath), false)
			},
			Uninstall: func(opts install.Options) (install.Result, error) {
				return install.EditFile(opts, removePlugin, true)
			},
			Problem: pluginProblem,
		}},
		After: "Running opencode sessions report to hud once opencode is restarted.",
	}
}

//go:embed opencode.js
var pluginJS []byte

// pluginMark opens the plugin: how install and uninstall know the file as
// hud's, and never touch a plugin of the same name that is not.
const pluginMark = "// hud: reports this opencode's sessions to the hud tray"

// pluginFile is the plugin's path: opencode's global config directory
// ($XDG_CONFIG_HOME/opencode, else ~/.config/opencode), plugins/.
func pluginFile(e install.Env) string {
	return filepath.Join(e.Dir("XDG_CONFIG_HOME", ".config"), "opencode", "plugins", "hud.js")
}

// renderPlugin is the plugin running hook.
func renderPlugin(hook string) []byte {
	quoted, _ := json.Marshal(hook) // a JSON string is a JavaScript string
	return bytes.Replace(pluginJS, []byte("__HUD_HOOK__"), quoted, 1)
}

// pluginWriter writes the plugin for hook, over an older one of hud's; a
// file of that name that is not hud's is left alone.
func pluginWriter(hook string) func(string, []byte) ([]byte, bool, error) {
	return func(path string, old []byte) ([]byte, bool, error) {
		if len(old) > 0 && !bytes.HasPrefix(old, []byte(pluginMark)) {
			return nil, false, &install.Error{Err: fmt.Errorf("%s is not hud's plugin", path),
				Hint: "move it away (or rename it), then run 'hud install opencode' again"}
		}
		return renderPlugin(hook), false, nil
	}
}

// removePlugin empties hud's plugin, so EditFile removes it; another file
// of that name is left alone.
func removePlugin(_ string, old []byte) ([]byte, bool, error) {
	if !bytes.HasPrefix(old, []byte(pluginMark)) {
		return old, false, nil
	}
	return nil, true, nil
}

// pluginProblem says what is wrong with the plugin as installed.
func pluginProblem(_ install.Env, path string) string {
	data, err := install.Read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return install.NotInstalledIn(path)
	case err != nil:
		return err.Error()
	case !bytes.HasPrefix(data, []byte(pluginMark)):
		return install.NotInstalledIn(path)
	}
	// The hook path as the plugin names it, a JSON string.
	m := regexp.MustCompile(`(?m)^const HOOK = ("(?:[^"\\]|\\.)*")$`).FindSubmatch(data)
	var hook string
	if m == nil || json.Unmarshal(m[1], &hook) != nil {
		return fmt.Sprintf("%s names no hud-hook: run 'hud install opencode' again", path)
	}
	if !bytes.Equal(data, renderPlugin(hook)) {
		return fmt.Sprintf("%s is not the plugin this hud writes: run 'hud install opencode' again", path)
	}
	if _, err := install.CheckExecutable(hook); err != nil {
		return fmt.Sprintf("%s runs %s, which cannot be run (%v): run 'hud install opencode' again", path, hook, err)
	}
	return ""
}
