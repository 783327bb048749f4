package remote

import (
	"context"
	"sync"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/view"
)

// Set follows several machines at once, one goroutine each, and keeps the
// last state of each for a loop to read when Changed says so. The
// goroutines never wait for that loop: a state it has not read yet is
// replaced by the next, so a chatty or stuck remote can never stall the
// tray or the local sessions.
type Set struct {
	order   []string // machine names, in the list's order
	changed chan struct{}
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	mu   sync.Mutex
	last map[string]Update
}

// Start follows each machine of list until Stop.
func Start(ctx context.Context, list []config.Remote, o Options) *Set {
	ctx, cancel := context.WithCancel(ctx)
	s := &Set{changed: make(chan struct{}, 1), cancel: cancel, last: map[string]Update{}}
	for _, r := range list {
		s.order = append(s.order, r.Name)
		// Until the first answer the machine shows as connecting: neither
		// its sessions nor an alarm.
		s.last[r.Name] = Update{Remote: view.Remote{Host: r.Name, Connecting: true}}
		updates := make(chan Update)
		s.wg.Add(2)
		go func() {
			defer s.wg.Done()
			defer close(updates)
			Watch(ctx, r, o, updates)
		}()
		go func() {
			defer s.wg.Done()
			for u := range updates {
				s.mu.Lock()
				s.last[r.Name] = u
				s.mu.Unlock()
				select {
				case s.changed <- struct{}{}:
				default: // a signal is pending already
				}
			}
		}()
	}
	return s
}

// Changed fires after a machine's state changed; read State then.
func (s *Set) Changed() <-chan struct{} { return s.changed }

// State is every machine's last state, in the list's order, and their
// live sessions.
func (s *Set) State() ([]view.Remote, []view.Session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var (
		remotes  []view.Remote
		sessions []view.Session
	)
	for _, name := range s.order {
		u := s.last[name]
		remotes = append(remotes, u.Remote)
		sessions = append(sessions, u.Sessions...)
	}
	return remotes, sessions
}

// Stop ends every stream (ssh is sent SIGTERM) and waits for them.
func (s *Set) Stop() {
	s.cancel()
	s.wg.Wait()
}
