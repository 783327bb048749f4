package app

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/remote"
	"github.com/capacitor-hud/hud/hud/view"
)

// Remotes is what the loop reads of the remote machines (remote.Set):
// their streams run in goroutines of their own, and the loop only ever
// takes the last state of each, so no machine can stall it.
type Remotes interface {
	// Changed fires after a machine's state changed.
	Changed() <-chan struct{}
	// State is each machine's state and the sessions of those that are up.
	State() ([]view.Remote, []view.Session)
}

// remoteState is what the loop shows of the remote machines now.
func (a *App) remoteState() ([]view.Remote, []view.Session) {
	if a.opts.Remotes == nil {
		return nil, nil
	}
	return a.opts.Remotes.State()
}

// remoteRows are the menu's lines about machines whose sessions cannot be
// seen ("devbox: unreachable since 10:42"), after the sessions: nobody
// should take a machine's silence for no sessions.
func remoteRows(remotes []view.Remote, now time.Time) []Row {
	var rows []Row
	for _, r := range remotes {
		if r.Up || r.Connecting {
			continue
		}
		rows = append(rows, Row{Label: r.Status(now), Disabled: true})
	}
	return rows
}

// followRemotes starts following the machines of the remotes file beside
// the settings file, and returns the set, how to reread the file, and how
// to stop. A new ssh command takes effect at each machine's next
// connection. What the set sees is left for `hud statusline`
// (remote.SeenWriter) until stop.
func followRemotes(ctx context.Context, s Setup) (set *remote.Set, reload, stop func()) {
	path := config.RemotesPath(s.ConfigPath)
	var sshCommand atomic.Pointer[string]
	sshCommand.Store(new(string))
	dial := func(ctx context.Context, r config.Remote) (remote.Conn, error) {
		return remote.SSH{Command: *sshCommand.Load(), ConnectTimeout: 10 * time.Second}.Dial(ctx, r)
	}
	now := s.Now
	if now == nil {
		now = time.Now
	}
	seen := &remote.SeenWriter{Path: remote.SeenPath(s.Layout), Now: now, Logf: s.Logf}
	set = remote.NewSet(ctx, remote.Options{Dial: dial, Now: s.Now, Logf: s.Logf, Saw: seen.Saw})
	reload = func() {
		rs, err := config.LoadRemotes(path)
		if err != nil {
			// Keep following what was read last: a half-edited file is
			// no reason to drop every machine.
			s.Logf("%v", err)
			return
		}
		cmd := remote.SSHCommand(s.Getenv, rs)
		sshCommand.Store(&cmd)
		set.Follow(rs.Remotes)
	}
	reload()
	stop = func() {
		set.Stop()
		seen.Close()
	}
	return set, reload, stop
}
