package wayland

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"time"
)

// Source is the compositor's idle time for a long-running program (the
// tray's away push): connected at the first question, kept for the
// program's life, and connected again once lost, at most every
// RetryAfter. The idle protocols only say
// when input stopped after the watch began, so the watch must live as
// long as the questions do.
type Source struct {
	// Path is the compositor's socket (SocketPath).
	Path string
	// Timeout is the shortest idle period the compositor reports
	// (DefaultTimeout when 0).
	Timeout time.Duration
	// RetryAfter spaces connections after one failed (DefaultRetry when 0).
	RetryAfter time.Duration
	// Now is the clock; nil: time.Now.
	Now func() time.Time

	mu      sync.Mutex
	w       *Watcher
	failed  time.Time
	lastErr error
}

// DefaultTimeout is the shortest idle period reported: short beside any
// away threshold, long enough that typing with pauses costs the program no
// wakeups.
const DefaultTimeout = 5 * time.Second

// DefaultRetry spaces connections to a compositor that refused one: its
// protocols do not change while it runs.
const DefaultRetry = time.Minute

// Idle returns how long the person has had no input, the way Watcher.Idle
// does; ctx bounds a connection made now.
func (s *Source) Idle(ctx context.Context) (time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock()
	if s.w != nil {
		d, err := s.w.Idle()
		if err == nil {
			return d, nil
		}
		s.w.Close()
		s.w, s.failed, s.lastErr = nil, now, err
	}
	if s.Path == "" {
		return 0, errors.New("no Wayland display")
	}
	if s.lastErr != nil && now.Sub(s.failed) < cmp.Or(s.RetryAfter, DefaultRetry) {
		return 0, s.lastErr
	}
	w, err := Watch(ctx, s.Path, cmp.Or(s.Timeout, DefaultTimeout), s.Now)
	if err != nil {
		s.failed, s.lastErr = now, err
		return 0, err
	}
	s.w, s.lastErr = w, nil
	return w.Idle()
}

// Protocol names the idle protocol of the live watch, "" without one.
func (s *Source) Protocol() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w == nil {
		return ""
	}
	return s.w.Protocol()
}

func (s *Source) clock() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}
