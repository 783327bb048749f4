package remote

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
)

// Update is one machine's state as its stream stands: live with these
// sessions, or down with why.
type Update struct {
	Remote   view.Remote
	Sessions []view.Session
}

// DefaultMinInterval bounds what a remote may cost the tray: at most four
// states a second from each machine are decoded and shown, however fast
// it prints (a person reads none faster), and a wait never outlasts
// this.
const DefaultMinInterval = 250 * time.Millisecond

// Options are what Watch and Fetch need from the world.
type Options struct {
	Dial Dialer
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// After waits; nil means time.After. Tests make time pass by hand.
	After func(time.Duration) <-chan time.Time
	// Logf writes the tray's log; nil discards it.
	Logf func(format string, args ...any)
	// MinBackoff and MaxBackoff bound the wait before the next try after
	// a failure: it doubles from MinBackoff after each failure in a row,
	// up to MaxBackoff, and starts again at MinBackoff once a stream came
	// up. Zero means 2s and 1m.
	MinBackoff, MaxBackoff time.Duration
	// MinInterval is the least time between two states taken from one
	// machine's stream (the newest wins); zero means DefaultMinInterval.
	MinInterval time.Duration
	// Saw, when set, is told every state of a Set's machines after each
	// change, from the Set's goroutines (never two at once): the tray
	// leaves it for `hud statusline` (SeenWriter).
	Saw func(remotes []view.Remote, sessions []view.Session)
}

func (o *Options) defaults() {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.MinInterval <= 0 {
		o.MinInterval = DefaultMinInterval
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 2 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = time.Minute
	}
}

// Watch keeps r's stream up until ctx is done, and sends out each state:
// every line the remote sends while live, and one Update each time it
// goes down (with the moment it went, kept across retries). It never
// blocks its caller's loop for longer than the caller takes to receive.
func Watch(ctx context.Context, r config.Remote, o Options, out chan<- Update) {
	o.defaults()
	backoff := o.MinBackoff
	var (
		downSince time.Time
		lastSaid  string // the log says each failure once, not once a minute
	)
	for ctx.Err() == nil {
		live, err := stream(ctx, r, o, out)
		if ctx.Err() != nil {
			return
		}
		if live {
			backoff = o.MinBackoff
			downSince, lastSaid = time.Time{}, ""
		}
		if downSince.IsZero() {
			downSince = o.Now()
		}
		down := Down(r, err, downSince)
		if said := err.Error(); said != lastSaid {
			o.Logf("remote %s: %v (retrying from %s on, at most every %s)", r.Name, err, backoff, o.MaxBackoff)
			lastSaid = said
		}
		if !send(ctx, out, Update{Remote: down}) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-o.After(backoff):
		}
		backoff = min(2*backoff, o.MaxBackoff)
	}
}

// stream runs one connection to its end, sending an Update per state it
// takes; it reports whether any line came (the stream was live) and why
// it ended. The first line is taken at once; after that at most one
// state per o.MinInterval, the newest: the lines in between are states
// already out of date, and are never decoded.
func stream(ctx context.Context, r config.Remote, o Options, out chan<- Update) (live bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conn, err := o.Dial(ctx, r)
	if err != nil {
		return false, err
	}
	lines := readLatest(conn.Stdout(), MaxLine)
	var (
		readErr    error
		since, due time.Time
	)
	for {
		line, ok := lines.next(ctx)
		if !ok {
			break
		}
		if wait := due.Sub(o.Now()); live && wait > 0 {
			select {
			case <-ctx.Done():
			case <-o.After(wait):
			}
			if newer, ok := lines.take(); ok {
				line = newer
			}
		}
		now := o.Now()
		sessions, err := Decode(line, r.Name, now)
		if err != nil {
			readErr = err
			break
		}
		if !live {
			o.Logf("remote %s: connected", r.Name)
			live, since = true, now
		}
		due = now.Add(o.MinInterval)
		if !send(ctx, out, Update{Remote: view.Remote{Host: r.Name, Up: true, Since: since}, Sessions: sessions}) {
			break
		}
	}
	if readErr == nil && lines.Err() != nil {
		readErr = fmt.Errorf("reading the remote's stream: %w", lines.Err())
	}
	// The transport ends with the stream: cancelling kills ssh when the
	// stream broke off on this side (a bad line), so Wait returns.
	if readErr != nil {
		cancel()
	}
	waitErr := conn.Wait()
	<-lines.done
	// A bad line says more than how ssh ended after it was stopped.
	return live, firstErr(readErr, waitErr)
}

// firstErr is the first error of errs that is one; a stream that ended
// with none of them still ended.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return errors.New("the stream ended")
}

func send(ctx context.Context, out chan<- Update, u Update) bool {
	select {
	case out <- u:
		return true
	case <-ctx.Done():
		return false
	}
}

// Down is r's state after err, down since since: unreachable (with ssh's
// words) or, when the machine answered but its hud cannot serve, what to
// do about it.
func Down(r config.Remote, err error, since time.Time) view.Remote {
	v := view.Remote{Host: r.Name, Since: since}
	var (
		unreachable *Unreachable
		notFound    *NotFound
		version     *VersionError
	)
	switch {
	case errors.As(err, &unreachable):
		v.Detail = unreachable.Detail
	case errors.As(err, &notFound) && r.Command == "":
		v.Problem = "hud not found on the remote — install it there, or give its path: hud remote add --command ~/.local/bin/hud " + r.Destination
	case errors.As(err, &notFound):
		v.Problem = fmt.Sprintf("hud not found on the remote as %q — install it there, or fix the path: hud remote add --command PATH %s", text.Line(r.Command, 60), r.Destination)
	case errors.As(err, &version):
		v.Problem = version.Error()
	case err != nil:
		v.Detail = err.Error()
	}
	return v
}

// Fetch takes one state of r within timeout: the first line of its
// stream, or the machine as down. For the one-shot `hud status`, which
// must not hang on a machine that does not answer.
func Fetch(ctx context.Context, r config.Remote, o Options, timeout time.Duration) Update {
	o.defaults()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out := make(chan Update, 1)
	done := make(chan error, 1)
	go func() {
		_, err := stream(ctx, r, o, out)
		done <- err
	}()
	select {
	case u := <-out:
		cancel()
		<-done
		return u
	case err := <-done:
		select {
		case u := <-out: // a line came just before the stream ended
			return u
		default:
		}
		return Update{Remote: Down(r, err, o.Now())}
	case <-ctx.Done():
		<-done
		return Update{Remote: Down(r, &Unreachable{Detail: fmt.Sprintf("no answer within %s", timeout)}, o.Now())}
	}
}
