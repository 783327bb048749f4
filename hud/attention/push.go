package attention

import (
	"cmp"
	"context"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
)

// Message is one away push.
type Message struct {
	Title string
	Body  string
	// Link, when set, is where a tap on the notification goes: the page
	// (hud serve), at the session.
	Link string
}

// Retry bounds for a push that fails: the first retry after RetryAfter,
// each next one twice as late up to maxRetryWait, at most maxAttempts in
// all; a wait that ends stops them.
const (
	DefaultRetryAfter = 5 * time.Second
	maxRetryWait      = 5 * time.Minute
	maxAttempts       = 6
	// idleTimeout bounds one question to the desktop about the idle time.
	idleTimeout = 2 * time.Second
)

// Push sends one message per wait when a session has waited
// notifications.push_after and the person has been away from the keyboard
// at least as long. Update runs on the tray's loop and only notes what
// changed; each wait is followed by a goroutine of its own, which sleeps
// until the push is due, asks the idle time, and posts with retries, so
// neither the desktop nor the network ever holds up the loop.
type Push struct {
	// Idle says how long the person has not touched the keyboard or the
	// mouse (focus.Idle); an error means it cannot be told, and then no
	// push is sent: nobody is known to be away.
	Idle func(ctx context.Context) (time.Duration, error)
	// Quiet says why the desktop holds notifications back now (DND.Reason),
	// "" when it does not; nil: never. Do Not Disturb holds the push back
	// too: it reaches the person wherever they are.
	Quiet func(ctx context.Context) (string, error)
	// Post sends a message to url (PostNtfy).
	Post func(ctx context.Context, url string, m Message) error
	Now  func() time.Time
	Logf func(format string, args ...any)
	// RetryAfter is the first retry's delay; 0 means DefaultRetryAfter.
	RetryAfter time.Duration
	// Link, when set, is the page's address of a session (by its view
	// key), sent with the push. Set it before the first Update.
	Link func(key string) string

	mu  sync.Mutex
	cfg config.Notifications
	// waits are the sessions waiting now, by view.Session.Key.
	waits map[string]*wait
	// pushed is, by session, the start of the last wait pushed: a
	// session that leaves the list and comes back on the same wait (a
	// remote machine reconnecting) is not pushed twice.
	pushed map[string]time.Time
	wg     sync.WaitGroup
}

type wait struct {
	start   time.Time
	session view.Session // the latest view, for the message
	cancel  context.CancelFunc
}

// NewPush returns a Push with the settings cfg.
func NewPush(cfg config.Notifications, idle func(context.Context) (time.Duration, error),
	post func(context.Context, string, Message) error, now func() time.Time, logf func(string, ...any)) *Push {
	return &Push{Idle: idle, Post: post, Now: now, Logf: logf, cfg: cfg,
		waits: map[string]*wait{}, pushed: map[string]time.Time{}}
}

// Configure takes the reloaded settings: a changed URL or delay starts
// the waits being followed afresh (a wait already pushed is not pushed
// again); a changed push_detail applies to every push not yet sent.
func (p *Push) Configure(cfg config.Notifications) {
	p.mu.Lock()
	defer p.mu.Unlock()
	same := cfg.PushURL == p.cfg.PushURL && cfg.PushAfter == p.cfg.PushAfter
	p.cfg = cfg
	if same {
		return
	}
	for key, w := range p.waits {
		w.cancel()
		delete(p.waits, key)
	}
}

// Update takes the sessions as just resolved, on the tray's loop: it
// starts following each wait that began and stops following each that
// ended. It does no I/O.
func (p *Push) Update(now time.Time, sessions []view.Session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	waiting := map[string]bool{}
	if p.cfg.PushURL != "" {
		for _, s := range sessions {
			if s.State != store.StateWaiting {
				continue
			}
			waiting[s.Key] = true
			if w, ok := p.waits[s.Key]; ok {
				w.session = s
				continue
			}
			start := s.Since
			if start.IsZero() || start.After(now) {
				start = now
			}
			if last, ok := p.pushed[s.Key]; ok && !start.After(last) {
				continue // that wait was pushed already
			}
			ctx, cancel := context.WithCancel(context.Background())
			w := &wait{start: start, session: s, cancel: cancel}
			p.waits[s.Key] = w
			p.wg.Add(1)
			go p.follow(ctx, s.Key, w, p.cfg)
		}
	}
	for key, w := range p.waits {
		if !waiting[key] {
			w.cancel()
			delete(p.waits, key)
		}
	}
	for key, start := range p.pushed {
		if !waiting[key] && now.Sub(start) >= forgetPushed {
			delete(p.pushed, key)
		}
	}
}

