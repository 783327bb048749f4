package remote

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/view"
)

// cpuTime is the CPU time this process has used so far.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestAChattyRemoteCostsLittle: a remote printing 1,100 states a second
// (each a different one) is taken at most 1/DefaultMinInterval times a
// second, the seen file is written at most once per its period, and the
// newest state is the one left shown when the remote goes quiet.
func TestAChattyRemoteCostsLittle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	const (
		rate    = 1100
		flood   = 3 * time.Second
		every   = 500 * time.Millisecond
		maxTook = int(flood/DefaultMinInterval) + 3
		maxSeen = int(flood/every) + 3
	)
	var sent atomic.Int64
	lastLine := make(chan string, 1)
	dial := func(ctx context.Context, r config.Remote) (Conn, error) {
		c := newFakeConn()
		go func() { <-ctx.Done(); c.hangUp(errors.New("killed")) }()
		go func() {
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			end := time.Now().Add(flood)
			var last string
			for time.Now().Before(end) {
				<-tick.C
				for range rate / 100 {
					n := sent.Add(1)
					last = fmt.Sprintf("step %d", n)
					if _, err := fmt.Fprintln(c.w, line(strings.Replace(waiting, "run the tests", last, 1))); err != nil {
						return
					}
				}
			}
			lastLine <- last
		}()
		return c, nil
	}
	seen := &SeenWriter{Path: filepath.Join(t.TempDir(), SeenName), Every: every}
	var took atomic.Int64
	saw := func(remotes []view.Remote, sessions []view.Session) {
		took.Add(1)
		seen.Saw(remotes, sessions)
	}
	set := NewSet(context.Background(), Options{Dial: dial, Saw: saw})
	cpu, start := cpuTime(t), time.Now()
	set.Follow([]config.Remote{{Name: "devbox", Destination: "devbox"}})
	last := <-lastLine
	used, wall := cpuTime(t)-cpu, time.Since(start)
	// Quiet now: the newest state is taken, then written.
	time.Sleep(DefaultMinInterval + every + 200*time.Millisecond)
	_, sessions := set.State()
	_, written := ReadSeen(seen.Path, time.Now())
	set.Stop()
	seen.Close()

	t.Logf("%d lines in %s: %d states taken, %d seen-file writes, %.1f%% of a core (reader, decoder and writer)",
		sent.Load(), wall.Round(time.Millisecond), took.Load(), seen.Writes(), 100*used.Seconds()/wall.Seconds())
	if sent.Load() < int64(rate*flood/time.Second)/2 {
		t.Fatalf("only %d lines sent: the machine is too slow to measure", sent.Load())
	}
	if n := took.Load(); n > int64(maxTook) {
		t.Errorf("%d states taken in %s, want at most %d", n, flood, maxTook)
	}
	if n := seen.Writes(); n > maxSeen {
		t.Errorf("the seen file was written %d times in %s, want at most %d", n, flood, maxSeen)
	}
	if len(sessions) != 1 || sessions[0].WorkingOn != last {
		t.Errorf("shown after the flood: %+v, want the newest state (%q)", sessions, last)
	}
	if len(written) != 1 || written[0].WorkingOn != last {
		t.Errorf("left for the status line: %+v, want the newest state (%q)", written, last)
	}
}

// TestSeenWriter: the file is written when what it says changes, at most
// once per period; the same state again writes nothing, and Close removes
// the file and stops a pending write.
func TestSeenWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), SeenName)
	w := &SeenWriter{Path: path, Every: 100 * time.Millisecond}
	up := []view.Remote{{Host: "devbox", Up: true, Since: now}}
	sessions, err := Decode([]byte(line(waiting)), "devbox", now)
	if err != nil {
		t.Fatal(err)
	}
	w.Saw(up, sessions)
	w.Saw(up, sessions)
	if w.Writes() != 1 {
		t.Fatalf("%d writes of one state, want 1", w.Writes())
	}
	w.Saw(up, nil) // within the period: later
	if w.Writes() != 1 {
		t.Errorf("written again within the period")
	}
	time.Sleep(300 * time.Millisecond)
	if _, s := ReadSeen(path, now); w.Writes() != 2 || len(s) != 0 {
		t.Errorf("after the period: %d writes, sessions %+v; want 2 and none", w.Writes(), s)
	}
	w.Saw(up, sessions)
	w.Close()
	time.Sleep(200 * time.Millisecond)
	if r, _ := ReadSeen(path, now); r != nil {
		t.Errorf("the file outlived Close: %+v", r)
	}
}
