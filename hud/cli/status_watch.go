package cli

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/resolver"
)

// watchStatusLines prints the state once, then again each time it
// changes, until SIGINT or SIGTERM. Unlike `hud watch` (a screen for a
// person), it writes bare lines for programs: no header, no clearing, and
// nothing when a file changed without changing the state.
//
// The JSON stream is this machine's sessions alone: it is what remote
// machines are read from (docs/remote.md), and two machines following each
// other must not loop. Other streams (waybar) show the remote machines too,
// unless local.
func watchStatusLines(env *Env, f status.Format, project string, local bool) error {
	if f.Name == status.Formats[0].Name {
		// The flag's default, a table, is no line: --watch alone means
		// JSON lines.
		f, _ = status.LookupFormat("json")
	}
	if f.Line == nil {
		return usagef("--watch prints %s lines, not %q", status.FormatNames(status.Streams), f.Name)
	}
	if project != "" {
		return usagef("--watch and --project do not go together")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if gone := readerGone(env.Stdout); gone != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-gone:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	var remotes remoteFeed
	if f.Name != "json" && !local {
		var stop func()
		remotes, stop = followRemotes(ctx, env)
		defer stop()
	}
	return streamLines(ctx, env, f.Line, proc.Alive, remotes)
}

// streamLines is the loop of watchStatusLines: one line per state, and
// none when a file changed without changing it.
func streamLines(ctx context.Context, env *Env, render status.Render, alive resolver.Liveness, remotes remoteFeed) error {
	layout := env.Layout()
	return follow(ctx, env, false, remotes.changed, func(now time.Time) (watchFrame, error) {
		// A corrupt store reads as no sessions until the hook replaces
		// it: a status bar shows "idle" rather than an error message.
		snap, _ := resolver.LoadSnapshot(layout, proc.StartTicks, registry.Logs)
		sessions := resolver.ResolveAll(snap, now, alive)
		var line bytes.Buffer
		v := status.New(sessions, now)
		v.HooksProblem = hooksDoubt(layout, sessions)
		remotes.addTo(v)
		if err := render(&line, v); err != nil {
			return watchFrame{}, err
		}
		// The state also changes by the clock alone (a fresh record
		// without a lock expires); ages are not shown, so not counted.
		next := nextChangeByClock(sessions, now, false)
		return watchFrame{text: line.Bytes(), body: line.Bytes(), next: next, lockDirs: snap.LockDirs}, nil
	})
}

// readerGone returns a channel closed when nobody can read w any more:
// when w is a pipe or socket whose other end closed. Over ssh that is the
// connection ending (the tray quit, the laptop slept): sshd leaves a
// command without a terminal running, and a stream with nothing new to
// print would never find out by writing. Nil (never) for anything else.
func readerGone(w io.Writer) <-chan struct{} {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) == 0 {
		return nil
	}
	gone := make(chan struct{})
	go func() {
		// No events asked for: poll reports POLLHUP and POLLERR anyway,
		// and only those. The goroutine lives as long as the stream.
		fds := []unix.PollFd{{Fd: int32(f.Fd())}}
		for {
			n, err := unix.Poll(fds, -1)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n > 0 && fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0 {
				close(gone)
				return
			}
		}
	}()
	return gone
}
