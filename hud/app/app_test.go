package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/hud/watch"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
	"github.com/capacitor-hud/hud/resolver"
)

// fakeUI records what the loop draws.
type fakeUI struct {
	mu       sync.Mutex
	icon     []byte
	title    string
	tooltip  string
	menu     Menu
	calls    map[string]int
	events   chan Event
	quitting bool
}

func newFakeUI() *fakeUI {
	return &fakeUI{calls: map[string]int{}, events: make(chan Event)}
}

func (u *fakeUI) SetIcon(png, template []byte) { u.set("icon", func() { u.icon = png }) }
func (u *fakeUI) SetTitle(t string)            { u.set("title", func() { u.title = t }) }
func (u *fakeUI) SetTooltip(t string)          { u.set("tooltip", func() { u.tooltip = t }) }
func (u *fakeUI) SetMenu(m Menu)               { u.set("menu", func() { u.menu = m }) }
func (u *fakeUI) Events() <-chan Event         { return u.events }
func (u *fakeUI) Quit()                        { u.set("quit", func() { u.quitting = true }) }

func (u *fakeUI) set(name string, f func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.calls[name]++
	f()
}

func (u *fakeUI) labels() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	for _, r := range u.menu.Sessions {
		out = append(out, r.Label)
	}
	return out
}

func (u *fakeUI) iconIs(t *testing.T, name string, count int) {
	t.Helper()
	want, err := assets.Icon(name, count, false)
	if err != nil {
		t.Fatal(err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if string(u.icon) != string(want) {
		t.Errorf("icon is not %s with count %d", name, count)
	}
}

// world is a mutable snapshot the App's Load reads.
type world struct {
	mu   sync.Mutex
	snap resolver.Snapshot
	// storeErr, when set, makes the store unreadable: load returns an
	// empty store and this error, as resolver.LoadSnapshot does.
	storeErr error
}

func (w *world) load() (resolver.Snapshot, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.storeErr != nil {
		snap := w.snap
		snap.Store = store.New()
		return snap, errors.Join(fmt.Errorf("reading store: %w", w.storeErr))
	}
	return w.snap, nil
}

func (w *world) put(recs ...*store.Record) {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := &store.Store{Version: 3, Sessions: map[string]*store.Record{}}
	var locks []resolver.Lock
	for _, r := range recs {
		st.Sessions[r.SessionID] = r
		if r.PID != 0 {
			locks = append(locks, resolver.Lock{Dir: "/l/" + r.SessionID, LockMeta: resolver.LockMeta{
				PID: r.PID, Path: r.CWD, SessionID: r.SessionID}})
		}
	}
	w.snap = resolver.Snapshot{Store: st, Locks: locks}
}

func record(id, cwd string, st store.State, pid int, at time.Time) *store.Record {
	return &store.Record{SessionID: id, State: st, CWD: cwd, PID: pid,
		UpdatedAt: store.At(at), StateChangedAt: store.At(at)}
}

func alive(pid int, _ int64) bool { return pid >= 100 }

type harness struct {
	ui      *fakeUI
	world   *world
	changes chan watch.Change
	app     *App
	done    chan error
	cancel  context.CancelFunc
	focused []view.Place
	opened  []string
}

func start(t *testing.T, opts Options, w *world) *harness {
	t.Helper()
	h := &harness{ui: newFakeUI(), world: w, changes: make(chan watch.Change), done: make(chan error, 1)}
	opts.Layout = paths.Layout{Home: "/home/dev"}
	opts.Load = w.load
	opts.Alive = alive
	opts.Changes = h.changes
	opts.Focus = func(f view.Place) { h.focused = append(h.focused, f) }
	opts.Open = func(p string) error { h.opened = append(h.opened, p); return nil }
	opts.Logf = t.Logf
	h.app = New(opts)
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.done <- h.app.Run(ctx, h.ui) }()
	synctest.Wait()
	return h
}

func (h *harness) stop(t *testing.T) {
	h.cancel()
	if err := <-h.done; err != nil {
		t.Fatal(err)
	}
}

func TestStartShowsLiveSessions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		w := &world{}
		waiting := record("s1", "/home/dev/api", store.StateWaiting, 100, now.Add(-2*time.Minute))
		waiting.WaitingFor = "Bash: npm test"
		w.put(waiting, record("s2", "/home/dev/web", store.StateWorking, 101, now.Add(-40*time.Second)))
		swept := 0
		h := start(t, Options{Sweep: func() (int, error) { swept++; return 1, nil }}, w)
		defer h.stop(t)

		if swept != 1 {
			t.Errorf("swept %d times at start, want once", swept)
		}
		h.ui.iconIs(t, assets.IconWaiting, 2)
		want := []string{"api — waiting 2m — Bash: npm test", "web — working 40s"}
		if got := h.ui.labels(); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("menu %q, want %q", got, want)
		}
		if !strings.HasPrefix(h.ui.tooltip, "Claude Code: 1 waiting · 1 working") || h.ui.title != "1 waiting · 1 working" {
			t.Errorf("tooltip %q, title %q", h.ui.tooltip, h.ui.title)
		}
	})
}

