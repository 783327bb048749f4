package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

func TestBreaksFollowUp(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	t0 := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	files := breaks.Files{Layout: paths.Layout{Home: home}}
	run := func(ev *Event, at time.Time, state store.State, settings string) *Context {
		t.Helper()
		ctx := followUpContext(t, home, project, ev, at, settings)
		ctx.After.State = state
		if err := trackBreaks(ctx); err != nil {
			t.Fatal(err)
		}
		return ctx
	}
	run(&Event{HookEventName: EventSessionStart}, t0, store.StateReady, "")
	st := files.Read(t0)
	if !st.Loaded || st.State.SessionStart != breaks.SecondsOf(t0) {
		t.Fatalf("after SessionStart: %+v", st)
	}
	// Tool events do not touch the file.
	before, _ := os.Stat(files.StatePath())
	run(&Event{HookEventName: EventPostToolUse}, t0.Add(time.Minute), store.StateWorking, "")
	if after, _ := os.Stat(files.StatePath()); !after.ModTime().Equal(before.ModTime()) {
		t.Error("PostToolUse wrote the break state")
	}
	// A subagent's Stop (record still working) is not the answer's end.
	run(&Event{HookEventName: EventStop}, t0.Add(2*time.Minute), store.StateWorking, "")
	if got := files.Read(t0).State.LastResponseEnd; got != breaks.SecondsOf(t0) {
		t.Errorf("subagent Stop moved last_response_end to %v", got.Time())
	}
	run(&Event{HookEventName: EventStop}, t0.Add(3*time.Minute), store.StateReady, "")
	if got := files.Read(t0).State.LastResponseEnd; got != breaks.SecondsOf(t0.Add(3*time.Minute)) {
		t.Errorf("Stop: last_response_end %v", got.Time())
	}

	// Prompt at 21 min: by default the hook says nothing.
	run(&Event{HookEventName: EventStop}, t0.Add(20*time.Minute), store.StateReady, "")
	ctx := run(&Event{HookEventName: EventUserPromptSubmit}, t0.Add(21*time.Minute), store.StateWorking, "")
	if ctx.said != "" {
		t.Errorf("said %q without hook_delivery", ctx.said)
	}
	// Opted in, no tray: the due reminder goes to Claude.
	optIn := "[breaks]\nhook_delivery = true\n"
	run(&Event{HookEventName: EventStop}, t0.Add(22*time.Minute), store.StateReady, optIn)
	ctx = run(&Event{HookEventName: EventUserPromptSubmit}, t0.Add(23*time.Minute), store.StateWorking, optIn)
	if !strings.Contains(ctx.said, "eye break") {
		t.Errorf("hook delivery said %q", ctx.said)
	}
	// With a tray holding its lock, the hook leaves reminders to it.
	lock := paths.Layout{Home: home}.TrayLockPath()
	os.MkdirAll(filepath.Dir(lock), 0o700)
	f, err := os.Create(lock)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if !trayRunning(paths.Layout{Home: home}) {
		t.Fatal("tray lock not seen")
	}
	run(&Event{HookEventName: EventStop}, t0.Add(53*time.Minute), store.StateReady, optIn)
	ctx = run(&Event{HookEventName: EventUserPromptSubmit}, t0.Add(54*time.Minute), store.StateWorking, optIn)
	if ctx.said != "" {
		t.Errorf("said %q while the tray runs", ctx.said)
	}
	f.Close()
	if trayRunning(paths.Layout{Home: home}) {
		t.Error("tray seen after its lock was released")
	}
}

// TestPromptRecordedByTheHook: the hook records a prompt in the timers
// itself, before it returns: here a return from a 20-minute pause, which
// resets them. It says nothing of it.
func TestPromptRecordedByTheHook(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}

	files := breaks.Files{Layout: l}
	sched := breaks.NewScheduler(l, breaks.DefaultSettings(), t.Errorf)
	t0 := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	if _, err := sched.SessionStarted(t0); err != nil {
		t.Fatal(err)
	}
	if err := sched.AnswerEnded(t0.Add(20 * time.Minute)); err != nil {
		t.Fatal(err)
	}
	var logged []string
	at := t0.Add(40 * time.Minute)
	ctx := &Context{Layout: l, Event: &Event{SessionID: "s1", HookEventName: EventUserPromptSubmit, CWD: "/p"},
		After: &store.Record{SessionID: "s1", CWD: "/p"}, Now: at,
		Logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }}
	if err := trackBreaks(ctx); err != nil {
		t.Fatal(err)
	}
	st := files.Read(at).State
	if st.LastActive != breaks.SecondsOf(at) {
		t.Errorf("the prompt is not in the timers when the hook returns: last_active %v, want %v", st.LastActive, breaks.SecondsOf(at))
	}
	if st.LastMicro != breaks.SecondsOf(at) || st.LastFull != breaks.SecondsOf(at) {
		t.Errorf("after a 20-minute pause the timers were not reset: %+v", st)
	}
	if len(logged) != 0 {
		t.Errorf("logged %q, want nothing", logged)
	}
}
