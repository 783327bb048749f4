package codex

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"

	"github.com/capacitor-hud/hud/hud/hookevents"
	"github.com/capacitor-hud/hud/hud/install"
)

// Setup is how `hud install codex` wires hud-hook into Codex. Its hooks
// file, hooks.json in its home (~/.codex, or $CODEX_HOME), takes Claude
// Code's shape; hud's handler runs `hud-hook codex` on each event that
// carries state. Codex runs a hook only once the person has trusted it (a
// hash of its definition, kept in config.toml): that is the person's
// review, which hud does not make for them.
//
// config.toml gets features.daemon_auto_start = false: by default the
// first Codex starts a shared background server that runs every Codex's
// hooks, so a hook cannot tell which terminal's Codex it speaks for, and
// /exit fires no SessionEnd. With the feature off each Codex runs its own
// hooks, as it did before the server existed.
//
// Everything is built here, on the call, and nothing at package level:
// hud-hook links this package and never calls Setup, so the linker
// leaves all of it out of the hook.
func (Codex) Setup() *install.Setup {
	return &install.Setup{
		Product: "Codex",
		Files: []install.File{
			// Codex matches every tool when a group has no matcher, and
			// its default timeout is far above the hook's few
			// milliseconds: the handler names neither.
			install.ClaudeHooks{Agent: Name, What: "hooks", Path: hooksFile, Events: hookEvents()}.File(),
			{
				What: "config",
				Path: configFile,
				Install: func(opts install.Options) (install.Result, error) {
					return install.EditFile(opts, setDaemonOff, false)
				},
				Uninstall: func(opts install.Options) (install.Result, error) {
					return install.EditFile(opts, unsetDaemonOff, true)
				},
				Problem: daemonProblem,
			},
		},
		After:     "Codex asks you to review new hooks at its next start: choose to trust them (or review them in /hooks), or it runs none.",
		Untrusted: untrusted,
	}
}

// hookEvents are the Codex hook events that carry state, in the order Codex
// lists them. PreModelRequest (before every model call) is left out: it
// says nothing the others do not.
func hookEvents() []hookevents.Spec {
	return []hookevents.Spec{
		{Name: "SessionStart"}, {Name: "UserPromptSubmit"},
		{Name: "PreToolUse"}, {Name: "PermissionRequest"}, {Name: "PostToolUse"},
		{Name: "PreCompact"}, {Name: "PostCompact"},
		{Name: "SubagentStart"}, {Name: "SubagentStop"},
		{Name: "Stop"}, {Name: "Interrupt"}, {Name: "SessionEnd"},
	}
}

// home is Codex's home directory: $CODEX_HOME, else ~/.codex.
func home(e install.Env) string { return e.Dir("CODEX_HOME", ".codex") }

func hooksFile(e install.Env) string  { return filepath.Join(home(e), "hooks.json") }
func configFile(e install.Env) string { return filepath.Join(home(e), "config.toml") }

// hudMark ends every line install adds to a TOML file, so uninstall takes
// out exactly those.
const hudMark = "# added by hud install codex"

// daemonSetting finds how config.toml sets daemon_auto_start: the value
// as written ("" when it does not), and the line of the [features]
// header (-1 for none). The setting counts in the [features] table or as
// a dotted key at the top level. The patterns are compiled on each call
// (a few per command) rather than at package level, which the hook would
// pay for at every start.
func daemonSetting(lines [][]byte) (value string, header int, err error) {
	var (
		tomlHeader      = regexp.MustCompile(`^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$`)
		daemonKey       = regexp.MustCompile(`^\s*daemon_auto_start\s*=\s*(\S+)`)
		daemonDottedKey = regexp.MustCompile(`^\s*features\s*\.\s*daemon_auto_start\s*=\s*(\S+)`)
		featuresInline  = regexp.MustCompile(`^\s*features\s*=`)
	)
	table, header := "", -1
	for i, l := range lines {
		l = bytes.TrimRight(l, "\r\n")
		if m := tomlHeader.FindSubmatch(l); m != nil && !bytes.HasPrefix(bytes.TrimSpace(l), []byte("[[")) {
			table = string(m[1])
			if table == "features" {
				header = i
			}
			continue
		}
		switch {
		case table == "features":
			if m := daemonKey.FindSubmatch(l); m != nil {
				return string(m[1]), header, nil
			}
		case table == "":
			if m := daemonDottedKey.FindSubmatch(l); m != nil {
				return string(m[1]), header, nil
			}
			if featuresInline.Match(l) {
				return "", header, errors.New("features is an inline table; add daemon_auto_start = false to it by hand")
			}
		}
	}
	return "", header, nil
}

