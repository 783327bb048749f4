package hook

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
)

func TestEndedSessionStaysEnded(t *testing.T) {
	tb := store.NewTable()
	obs := claudeObs(1000, 500)
	applyEvent(tb, &Event{SessionID: "a", HookEventName: EventSessionStart, Source: "startup"}, obs, t0)
	applyEvent(tb, &Event{SessionID: "a", HookEventName: EventSessionEnd, Reason: "other"}, obs, t0.Add(time.Second))

	// An async PostToolUse landing after the SessionEnd is dropped...
	u := applyEvent(tb, &Event{SessionID: "a", HookEventName: EventPostToolUse}, obs, t0.Add(30*time.Second))
	if u.Dropped == "" || tb.Len() != 0 {
		t.Fatalf("late event: dropped %q, %d records", u.Dropped, tb.Len())
	}
	// ...for a minute, after which the id is forgotten.
	u = applyEvent(tb, &Event{SessionID: "a", HookEventName: EventPostToolUse}, obs, t0.Add(62*time.Second))
	if u.Dropped != "" || tb.Len() != 1 {
		t.Fatalf("event after a minute: dropped %q, %d records", u.Dropped, tb.Len())
	}
	if _, ok := tb.Ended["a"]; ok {
		t.Error("the ended id is still remembered after a minute")
	}
}

// TestEndedInTheFutureIsForgotten: an ended id dated ahead of the clock
// by more than the memory (a wrong clock, a hand edit: 2099) is dropped
// at the next event, so it cannot silence the id for good; one a few
// seconds ahead (a clock set back a little) still holds.
func TestEndedInTheFutureIsForgotten(t *testing.T) {
	tb := store.NewTable()
	obs := claudeObs(1000, 500)
	tb.Ended["far"] = store.At(time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC))
	tb.Ended["near"] = store.At(t0.Add(5 * time.Second))
	applyEvent(tb, &Event{SessionID: "other", HookEventName: EventSessionStart, Source: "startup"}, obs, t0)
	if _, ok := tb.Ended["far"]; ok {
		t.Error("an ended id dated 2099 is still remembered")
	}
	if u := applyEvent(tb, &Event{SessionID: "far", HookEventName: EventPostToolUse}, obs, t0); u.Dropped != "" {
		t.Errorf("the 2099 id's event was dropped: %s", u.Dropped)
	}
	if u := applyEvent(tb, &Event{SessionID: "near", HookEventName: EventPostToolUse}, obs, t0); u.Dropped == "" {
		t.Error("an id ended 5 s ahead of the clock took an event")
	}
}

func TestClearInEitherOrderLeavesOneRecord(t *testing.T) {
	obs := claudeObs(1000, 500)
	start := func(id, source string) *Event {
		return &Event{SessionID: id, HookEventName: EventSessionStart, Source: source}
	}
	end := &Event{SessionID: "old", HookEventName: EventSessionEnd, Reason: "clear"}
	for _, order := range []string{"end first", "start first"} {
		t.Run(order, func(t *testing.T) {
			tb := store.NewTable()
			applyEvent(tb, start("old", "startup"), obs, t0)
			applyEvent(tb, &Event{SessionID: "other", HookEventName: EventSessionStart}, claudeObs(1001, 500), t0)
			if order == "end first" {
				applyEvent(tb, end, obs, t0.Add(time.Second))
				applyEvent(tb, start("new", "clear"), obs, t0.Add(2*time.Second))
			} else {
				u := applyEvent(tb, start("new", "clear"), obs, t0.Add(time.Second))
				if len(u.Replaced) != 1 || u.Replaced[0] != "old" {
					t.Errorf("replaced %v", u.Replaced)
				}
				applyEvent(tb, end, obs, t0.Add(2*time.Second))
			}
			if got := tb.IDs(); len(got) != 2 || got[0] != "new" || got[1] != "other" {
				t.Errorf("records %v, want [new other]", got)
			}
		})
	}
}

