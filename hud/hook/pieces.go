package hook

import (
	"bytes"
	"os"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// pieces is the store's new text as the slices it is made of: untouched
// records are slices of the file as read, and the hook writes them from
// there with writev(2) rather than copy the whole store into a new buffer
// (at 200 sessions, 175 KB of fresh memory, its page faults and the copy,
// on every event). Runs of the old file that the new text repeats are
// joined into one slice, so an event that changes one record writes the
// store in a handful of pieces.
type pieces struct {
	list [][]byte
	// src marks the pieces that are slices of the file as read: only
	// those may grow over bytes that follow them there.
	src []bool
	gen []byte // generated text, which the other pieces slice
}

// addSrc adds p, a slice of the file as read.
func (o *pieces) addSrc(p []byte) {
	if len(p) == 0 {
		return
	}
	if n := len(o.list); n > 0 && o.src[n-1] {
		last := o.list[n-1]
		if spare := last[len(last):cap(last)]; len(spare) >= len(p) && &spare[0] == &p[0] {
			o.list[n-1] = last[:len(last)+len(p)]
			return
		}
	}
	o.list = append(o.list, p)
	o.src = append(o.src, true)
}

// addText adds generated text: by growing the last piece over the same
// bytes when the file as read has them next, else as text of its own.
func (o *pieces) addText(t []byte) {
	if len(t) == 0 {
		return
	}
	n := len(o.list)
	if n > 0 && o.src[n-1] {
		last := o.list[n-1]
		if spare := last[len(last):cap(last)]; bytes.HasPrefix(spare, t) {
			o.list[n-1] = last[:len(last)+len(t)]
			return
		}
	}
	start := len(o.gen)
	o.gen = append(o.gen, t...)
	p := o.gen[start:len(o.gen):len(o.gen)]
	if n > 0 && !o.src[n-1] {
		// Text after text: one piece when gen did not move meanwhile.
		last := o.list[n-1]
		if len(last) > 0 && start > 0 && &last[len(last)-1] == &o.gen[start-1] {
			o.list[n-1] = o.gen[start-len(last) : len(o.gen) : len(o.gen)]
			return
		}
	}
	o.list = append(o.list, p)
	o.src = append(o.src, false)
}

// bytes joins the pieces (for tests and readers of the whole text).
func (o *pieces) bytes() []byte { return bytes.Join(o.list, nil) }

// len is the total length.
func (o *pieces) len() int {
	n := 0
	for _, p := range o.list {
		n += len(p)
	}
	return n
}

// writeTo writes every piece to f, with as few writev calls as the
// pieces allow.
func (o *pieces) writeTo(f *os.File) error { return safefile.Writev(f, o.list) }