// forgetPushed is how long a pushed wait is remembered once its session
// no longer waits: a remote machine that reconnects within it on the
// same wait is not pushed again (the notification rules remember as long).
const forgetPushed = 24 * time.Hour

// Close stops following every wait and returns once no push is under way.
func (p *Push) Close() {
	p.mu.Lock()
	for key, w := range p.waits {
		w.cancel()
		delete(p.waits, key)
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// follow sleeps until the wait is due a push and the person has been away
// as long, then posts, with retries; it ends when ctx does (the wait
// ended).
func (p *Push) follow(ctx context.Context, key string, w *wait, cfg config.Notifications) {
	defer p.wg.Done()
	due := w.start.Add(cfg.PushAfter)
	for {
		if !sleepUntil(ctx, p.Now, due) {
			return
		}
		idleCtx, cancel := context.WithTimeout(ctx, idleTimeout)
		idle, err := p.Idle(idleCtx)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			p.logf("away push: cannot tell whether you are away (%v); none sent", err)
			return
		}
		if idle >= cfg.PushAfter {
			if why := p.quiet(ctx); why != "" {
				p.logf("away push held back: %s", why)
				return
			}
			break
		}
		// At the keyboard: the push comes if the person leaves and stays
		// away push_after while the session still waits.
		due = p.Now().Add(cfg.PushAfter - idle)
	}
	p.mu.Lock()
	m := p.message(w)
	p.mu.Unlock()
	delay := cmp.Or(p.RetryAfter, DefaultRetryAfter)
	for attempt := 1; ; attempt++ {
		err := p.Post(ctx, cfg.PushURL, m)
		if err == nil {
			p.mu.Lock()
			p.pushed[key] = w.start
			p.mu.Unlock()
			p.logf("away push sent: %s", m.Title)
			return
		}
		if ctx.Err() != nil {
			return
		}
		if attempt == maxAttempts {
			p.logf("away push failed %d times, given up: %v", attempt, err)
			return
		}
		p.logf("away push failed (attempt %d, next in %s): %v", attempt, text.Duration(delay), err)
		if !sleepUntil(ctx, p.Now, p.Now().Add(delay)) {
			return
		}
		delay = min(2*delay, maxRetryWait)
	}
}

// quiet says why Do Not Disturb holds the push back, "" when it does not
// or cannot be told (a notification the person did not need costs less
// than one they missed).
func (p *Push) quiet(ctx context.Context) string {
	if p.Quiet == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, idleTimeout)
	defer cancel()
	why, _ := p.Quiet(ctx)
	return why
}

// message says which session waits, for what and since when; p.mu is
// held. What it waits for is the kind of dialog alone (waitKind) unless
// push_detail is "subject": only then does the dialog's subject (a
// command, a path, a question) leave the machine. Any other value, the
// zero one included, sends the kind.
func (p *Push) message(w *wait) Message {
	n := notify.Waiting(w.session)
	what := waitKind(w.session)
	if p.cfg.PushDetail == config.PushSubject {
		what = n.Body
	}
	since := w.start.Local().Format("15:04")
	waited := p.Now().Sub(w.start)
	m := Message{Title: n.Title, Body: what + "\nWaiting since " + since + " (" + text.Duration(waited) + ")"}
	if p.Link != nil {
		m.Link = p.Link(w.session.Key)
	}
	return m
}

// sleepUntil waits until t by the clock now; false when ctx ended first.
func sleepUntil(ctx context.Context, now func() time.Time, t time.Time) bool {
	d := t.Sub(now())
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

func (p *Push) logf(format string, args ...any) {
	if p.Logf != nil {
		p.Logf(format, args...)
	}
}
