package app

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/resolver"
)

// Memory is the tray's part in the wait ledger (hud/ledger). The lock
// holders record this machine's sessions; the tray adds what only it
// knows: the remote machines' sessions, the answers given from its menu
// or `hud answer`, and the person's absences, each summed up when they
// come back. It also writes the menu's "Today" line.
type Memory struct {
	Dir  string // the ledger (paths.Layout.LedgerDir)
	Now  func() time.Time
	Logf func(format string, args ...any)
	// Say sends the summary of an absence (through the attention gate,
	// so Do Not Disturb holds it back like any other notification).
	Say func(title, body string)
	// Recap is the agent's own recap of session key since a time, "" for
	// none (resolver.Recap); nil: none.
	Recap func(key string, since time.Time) string

	// awayAfter is [history] away_after, for attention.Returns' goroutine.
	awayAfter atomic.Int64

	mu     sync.Mutex
	remote *ledger.Recorder
	usage  []usageMark
	today  string
	// todayAt is when today was computed; zero: never. reading says a
	// goroutine reads it anew.
	todayAt time.Time
	reading bool
	changed chan struct{}
}

// usageMark is the usage limits' lines at a time, kept for what moved
// while the person was away.
type usageMark struct {
	at     time.Time
	limits map[string]float64 // "~/.claude: 5h" → percent used
}

// How long the Today line is reused, and how far back usage is kept.
const (
	todayFresh = 30 * time.Second
	usageKept  = 24 * time.Hour
)

// Configure applies the [history] table after a reload.
func (m *Memory) Configure(cfg config.History) {
	if m != nil {
		m.awayAfter.Store(int64(cfg.AwayAfter))
	}
}

// AwayAfter is how long an absence must last to be summed up; zero: off.
func (m *Memory) AwayAfter() time.Duration { return time.Duration(m.awayAfter.Load()) }

