package app

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
)

// fakeRemotes is the remote machines' state as a test sets it.
type fakeRemotes struct {
	mu       sync.Mutex
	remotes  []view.Remote
	sessions []view.Session
	changed  chan struct{}
}

func (f *fakeRemotes) Changed() <-chan struct{} { return f.changed }

func (f *fakeRemotes) State() ([]view.Remote, []view.Session) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.remotes), slices.Clone(f.sessions)
}

func (f *fakeRemotes) set(remotes []view.Remote, sessions []view.Session) {
	f.mu.Lock()
	f.remotes, f.sessions = remotes, sessions
	f.mu.Unlock()
	f.changed <- struct{}{}
}

func TestRemoteSessionsInTheMenu(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		w := &world{}
		w.put(record("s1", "/home/dev/api", store.StateWorking, 100, now.Add(-40*time.Second)))
		rec := &notify.Recorder{}
		n := NewNotifications(notify.NewTracker(config.Default().Notifications), rec, t.Logf)
		defer n.Close()
		remotes := &fakeRemotes{changed: make(chan struct{})}
		h := start(t, Options{Remotes: remotes, Notifier: n}, w)
		defer h.stop(t)

		devboxAPI := view.Session{Key: "remote:devbox:r1", SessionID: "r1", State: store.StateWaiting,
			Since: now.Add(-time.Minute), CWD: "/home/me/api", ProjectDir: "/home/me/api",
			WaitingFor: "Bash: npm test", Hooked: true, Host: "devbox"}
		down := now
		remotes.set([]view.Remote{
			{Host: "devbox", Up: true, Since: now},
			{Host: "laptop2", Since: down, Detail: "Connection refused"},
			{Host: "vm", Connecting: true},
		}, []view.Session{devboxAPI})
		synctest.Wait()

		want := []string{
			"devbox · api — waiting 1m — Bash: npm test",
			"api — working 40s",
			"laptop2: unreachable since " + down.Format("15:04") + " (Connection refused)",
		}
		if got := h.ui.labels(); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("menu %q\nwant %q", got, want)
		}
		if sent := rec.Sent(); len(sent) != 1 || sent[0].Title != "devbox · api needs you" || sent[0].Body != "Bash: npm test" {
			t.Errorf("sent %+v, want one naming the host", sent)
		}

		// A click on a remote session names its host and nothing here:
		// its folder and process are over there.
		h.ui.events <- Event{Kind: Clicked, Key: sessionPrefix + devboxAPI.Key}
		synctest.Wait()
		if len(h.focused) != 1 || h.focused[0].Host != "devbox" || h.focused[0].Dir != "" || h.focused[0].PID != 0 {
			t.Errorf("focused %+v, want devbox's and nothing local", h.focused)
		}

		// The machine goes away: its sessions leave, it says since when,
		// the local session stays.
		remotes.set([]view.Remote{{Host: "devbox", Since: now, Detail: "Broken pipe"}}, nil)
		synctest.Wait()
		want = []string{"api — working 40s", "devbox: unreachable since " + now.Format("15:04") + " (Broken pipe)"}
		if got := h.ui.labels(); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("menu %q\nwant %q", got, want)
		}

		// It comes back, its session still waiting on the same request:
		// listed again, and not announced a second time.
		remotes.set([]view.Remote{{Host: "devbox", Up: true, Since: now}}, []view.Session{devboxAPI})
		synctest.Wait()
		if got := h.ui.labels(); len(got) == 0 || got[0] != "devbox · api — waiting 1m — Bash: npm test" {
			t.Errorf("menu %q after devbox came back", got)
		}
		if sent := rec.Sent(); len(sent) != 1 {
			t.Errorf("sent %+v after devbox came back, want the first one only", sent)
		}
	})
}
