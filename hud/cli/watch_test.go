package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// syncBuffer is a bytes.Buffer written by the watch loop while the test
// reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor waits until out holds want count times.
func waitFor(t *testing.T, out *syncBuffer, want string, count int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), want) < count {
		if time.Now().After(deadline) {
			t.Fatalf("output never held %q %d times:\n%s", want, count, out)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func writeTestStore(t *testing.T, l paths.Layout, records ...*store.Record) {
	t.Helper()
	s := store.New()
	for _, r := range records {
		s.Sessions[r.SessionID] = r
	}
	data, err := store.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(l.StoreDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	tmp := l.StorePath() + ".tmp-test"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, l.StorePath()); err != nil {
		t.Fatal(err)
	}
}

// TestWatchPrintsABlockPerChange: into a pipe or file, each change is a
// new block, and a change that shows nothing new prints nothing.
func TestWatchPrintsABlockPerChange(t *testing.T) {
	out := &syncBuffer{}
	env := &Env{Stdout: out, Stderr: &syncBuffer{}, Home: t.TempDir(), Getenv: func(string) string { return "" }, Now: time.Now}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- watchSessions(ctx, env, watchSettings{render: status.WriteText,
			alive: func(int, int64) bool { return false }})
	}()
	waitFor(t, out, status.NoSessions, 1)

	now := time.Now()
	rec := &store.Record{SessionID: "s1", State: store.StateWaiting, CWD: "/home/u/api",
		UpdatedAt: store.At(now), StateChangedAt: store.At(now), WaitingFor: "Bash: npm test"}
	writeTestStore(t, env.Layout(), rec)
	waitFor(t, out, "Bash: npm test", 1)

	// A temp file in the store's directory changes nothing.
	if err := os.WriteFile(filepath.Join(env.Layout().StoreDir(), "junk.tmp"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rec.State, rec.WaitingFor = store.StateWorking, ""
	writeTestStore(t, env.Layout(), rec)
	waitFor(t, out, "api  working", 1)

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("watch returned %v after Ctrl-C", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("watch did not stop")
	}
	text := out.String()
	if strings.Contains(text, clearScreen) {
		t.Errorf("cleared the screen of a non-terminal:\n%q", text)
	}
	if blocks := strings.Count(text, "\n-- "); blocks != 2 { // the first block starts the output
		t.Errorf("got %d blocks after the first, want 2:\n%s", blocks, text)
	}
}

// TestWatchRedrawsOnATerminal: on a terminal every frame clears the screen
// first, and a fresh record's expiry redraws by itself.
func TestWatchRedrawsOnATerminal(t *testing.T) {
	out := &syncBuffer{}
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	env := &Env{Stdout: out, Stderr: &syncBuffer{}, Home: t.TempDir(), Getenv: func(string) string { return "" }, Now: now}
	rec := &store.Record{SessionID: "s1", State: store.StateWorking, CWD: "/home/u/api",
		UpdatedAt: store.At(clock.Add(-resolver.FreshTTL + 50*time.Millisecond)), StateChangedAt: store.At(clock)}
	writeTestStore(t, env.Layout(), rec)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- watchSessions(ctx, env, watchSettings{render: status.WriteText, terminal: true,
			alive: func(int, int64) bool { return false }})
	}()
	waitFor(t, out, "api  working", 1)
	// The record goes stale 50 ms from "now"; move the clock past it and
	// let the timer fire.
	mu.Lock()
	clock = clock.Add(time.Second)
	mu.Unlock()
	waitFor(t, out, status.NoSessions, 1)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if frames := strings.Count(out.String(), clearScreen); frames < 2 {
		t.Errorf("%d frames, want the screen cleared for each:\n%q", frames, out)
	}
}

func TestWatchOnce(t *testing.T) {
	var stdout, stderr bytes.Buffer
	env := &Env{Stdout: &stdout, Stderr: &stderr, Home: t.TempDir(), Getenv: func(string) string { return "" }, Now: time.Now}
	if code := Main([]string{"watch", "--once"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if stdout.String() != status.NoSessions+"\n" {
		t.Errorf("stdout = %q", stdout.String())
	}
	for _, args := range [][]string{{"watch", "extra"}, {"watch", "--format", "xml"}} {
		stderr.Reset()
		if code := Main(args, env); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)", args, code)
		}
	}
}

func TestNextAgeTick(t *testing.T) {
	since := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		age  time.Duration
		want time.Duration // after since
	}{
		{-time.Second, 0},
		{0, 10 * time.Second},
		{1500 * time.Millisecond, 10 * time.Second},
		{59 * time.Second, time.Minute},
		{time.Minute, 2 * time.Minute},
		{90 * time.Minute, 91 * time.Minute},
		{25 * time.Hour, 26 * time.Hour},
	}
	for _, tt := range tests {
		got := nextAgeTick(since, since.Add(tt.age))
		if !got.Equal(since.Add(tt.want)) {
			t.Errorf("age %v: next tick at +%v, want +%v", tt.age, got.Sub(since), tt.want)
		}
		if text.Age(got.Sub(since)) == text.Age(tt.age) && tt.age >= 0 {
			t.Errorf("age %v: the label %q does not change at the tick", tt.age, text.Age(tt.age))
		}
	}
}

func TestIsTerminal(t *testing.T) {
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is a terminal")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file is a terminal")
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Error("/dev/null is a terminal")
	}
}