// TestActivityLineUnderItsSession: a session with recorded activity gets a
// disabled line right under its row; one without gets none.
func TestActivityLineUnderItsSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		w := &world{}
		w.put(record("s1", "/home/dev/api", store.StateWorking, 100, now.Add(-time.Minute)),
			record("s2", "/home/dev/web", store.StateReady, 101, now.Add(-2*time.Minute)))
		facts := func(id string) *activity.Facts {
			if id == "s1" {
				return &activity.Facts{TodosDone: 3, TodosTotal: 7, FilesEdited: 12, Branch: "main", Dirty: true, Commits: 2}
			}
			return nil
		}
		h := start(t, Options{Activity: facts}, w)
		defer h.stop(t)
		want := []string{"api — working 1m", detailIndent + "3/7 todos · 12 files · main* · 2 commits", "web — ready 2m"}
		if got := h.ui.labels(); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("menu %q, want %q", got, want)
		}
		h.ui.mu.Lock()
		detail := h.ui.menu.Sessions[1]
		h.ui.mu.Unlock()
		if !detail.Disabled || detail.Key != "" {
			t.Errorf("activity line %+v: want disabled, with no key", detail)
		}
	})
}

func TestChangesRedrawOnlyWhatChanged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		w := &world{}
		w.put(record("s1", "/home/dev/api", store.StateReady, 100, now.Add(-time.Hour)))
		h := start(t, Options{}, w)
		defer h.stop(t)
		h.ui.iconIs(t, assets.IconReady, 1)
		menus, tooltips, icons := h.ui.calls["menu"], h.ui.calls["tooltip"], h.ui.calls["icon"]

		// A heartbeat that changes nothing the person sees draws nothing.
		h.changes <- watch.Change{Store: true}
		synctest.Wait()
		if h.ui.calls["menu"] != menus || h.ui.calls["tooltip"] != tooltips || h.ui.calls["icon"] != icons {
			t.Errorf("an unchanged reload redrew: %v", h.ui.calls)
		}

		w.put(record("s1", "/home/dev/api", store.StateWorking, 100, time.Now()))
		h.changes <- watch.Change{Store: true}
		synctest.Wait()
		h.ui.iconIs(t, assets.IconWorking, 1)
		if got := h.ui.labels(); len(got) != 1 || got[0] != "api — working now" {
			t.Errorf("menu %q after the prompt", got)
		}

		w.put() // the session ended
		h.changes <- watch.Change{Locks: true}
		synctest.Wait()
		h.ui.iconIs(t, assets.IconIdle, 0)
		if h.ui.menu.Status != "No Claude Code sessions" || len(h.ui.menu.Sessions) != 0 {
			t.Errorf("menu after the end: %+v", h.ui.menu)
		}
	})
}

