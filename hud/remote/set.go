package remote

import (
	"context"
	"slices"
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
	ctx     context.Context
	o       Options
	changed chan struct{}
	wg      sync.WaitGroup

	sawMu sync.Mutex // one Options.Saw at a time, in order

	mu     sync.Mutex
	list   []config.Remote
	gen    int // counts Follow calls: a stopped stream's late news is dropped
	cancel context.CancelFunc
	last   map[string]Update
}

// NewSet returns a Set following nothing until Follow; it stops with ctx
// or Stop.
func NewSet(ctx context.Context, o Options) *Set {
	return &Set{ctx: ctx, o: o, changed: make(chan struct{}, 1), cancel: func() {}, last: map[string]Update{}}
}

// Follow makes the set follow exactly list: when it differs from what the
// set follows, every stream starts anew (ssh is sent SIGTERM; Follow does
// not wait for it to exit).
func (s *Set) Follow(list []config.Remote) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.Equal(list, s.list) && s.gen > 0 {
		return
	}
	s.cancel()
	s.gen++
	gen := s.gen
	ctx, cancel := context.WithCancel(s.ctx)
	s.cancel, s.list, s.last = cancel, slices.Clone(list), map[string]Update{}
	for _, r := range list {
		// Until the first answer the machine shows as connecting: neither
		// its sessions nor an alarm.
		s.last[r.Name] = Update{Remote: view.Remote{Host: r.Name, Connecting: true}}
		updates := make(chan Update)
		s.wg.Add(2)
		go func() {
			defer s.wg.Done()
			defer close(updates)
			Watch(ctx, r, s.o, updates)
		}()
		go func() {
			defer s.wg.Done()
			for u := range updates {
				s.put(gen, r.Name, u)
			}
		}()
	}
	s.signal()
}

func (s *Set) put(gen int, name string, u Update) {
	s.mu.Lock()
	if gen != s.gen {
		s.mu.Unlock()
		return
	}
	s.last[name] = u
	s.mu.Unlock()
	if s.o.Saw != nil {
		s.sawMu.Lock()
		s.o.Saw(s.State())
		s.sawMu.Unlock()
	}
	s.signal()
}

func (s *Set) signal() {
	select {
	case s.changed <- struct{}{}:
	default: // a signal is pending already
	}
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
	for _, r := range s.list {
		u := s.last[r.Name]
		remotes = append(remotes, u.Remote)
		sessions = append(sessions, u.Sessions...)
	}
	return remotes, sessions
}

// Stop ends every stream and waits for them (and their ssh) to end.
func (s *Set) Stop() {
	s.mu.Lock()
	s.cancel()
	s.gen++
	s.mu.Unlock()
	s.wg.Wait()
}
