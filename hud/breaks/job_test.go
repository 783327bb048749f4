package breaks

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

func TestPromptJobRoundTrip(t *testing.T) {
	set := DefaultSettings()
	set.Duration[Hydration] = 7 * time.Second
	set.GapThreshold = 11 * time.Minute
	set.StaleThreshold = 3 * time.Hour
	job := PromptJob{Home: "/home/ann", At: t0.Add(1234567 * time.Nanosecond), Settings: set}
	b, err := job.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !IsPromptJob(b) {
		t.Fatalf("IsPromptJob(%q) = false", b)
	}
	got, err := DecodePromptJob(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Home != job.Home || !got.At.Equal(job.At) || got.Settings.Duration != set.Duration ||
		got.Settings.GapThreshold != set.GapThreshold || got.Settings.StaleThreshold != set.StaleThreshold {
		t.Errorf("decoded %+v, want %+v", got, job)
	}
}

func TestPromptJobRefusesWhatItCannotCarry(t *testing.T) {
	for _, job := range []PromptJob{
		{Home: "relative", At: t0},
		{Home: "/home/a\nb", At: t0},
		{Home: "/home/ann"},
	} {
		if b, err := job.Encode(); err == nil {
			t.Errorf("Encode(%+v) = %q, want an error", job, b)
		}
	}
}

func TestDecodePromptJobReadsOnlyItsOwn(t *testing.T) {
	good, err := PromptJob{Home: "/home/ann", At: t0, Settings: DefaultSettings()}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	line := func(i int, with string) []byte {
		lines := strings.SplitAfter(string(good), "\n")
		lines[i] = with
		return []byte(strings.Join(lines, ""))
	}
	for name, b := range map[string][]byte{
		"an activity launch":  []byte("hud-activity-launch 1\n/bin/x\n"),
		"another version":     bytes.Replace(good, []byte(" 1\n"), []byte(" 2\n"), 1),
		"a line missing":      good[:bytes.LastIndexByte(good[:len(good)-1], '\n')+1],
		"a line more":         append(append([]byte(nil), good...), "5\n"...),
		"the last line open":  good[:len(good)-1],
		"a relative home":     line(1, "home/ann\n"),
		"a negative duration": line(4, "-5\n"),
		"not a number":        line(6, "15m\n"),
		"no time":             line(2, "0\n"),
	} {
		if _, err := DecodePromptJob(b); err == nil {
			t.Errorf("%s: decoded %q", name, b)
		}
	}
}

// TestPromptJobRecordsAsTheHookWould: the holder's record of a prompt is
// the hook's own, PromptSent without delivery, here a spontaneous break.
func TestPromptJobRecordsAsTheHookWould(t *testing.T) {
	set := DefaultSettings()
	at := t0.Add(40 * time.Minute)
	var states [2][]byte
	for i, record := range []func(l paths.Layout) error{
		func(l paths.Layout) error {
			_, _, err := NewScheduler(l, set, t.Errorf).PromptSent(at, false)
			return err
		},
		func(l paths.Layout) error { return PromptJob{Home: l.Home, At: at, Settings: set}.Run(t.Errorf) },
	} {
		l := paths.Layout{Home: t.TempDir()}
		s := NewScheduler(l, set, t.Errorf)
		if _, err := s.SessionStarted(t0); err != nil {
			t.Fatal(err)
		}
		if err := s.AnswerEnded(t0.Add(20 * time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := record(l); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(s.Files.StatePath())
		if err != nil {
			t.Fatal(err)
		}
		states[i] = b
	}
	if !bytes.Equal(states[0], states[1]) {
		t.Errorf("the holder's record:\n%s\nthe hook's:\n%s", states[1], states[0])
	}
	st, err := DecodeState(states[1])
	if err != nil {
		t.Fatal(err)
	}
	if st.LastMicro != SecondsOf(at) || st.LastActive != SecondsOf(at) {
		t.Errorf("after a 20-minute pause: last_micro %v, last_active %v; want both reset to %v", st.LastMicro, st.LastActive, SecondsOf(at))
	}
}

// TestLatePromptJobMovesNothingBack: a prompt whose job waited while
// another session's answer ended and was recorded leaves the timers as
// they are: the pending break is judged at the next prompt, against the
// pause that one ends.
func TestLatePromptJobMovesNothingBack(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	set := DefaultSettings()
	s := NewScheduler(l, set, t.Errorf)
	if _, err := s.SessionStarted(t0); err != nil {
		t.Fatal(err)
	}
	if err := s.Files.UpdateState(t0, func(txn *Txn) error {
		txn.State.PendingBreak = &PendingBreak{Type: Micro.String(), FiredAt: SecondsOf(t0.Add(time.Minute))}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	prompt := t0.Add(10 * time.Minute)
	if err := s.AnswerEnded(prompt.Add(20 * time.Millisecond)); err != nil { // another session's Stop
		t.Fatal(err)
	}
	before, err := os.ReadFile(s.Files.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	if err := (PromptJob{Home: l.Home, At: prompt, Settings: set}).Run(t.Errorf); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(s.Files.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("a late prompt changed the timers:\n%s\nto\n%s", before, after)
	}
}
