package worksession

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)

// clock drives a session through events at chosen offsets from t0.
type clock struct {
	t   *testing.T
	s   *State
	set Settings
	now time.Time
}

func newClock(t *testing.T) *clock {
	s, err := New("Wire install command", "CLI Layer", t0)
	if err != nil {
		t.Fatal(err)
	}
	return &clock{t: t, s: s, set: DefaultSettings(), now: t0}
}

// event observes an event d after the previous one and checks the schema
// and invariants.
func (c *clock) event(d time.Duration, act Activity) []Milestone {
	c.t.Helper()
	c.now = c.now.Add(d)
	fired := Observe(c.s, c.now, act, c.set)
	checkSchema(c.t, c.s, c.now, c.set)
	return fired
}

// work observes events every step until total has passed.
func (c *clock) work(total, step time.Duration) []Milestone {
	c.t.Helper()
	var fired []Milestone
	for passed := time.Duration(0); passed < total; passed += step {
		fired = append(fired, c.event(step, Activity{})...)
	}
	return fired
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

func TestNewSession(t *testing.T) {
	s, err := New("Create DatabaseName value object", "Domain Layer Foundation", t0)
	if err != nil {
		t.Fatal(err)
	}
	if s.SessionID != "20260303-domain-layer-foundation-create-databasename-value-object" ||
		s.BranchName != "session/"+s.SessionID || s.Status != InProgress || s.Summary == "" {
		t.Errorf("%+v", s)
	}
	checkSchema(t, s, t0, DefaultSettings())
	if _, err := New("  ", "x", t0); err == nil {
		t.Error("empty task accepted")
	}
	for in, want := range map[string]string{
		"Fix: the login (OAuth)!": "fix-the-login-oauth",
		"Ünïcode  ok":             "ünïcode-ok",
		"---":                     "",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Slug("a very long task name that goes on and on and on forever"); len(got) > maxSlug+2 {
		t.Errorf("long slug %q", got)
	}
}

func TestIdleGapEdge(t *testing.T) {
	c := newClock(t)
	c.event(c.set.IdleGap-time.Millisecond, Activity{})
	if c.s.ActualWorkingMs != ms(c.set.IdleGap-time.Millisecond) || len(c.s.Pauses) != 0 {
		t.Errorf("gap just under idle: working %d, pauses %v", c.s.ActualWorkingMs, c.s.Pauses)
	}
	c.event(c.set.IdleGap, Activity{})
	if len(c.s.Pauses) != 1 || c.s.Pauses[0].Type != AutoIdle || c.s.Pauses[0].DurationMs != ms(c.set.IdleGap) || c.s.Pauses[0].Open() {
		t.Fatalf("gap at idle: pauses %+v", c.s.Pauses)
	}
	if c.s.Status != InProgress || c.s.ActualWorkingMs != ms(c.set.IdleGap-time.Millisecond) {
		t.Errorf("after idle: %s, working %d", c.s.Status, c.s.ActualWorkingMs)
	}
}

func TestLadder(t *testing.T) {
	c := newClock(t)
	step := time.Minute
	if fired := c.work(40*time.Minute-step, step); len(fired) != 0 {
		t.Errorf("before 40m: %v", fired)
	}
	if fired := c.event(step-time.Millisecond, Activity{}); len(fired) != 0 {
		t.Errorf("1 ms before 40m: %v", fired)
	}
	if fired := c.event(time.Millisecond, Activity{}); !reflect.DeepEqual(fired, []Milestone{Break}) {
		t.Errorf("at 40m: %v", fired)
	}
	if fired := c.work(20*time.Minute-step, step); len(fired) != 0 {
		t.Errorf("between 40 and 60: %v (fired twice?)", fired)
	}
	if fired := c.event(step, Activity{}); !reflect.DeepEqual(fired, []Milestone{Warning}) {
		t.Errorf("at 60m: %v", fired)
	}
	// The timeout falls 30 s into a 2 min gap: work stops at 90 exactly.
	c.work(29*time.Minute+30*time.Second, 30*time.Second)
	if c.s.Reminders.Timeout90min {
		t.Fatal("timed out early")
	}
	fired := c.event(2*time.Minute, Activity{})
	if !reflect.DeepEqual(fired, []Milestone{Timeout}) || !c.s.TimedOut() {
		t.Fatalf("at 90m: %v, %+v", fired, c.s)
	}
	if c.s.ActualWorkingMs != ms(90*time.Minute) {
		t.Errorf("working %v at timeout", time.Duration(c.s.ActualWorkingMs)*time.Millisecond)
	}
	p, _ := c.s.OpenPause()
	if p.Type != AutoTask || p.Reason != TimeoutReason || !p.StartTime.Equal(c.now.Add(-90*time.Second)) {
		t.Errorf("timeout pause %+v", p)
	}
	// Timed out: events add no work, fire nothing again.
	if fired := c.work(10*time.Minute, time.Minute); len(fired) != 0 || c.s.ActualWorkingMs != ms(90*time.Minute) {
		t.Errorf("after timeout: %v, working %d", fired, c.s.ActualWorkingMs)
	}
	if err := c.s.Resume(c.now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	c.now = c.now.Add(time.Minute)
	checkSchema(t, c.s, c.now, c.set)
	if fired := c.work(30*time.Minute, time.Minute); len(fired) != 0 || c.s.TimedOut() {
		t.Errorf("after resume: %v, timed out %v", fired, c.s.TimedOut())
	}
}

func TestLongTaskBecomesAutoTaskPause(t *testing.T) {
	for _, tc := range []struct {
		run   time.Duration
		pause bool
	}{
		{10*time.Minute - time.Second, false},
		{10 * time.Minute, true},
		{25 * time.Minute, true},
	} {
		c := newClock(t)
		c.work(3*time.Minute, time.Minute)
		c.event(time.Minute, Activity{TaskStarted: "Task agent: Explore codebase"})
		before := c.s.ActualWorkingMs
		// Subagent events every 30 s, with one 6 min silence inside.
		c.work(2*time.Minute, 30*time.Second)
		if tc.run > 9*time.Minute {
			c.event(6*time.Minute, Activity{})
		}
		c.now = c.now.Add(-c.now.Sub(t0.Add(4*time.Minute)) + tc.run - 30*time.Second)
		c.event(30*time.Second, Activity{TaskEnded: true})
		if c.s.RunningTask != nil {
			t.Errorf("%v: task still running", tc.run)
		}
		var task *Pause
		for i := range c.s.Pauses {
			if c.s.Pauses[i].Type == AutoTask {
				task = &c.s.Pauses[i]
			}
		}
		if (task != nil) != tc.pause {
			t.Fatalf("%v: pauses %+v", tc.run, c.s.Pauses)
		}
		if !tc.pause {
			continue
		}
		if task.DurationMs != ms(tc.run) || task.Reason != "Task agent: Explore codebase" || c.s.Status != InProgress {
			t.Errorf("%v: task pause %+v, status %s", tc.run, task, c.s.Status)
		}
		if c.s.ActualWorkingMs != before || len(c.s.Pauses) != 1 {
			t.Errorf("%v: working %d (want %d), pauses %+v", tc.run, c.s.ActualWorkingMs, before, c.s.Pauses)
		}
	}
}

func TestTaskPauseShowsWhileRunningAndEndsAtTurnEnd(t *testing.T) {
	c := newClock(t)
	c.event(time.Minute, Activity{TaskStarted: "Task agent: a"})
	c.event(time.Second, Activity{TaskStarted: "Task agent: b"}) // parallel
	c.work(11*time.Minute, time.Minute)
	if c.s.Status != Paused || c.s.RunningTask == nil {
		t.Fatalf("11m into the task: %s", c.s.Status)
	}
	if w := c.s.Working(c.now.Add(time.Minute), c.set); w != time.Minute {
		t.Errorf("live working during the task pause: %v", w)
	}
	c.event(time.Minute, Activity{TaskEnded: true}) // one of two
	if c.s.Status != Paused {
		t.Error("ended with a Task still running")
	}
	// Esc: no PostToolUse for the other; the next prompt ends it.
	c.event(time.Minute, Activity{TurnBoundary: true})
	if c.s.Status != InProgress || c.s.RunningTask != nil {
		t.Errorf("after the turn: %s, %+v", c.s.Status, c.s.RunningTask)
	}
}

func TestManualPauseAndResume(t *testing.T) {
	c := newClock(t)
	c.work(2*time.Minute, time.Minute)
	c.now = c.now.Add(time.Minute)
	if err := c.s.Pause(c.now, "lunch", c.set); err != nil {
		t.Fatal(err)
	}
	checkSchema(t, c.s, c.now, c.set)
	if err := c.s.Pause(c.now, "again", c.set); !errors.Is(err, ErrAlreadyPaused) {
		t.Errorf("second pause: %v", err)
	}
	// Events while paused count nothing; a manual pause does not end on
	// its own.
	c.work(30*time.Minute, 10*time.Minute)
	if c.s.Status != Paused || c.s.ActualWorkingMs != ms(3*time.Minute) {
		t.Errorf("during the pause: %s, working %d", c.s.Status, c.s.ActualWorkingMs)
	}
	c.now = c.now.Add(time.Minute)
	if err := c.s.Resume(c.now); err != nil {
		t.Fatal(err)
	}
	checkSchema(t, c.s, c.now, c.set)
	if p := c.s.Pauses[0]; p.Type != Manual || p.Reason != "lunch" || p.DurationMs != ms(31*time.Minute) {
		t.Errorf("pause %+v", p)
	}
	if err := c.s.Resume(c.now); !errors.Is(err, ErrNotPaused) {
		t.Errorf("second resume: %v", err)
	}
	if w := c.s.Working(c.now.Add(2*time.Minute), c.set); w != 5*time.Minute {
		t.Errorf("live working = %v", w)
	}
	if w := c.s.Working(c.now.Add(c.set.IdleGap), c.set); w != 3*time.Minute {
		t.Errorf("live working after an idle gap = %v", w)
	}
}

func TestNewlyFired(t *testing.T) {
	a, _ := New("t", "s", t0)
	b := *a
	b.Reminders = Reminders{Break40min: true, Warning60min: true}
	if got := NewlyFired(a, &b); !reflect.DeepEqual(got, []Milestone{Break, Warning}) {
		t.Errorf("got %v", got)
	}
	if got := NewlyFired(nil, &b); got != nil {
		t.Errorf("first sight: %v", got)
	}
	other := b
	other.SessionID = "20260303-other"
	if got := NewlyFired(a, &other); got != nil {
		t.Errorf("another session: %v", got)
	}
}

func TestSummaryLine(t *testing.T) {
	s, _ := New("Fix login", "api", t0)
	s.ActualWorkingMs = ms(42 * time.Minute)
	s.LastMessageTime.Time = t0.Add(50 * time.Minute)
	sum := Summary{Project: "/p/api", State: s, Working: s.Working(t0.Add(50*time.Minute+30*time.Second), DefaultSettings())}
	if got := sum.Line(); got != "api · 42m of work" {
		t.Errorf("line %q", got)
	}
	s.Pause(t0.Add(51*time.Minute), "lunch", DefaultSettings())
	if got := sum.Line(); got != "api · paused (lunch) · 42m of work" {
		t.Errorf("line %q", got)
	}
}
