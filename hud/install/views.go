package install

import (
	"errors"
	"io/fs"
)

// Read reads a file an agent's install edits, as install itself does:
// links followed, but only a regular file, at most safefile.MaxRead, and
// an open that cannot hang on a FIFO. A missing file is fs.ErrNotExist.
func Read(path string) ([]byte, error) {
	data, _, err := read(path)
	return data, err
}

// EditFile edits a text file byte-wise with install's care (a backup
// first, a write by rename, an edit started over when the file changed
// meanwhile, a dry run writing nothing): change gets the file's contents
// (nil for none) and returns the new ones (old itself for no change) and
// whether they are empty of anything but what install had added, in
// which case removeIfEmpty deletes the file.
func EditFile(opts Options, change func(path string, old []byte) (updated []byte, empty bool, err error), removeIfEmpty bool) (Result, error) {
	return editFile(opts, change, removeIfEmpty)
}

// A Handler is where one of hud's handlers sits in a hooks file in
// Claude Code's shape: its event, the index of its matcher group in the
// event's array, and its index in the group's "hooks".
type Handler struct {
	Event        string
	Group, Index int
}

// OurHandlers lists hud's handlers in the hooks file at path, in Claude
// Code's shape, in the file's order; none when the file has no "hooks"
// object. A missing file is fs.ErrNotExist.
func OurHandlers(path string) ([]Handler, error) {
	data, _, err := read(path)
	if err != nil {
		return nil, err
	}
	doc, err := parseSettings(path, data)
	if err != nil {
		return nil, err
	}
	hooks := doc.root.get("hooks")
	if doc.root.kind != kindObject || hooks == nil || hooks.kind != kindObject {
		return nil, nil
	}
	var out []Handler
	for _, m := range hooks.members {
		if m.value.kind != kindArray {
			continue
		}
		for gi, g := range m.value.elems {
			hs := g.get("hooks")
			if g.kind != kindObject || hs == nil || hs.kind != kindArray {
				continue
			}
			for hi, h := range hs.elems {
				if isOurs(h) {
					out = append(out, Handler{Event: m.key, Group: gi, Index: hi})
				}
			}
		}
	}
	return out, nil
}

// JSONScalar is the scalar at keys (one object inside the next) in the
// JSON file at path, as written ("false", `"x"`); "" when the file, a key
// or the scalar is not there, or a value on the way is not an object.
func JSONScalar(path string, keys ...string) (string, error) {
	data, _, err := read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	doc, err := parseSettings(path, data)
	if err != nil {
		return "", err
	}
	n := doc.root
	for _, k := range keys {
		if n.kind != kindObject {
			return "", nil
		}
		if n = n.get(k); n == nil {
			return "", nil
		}
	}
	if n.kind != kindScalar {
		return "", nil
	}
	return string(n.raw), nil
}
