package focus

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// SilentFor is how long Looking leaves a server alone (a tmux server,
// kitty's socket, the X display) after it let a question run past its
// deadline. Notifications are decided one after another, so a server
// that never answers (stopped with SIGSTOP, or a program on its socket
// that never replies) would otherwise cost every one of its sessions'
// notifications the whole deadline, and every notification queued behind
// them as much. 30 s: a burst of notifications pays the deadline once,
// and a server that recovers is asked again soon.
const SilentFor = 30 * time.Second

// servers is what Looking knows of the servers it asks: which did not
// answer in time (skipped until SilentFor has passed), and the questions
// in flight, so that callers asking a server the same question at the
// same moment share one call. Its zero value is ready.
type servers struct {
	mu sync.Mutex
	m  map[string]*server
}

type server struct {
	silentUntil time.Time
	calls       map[string]*call // by question
}

// call is one question in flight; out and err are set before done closes.
type call struct {
	deadline time.Time // the asker's; zero: none
	done     chan struct{}
	out      any
	err      error
}

// shared is the memory of every Looking that names none: the whole
// program asks the same servers.
var shared = &servers{}

// run runs c through r as ask does, the question being the command line.
func (s *servers) run(ctx context.Context, name string, c Command, r Runner) ([]byte, error) {
	out, err := s.ask(ctx, name, c.String(), func(ctx context.Context) (any, error) { return r(ctx, c) })
	b, _ := out.([]byte)
	return b, err
}

// ask puts question to the server called name through f, and returns by
// ctx's deadline whether f has returned or not (f runs on a goroutine of
// its own and ends on its own, given ctx). A server skipped for not
// answering gets no question: the error then wraps ErrSkip. A question
// that runs past ctx's deadline marks the server as not answering; one
// already in flight with the same question is joined instead of asked
// again.
func (s *servers) ask(ctx context.Context, name, question string, f func(context.Context) (any, error)) (any, error) {
	s.mu.Lock()
	srv := s.server(name)
	if s.silent(srv, time.Now()) {
		s.mu.Unlock()
		return nil, fmt.Errorf("%w: %s did not answer in time, not asked again for %v", ErrSkip, name, SilentFor)
	}
	c := srv.calls[question]
	if c == nil {
		c = &call{done: make(chan struct{})}
		c.deadline, _ = ctx.Deadline()
		srv.calls[question] = c
		go func() {
			out, err := f(ctx)
			s.mu.Lock()
			c.out, c.err = out, err
			srv := s.server(name)
			if srv.calls[question] == c {
				delete(srv.calls, question)
			}
			now := time.Now()
			switch {
			case err == nil:
				// It answered: whoever gave up on it meanwhile was wrong.
				srv.silentUntil = time.Time{}
			case !c.deadline.IsZero() && !now.Before(c.deadline) && !now.Before(srv.silentUntil):
				// Cut off at the deadline: marked before the call is
				// forgotten, whichever of its askers is still to return.
				srv.silentUntil = now.Add(SilentFor)
			}
			s.forget(name, now)
			s.mu.Unlock()
			close(c.done)
		}()
	}
	s.mu.Unlock()
	select {
	case <-c.done:
		if c.err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			s.markSilent(name)
		}
		return c.out, c.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			s.markSilent(name)
		}
		return nil, fmt.Errorf("%s did not answer in time, not asked again for %v: %w", name, SilentFor, ctx.Err())
	}
}

// server returns the record of name, made when there is none. s.mu is held.
func (s *servers) server(name string) *server {
	if s.m == nil {
		s.m = map[string]*server{}
	}
	srv := s.m[name]
	if srv == nil {
		srv = &server{calls: map[string]*call{}}
		s.m[name] = srv
	}
	return srv
}

// silent reports whether srv is skipped at now. A question still in
// flight past its asker's deadline makes it so at once, before that
// asker's own goroutine has marked it: the next notification, decided the
// moment the last one gave up, must not ask it again. s.mu is held.
func (s *servers) silent(srv *server, now time.Time) bool {
	if now.Before(srv.silentUntil) {
		return true
	}
	for _, c := range srv.calls {
		if !c.deadline.IsZero() && !now.Before(c.deadline) {
			srv.silentUntil = c.deadline.Add(SilentFor)
			return true
		}
	}
	return false
}

func (s *servers) markSilent(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if srv := s.server(name); !now.Before(srv.silentUntil) {
		srv.silentUntil = now.Add(SilentFor)
	}
	for other := range s.m {
		s.forget(other, now)
	}
}

// forget drops the record of name when it holds nothing: no question in
// flight, not skipped. s.mu is held.
func (s *servers) forget(name string, now time.Time) {
	if srv := s.m[name]; srv != nil && len(srv.calls) == 0 && !now.Before(srv.silentUntil) {
		delete(s.m, name)
	}
}
