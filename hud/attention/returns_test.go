package attention

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// returnsRig is a person at a keyboard on a clock of its own: idle is the
// time since the last of inputs.
type returnsRig struct {
	start  time.Time
	now    time.Time
	inputs []time.Duration // since start
	fail   func(at time.Duration) bool
	backs  [][2]time.Duration
	asked  int
}

func (r *returnsRig) idle(context.Context) (time.Duration, error) {
	r.asked++
	at := r.now.Sub(r.start)
	if r.fail != nil && r.fail(at) {
		return 0, errors.New("no idle source")
	}
	last := time.Duration(0)
	for _, in := range r.inputs {
		if in <= at {
			last = in
		}
	}
	return at - last, nil
}

func (r *returnsRig) run(t *testing.T, after, until time.Duration) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &Returns{
		Idle:    r.idle,
		AfterFn: func() time.Duration { return after },
		Back: func(from, to time.Time) {
			r.backs = append(r.backs, [2]time.Duration{from.Sub(r.start), to.Sub(r.start)})
		},
		Now:  func() time.Time { return r.now },
		Logf: t.Logf,
		Sleep: func(ctx context.Context, d time.Duration) bool {
			r.now = r.now.Add(d)
			if r.now.Sub(r.start) > until {
				cancel()
			}
			return ctx.Err() == nil
		},
	}
	w.Run(ctx)
}

func TestReturns(t *testing.T) {
	const m = time.Minute
	tests := []struct {
		name   string
		after  time.Duration
		inputs []time.Duration
		want   [][2]time.Duration
	}{
		{"present all along", 10 * m, []time.Duration{0, 5 * m, 9 * m, 18 * m, 27 * m, 36 * m}, nil},
		{"away 35 minutes, then a key", 10 * m, []time.Duration{0, 5 * m, 40 * m, 41 * m}, [][2]time.Duration{{5 * m, 40 * m}}},
		{"two absences", 10 * m, []time.Duration{0, 15 * m, 16 * m, 45 * m}, [][2]time.Duration{{0, 15 * m}, {16 * m, 45 * m}}},
		{"away 2 minutes only", 10 * m, []time.Duration{0, 1 * m, 3 * m, 9 * m, 11 * m, 19 * m, 28 * m, 37 * m, 46 * m}, nil},
		{"off", 0, []time.Duration{0, 40 * m}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &returnsRig{start: time.Unix(1_800_000_000, 0), inputs: tt.inputs}
			r.now = r.start
			r.run(t, tt.after, 55*m)
			// The first key is seen within awayPoll of its moment, and
			// its moment is told exactly.
			if !slices.Equal(r.backs, tt.want) {
				t.Errorf("backs = %v, want %v", r.backs, tt.want)
			}
		})
	}
}

// A present person costs a question per stretch of After, not per poll.
func TestReturnsAsksSeldomWhilePresent(t *testing.T) {
	const m = time.Minute
	var inputs []time.Duration
	for at := time.Duration(0); at < 60*m; at += 30 * time.Second {
		inputs = append(inputs, at)
	}
	r := &returnsRig{start: time.Unix(1_800_000_000, 0), inputs: inputs}
	r.now = r.start
	r.run(t, 10*m, 60*m)
	if r.asked > 12 {
		t.Errorf("asked %d times in an hour at the keyboard, want at most 12", r.asked)
	}
}

// An idle source that fails is asked again later, and an absence across
// the failure is not told with a wrong start.
func TestReturnsIdleFails(t *testing.T) {
	const m = time.Minute
	r := &returnsRig{start: time.Unix(1_800_000_000, 0), inputs: []time.Duration{0, 50 * m},
		fail: func(at time.Duration) bool { return at > 12*m && at < 20*m }}
	r.now = r.start
	r.run(t, 10*m, 55*m)
	if len(r.backs) != 1 || r.backs[0][1] != 50*m {
		t.Errorf("backs = %v, want one ending at 50m", r.backs)
	}
}
