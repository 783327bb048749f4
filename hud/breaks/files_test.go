package breaks

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// TestMain lets the test binary act as a second process writing the break
// state, for the cross-process tests below.
func TestMain(m *testing.M) {
	if role := os.Getenv("BREAKS_TEST_HELPER"); role != "" {
		os.Exit(helper(role, os.Getenv("BREAKS_TEST_HOME"), os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

// helper is the body of a helper process.
func helper(role, home, arg string) int {
	sched := NewScheduler(paths.Layout{Home: home}, DefaultSettings(), nil)
	switch role {
	case "tick": // fire what is due at the Unix time arg, print what fired
		sec, _ := strconv.ParseInt(arg, 10, 64)
		fired, _, err := sched.Tick(time.Unix(sec, 0), Sessions{AnyWorking: true})
		switch {
		case err != nil:
			fmt.Println("error", err)
			return 1
		case fired != nil:
			fmt.Println("fired", fired.Kind)
		default:
			fmt.Println("none")
		}
	case "count": // arg updates, each adding one to reminder_count
		n, _ := strconv.Atoi(arg)
		for range n {
			if err := sched.Files.Update(time.Now(), func(t *Txn) error {
				t.State.ReminderCount++
				return nil
			}); err != nil {
				fmt.Println("error", err)
				return 1
			}
		}
	case "hammer": // write forever, with a big pending break to slow it
		fmt.Println("ready")
		for i := 0; ; i++ {
			sched.Files.Update(time.Now(), func(t *Txn) error {
				t.State.ReminderCount = i
				t.State.PendingBreak = &PendingBreak{Type: strings.Repeat("x", 1<<16), FiredAt: SecondsOf(time.Now())}
				return nil
			})
		}
	}
	return 0
}

func helperCmd(t *testing.T, home, role, arg string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$", arg)
	cmd.Env = append(os.Environ(), "BREAKS_TEST_HELPER="+role, "BREAKS_TEST_HOME="+home)
	return cmd
}

// seedState writes a state whose micro break is due at t0+20m.
func seedState(t *testing.T, home string) Files {
	t.Helper()
	f := Files{Layout: paths.Layout{Home: home}}
	if err := f.Update(t0, func(txn *Txn) error { txn.State = Fresh(t0); return nil }); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestOneReminderAcrossProcesses(t *testing.T) {
	home := t.TempDir()
	f := seedState(t, home)
	due := t0.Add(20 * time.Minute)
	var wg sync.WaitGroup
	outs := make([]string, 4)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := helperCmd(t, home, "tick", strconv.FormatInt(due.Unix(), 10)).Output()
			if err != nil {
				t.Errorf("helper: %v", err)
			}
			outs[i] = strings.TrimSpace(string(out))
		}()
	}
	wg.Wait()
	fired := 0
	for _, o := range outs {
		if strings.HasPrefix(o, "fired") {
			fired++
		}
	}
	if fired != 1 {
		t.Errorf("%d processes fired: %q", fired, outs)
	}
	if got := f.Read(due).State.ReminderCount; got != 1 {
		t.Errorf("reminder_count = %d", got)
	}
}

func TestOneReminderAcrossGoroutines(t *testing.T) {
	// flock belongs to the open file description: each Update opens the
	// lock file anew, so goroutines exclude each other like processes.
	home := t.TempDir()
	seedState(t, home)
	due := t0.Add(20 * time.Minute)
	var mu sync.Mutex
	var fired []*Reminder
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sched := NewScheduler(paths.Layout{Home: home}, DefaultSettings(), nil)
			r, _, err := sched.Tick(due.Add(time.Second), working)
			if err != nil {
				t.Error(err)
			}
			if r != nil {
				mu.Lock()
				fired = append(fired, r)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(fired) != 1 {
		t.Errorf("%d reminders fired", len(fired))
	}
}

func TestTwoWritersLoseNothing(t *testing.T) {
	home := t.TempDir()
	f := seedState(t, home)
	const n = 100
	a, b := helperCmd(t, home, "count", strconv.Itoa(n)), helperCmd(t, home, "count", strconv.Itoa(n))
	for _, c := range []*exec.Cmd{a, b} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []*exec.Cmd{a, b} {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if got := f.Read(t0).State.ReminderCount; got != 2*n {
		t.Errorf("reminder_count = %d, want %d", got, 2*n)
	}
}

func TestKilledWriterLeavesAWholeFile(t *testing.T) {
	home := t.TempDir()
	f := seedState(t, home)
	cmd := helperCmd(t, home, "hammer", "")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("helper said %q", line)
	}
	// Read while it writes: never a partial file.
	deadline := time.Now().Add(400 * time.Millisecond)
	reads := 0
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(f.StatePath())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeState(data); err != nil {
			t.Fatalf("read %d: partial file: %v", reads, err)
		}
		reads++
	}
	cmd.Process.Signal(os.Kill) // kill -9, most likely mid-write
	cmd.Wait()
	data, err := os.ReadFile(f.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeState(data); err != nil {
		t.Fatalf("after kill -9: %v", err)
	}
	// The kernel dropped the dead writer's lock: the next writer goes on.
	if err := f.Update(t0, func(*Txn) error { return nil }); err != nil {
		t.Fatalf("after kill -9: %v", err)
	}
	t.Logf("%d whole reads while writing", reads)
}

func TestCorruptStateIsReplacedAndSaved(t *testing.T) {
	home := t.TempDir()
	f := Files{Layout: paths.Layout{Home: home}, Logf: t.Logf}
	os.MkdirAll(f.Layout.ClaudeDir(), 0o700)
	os.WriteFile(f.StatePath(), []byte(`{"session_start": 1}`), 0o600)
	now := t0.Add(time.Hour)
	if err := f.Update(now, func(txn *Txn) error {
		if txn.Loaded {
			t.Error("incomplete file loaded")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(f.StatePath())
	if s, err := DecodeState(data); err != nil || s != Fresh(now) {
		t.Errorf("saved %s (%v)", data, err)
	}
}

// TestFIFOStateDoesNotBlock: a FIFO at the state's or the preferences'
// name (the hook reads both) is refused at once, not waited on.
func TestFIFOStateDoesNotBlock(t *testing.T) {
	home := t.TempDir()
	f := Files{Layout: paths.Layout{Home: home}, Logf: t.Logf}
	os.MkdirAll(f.Layout.ClaudeDir(), 0o700)
	for _, p := range f.Shown() {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan Txn, 1)
	go func() { done <- f.Read(t0) }()
	select {
	case txn := <-done:
		if txn.Loaded {
			t.Error("a FIFO was loaded as the state")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("reading the break files blocked on a FIFO")
	}
}

func TestSchedulerChoices(t *testing.T) {
	home := t.TempDir()
	seedState(t, home)
	sched := NewScheduler(paths.Layout{Home: home}, DefaultSettings(), t.Logf)
	due := t0.Add(20 * time.Minute)

	if err := sched.Snooze(due.Add(-time.Minute), 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	if r, next, _ := sched.Tick(due, working); r != nil || !next.Equal(due.Add(9*time.Minute)) {
		t.Errorf("snoozed: %v, next %v", r, next)
	}
	// Snooze over at 29 min while Claude works: the water break due at 30
	// comes early and takes the overdue eye break with it.
	if r, _, _ := sched.Tick(due.Add(9*time.Minute), working); r == nil || r.Kind != Hydration || !r.Early {
		t.Errorf("snooze over: %v", r)
	}
	if p := sched.Files.Read(due).Prefs; p.SnoozedUntil != 0 {
		t.Errorf("snooze kept after it ended: %+v", p)
	}

	// Skip the next one (micro at 49 min): the one after is full at 50.
	now := due.Add(9 * time.Minute)
	kind, at, err := sched.Skip(now, working)
	if err != nil || kind != Micro || !at.Equal(t0.Add(49*time.Minute)) {
		t.Fatalf("skip: %v %v %v", kind, at, err)
	}
	if st := sched.Status(now, idle); st.Kind != Full || !st.Due.Equal(t0.Add(50*time.Minute)) {
		t.Errorf("after skip: next %v at %v", st.Kind, st.Due)
	}

	// Pause until tomorrow; resume; take a break now.
	if err := sched.Pause(now, Tomorrow(now)); err != nil {
		t.Fatal(err)
	}
	if r, next, _ := sched.Tick(t0.Add(2*time.Hour), working); r != nil || !next.Equal(Tomorrow(now)) {
		t.Errorf("paused: %v, next %v", r, next)
	}
	if st := sched.Status(now, idle); st.MenuLine() != "Breaks paused until tomorrow" {
		t.Errorf("menu: %q", st.MenuLine())
	}
	if err := sched.Resume(now); err != nil {
		t.Fatal(err)
	}
	r, err := sched.TakeBreakNow(now)
	if err != nil || r == nil || r.Tip == "" {
		t.Fatalf("take a break now: %v %v", r, err)
	}
	if s := sched.Files.Read(now).State; s.PendingBreak == nil || s.ReminderCount != 2 {
		t.Errorf("after break now: %+v", s)
	}
	if sched.Pause(now, now) == nil || sched.Snooze(now, 0) == nil {
		t.Error("pause until now or snooze for 0 accepted")
	}
}

func TestHookActivity(t *testing.T) {
	home := t.TempDir()
	sched := NewScheduler(paths.Layout{Home: home}, DefaultSettings(), t.Logf)
	if joined, err := sched.SessionStarted(t0); err != nil || joined {
		t.Fatalf("first start: joined %v, %v", joined, err)
	}
	if joined, _ := sched.SessionStarted(t0.Add(time.Minute)); !joined {
		t.Error("second session did not join")
	}
	sched.AnswerEnded(t0.Add(2 * time.Minute))
	out, fired, err := sched.PromptSent(t0.Add(20*time.Minute), false)
	if err != nil || !out.Spontaneous || fired != nil {
		t.Errorf("prompt after 18m: %+v, %v, %v", out, fired, err)
	}
	// Hook delivery: the reminder due at this prompt is fired for Claude.
	sched.AnswerEnded(t0.Add(39 * time.Minute))
	_, fired, _ = sched.PromptSent(t0.Add(40*time.Minute+time.Second), true)
	if fired == nil || fired.Kind != Micro {
		t.Errorf("hook delivery: %v", fired)
	}
}

// TestUpdateWritesPrefsOnlyWhenChanged: the preferences file is written
// when a transaction changes a choice, in place or not, and never
// otherwise (the hook runs Update on every prompt).
func TestUpdateWritesPrefsOnlyWhenChanged(t *testing.T) {
	f := Files{Layout: paths.Layout{Home: t.TempDir()}}
	now := time.Unix(1_800_000_000, 0)
	read := func() string {
		b, err := os.ReadFile(f.PrefsPath())
		if os.IsNotExist(err) {
			return "(none)"
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	steps := []struct {
		name string
		fn   func(*Txn)
		want string // "" for: unchanged since the step before
	}{
		{"prompt", func(t *Txn) { OnPrompt(&t.State, now, DefaultSettings()) }, "(none)"},
		{"skip", func(t *Txn) { t.Prefs.Skipped = map[string]Seconds{"micro": 10} }, "{\n  \"skipped\": {\n    \"micro\": 10.0\n  }\n}\n"},
		{"same skip", func(t *Txn) { t.Prefs.Skipped["micro"] = 10 }, ""},
		{"skip in place", func(t *Txn) { t.Prefs.Skipped["full"] = 20 }, "{\n  \"skipped\": {\n    \"full\": 20.0,\n    \"micro\": 10.0\n  }\n}\n"},
		{"unskip in place", func(t *Txn) { delete(t.Prefs.Skipped, "full"); delete(t.Prefs.Skipped, "micro") }, "{}\n"},
		{"empty is none", func(t *Txn) { t.Prefs.Skipped = nil }, ""},
		{"snooze", func(t *Txn) { t.Prefs.SnoozedUntil = 30 }, "{\n  \"snoozed_until\": 30.0\n}\n"},
		{"stop", func(t *Txn) { OnStop(&t.State, now) }, ""},
	}
	last := ""
	for _, s := range steps {
		if err := f.Update(now, func(t *Txn) error { s.fn(t); return nil }); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		want := s.want
		if want == "" {
			want = last
		}
		if got := read(); got != want {
			t.Errorf("after %s: prefs file %q, want %q", s.name, got, want)
		}
		last = want
	}
}

// TestUpdateStateLeavesPrefs: UpdateState neither reads nor writes the
// preferences, whatever fn does with them.
func TestUpdateStateLeavesPrefs(t *testing.T) {
	f := Files{Layout: paths.Layout{Home: t.TempDir()}}
	now := time.Unix(1_800_000_000, 0)
	if err := f.Update(now, func(t *Txn) error { t.Prefs.SnoozedUntil = 30; return nil }); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(f.PrefsPath())
	err := f.UpdateState(now, func(txn *Txn) error {
		if txn.Prefs.SnoozedUntil != 0 {
			t.Errorf("UpdateState read the preferences: %+v", txn.Prefs)
		}
		txn.Prefs.PausedUntil = 99
		OnStop(&txn.State, now)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(f.PrefsPath()); string(after) != string(before) {
		t.Errorf("UpdateState wrote the preferences: %q, was %q", after, before)
	}
	if got := f.Read(now).State.LastResponseEnd; got != SecondsOf(now) {
		t.Errorf("the state was not written: last_response_end %v", got)
	}
}
