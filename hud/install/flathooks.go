package install

import (
	"fmt"
	"reflect"
	"strings"
)

// FlatHooks is a hooks file of hud's own in which each event lists its
// handlers directly, without matcher groups, under a format version:
// {"version": 1, "hooks": {"<event>": [handler]}} (Copilot CLI's). The
// agent reads every such file in its directory, so the person's own files
// are never touched; and its payloads do not name their event, so each
// handler passes it: `hud-hook <Agent> <event>`.
type FlatHooks struct {
	// Agent is the agent's name: the hook's first argument, and the
	// command a problem tells the person to run again.
	Agent string
	// What says what the file is to the agent ("hooks").
	What string
	// Path is the file for a home and environment.
	Path func(Env) string
	// Events are the events hud's handler runs on, as the agent names
	// them.
	Events []string
	// TimeoutKey and Timeout are the handler's timeout field and its
	// value, in the agent's unit; no field when TimeoutKey is "".
	TimeoutKey string
	Timeout    int
}

// File is the File install edits.
func (h FlatHooks) File() File {
	return File{
		What: h.What,
		Path: h.Path,
		Install: func(opts Options) (Result, error) {
			res, err := edit(opts, func(root *node) (bool, error) {
				return h.add(root, ShellQuote(opts.HookPath))
			}, false)
			res.Events = h.Events
			return res, err
		},
		Uninstall: func(opts Options) (Result, error) { return edit(opts, removeFlatHooks, true) },
		Problem: func(_ Env, path string) string {
			return handlersProblem(h.Agent, path, h.Events, flatCommands,
				func(event, command string) string {
					if !strings.HasSuffix(command, " "+h.Agent+" "+event) {
						return fmt.Sprintf("%q on %s does not name the event", command, event)
					}
					return ""
				})
		},
	}
}

// add makes root carry exactly one handler of ours on each event, naming
// the event; a second run changes nothing.
func (h FlatHooks) add(root *node, hookCmd string) (bool, error) {
	if root.kind != kindObject {
		return false, shapeError("the hooks file", "a JSON object")
	}
	changed := false
	if root.get("version") == nil {
		root.set("version", newScalar(1))
		changed = true
	}
	hooks, err := objectMember(root, "hooks")
	if err != nil {
		return false, err
	}
	for _, ev := range h.Events {
		want := agentHandler(hookCmd+" "+h.Agent+" "+ev, h.TimeoutKey, h.Timeout)
		handlers := hooks.get(ev)
		if handlers == nil {
			handlers = newArray()
			hooks.set(ev, handlers)
		}
		if handlers.kind != kindArray {
			return false, shapeError(fmt.Sprintf(`"hooks.%s"`, ev), "an array")
		}
		if replaceOurs(handlers, want, hasExactlyFlat, removeFlatOurs) {
			changed = true
		}
	}
	return changed, nil
}

// hasExactlyFlat reports whether our only handler in one event's array is
// equal (in meaning, not spelling) to want.
func hasExactlyFlat(handlers, want *node) bool {
	var ours []*node
	for _, h := range handlers.elems {
		if isOurs(h) {
			ours = append(ours, h)
		}
	}
	return len(ours) == 1 && reflect.DeepEqual(ours[0].value(), want.value())
}

// removeFlatOurs deletes our handlers from one event's array.
func removeFlatOurs(handlers *node) bool {
	if handlers == nil || handlers.kind != kindArray {
		return false
	}
	return handlers.keep(notOurs)
}

// removeFlatHooks takes every handler of ours out, then the arrays and
// the "hooks" object our removal left empty, and the "version" left
// alone, so the file hud created goes away and one the person added to
// keeps theirs.
func removeFlatHooks(root *node) (bool, error) {
	removed := removeHooksWith(root, removeFlatOurs)
	if removed && len(root.members) == 1 && root.get("version") != nil {
		root.remove("version")
	}
	return removed, nil
}

// flatCommands returns the commands of our handlers on event, listed
// directly, without matcher groups.
func flatCommands(hooks *node, event string) []string {
	var out []string
	if hs := hooks.get(event); hs != nil && hs.kind == kindArray {
		for _, h := range hs.elems {
			if isOurs(h) {
				out = append(out, commandOf(h))
			}
		}
	}
	return out
}
