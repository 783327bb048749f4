package doctor

import (
	"errors"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/hud/text"
)

// checkAnswering reports whether Claude's dialogs can be answered from the
// tray: off is a choice; on, the tray must serve the socket, and the
// hook's PermissionRequest handler must have time to wait.
func checkAnswering(env *Env) []Finding {
	cfg, _ := config.Load(env.ConfigPath, env.Getenv)
	if !cfg.Answer.Enabled {
		return []Finding{ok("off: Claude's dialogs are answered in the terminal ('hud answer on' to answer from the tray)")}
	}
	var out []Finding
	for _, path := range append([]string{env.UserSettings}, env.ConfigDirSettings...) {
		st, err := install.Inspect(path)
		if err == nil && st.DialogTimeout > 0 && time.Duration(st.DialogTimeout)*time.Second <= cfg.Answer.Wait {
			out = append(out, warn("run 'hud install' again",
				"%s gives hud-hook %ds on a permission dialog, less than the %s wait: Claude ends the hook before an answer",
				path, st.DialogTimeout, text.Duration(cfg.Answer.Wait)))
		}
	}
	pending, err := answer.List(env.Layout.Home)
	switch {
	case errors.Is(err, answer.ErrNoTray):
		return append(out, warn("start the tray with 'hud'", "on, but no tray serves %s: dialogs are answered in the terminal only",
			answer.SocketPath(env.Layout.Home)))
	case err != nil:
		// A tray holds the socket: saying "no tray" would send the
		// person to start a second one.
		return append(out, warn("see the tray's log; restarting the tray resets it", "on, and a tray serves %s, but it did not list its dialogs: %v",
			answer.SocketPath(env.Layout.Home), err))
	}
	return append(out, ok("on: the tray answers (%d dialog(s) waiting)", len(pending)))
}
