package install

import (
	"fmt"
	"path/filepath"
	"reflect"
	"time"

	"github.com/capacitor-hud/hud/hud/config/settings"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

// Events are the hook events every supported client is given, in the
// order install adds them: the registry's events that carry state
// (hookevents.Wired). A settings file without one of them is incomplete.
// A function, not a variable: hud-hook links this package (through the
// agents' Setup) and must not compute the list at every start.
func Events() []string { return hookevents.Names(hookevents.Wired(hookevents.Version{})) }

// HookName is the base name of the hook binary; a handler whose command
// runs a program of this name is ours.
const HookName = "hud-hook"

// DefaultTimeout is the handler timeout in seconds. The hook takes about a
// millisecond; the timeout only bounds a hook that hangs on a broken disk.
// It must stay well under the ~1.5 s Claude gives all SessionEnd hooks.
const DefaultTimeout = 5

// DialogTimeout is the PermissionRequest handler's timeout in seconds:
// with answering on, the hook waits there for the tray's answer, at most
// settings.MaxAnswerWait. Claude Code shows its dialog before it runs the
// hook and keeps it usable meanwhile, so the wait holds nothing up.
const DialogTimeout = int(settings.MaxAnswerWait/time.Second) + 10

// handler is the hook entry install writes. It is synchronous on purpose:
// async hooks run in no particular order, and the state machine needs
// PreToolUse before PostToolUse.
func handler(command string, timeout int) *node {
	return newObject(
		field("type", newScalar("command")),
		field("command", newScalar(command)),
		field("timeout", newScalar(timeout)),
	)
}

// group is the matcher group holding our handler. Install always adds its
// own group rather than joining the person's: uninstall can then take the
// whole group away and leave theirs exactly as it was.
func group(event hookevents.Spec, command string, timeout int) *node {
	var ms []member
	// Tool events take a tool-name matcher, and install matches every
	// tool; the others fire for everything when it is left out.
	if event.Tool {
		ms = append(ms, field("matcher", newScalar("*")))
	}
	if event.Name == hookevents.PermissionRequest {
		timeout = max(timeout, DialogTimeout)
	}
	ms = append(ms, field("hooks", newArray(handler(command, timeout))))
	return newObject(ms...)
}

// isOurs reports whether a handler object runs hud-hook.
func isOurs(h *node) bool {
	prog, ok := firstWord(commandOf(h))
	return ok && filepath.Base(prog) == HookName
}

// commandOf is the "command" string of a handler or statusLine object, ""
// for anything else.
func commandOf(n *node) string {
	if n == nil || n.kind != kindObject {
		return ""
	}
	cmd, _ := n.get("command").str()
	return cmd
}

// ourCommands returns the commands of our handlers on event, in order.
func ourCommands(hooks *node, event string) []string {
	var out []string
	forEachHandler(hooks.get(event), func(_, h *node) {
		if isOurs(h) {
			out = append(out, commandOf(h))
		}
	})
	return out
}

// forEachHandler calls fn for every handler object in an event's array of
// matcher groups, skipping anything that does not have that shape.
func forEachHandler(groups *node, fn func(group, handler *node)) {
	if groups == nil || groups.kind != kindArray {
		return
	}
	for _, g := range groups.elems {
		if g.kind != kindObject {
			continue
		}
		hs := g.get("hooks")
		if hs == nil || hs.kind != kindArray {
			continue
		}
		for _, h := range hs.elems {
			fn(g, h)
		}
	}
}

// shapeError is a settings file whose "hooks" is not laid out as Claude
// Code expects; install will not guess how to merge into it.
func shapeError(where, want string) error {
	return fmt.Errorf("%s is not %s; fix it by hand (Claude Code would not read it either)", where, want)
}

// addHooks makes root carry exactly one handler of ours, in a group of its
// own, on every event of events. Events that already have it in the right
// form are left alone, so a second run changes nothing.
func addHooks(root *node, events []hookevents.Spec, command string, timeout int) (changed bool, err error) {
	return addGroups(root, events, func(e hookevents.Spec) *node { return group(e, command, timeout) })
}

// objectMember is the object under key in obj, added empty when there is
// none; a key holding anything else is the person's to fix, not ours to
// replace.
func objectMember(obj *node, key string) (*node, error) {
	n := obj.get(key)
	if n == nil {
		n = newObject()
		obj.set(key, n)
	}
	if n.kind != kindObject {
		return nil, shapeError(`"`+key+`"`, "an object")
	}
	return n, nil
}

// addGroups is addHooks with the group of ours each event gets from
// ourGroup (another agent's hooks file takes Claude's shape with its own
// handler fields).
func addGroups(root *node, events []hookevents.Spec, ourGroup func(hookevents.Spec) *node) (changed bool, err error) {
	if root.kind != kindObject {
		return false, shapeError("the settings file", "a JSON object")
	}
	hooks, err := objectMember(root, "hooks")
	if err != nil {
		return false, err
	}
	for _, event := range events {
		groups := hooks.get(event.Name)
		if groups == nil {
			groups = newArray()
			hooks.set(event.Name, groups)
		}
		if groups.kind != kindArray {
			return false, shapeError(fmt.Sprintf(`"hooks.%s"`, event.Name), "an array")
		}
		if replaceOurs(groups, ourGroup(event), hasExactly, removeOurs) {
			changed = true
		}
	}
	return changed, nil
}

// replaceOurs makes hud's part of the event array arr want, added at its
// end, unless same says arr holds exactly that already; remove takes
// hud's part out first. It reports whether arr changed. Each shape of
// hooks file (Claude Code's groups, Copilot's flat handlers) says what is
// hud's part of an array and when it is the same.
func replaceOurs(arr, want *node, same func(arr, want *node) bool, remove func(arr *node) bool) bool {
	if same(arr, want) {
		return false
	}
	remove(arr)
	arr.push(want)
	return true
}

// hasExactly reports whether our only handler on this event sits alone in
// a group equal (in meaning, not spelling) to want.
func hasExactly(groups, want *node) bool {
	var found []*node
	forEachHandler(groups, func(g, h *node) {
		if isOurs(h) {
			found = append(found, g)
		}
	})
	return len(found) == 1 && reflect.DeepEqual(found[0].value(), want.value())
}

// removeOurs deletes our handlers from an event's groups, and the groups
// that held nothing else. It reports whether it removed anything.
func removeOurs(groups *node) bool {
	if groups == nil || groups.kind != kindArray {
		return false
	}
	removed := false
	groups.keep(func(g *node) bool {
		hs := g.get("hooks")
		if g.kind != kindObject || hs == nil || hs.kind != kindArray || !hs.keep(notOurs) {
			return true
		}
		removed = true
		return len(hs.elems) > 0 // a group that was ours alone goes
	})
	return removed
}

// notOurs reports whether a handler is someone else's.
func notOurs(h *node) bool { return !isOurs(h) }

// removeHooks takes every handler of ours out of root, on any event, and
// then the event arrays and the "hooks" object our removal left empty, so
// a file install created them in reads as before. (An empty array the
// person had written before install goes too; it meant nothing to Claude
// Code either. Arrays and objects that were empty and that we did not
// touch are kept.)
func removeHooks(root *node) bool { return removeHooksWith(root, removeOurs) }

// removeHooksWith is removeHooks for a file whose event arrays hold our
// handlers in another shape: removeOurs takes ours out of one array and
// reports whether it removed any.
func removeHooksWith(root *node, removeOurs func(*node) bool) bool {
	if root.kind != kindObject {
		return false
	}
	hooks := root.get("hooks")
	if hooks == nil || hooks.kind != kindObject {
		return false
	}
	removed := false
	hooks.keepMembers(func(m member) bool {
		if !removeOurs(m.value) {
			return true
		}
		removed = true
		return len(m.value.elems) > 0 // an event left with no handler goes
	})
	if removed && len(hooks.members) == 0 {
		root.remove("hooks")
	}
	return removed
}
