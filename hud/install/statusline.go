package install

import (
	"path/filepath"
	"reflect"
)

// StatusLineArg is the hud subcommand Claude Code's statusLine runs.
const StatusLineArg = "statusline"

// statusLine is the "statusLine" value install writes.
func statusLine(command string) *node {
	return newObject(
		field("type", newScalar("command")),
		field("command", newScalar(command)),
	)
}

// isOurStatusLine reports whether a statusLine value runs
// `<somewhere>/hud statusline`.
func isOurStatusLine(v *node) bool {
	if v == nil || v.kind != kindObject {
		return false
	}
	cmd, ok := v.get("command").str()
	if !ok {
		return false
	}
	prog, rest, ok := nextWord(cmd)
	if !ok || filepath.Base(prog) != "hud" {
		return false
	}
	arg, _, ok := nextWord(rest)
	return ok && arg == StatusLineArg
}

// setStatusLine points "statusLine" at command unless the person has a
// status line of their own, which is never replaced. It reports whether
// it changed anything and whether a foreign status line was kept.
func setStatusLine(root *node, command string) (changed, kept bool) {
	cur := root.get("statusLine")
	if cur != nil && !isOurStatusLine(cur) {
		return false, true
	}
	want := statusLine(command)
	if cur != nil && reflect.DeepEqual(cur.value(), want.value()) {
		return false, false
	}
	root.set("statusLine", want)
	return true, false
}

// removeStatusLine takes out a statusLine that runs `hud statusline`.
func removeStatusLine(root *node) bool {
	if root.kind != kindObject || !isOurStatusLine(root.get("statusLine")) {
		return false
	}
	root.remove("statusLine")
	return true
}
