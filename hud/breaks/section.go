package breaks

import (
	"sync"
	"time"

	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// MenuRow is one row of the tray menu's break section. The tray turns it
// into its own row type; Key comes back through Section.Clicked.
type MenuRow struct {
	Key      string
	Label    string
	Disabled bool // a line of information, not an action
}

// The keys of the break section's rows.
const (
	KeyStatus        = "breaks:status"
	KeyNow           = "breaks:now"
	KeySnooze        = "breaks:snooze"
	KeySkip          = "breaks:skip"
	KeyPauseHour     = "breaks:pause-hour"
	KeyPauseTomorrow = "breaks:pause-tomorrow"
	KeyResume        = "breaks:resume"
)

// Menu durations of the section's actions.
const (
	MenuSnooze = 10 * time.Minute
	MenuPause  = time.Hour
)

// Section is the break reminders inside the tray app. Its Update has the
// signature of the app's Notifier.Update, so the loop calls it whenever
// the sessions change and again at the time it returned: that is how a
// reminder comes on time with no polling. Rows, Clicked and Changed serve
// the menu section. The methods may be called from any goroutine.
type Section struct {
	sched  *Scheduler
	notify func(title, body string)
	logf   func(string, ...any)

	mu       sync.Mutex
	sessions Sessions
	changed  chan struct{}
}

// NewSection returns the tray side of sched; notify shows a desktop
// notification.
func NewSection(sched *Scheduler, notify func(title, body string), logf func(string, ...any)) *Section {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Section{sched: sched, notify: notify, logf: logf, changed: make(chan struct{}, 1)}
}

// SetSettings applies new thresholds (the settings file changed).
func (t *Section) SetSettings(set Settings) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sched := *t.sched
	sched.Settings = set
	t.sched = &sched
	t.signal()
}

// current returns the scheduler and the sessions to use now.
func (t *Section) current() (*Scheduler, Sessions) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sched, t.sessions
}

// Update looks at the live sessions at now, fires the reminder that is
// due (held while one waits, early while one works), and returns when to
// call again (zero: only when the sessions change).
func (t *Section) Update(now time.Time, sessions []resolver.Session) time.Time {
	states := make([]store.State, len(sessions))
	for i, s := range sessions {
		states[i] = s.State
	}
	t.mu.Lock()
	t.sessions = SessionsOf(states...)
	sched, sess := t.sched, t.sessions
	t.mu.Unlock()

	fired, next, err := sched.Tick(now, sess)
	if err != nil {
		t.logf("break reminders: %v", err)
		return now.Add(time.Minute) // the lock or the disk; try again soon
	}
	if fired != nil {
		t.show(fired)
	}
	return next
}

func (t *Section) show(r *Reminder) {
	if t.notify != nil {
		t.notify(r.Title(), r.Body())
	}
	t.signal()
}

// Rows returns the section's rows at now and when their text changes
// next (the countdown).
func (t *Section) Rows(now time.Time) ([]MenuRow, time.Time) {
	sched, sess := t.current()
	st := sched.Status(now, sess)
	rows := []MenuRow{{Key: KeyStatus, Label: st.MenuLine(), Disabled: true}}
	if st.Hold == Disabled {
		return rows, time.Time{}
	}
	rows = append(rows, MenuRow{Key: KeyNow, Label: "Take a break now"})
	switch st.Hold {
	case Paused, Snoozed:
		rows = append(rows, MenuRow{Key: KeyResume, Label: "Resume reminders"})
	default:
		rows = append(rows,
			MenuRow{Key: KeySnooze, Label: "Snooze 10 min"},
			MenuRow{Key: KeySkip, Label: "Skip this one"},
			MenuRow{Key: KeyPauseHour, Label: "Pause reminders for 1 hour"},
			MenuRow{Key: KeyPauseTomorrow, Label: "Pause reminders until tomorrow"})
	}
	return rows, labelChangesAt(st)
}

// labelChangesAt is when the countdown in the status line shows another
// number: the next whole minute of the wait, or the due time itself.
func labelChangesAt(st Status) time.Time {
	if st.Hold != NotHeld || st.Fire {
		return st.Next
	}
	return st.Now.Add(untilLeftChanges(st.In()))
}

// Clicked runs the action of a row.
func (t *Section) Clicked(key string, now time.Time) {
	sched, sess := t.current()
	var err error
	switch key {
	case KeyNow:
		var r *Reminder
		if r, err = sched.TakeBreakNow(now); err == nil {
			t.show(r)
		}
	case KeySnooze:
		err = sched.Snooze(now, MenuSnooze)
	case KeySkip:
		_, _, err = sched.Skip(now, sess)
	case KeyPauseHour:
		err = sched.Pause(now, now.Add(MenuPause))
	case KeyPauseTomorrow:
		err = sched.Pause(now, Tomorrow(now))
	case KeyResume:
		err = sched.Resume(now)
	default:
		return
	}
	if err != nil {
		t.logf("break reminders: %s: %v", key, err)
	}
	t.signal()
}

// Changed signals that Rows would answer differently and that Update
// should run again (a snooze moves the next reminder).
func (t *Section) Changed() <-chan struct{} { return t.changed }

func (t *Section) signal() {
	select {
	case t.changed <- struct{}{}:
	default:
	}
}
