package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// wireHooks wires hud-hook into ~/.claude/settings.json the way a person
// does, with `hud install`. Should that command not work (yet), the suite
// writes an equivalent settings file itself and says so in its summary.
func (r *rig) wireHooks() {
	defer func() { r.hooked = true }()
	hook := r.s.hook
	if r.s.record != "" {
		hook = r.recorder()
	}
	cmd := exec.Command(r.s.hud, "install", "--hook", hook)
	cmd.Env = r.baseEnv()
	out, err := cmd.CombinedOutput()
	settings := filepath.Join(r.home, ".claude", "settings.json")
	if err == nil {
		missing := missingHookEvents(settings)
		if len(missing) == 0 {
			r.s.hooksOnce.Do(func() { r.s.hooksBy = "`hud install`" })
			return
		}
		err = fmt.Errorf("settings.json lacks %s", strings.Join(missing, ", "))
	}
	why := fmt.Sprintf("`hud install` failed (%v: %s)", err, strings.TrimSpace(lastLines(string(out), 3)))
	r.s.hooksOnce.Do(func() {
		r.s.hooksBy = "the suite's own settings.json, because " + why
	})
	r.t.Logf("hooks: %s; writing settings.json directly", why)
	writeJSON(r.t, settings, hookSettings(hook))
}

// hookEvents is every event the HUD listens to.
var hookEvents = []string{
	"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
	"PermissionRequest", "Notification", "Stop", "StopFailure", "SubagentStart",
	"SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "CwdChanged",
}

// toolEvents take a matcher.
var toolEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true, "PermissionRequest": true}

// hookSettings is the settings.json fallback: every event, synchronous,
// a short timeout.
func hookSettings(hook string) map[string]any {
	hooks := map[string]any{}
	for _, ev := range hookEvents {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hook, "timeout": 10}}}
		if toolEvents[ev] {
			group["matcher"] = "*"
		}
		hooks[ev] = []any{group}
	}
	return map[string]any{"hooks": hooks}
}

// missingHookEvents lists the events settings.json wires no command for.
func missingHookEvents(path string) []string {
	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &settings)
	}
	if err != nil {
		return []string{"everything (" + err.Error() + ")"}
	}
	var missing []string
	for _, ev := range hookEvents {
		found := false
		for _, g := range settings.Hooks[ev] {
			for _, h := range g.Hooks {
				found = found || strings.Contains(h.Command, "hud-hook")
			}
		}
		if !found {
			missing = append(missing, ev)
		}
	}
	return missing
}
