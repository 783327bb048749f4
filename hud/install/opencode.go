package install

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
)

// Opencode is opencode. It runs no hook commands, so hud gives it a
// plugin of its own (opencode.js, embedded), written to opencode's global
// plugins directory with the hook's path in it: opencode loads every file
// there at its start, and the plugin runs `hud-hook opencode <event>` for
// the events that carry state.
var Opencode = Agent{
	Name:  "opencode",
	Label: "opencode",
	Files: []AgentFile{{
		What:      "plugin",
		Path:      opencodePlugin,
		Install:   func(opts Options) (Result, error) { return editFile(opts, pluginWriter(opts.HookPath), false) },
		Uninstall: func(opts Options) (Result, error) { return editFile(opts, removePlugin, true) },
		Problem:   pluginProblem,
	}},
	After: "Running opencode sessions report to hud once opencode is restarted.",
}

//go:embed opencode.js
var opencodeJS []byte

// pluginMark opens the plugin: how install and uninstall know the file as
// hud's, and never touch a plugin of the same name that is not.
var pluginMark = []byte("// hud: reports this opencode's sessions to the hud tray")

// pluginHook finds the hook path written into the plugin.
var pluginHook = regexp.MustCompile(`(?m)^const HOOK = ("(?:[^"\\]|\\.)*")$`)

// opencodePlugin is the plugin's path: opencode's global config
// directory ($XDG_CONFIG_HOME/opencode, else ~/.config/opencode), plugins/.
func opencodePlugin(e AgentEnv) string {
	config := e.getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(config) {
		config = filepath.Join(e.Home, ".config")
	}
	return filepath.Join(config, "opencode", "plugins", "hud.js")
}

// renderPlugin is the plugin running hook.
func renderPlugin(hook string) []byte {
	quoted, _ := json.Marshal(hook) // a JSON string is a JavaScript string
	return bytes.Replace(opencodeJS, []byte("__HUD_HOOK__"), quoted, 1)
}

// pluginWriter writes the plugin for hook, over an older one of hud's; a
// file of that name that is not hud's is left alone.
func pluginWriter(hook string) func(string, []byte) ([]byte, bool, error) {
	return func(path string, old []byte) ([]byte, bool, error) {
		if len(old) > 0 && !bytes.HasPrefix(old, pluginMark) {
			return nil, false, &Error{Err: fmt.Errorf("%s is not hud's plugin", path),
				Hint: "move it away (or rename it), then run 'hud install opencode' again"}
		}
		return renderPlugin(hook), false, nil
	}
}

// removePlugin empties hud's plugin, so editFile removes it; another file
// of that name is left alone.
func removePlugin(path string, old []byte) ([]byte, bool, error) {
	if !bytes.HasPrefix(old, pluginMark) {
		return old, false, nil
	}
	return nil, true, nil
}

// pluginProblem says what is wrong with the plugin as installed.
func pluginProblem(_ AgentEnv, path string) string {
	data, _, err := read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errNotInstalled(path)
	case err != nil:
		return err.Error()
	case !bytes.HasPrefix(data, pluginMark):
		return errNotInstalled(path)
	}
	m := pluginHook.FindSubmatch(data)
	var hook string
	if m == nil || json.Unmarshal(m[1], &hook) != nil {
		return fmt.Sprintf("%s names no hud-hook: run 'hud install opencode' again", path)
	}
	if !bytes.Equal(data, renderPlugin(hook)) {
		return fmt.Sprintf("%s is not the plugin this hud writes: run 'hud install opencode' again", path)
	}
	if _, err := CheckExecutable(hook); err != nil {
		return fmt.Sprintf("%s runs %s, which cannot be run (%v): run 'hud install opencode' again", path, hook, err)
	}
	return ""
}