func TestTimerRefreshesLabelsAndDoubtsLocklessSessions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &world{}
		// Written by the hook a moment ago; no lock holder ever came.
		w.put(record("s1", "/home/dev/api", store.StateWorking, 0, time.Now()))
		h := start(t, Options{}, w)
		defer h.stop(t)
		h.ui.iconIs(t, assets.IconWorking, 1)

		time.Sleep(view.LockGrace)
		synctest.Wait()
		h.ui.iconIs(t, assets.IconUnsure, 1)
		if got := h.ui.labels(); len(got) != 1 || got[0] != "api — working 10s (unsure: no lock holder)" {
			t.Errorf("menu %q", got)
		}

		time.Sleep(resolver.FreshTTL - view.LockGrace + time.Millisecond)
		synctest.Wait()
		h.ui.iconIs(t, assets.IconIdle, 0)
	})
}

func TestClicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &world{}
		r := record("s1", "/home/dev/api", store.StateReady, 100, time.Now())
		r.TmuxPane = "%4"
		w.put(r)
		installed := false
		h := start(t, Options{
			HooksProblem: func() string {
				if installed {
					return ""
				}
				return "Hooks not installed"
			},
			InstallHooks: func() error { installed = true; return nil },
		}, w)

		// The session's events arrive (hooks wired elsewhere): its state
		// shows, and the menu offers the user-wide install.
		h.ui.iconIs(t, assets.IconReady, 1)
		if h.ui.menu.Hooks != "Hooks not installed — click to install" {
			t.Errorf("hooks row %q", h.ui.menu.Hooks)
		}
		h.ui.events <- Event{Kind: Clicked, Key: KeyInstallHooks}
		synctest.Wait()
		if !installed || h.ui.menu.Hooks != "" {
			t.Errorf("after the click: installed %v, row %q", installed, h.ui.menu.Hooks)
		}
		h.ui.iconIs(t, assets.IconReady, 1)

		h.ui.events <- Event{Kind: Clicked, Key: h.ui.menu.Sessions[0].Key}
		h.ui.events <- Event{Kind: Clicked, Key: "session:gone"}
		h.ui.events <- Event{Kind: Clicked, Key: KeyDebugLog}
		synctest.Wait()
		if len(h.focused) != 1 || h.focused[0] != (view.Place{PID: 100, Terminal: terminal.Terminal{TmuxPane: "%4"}, Dir: "/home/dev/api"}) {
			t.Errorf("focused %+v", h.focused)
		}
		if len(h.opened) != 1 || h.opened[0] != "/home/dev/.claude/hud-hook-debug.log" {
			t.Errorf("opened %q", h.opened)
		}

		h.ui.events <- Event{Kind: Clicked, Key: KeyQuit}
		if err := <-h.done; err != nil {
			t.Fatal(err)
		}
		if !h.ui.quitting {
			t.Error("Quit did not take the tray down")
		}
	})
}

func TestNotificationsAndNoTray(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &world{}
		w.put(record("s1", "/home/dev/api", store.StateWorking, 100, time.Now()))
		rec := &notify.Recorder{}
		n := NewNotifications(notify.NewTracker(config.Default().Notifications), rec, t.Logf)
		h := start(t, Options{Notifier: n}, w)
		defer n.Close()
		defer h.stop(t)

		waiting := record("s1", "/home/dev/api", store.StateWaiting, 100, time.Now())
		waiting.WaitingFor = "Bash: rm -rf build"
		w.put(waiting)
		h.changes <- watch.Change{Store: true}
		synctest.Wait()
		sent := rec.Sent()
		if len(sent) != 1 || sent[0].Kind != notify.KindWaiting || !strings.Contains(sent[0].Body+sent[0].Title, "rm -rf build") {
			t.Fatalf("sent %+v, want one waiting notification naming the command", sent)
		}

		// Still waiting two minutes later: one reminder, on time, no polling.
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if sent := rec.Sent(); len(sent) != 2 || sent[1].Kind != notify.KindStillWaiting {
			t.Fatalf("sent %+v, want the reminder", sent)
		}

		for range 2 {
			h.ui.events <- Event{Kind: NoTrayHost, Message: "no tray here"}
		}
		synctest.Wait()
		if sent := rec.Sent(); len(sent) != 3 || sent[2].Body != "no tray here" {
			t.Errorf("sent %+v, want the no-tray message once", sent)
		}
	})
}

