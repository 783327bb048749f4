package attention

import (
	"context"
	"time"
)

// Returns watches the person's idle time and says when they come back to
// the keyboard after being away at least After: the "while you were away"
// summary. It asks the idle source seldom: while the person is present,
// not before they could have been away After; while away, every
// awayPoll, to see the first key.
type Returns struct {
	// Idle is the desktop's idle time (IdleSources.Idle).
	Idle func(context.Context) (time.Duration, error)
	// After is how long an absence lasts before it counts; read through
	// AfterFn when set, so a reload takes effect; zero turns it off.
	AfterFn func() time.Duration
	// Back is called, on Run's goroutine, with the absence: from the last
	// input before it to the first after.
	Back func(from, to time.Time)
	Now  func() time.Time
	Logf func(format string, args ...any)
	// Sleep waits d or until ctx ends (false); nil: a timer. Tests pass a
	// clock's.
	Sleep func(ctx context.Context, d time.Duration) bool
}

// awayPoll is how often an absent person's idle time is asked, so the
// summary comes within that of their first key.
const awayPoll = 2 * time.Second

// retryIdle spaces questions to an idle source that failed, twice as far
// apart after each failure, up to maxRetryIdle: a desktop that cannot
// tell (no display, no idle monitor on the bus) seldom learns to, and
// each question to the bus costs its daemon a name lookup. A setting
// turned back on is noticed within offCheck.
const (
	retryIdle    = 10 * time.Minute
	maxRetryIdle = time.Hour
	offCheck     = time.Minute
)

// Run watches until ctx ends.
func (r *Returns) Run(ctx context.Context) {
	var awaySince time.Time // zero while present
	var lastIdle time.Duration
	failed, retry := false, retryIdle
	for {
		wait := offCheck
		after := r.AfterFn()
		if after > 0 {
			idle, err := r.ask(ctx)
			now := r.Now()
			if err == nil {
				retry = retryIdle
			}
			switch {
			case err != nil:
				if !failed {
					r.Logf("away summary: cannot tell whether you are away (%v)", err)
				}
				failed, awaySince = true, time.Time{}
				wait, retry = retry, min(2*retry, maxRetryIdle)
			case !awaySince.IsZero() && idle < lastIdle:
				// Input came since the last look: back at its moment.
				r.Back(awaySince, now.Add(-idle))
				awaySince = time.Time{}
				wait = max(after-idle, awayPoll)
			case !awaySince.IsZero():
				wait = awayPoll
			case idle >= after:
				failed, awaySince, wait = false, now.Add(-idle), awayPoll
			default:
				failed, wait = false, max(after-idle, awayPoll)
			}
			lastIdle = idle
		}
		if !r.sleep(ctx, wait) {
			return
		}
	}
}

func (r *Returns) ask(ctx context.Context) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, idleTimeout)
	defer cancel()
	return r.Idle(ctx)
}

func (r *Returns) sleep(ctx context.Context, d time.Duration) bool {
	if r.Sleep != nil {
		return r.Sleep(ctx, d)
	}
	return sleepUntil(ctx, r.Now, r.Now().Add(d))
}
