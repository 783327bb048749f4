package watch

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/fsnotify/fsnotify"
)

// fakeWatcher runs the loop on streams the test feeds.
func fakeWatcher(t *testing.T, opts Options) (*Watcher, chan<- fsnotify.Event, chan<- error) {
	t.Helper()
	opts.Layout = paths.Layout{Home: t.TempDir()}
	w, err := newWatcher(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	events, errs := make(chan fsnotify.Event), make(chan error)
	w.start(events, errs)
	return w, events, errs
}

// TestDebounce: a burst with gaps under Quiet is one Change, sent Quiet
// after its last event; a stream that never pauses still gets a Change
// every MaxDelay.
func TestDebounce(t *testing.T) {
	t.Run("burst", func(t *testing.T) {
		const quiet = 100 * time.Millisecond
		w, events, _ := fakeWatcher(t, Options{Quiet: quiet, MaxDelay: time.Minute})
		store := w.opts.Layout.StorePath()
		for range 50 {
			events <- fsnotify.Event{Name: store, Op: fsnotify.Create}
		}
		last := time.Now()
		c := <-w.Changes()
		if waited := time.Since(last); c != (Change{Store: true}) || waited < quiet {
			t.Errorf("got %+v after %v, want Store no sooner than %v", c, waited, quiet)
		}
		select {
		case c := <-w.Changes():
			t.Errorf("a second Change %+v for one burst", c)
		case <-time.After(2 * quiet):
		}
	})
	t.Run("max delay", func(t *testing.T) {
		const maxDelay = 60 * time.Millisecond
		w, events, _ := fakeWatcher(t, Options{Quiet: time.Minute, MaxDelay: maxDelay})
		store := w.opts.Layout.StorePath()
		start := time.Now()
		events <- fsnotify.Event{Name: store, Op: fsnotify.Write}
		stop := make(chan struct{})
		go func() { // keep the stream going, never quiet
			for {
				select {
				case events <- fsnotify.Event{Name: store, Op: fsnotify.Write}:
				case <-stop:
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
		defer close(stop)
		select {
		case <-w.Changes():
			if waited := time.Since(start); waited < maxDelay {
				t.Errorf("Change after %v, before the max delay %v", waited, maxDelay)
			}
		case <-time.After(patience):
			t.Fatal("a steady stream starved the receiver")
		}
	})
}

// TestErrorsAskForRescan drives the loop with fake streams: an overflow or
// any other watcher error is a full re-read, at once.
func TestErrorsAskForRescan(t *testing.T) {
	for _, err := range []error{fsnotify.ErrEventOverflow, errors.New("inotify: something broke")} {
		t.Run(err.Error(), func(t *testing.T) {
			logs := &logBuffer{}
			w, werr := newWatcher(Options{Layout: paths.Layout{Home: t.TempDir()}, Logf: logs.logf})
			if werr != nil {
				t.Fatal(werr)
			}
			defer w.Close()
			events, errs := make(chan fsnotify.Event), make(chan error)
			w.start(events, errs)
			errs <- err
			select {
			case c := <-w.Changes():
				if c != (Change{Rescan: true}) {
					t.Errorf("got %+v, want Rescan", c)
				}
			case <-time.After(patience):
				t.Fatal("no Change after an error")
			}
			if !strings.Contains(logs.String(), "re-reading everything") {
				t.Errorf("log = %q", logs)
			}
			// Events keep flowing afterwards.
			events <- fsnotify.Event{Name: w.opts.Layout.StorePath(), Op: fsnotify.Create}
			select {
			case c := <-w.Changes():
				if c != (Change{Store: true}) {
					t.Errorf("got %+v, want Store", c)
				}
			case <-time.After(patience):
				t.Fatal("no Change after the error")
			}
		})
	}
}

func TestClassify(t *testing.T) {
	lock := paths.LockName("/p", 12)
	classifyStoreDir := classifyNames(Change{Store: true}, "sessions.json")
	classifyClaudeDir := classifyNames(Change{Files: true}, "settings.json", "vibe-check-state.json", "hud-breaks.json")
	tests := []struct {
		name string
		op   fsnotify.Op
		f    func(string, fsnotify.Op) Change
		want Change
	}{
		{"sessions.json", fsnotify.Create, classifyStoreDir, Change{Store: true}},
		{"sessions.json", fsnotify.Write, classifyStoreDir, Change{Store: true}},
		{"sessions.json", fsnotify.Remove, classifyStoreDir, Change{Store: true}},
		{"sessions.json", fsnotify.Chmod, classifyStoreDir, Change{}},
		{"sessions.json.lock", fsnotify.Create, classifyStoreDir, Change{}},
		{"sessions.json.tmp", fsnotify.Rename, classifyStoreDir, Change{}},
		{lock, fsnotify.Create, classifyLockDir, Change{Locks: true}},
		{lock, fsnotify.Remove, classifyLockDir, Change{Locks: true}},
		{lock, fsnotify.Rename, classifyLockDir, Change{Locks: true}},
		{lock, fsnotify.Write, classifyLockDir, Change{}},
		{lock + ".tmp", fsnotify.Create, classifyLockDir, Change{}},
		{"abc-12.lock", fsnotify.Create, classifyLockDir, Change{}},
		{"123.json", fsnotify.Write, classifyLockDir, Change{ClaudeSessions: true}},
		{"123.json", fsnotify.Chmod, classifyLockDir, Change{}},
		{"12a.json", fsnotify.Write, classifyLockDir, Change{}},
		{".json", fsnotify.Write, classifyLockDir, Change{}},
		{"12345678901.json", fsnotify.Write, classifyLockDir, Change{}},
		{"settings.json", fsnotify.Rename, classifyClaudeDir, Change{Files: true}},
		{"vibe-check-state.json", fsnotify.Create, classifyClaudeDir, Change{Files: true}},
		{"hud-breaks.json", fsnotify.Write, classifyClaudeDir, Change{Files: true}},
		{"settings.json", fsnotify.Chmod, classifyClaudeDir, Change{}},
		{"hud-hook-debug.log", fsnotify.Write, classifyClaudeDir, Change{}},
		{"history.jsonl", fsnotify.Write, classifyClaudeDir, Change{}},
		{"settings.json.bak-1795323453", fsnotify.Create, classifyClaudeDir, Change{}},
	}
	for _, tt := range tests {
		if got := tt.f(tt.name, tt.op); got != tt.want {
			t.Errorf("classify(%q, %v) = %+v, want %+v", tt.name, tt.op, got, tt.want)
		}
	}
}

func TestExplainKeepsTheError(t *testing.T) {
	base := errors.New("boom")
	if err := explain(base); !errors.Is(err, base) {
		t.Errorf("explain lost the error: %v", err)
	}
}
