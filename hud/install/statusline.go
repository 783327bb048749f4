package install

import (
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

// StatusLineArg is the hud subcommand Claude Code's statusLine runs.
const StatusLineArg = "statusline"

// Claude Code runs the status line command when its own screen changes
// (a message added, a dialog opened or closed) and not while a tool runs
// or an answer streams, so a line drawn as a turn begins says "ready"
// until the turn ends (seen on 2.1.330). Since 2.1.97 "refreshInterval"
// re-runs it every N seconds besides; install sets it so the line is never
// more than that behind. `hud statusline` takes a few milliseconds.
const (
	// DefaultRefreshInterval is the refreshInterval install writes, in
	// seconds (Claude Code's minimum).
	DefaultRefreshInterval = 1
)

// RefreshIntervalSince is the first release that reads refreshInterval.
var RefreshIntervalSince = hookevents.Version{2, 1, 97}

// RefreshInterval is the refreshInterval install gives the status line of
// client v: DefaultRefreshInterval, or 0 (left out) for a client older
// than RefreshIntervalSince. An unknown client (the zero Version) stands
// for the oldest supported one, which reads it.
func RefreshInterval(v hookevents.Version) int {
	if v.IsZero() {
		v = hookevents.Oldest
	}
	if v.Less(RefreshIntervalSince) {
		return 0
	}
	return DefaultRefreshInterval
}

// statusLine is the "statusLine" value install writes; refresh 0 leaves
// refreshInterval out.
func statusLine(command string, refresh int) *node {
	obj := newObject(
		field("type", newScalar("command")),
		field("command", newScalar(command)),
	)
	if refresh > 0 {
		obj.members = append(obj.members, field("refreshInterval", newScalar(refresh)))
	}
	return obj
}

// isOurStatusLine reports whether a statusLine value runs
// `<somewhere>/hud statusline`.
func isOurStatusLine(v *node) bool {
	prog, rest, ok := nextWord(commandOf(v))
	if !ok || filepath.Base(prog) != "hud" {
		return false
	}
	arg, _, ok := nextWord(rest)
	return ok && arg == StatusLineArg
}

// setStatusLine points "statusLine" at command, re-run every refresh
// seconds (0: not set), unless the person has a status line of their own,
// which is never replaced. A refreshInterval the person chose for ours is
// kept, as are other keys they added to it (padding). It reports whether
// it changed anything and whether a foreign status line was kept.
func setStatusLine(root *node, command string, refresh int) (changed, kept bool) {
	cur := root.get("statusLine")
	if cur != nil && !isOurStatusLine(cur) {
		return false, true
	}
	if cur == nil {
		root.set("statusLine", statusLine(command, refresh))
		return true, false
	}
	if commandOf(cur) != command {
		cur.set("command", newScalar(command))
		changed = true
	}
	if refresh > 0 && cur.get("refreshInterval") == nil {
		cur.set("refreshInterval", newScalar(refresh))
		changed = true
	}
	return changed, false
}

// removeStatusLine takes out a statusLine that runs `hud statusline`.
func removeStatusLine(root *node) bool {
	if root.kind != kindObject || !isOurStatusLine(root.get("statusLine")) {
		return false
	}
	root.remove("statusLine")
	return true
}
