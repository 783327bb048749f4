package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/app"
	"github.com/capacitor-hud/hud/hud/present"
	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/hud/watch"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/resolver"
)

// runWatch prints the live sessions and again on every change, until
// Ctrl-C: the tray's view for a terminal, or for a machine without a tray.
func runWatch(env *Env, args []string) error {
	fs := newFlagSet(env, "watch", "watch [--once] [--format NAME]")
	once := fs.Bool("once", false, "print the state once and exit")
	local := fs.Bool("local", false, "leave out the remote machines ('hud remote')")
	remoteTimeout := fs.Duration("remote-timeout", 3*time.Second, "with --once, how long to wait for each remote machine")
	format := fs.String("format", status.Formats[0].Name, "output format: "+status.FormatNames(nil))
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	f, ok := status.LookupFormat(*format)
	if !ok {
		return usagef("unknown format %q (want one of %s)", *format, status.FormatNames(nil))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ws := watchSettings{
		render:   f.Render,
		once:     *once,
		terminal: isTerminal(env.Stdout),
		alive:    proc.Alive,
	}
	switch {
	case *local:
	case *once:
		remotes, sessions := fetchRemotes(env, *remoteTimeout)
		ws.remotes.state = func() ([]view.Remote, []view.Session) { return remotes, sessions }
	default:
		var stop func()
		ws.remotes, stop = followRemotes(ctx, env)
		defer stop()
	}
	return watchSessions(ctx, env, ws)
}

// watchSettings is how watchSessions prints.
type watchSettings struct {
	render status.Render
	once   bool
	// terminal redraws in place (clear screen) and keeps the ages
	// ticking; otherwise each change prints a new block, so the output
	// reads as a log in a file or a pipe.
	terminal bool
	alive    resolver.Liveness
	// remotes are the remote machines to show beside the local sessions.
	remotes remoteFeed
}

// Escape sequences: cursor home, then clear to the end of the screen.
// Written together with the frame in one write, so the screen never shows
// a half-drawn state.
const clearScreen = "\x1b[H\x1b[J"

// watchSessions prints until ctx ends.
func watchSessions(ctx context.Context, env *Env, ws watchSettings) error {
	layout := env.Layout()
	if ws.once {
		_, err := env.Stdout.Write(frame(env, ws, layout, env.Now()).text)
		return err
	}
	// On a terminal every frame is written (the header's clock moves);
	// elsewhere only a frame that shows something new, or a pipe would
	// fill with copies.
	err := follow(ctx, env, ws.terminal, ws.remotes.changed, func(now time.Time) (watchFrame, error) {
		return frame(env, ws, layout, now), nil
	})
	if err == nil && ws.terminal {
		fmt.Fprintln(env.Stdout)
	}
	return err
}

// follow draws the state now, then again on every file change and at the
// moment the last drawing said the output changes by the clock alone,
// writing each drawing whose body differs from the last one written (every
// drawing, with always), and again when also fires. It returns nil when ctx ends or the reader of
// stdout went away (a closed pipe). The watcher starts before the first
// read, so a change between the two is never missed.
func follow(ctx context.Context, env *Env, always bool, also <-chan struct{}, draw func(now time.Time) (watchFrame, error)) error {
	layout := env.Layout()
	first, _ := resolver.LoadSnapshot(layout, proc.StartTicks, registry.Logs)
	w, err := watch.New(watch.Options{Layout: layout, Files: app.WatchedFiles(layout), LockDirs: first.LockDirs})
	if err != nil {
		return withHint(err, "check the permissions of "+layout.StoreDir()+" and "+layout.LockDir())
	}
	defer w.Close()

	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var last []byte
	for {
		now := env.Now()
		f, err := draw(now)
		if err != nil {
			return err
		}
		w.FollowAgentLogs(f.logDirs...)
		w.FollowStatusLines(layout.StatusLineDir())
		if w.Follow(f.lockDirs...) {
			// A config directory appeared (a record names it): what
			// happened in it before the watch began needs another read.
			if f, err = draw(now); err != nil {
				return err
			}
		}
		if always || !bytes.Equal(f.body, last) {
			if _, err := env.Stdout.Write(f.text); err != nil {
				if errors.Is(err, syscall.EPIPE) {
					return nil
				}
				return fmt.Errorf("writing the state: %w", err)
			}
			last = f.body
		}
		timer.Stop()
		if !f.next.IsZero() {
			timer.Reset(max(0, f.next.Sub(now)))
		}
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-w.Changes():
			if !ok {
				return fmt.Errorf("watching %s: the watcher stopped", layout.StoreDir())
			}
		case <-timer.C:
		case <-also:
		}
	}
}

// watchFrame is one printing of the state.
type watchFrame struct {
	text []byte // what to write, header and escapes included
	body []byte // the state alone, to tell whether anything changed
	// next is when the same files would print differently by the clock
	// alone; zero if never.
	next time.Time
	// lockDirs are the sessions/ directories the drawing read, to follow.
	lockDirs []string
	// logDirs are the directories of other agents' logs it read.
	logDirs []string
}

// frame reads everything afresh (a Change only says that something
// changed, and reading all is cheap) and renders it.
func frame(env *Env, ws watchSettings, layout paths.Layout, now time.Time) watchFrame {
	var body bytes.Buffer
	var next time.Time
	snap, err := loadSnapshot(layout)
	if err != nil {
		// Keep watching: a corrupt store is replaced by the hook's next
		// event, and a person watching wants to see that happen.
		fmt.Fprintf(&body, "hud watch: %v\n", err)
	}
	sessions := resolver.ResolveAll(snap, now, ws.alive)
	v := status.New(sessions, now)
	v.Accounts = view.Accounts(layout.Home, snap.Accounts)
	ws.remotes.addTo(v)
	if err := ws.render(&body, v); err != nil {
		fmt.Fprintf(&body, "hud watch: %v\n", err)
	}
	next = nextChangeByClock(sessions, now, ws.terminal)
	for _, s := range v.Sessions {
		if s.Host != "" && ws.terminal && !s.Since.IsZero() {
			next = present.Earliest(next, nextAgeTick(s.Since, now)) // a remote session's age
		}
	}

	var text bytes.Buffer
	stamp := now.Format("15:04:05")
	switch {
	case ws.once:
	case ws.terminal:
		fmt.Fprintf(&text, "%shud watch · %s · Ctrl-C to quit\n\n", clearScreen, stamp)
	default:
		fmt.Fprintf(&text, "-- %s\n", stamp)
	}
	text.Write(body.Bytes())
	return watchFrame{text: text.Bytes(), body: body.Bytes(), next: next, lockDirs: snap.LockDirs, logDirs: snap.AgentLogDirs}
}

// nextChangeByClock is the earliest moment the output changes with no file
// changing: when the resolution does (resolver.NextChange) and, on a
// terminal, when an age label ticks.
func nextChangeByClock(sessions []resolver.Session, now time.Time, ages bool) time.Time {
	next := resolver.NextChange(sessions, now)
	if ages {
		for _, s := range sessions {
			if !s.Since.IsZero() {
				next = present.Earliest(next, nextAgeTick(s.Since, now))
			}
		}
	}
	return next
}

// nextAgeTick is when the age label of the time since `since` next changes.
func nextAgeTick(since, now time.Time) time.Time {
	return now.Add(text.UntilAgeChanges(now.Sub(since)))
}

// isTerminal reports whether w is a terminal, where clearing the screen
// makes sense. Asking for the window size works on Linux and macOS alike
// and, unlike a character-device check, says no for /dev/null.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	return err == nil
}