// Observe records the remote machines' sessions of views and notes the
// usage limits; the loop calls it after every resolution.
func (m *Memory) Observe(now time.Time, views []view.Session, accounts []view.Account) {
	if m == nil {
		return
	}
	var remote []view.Session
	for _, v := range views {
		if v.Host != "" {
			remote = append(remote, v)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.primeLocked(now)
	if err := ledger.Append(m.Dir, m.remote.Observe(now, remote)...); err != nil {
		m.Logf("ledger: %v", err)
	}
	m.noteUsage(now, accounts)
}

// Prime reads back which remote sessions the ledger holds live, before
// the tray's loop starts; Observe does it when not done.
func (m *Memory) Prime(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.primeLocked(now)
}

func (m *Memory) primeLocked(now time.Time) {
	if m.remote != nil {
		return
	}
	prior, _, err := ledger.ReadFor(m.Dir, now, now)
	if err != nil {
		m.Logf("ledger: %v", err)
	}
	m.remote = ledger.NewRecorder(prior, func(e ledger.Entry) bool { return e.Host != "" })
}

// noteUsage keeps the limits when they changed; m.mu is held.
func (m *Memory) noteUsage(now time.Time, accounts []view.Account) {
	limits := map[string]float64{}
	for _, a := range accounts {
		for name, r := range map[string]*resolver.RateLimit{"5-hour limit": a.FiveHour, "weekly limit": a.SevenDay} {
			if r := r.Known(now); r != nil {
				limits[a.Name+": "+name] = r.UsedPercent
			}
		}
	}
	if n := len(m.usage); n > 0 && maps.Equal(m.usage[n-1].limits, limits) {
		return
	}
	m.usage = append(m.usage, usageMark{now, limits})
	for len(m.usage) > 1 && now.Sub(m.usage[1].at) > usageKept {
		m.usage = m.usage[1:]
	}
}

// Answered records an answer sent from the tray or `hud answer`
// (answer.Server.OnAnswer).
func (m *Memory) Answered(req answer.Request, c answer.Choice, by string) {
	e := ledger.Entry{T: m.Now(), Key: req.Session, Answer: by, Choice: c.Label, Refused: c.Key == answer.Deny}
	if err := ledger.Append(m.Dir, e); err != nil {
		m.Logf("ledger: %v", err)
	}
	m.mu.Lock()
	m.todayAt = time.Time{}
	m.mu.Unlock()
}

// Today is the menu's line of the day: "Today: agents waited 47m on you ·
// 23 times · median 38s"; "" before any session today. It returns the
// line read last and, when that is older than todayFresh (or with force:
// the menu opened), has it read again off the loop: the ledger is a file
// others write, up to its bounds. Changed says when the new line is in.
func (m *Memory) Today(now time.Time, force bool) string {
	if m == nil {
		return ""
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	stale := m.todayAt.IsZero() || now.Sub(m.todayAt) >= todayFresh || !sameDay(now, m.todayAt)
	if (force || stale) && !m.reading {
		m.reading = true
		go m.readToday(now)
	}
	return m.today
}

// readToday reads the day's line for Today.
func (m *Memory) readToday(now time.Time) {
	from := startOfDay(now)
	entries, _, err := ledger.ReadFor(m.Dir, from, now)
	if err != nil {
		m.Logf("ledger: %v", err)
	}
	line := TodayLine(ledger.Fold(entries, from, now))
	m.mu.Lock()
	m.today, m.todayAt, m.reading = line, now, false
	ch := m.changedLocked()
	m.mu.Unlock()
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Changed signals that Today has a new line; nil for no Memory.
func (m *Memory) Changed() <-chan struct{} {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changedLocked()
}

func (m *Memory) changedLocked() chan struct{} {
	if m.changed == nil {
		m.changed = make(chan struct{}, 1)
	}
	return m.changed
}

// TodayLine writes a day's figures as the menu's line.
func TodayLine(h ledger.History) string {
	t := h.Total
	switch {
	case len(h.Timelines) == 0:
		return ""
	case t.Waits == 0:
		return "Today: no agent waited on you"
	}
	times := "1 time"
	if t.Waits > 1 {
		times = strconv.Itoa(t.Waits) + " times"
	}
	line := "Today: agents waited " + text.Duration(t.Waiting) + " on you · " + times
	if t.Median > 0 {
		line += " · median " + text.Duration(t.Median)
	}
	return line
}

// Back sums up an absence from from to to: it is recorded in the ledger
// (`hud away` reads it), and told in one notification when anything
// happened meanwhile. It runs off the loop (attention.Returns).
func (m *Memory) Back(from, to time.Time) {
	entries, _, err := ledger.ReadFor(m.Dir, from, to)
	if err != nil {
		m.Logf("ledger: %v", err)
	}
	abs := ledger.Summarize(entries, from, to)
	for i := range abs.Sessions {
		if s := &abs.Sessions[i]; m.Recap != nil && s.Host == "" {
			s.Recap = text.Line(m.Recap(s.Key, from), 200)
		}
	}
	m.mu.Lock()
	abs.Limits = m.limitsMoved(from, to)
	m.mu.Unlock()
	if err := ledger.Append(m.Dir, ledger.Entry{T: to, Away: from}); err != nil {
		m.Logf("ledger: %v", err)
	}
	if abs.Empty() {
		m.Logf("away for %s: nothing to tell", text.Duration(to.Sub(from)))
		return
	}
	m.Logf("away for %s: %d sessions to tell of", text.Duration(to.Sub(from)), len(abs.Sessions))
	m.Say(abs.Title(), strings.Join(abs.Lines(m.Now()), " · "))
}

// limitsMoved says which usage limits moved between from and to by a
// whole percent or more; m.mu is held.
func (m *Memory) limitsMoved(from, to time.Time) []string {
	before, after := m.usageAt(from), m.usageAt(to)
	var out []string
	for name, now := range after {
		if was, ok := before[name]; ok && int(now) != int(was) {
			out = append(out, name+" "+view.Percent(was)+" → "+view.Percent(now))
		}
	}
	slices.Sort(out)
	return out
}

// usageAt is the newest mark at or before t; m.mu is held.
func (m *Memory) usageAt(t time.Time) map[string]float64 {
	var out map[string]float64
	for _, u := range m.usage {
		if u.at.After(t) {
			break
		}
		out = u.limits
	}
	return out
}

// startOfDay is local midnight of t's day.
func startOfDay(t time.Time) time.Time {
	t = t.Local()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.Local)
}

func sameDay(a, b time.Time) bool { return startOfDay(a).Equal(startOfDay(b)) }
