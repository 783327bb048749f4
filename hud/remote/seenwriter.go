package remote

import (
	"bytes"
	"os"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// DefaultSeenEvery is the least time between two writes of the seen file:
// `hud statusline` may show a remote's news this late, and a remote that
// changes its state many times a second costs one write per period.
const DefaultSeenEvery = 2 * time.Second

// SeenWriter leaves what a Set sees for `hud statusline` (its Saw): the
// file is written only when what it says changed, and at most once per
// Every; a change within that time is written when it ends, the newest
// state winning.
type SeenWriter struct {
	Path string
	// Every is the least time between two writes; zero means
	// DefaultSeenEvery.
	Every time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logf says the first failed write; nil discards it.
	Logf func(format string, args ...any)

	mu      sync.Mutex
	written []byte      // the document in the file
	pending []byte      // a newer document waiting for its time, or nil
	at      time.Time   // when the file was written last
	timer   *time.Timer // writes pending when its time comes
	closed  bool
	failed  bool
	writes  int
}

// Saw takes the machines' state and sessions now.
func (w *SeenWriter) Saw(remotes []view.Remote, sessions []view.Session) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	now := w.now()
	doc, err := seenDoc(remotes, sessions, now)
	if err != nil {
		w.fail(err)
		return
	}
	if bytes.Equal(doc, w.written) {
		w.pending = nil // back to what the file says
		return
	}
	w.pending = doc
	wait := w.at.Add(w.every()).Sub(now)
	if wait <= 0 {
		w.flushLocked(now)
		return
	}
	if w.timer == nil {
		w.timer = time.AfterFunc(wait, func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.timer = nil
			if !w.closed {
				w.flushLocked(w.now())
			}
		})
	}
}

// flushLocked writes the pending document, if any.
func (w *SeenWriter) flushLocked(now time.Time) {
	if w.pending == nil {
		return
	}
	doc := w.pending
	w.pending, w.at = nil, now
	if err := safefile.Replace(w.Path, doc, 0o600); err != nil {
		w.fail(err)
		return
	}
	w.written = doc
	w.writes++
}

// Close stops the writes and removes the file: what it says is no longer
// seen by anyone.
func (w *SeenWriter) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	if w.timer != nil {
		w.timer.Stop()
	}
	os.Remove(w.Path)
}

// Writes is how many times the file was written.
func (w *SeenWriter) Writes() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writes
}

func (w *SeenWriter) fail(err error) {
	if !w.failed && w.Logf != nil {
		w.Logf("leaving the remote sessions for hud statusline: %v", err)
	}
	w.failed = true
}

func (w *SeenWriter) every() time.Duration {
	if w.Every > 0 {
		return w.Every
	}
	return DefaultSeenEvery
}

func (w *SeenWriter) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}
