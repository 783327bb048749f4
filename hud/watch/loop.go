package watch

import (
	"errors"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// loop turns fsnotify events into Changes until Close.
//
// One timer serves both bounds: after each relevant event it is set to the
// earlier of "Quiet from now" and "MaxDelay after the burst's first
// event". When it fires the pending Change is ready, and the send case is
// enabled until the receiver takes it; events arriving meanwhile merge into
// it, so a slow receiver gets one Change with everything, never a queue.
func (w *Watcher) loop(events <-chan fsnotify.Event, errs <-chan error) {
	defer w.wg.Done()
	defer close(w.changes)

	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()

	var (
		pending    Change
		burstStart time.Time // zero when no burst is being timed
		ready      bool      // pending may be sent now
	)
	for {
		var out chan<- Change
		if ready {
			out = w.changes
		}
		select {
		case <-w.done:
			return

		case ev, ok := <-events:
			if !ok {
				return
			}
			c := w.classify(ev)
			if !c.Any() {
				continue
			}
			pending.merge(c)
			if ready {
				continue // already due; it leaves with the pending send
			}
			if c.Rescan {
				// A watched directory vanished: no point waiting.
				timer.Stop()
				ready = true
				continue
			}
			now := time.Now()
			if burstStart.IsZero() {
				burstStart = now
			}
			timer.Reset(min(w.opts.Quiet, burstStart.Add(w.opts.MaxDelay).Sub(now)))

		case err, ok := <-errs:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.opts.Logf("watch: the kernel's event queue overflowed; re-reading everything")
			} else {
				w.opts.Logf("watch: %v; re-reading everything", err)
			}
			w.rewatch()
			pending.Rescan = true
			timer.Stop()
			ready = true

		case <-timer.C:
			ready = true

		case out <- pending:
			pending, burstStart, ready = Change{}, time.Time{}, false
		}
	}
}

// classify maps one fsnotify event to a Change. An event on a watched
// directory itself (removed or moved away) recreates and re-watches it and
// asks for a full re-read: what was in it is gone.
func (w *Watcher) classify(ev fsnotify.Event) Change {
	dirs := w.watched()
	for _, d := range dirs {
		if ev.Name == d.path {
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.opts.Logf("watch: %s was removed; watching it again", d.path)
				w.rewatch()
				return Change{Rescan: true}
			}
			return Change{}
		}
	}
	dir, name := filepath.Split(ev.Name)
	dir = filepath.Clean(dir)
	var c Change
	for _, d := range dirs {
		// The settings directory may be the same as another one in odd
		// setups, so every matching directory gets a say.
		if dir == d.path {
			c.merge(d.classify(name, ev.Op))
		}
	}
	return c
}