// fakeSection is a part of the HUD filling the menu's section.
type fakeSection struct {
	clicked []string
	changed chan struct{}
	label   string
	updates int
}

func (s *fakeSection) Update(now time.Time, sessions []resolver.Session) time.Time {
	s.updates++
	return time.Time{}
}

func (s *fakeSection) Rows(now time.Time) ([]Row, time.Time) {
	return []Row{{Key: "break:now", Label: s.label}}, now.Add(time.Minute)
}
func (s *fakeSection) Clicked(key string, _ time.Time) { s.clicked = append(s.clicked, key) }
func (s *fakeSection) Changed() <-chan struct{}        { return s.changed }
func (s *fakeSection) Configure(config.Config)         {}

func TestSection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sec := &fakeSection{changed: make(chan struct{}), label: "Next break in 20m"}
		h := start(t, Options{Section: sec}, &world{})
		defer h.stop(t)
		if len(h.ui.menu.Section) != 1 || h.ui.menu.Section[0].Label != "Next break in 20m" {
			t.Fatalf("section %+v", h.ui.menu.Section)
		}
		h.ui.events <- Event{Kind: Clicked, Key: "break:now"}
		synctest.Wait()
		if len(sec.clicked) != 1 || sec.clicked[0] != "break:now" {
			t.Errorf("section got clicks %q", sec.clicked)
		}
		sec.label = "On a break"
		sec.changed <- struct{}{}
		synctest.Wait()
		if h.ui.menu.Section[0].Label != "On a break" {
			t.Errorf("section not redrawn on its change: %+v", h.ui.menu.Section)
		}
		if sec.updates != 3 {
			t.Errorf("section updated %d times, want at start, after the click and on its change", sec.updates)
		}
	})
}

func TestLabelsTickOnTimeOnlyWhileTheMenuIsOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The bubble's clock starts on a whole minute.
		w := &world{}
		w.put(record("s1", "/home/dev/api", store.StateReady, 100, time.Now().Add(-5*time.Second)))
		h := start(t, Options{}, w)
		defer h.stop(t)
		label := func() string { return h.ui.labels()[0] }
		if label() != "api — ready now" {
			t.Fatalf("label %q", label())
		}
		// Closed: the 10s, 20s… ticks wait for the whole minute.
		time.Sleep(59 * time.Second)
		synctest.Wait()
		if label() != "api — ready now" {
			t.Errorf("closed menu redrawn before the minute: %q", label())
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if label() != "api — ready 1m" {
			t.Errorf("at the minute: %q", label())
		}
		// Open: on time, at 1m55s of age rather than the next whole minute.
		h.ui.events <- Event{Kind: MenuOpened}
		time.Sleep(55*time.Second + time.Millisecond)
		synctest.Wait()
		if label() != "api — ready 2m" {
			t.Errorf("open menu, at 2m of age: %q", label())
		}
	})
}

// A store that cannot be read for a moment (a permission change, an I/O
// error) must not wipe what the tray knows: LoadSnapshot hands back an
// empty store with the error, and showing that would turn a waiting
// session into one with "no hook event recorded".
func TestUnreadableStoreKeepsTheLastGoodOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		w := &world{}
		w.put(record("s1", "/home/dev/api", store.StateWaiting, 100, now.Add(-time.Minute)))
		h := start(t, Options{}, w)
		defer h.stop(t)
		want := "api — waiting 1m"
		if got := h.ui.labels(); len(got) != 1 || got[0] != want {
			t.Fatalf("menu %q, want %q", got, want)
		}
		w.mu.Lock()
		w.storeErr = &fs.PathError{Op: "open", Path: h.app.opts.Layout.StorePath(), Err: fs.ErrPermission}
		w.mu.Unlock()
		h.changes <- watch.Change{Store: true}
		synctest.Wait()
		if got := h.ui.labels(); len(got) != 1 || got[0] != want {
			t.Errorf("after a failed read: menu %q, want %q", got, want)
		}
	})
}