// setDaemonOff adds daemon_auto_start = false to config.toml, unless it
// says false already. A person's own true is kept (an error says why hud
// needs it off): install never overrides a choice the person wrote.
func setDaemonOff(path string, old []byte) ([]byte, bool, error) {
	lines := bytes.SplitAfter(old, []byte("\n"))
	value, header, err := daemonSetting(lines)
	switch {
	case err != nil:
		return nil, false, &install.Error{Err: fmt.Errorf("%s: %w", path, err)}
	case value == "false":
		return old, false, nil
	case value != "":
		return nil, false, &install.Error{Err: fmt.Errorf("%s sets daemon_auto_start = %s", path, value),
			Hint: "with Codex's shared background server hud cannot tell which terminal a hook speaks for; set it to false, then run 'hud install codex' again"}
	}
	setting := []byte("daemon_auto_start = false " + hudMark + "\n")
	if header >= 0 {
		out := append([]byte{}, bytes.Join(lines[:header+1], nil)...)
		out = append(out, setting...)
		return append(out, bytes.Join(lines[header+1:], nil)...), false, nil
	}
	out := append([]byte{}, old...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	if len(out) > 0 {
		out = append(out, '\n')
	}
	out = append(out, "[features] "+hudMark+"\n"...)
	return append(out, setting...), false, nil
}

// unsetDaemonOff takes out the lines setDaemonOff added (and the blank
// line it put before a [features] table of its own); the file is empty
// when nothing else was in it.
func unsetDaemonOff(_ string, old []byte) ([]byte, bool, error) {
	lines := bytes.SplitAfter(old, []byte("\n"))
	var kept [][]byte
	for _, l := range lines {
		if bytes.HasSuffix(bytes.TrimRight(l, "\r\n"), []byte(hudMark)) {
			if bytes.HasPrefix(bytes.TrimSpace(l), []byte("[")) && len(kept) > 0 && len(bytes.TrimSpace(kept[len(kept)-1])) == 0 {
				kept = kept[:len(kept)-1]
			}
			continue
		}
		kept = append(kept, l)
	}
	out := bytes.Join(kept, nil)
	if bytes.Equal(out, old) {
		return old, false, nil
	}
	return out, len(bytes.TrimSpace(out)) == 0, nil
}

// daemonProblem says what is wrong with config.toml's daemon setting.
func daemonProblem(_ install.Env, path string) string {
	data, err := install.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		data = nil
	} else if err != nil {
		return err.Error()
	}
	value, _, err := daemonSetting(bytes.SplitAfter(data, []byte("\n")))
	switch {
	case err != nil:
		return fmt.Sprintf("%s: %v", path, err)
	case value != "false":
		return fmt.Sprintf("%s does not set features.daemon_auto_start = false: Codex's shared background server runs the hooks, and hud cannot tell which terminal a session is in nor when it ends", path)
	}
	return ""
}

// untrusted names hud's hooks that Codex has no trust entry for in
// config.toml, in the order of hookEvents. Codex keeps one per handler, under
// [hooks.state."<hooks.json>:<event in snake case>:<group>:<handler>"],
// with the hash of the definition it was shown; hud cannot recompute the
// hash, so a hook changed since it was trusted (Codex asks again at its
// start) still counts as trusted here.
func untrusted(e install.Env) ([]string, error) {
	hooksPath := hooksFile(e)
	ours, err := install.OurHandlers(hooksPath)
	if err != nil {
		return nil, err
	}
	config, err := install.Read(configFile(e))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var out []string
	for _, ev := range hookEvents() {
		for _, h := range ours {
			key := fmt.Sprintf("[hooks.state.%q]", fmt.Sprintf("%s:%s:%d:%d", hooksPath, snakeCase(h.Event), h.Group, h.Index))
			if h.Event == ev.Name && !bytes.Contains(config, []byte(key)) {
				out = append(out, ev.Name)
			}
		}
	}
	return out, nil
}

// snakeCase spells an event as Codex's trust keys do: PreToolUse is
// pre_tool_use.
func snakeCase(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			if i > 0 {
				b = append(b, '_')
			}
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}