// TestClearWithStartTimeJitter: the start time the hook derives for one
// process can move by a second between runs (Linux recomputes the boot
// time it is based on), so the process that ran the ended session is still
// recognised when SessionStart(clear) lands before the SessionEnd.
func TestClearWithStartTimeJitter(t *testing.T) {
	tb := store.NewTable()
	applyEvent(tb, &Event{SessionID: "old", HookEventName: EventSessionStart, Source: "startup"}, claudeObs(1000, 500), t0)
	u := applyEvent(tb, &Event{SessionID: "new", HookEventName: EventSessionStart, Source: "clear"}, claudeObs(1000, 501), t0.Add(time.Second))
	if len(u.Replaced) != 1 || u.Replaced[0] != "old" {
		t.Errorf("replaced %v, want [old]", u.Replaced)
	}
	if got := tb.IDs(); len(got) != 1 || got[0] != "new" {
		t.Errorf("records %v, want [new]", got)
	}
}

func TestPIDFollowsNewestLiveProcess(t *testing.T) {
	alive := map[int]bool{1: true, 2: true}
	obs := func(pid int, started int64) observation {
		return observation{
			Process: proc.Process{PID: pid, Started: started},
			CWD:     "/p",
			Alive:   func(pid int, _ int64) bool { return alive[pid] },
		}
	}
	tb := store.NewTable()
	ev := &Event{SessionID: "s", HookEventName: EventUserPromptSubmit}
	pidOf := func() int { r, _ := tb.Get("s"); return r.PID }

	applyEvent(tb, ev, obs(1, 100), t0)
	applyEvent(tb, ev, obs(2, 200), t0.Add(time.Second)) // --continue: a newer process
	if pidOf() != 2 {
		t.Fatalf("pid %d, want the newer process 2", pidOf())
	}
	applyEvent(tb, ev, obs(1, 100), t0.Add(2*time.Second)) // the old one, still alive
	if pidOf() != 2 {
		t.Fatalf("pid %d: an older live process took the record back", pidOf())
	}
	alive[2] = false
	applyEvent(tb, ev, obs(1, 100), t0.Add(3*time.Second))
	if pidOf() != 1 {
		t.Fatalf("pid %d, want 1 once 2 is gone", pidOf())
	}
	applyEvent(tb, ev, observation{}, t0.Add(4*time.Second)) // Claude not found
	if pidOf() != 1 {
		t.Fatalf("pid %d: an event with no process forgot the known one", pidOf())
	}
}

func TestStaleRecordsDropped(t *testing.T) {
	tb := store.NewTable()
	obs := claudeObs(1000, 500)
	applyEvent(tb, &Event{SessionID: "old", HookEventName: EventSessionStart}, obs, t0)
	applyEvent(tb, &Event{SessionID: "recent", HookEventName: EventSessionStart}, obs, t0.Add(time.Hour))
	reloadRaw(t, tb) // the old record as the next run reads it, untouched
	applyEvent(tb, &Event{SessionID: "new", HookEventName: EventSessionStart}, obs, t0.Add(24*time.Hour+time.Second))
	if got := tb.IDs(); len(got) != 2 || got[0] != "new" || got[1] != "recent" {
		t.Errorf("records %v, want [new recent]", got)
	}
}

// reloadRaw writes tb to a store file and reads it back the way the next
// hook run does: its records untouched, as read.
func reloadRaw(t *testing.T, tb *store.Table) {
	t.Helper()
	l := paths.Layout{Home: t.TempDir()}
	for _, edit := range []func(*store.Table) bool{
		func(read *store.Table) bool { *read = *tb; return true },
		func(read *store.Table) bool { *tb = *read; return false },
	} {
		if err := store.Update(l, t0, t.Errorf, edit); err != nil {
			t.Fatal(err)
		}
	}
}

func TestObservedFields(t *testing.T) {
	tb := store.NewTable()
	obs := claudeObs(1000, 500)
	obs.Terminal = terminal.Terminal{TmuxPane: "%3", TermProgram: "tmux"}
	u := applyEvent(tb, &Event{SessionID: "s", HookEventName: EventSessionStart, CWD: "/home/dev/proj/sub"}, obs, t0)
	want := store.Record{PID: 1000, ProcStarted: 500, Terminal: terminal.Terminal{TmuxPane: "%3", TermProgram: "tmux"}, ProjectDir: "/home/dev/proj", CWD: "/home/dev/proj/sub"}
	got := u.After
	if got.PID != want.PID || got.ProcStarted != want.ProcStarted || got.Terminal != want.Terminal || got.ProjectDir != want.ProjectDir || got.CWD != want.CWD {
		t.Errorf("got %+v", got)
	}
}
