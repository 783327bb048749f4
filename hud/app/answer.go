package app

import (
	"cmp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
)

// Keys of the answering rows: a dialog's choice is
// "answer:<request id>:<choice key>"; the toggle turns answering on or off.
const (
	answerPrefix     = "answer:"
	KeyAnswerToggle  = "answer-toggle"
	answerToggleOn   = "Answer Claude's dialogs here: on"
	answerToggleOff  = "Answer Claude's dialogs here: off"
	answerChoiceMark = "↳ "
)

// Answers is the tray's part in answering Claude's dialogs: it serves the
// socket hooks offer their dialogs on while answering is on, puts each
// waiting dialog's choices under its session in the menu, and sends the
// choice clicked to the hook that waits for it.
type Answers struct {
	// Path is the socket (answer.SocketPath); UID the only uid whose
	// processes it serves.
	Path string
	UID  int
	Logf func(format string, args ...any)
	// Switch turns answering on or off in the settings file; the loop
	// then sees the file change and calls Configure.
	Switch func(on bool) error
	// Hold says why a notification with buttons must not show now, as
	// for every other notification (attention.Gate.HoldBack); nil shows
	// each.
	Hold func(notify.Notification) string
	// Heard hears of each answer given (answer.Server.OnAnswer): the
	// ledger records how the wait ended. Set before Configure.
	Heard func(req answer.Request, c answer.Choice, by string)

	// notesTimeout bounds each call to the notification daemon (0:
	// notify.SendTimeout); tests shorten it.
	notesTimeout time.Duration

	mu      sync.Mutex
	srv     *answer.Server
	notes   *DialogNotes // nil: no daemon with buttons (yet), the menu answers
	enabled bool
	// notesGen counts the times answering was turned off: a connection to
	// the daemon made before is closed when it comes, not used.
	notesGen int
	// connecting waits for the connections to the daemon under way.
	connecting sync.WaitGroup
	// noted are the sessions (view keys) whose dialog a notification
	// with buttons shows now.
	noted   map[string]bool
	changed chan struct{}
}

// NewAnswers returns the part, serving nothing until Configure turns it
// on.
func NewAnswers(path string, uid int, logf func(string, ...any), switchFn func(bool) error) *Answers {
	return &Answers{Path: path, UID: uid, Logf: logf, Switch: switchFn, changed: make(chan struct{}, 1)}
}

// Configure serves the socket when answering is on, and takes it away
// when off: with no socket, a hook gives up after one failed connect.
func (x *Answers) Configure(cfg config.Answer) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.enabled = cfg.Enabled
	switch {
	case cfg.Enabled && x.srv == nil:
		srv, err := answer.Listen(x.Path, x.UID, x.Logf, x.signal)
		if err != nil {
			x.Logf("%v", err)
			return
		}
		x.srv = srv
		if x.Heard != nil {
			srv.OnAnswer(x.Heard)
		}
		x.Logf("answering: serving %s", x.Path)
		x.connecting.Add(1)
		go x.connectNotes(x.notesGen)
	case !cfg.Enabled && x.srv != nil:
		x.closeLocked()
		x.Logf("answering: off")
	}
}

// connectNotes connects to the notification daemon for the notifications
// with buttons, off the loop: the daemon may take its time or never
// answer (stopped, or a program that took its name), and the loop must go
// on meanwhile. The menu answers until it is done; then the loop is told,
// and the next Attach shows the dialogs waiting. gen is notesGen when
// answering was turned on.
func (x *Answers) connectNotes(gen int) {
	defer x.connecting.Done()
	notes, err := NewDialogNotes(cmp.Or(x.notesTimeout, notify.SendTimeout), x.Answer, x.Hold, x.Logf)
	x.mu.Lock()
	current := gen == x.notesGen
	if current && err == nil {
		x.notes = notes
	}
	x.mu.Unlock()
	switch {
	case err != nil:
		x.Logf("answering: no notification buttons (%v); the menu answers", err)
	case !current: // answering was turned off meanwhile
		notes.Close()
		<-notes.Done()
	default:
		x.signal()
	}
}

// Close stops serving; hooks waiting give up at once. It returns once the
// notifications with buttons are closed, within the daemon's deadline.
func (x *Answers) Close() {
	x.mu.Lock()
	notes := x.notes
	x.closeLocked()
	x.mu.Unlock()
	x.connecting.Wait()
	if notes != nil {
		<-notes.Done()
	}
}

// closeLocked stops serving and closes the notifications with buttons
// without waiting for the daemon: the loop calls it.
func (x *Answers) closeLocked() {
	if x.srv != nil {
		x.srv.Close()
		x.srv = nil
	}
	x.notesGen++
	if x.notes != nil {
		x.notes.Close()
		x.notes = nil
	}
}

func (x *Answers) signal() {
	select {
	case x.changed <- struct{}{}:
	default:
	}
}

// Changed signals that the dialogs waiting changed.
func (x *Answers) Changed() <-chan struct{} {
	if x == nil {
		return nil
	}
	return x.changed
}

func (x *Answers) server() *answer.Server {
	if x == nil {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.srv
}

// Attach ends the requests whose session went on (the person answered in
// the terminal, Claude moved on: the hook's next event says so, or
// Claude's own file), and gives each waiting session its dialog.
func (x *Answers) Attach(views []view.Session) {
	srv := x.server()
	if srv == nil {
		return
	}
	srv.EndWhere(func(r answer.Request) bool {
		for i := range views {
			v := &views[i]
			if v.SessionID == r.Session {
				return dialogOver(v, r)
			}
		}
		return false
	})
	for _, r := range srv.Pending() {
		for i := range views {
			if views[i].SessionID == r.Session && views[i].State == store.StateWaiting {
				views[i].Dialog = &r
			}
		}
	}
	x.mu.Lock()
	x.notes.Show(views)
	x.noted = map[string]bool{}
	for i := range views {
		if views[i].Dialog != nil && x.notes != nil {
			x.noted[views[i].Key] = true
		}
	}
	x.mu.Unlock()
}

// waitingHold is how long a plain "needs you" notification waits, with
// notification buttons on, for the dialog's own notification. Claude's
// session file often says "waiting" a moment before the hook offers the
// dialog; one bubble with buttons is what the person should see, not two.
const waitingHold = 500 * time.Millisecond

// HoldWaiting wraps the sender of the plain notifications: while the
// dialogs have notifications with buttons, a session's "needs you" is
// held for waitingHold and dropped when the dialog's own came meanwhile.
func (x *Answers) HoldWaiting(s notify.Sender) notify.Sender { return &holdWaiting{s, x} }

type holdWaiting struct {
	notify.Sender
	x *Answers
}

func (h *holdWaiting) Send(n notify.Notification) error {
	if n.Kind == notify.KindWaiting && h.x.buttons() {
		for deadline := time.Now().Add(waitingHold); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if h.x.shows(n.SessionID) {
				return nil
			}
		}
	}
	return h.Sender.Send(n)
}

// SetSound passes the sound setting on to the sender.
func (h *holdWaiting) SetSound(on bool) {
	if s, ok := h.Sender.(interface{ SetSound(on bool) }); ok {
		s.SetSound(on)
	}
}

func (x *Answers) buttons() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.notes != nil
}

func (x *Answers) shows(key string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.noted[key]
}

// dialogOver reports whether v shows that r's dialog is over: the session
// left waiting at or after the moment of the request. A state older than
// the request is a picture the tray has not reloaded since.
func dialogOver(v *view.Session, r answer.Request) bool {
	return v.State != store.StateWaiting && !v.Since.Before(r.At)
}

// withChoices puts each waiting dialog's choices under its session's row
// (and the row's detail line).
func withChoices(rows []Row, views []view.Session) []Row {
	dialogs := map[string]*answer.Request{}
	for i := range views {
		if views[i].Dialog != nil {
			dialogs[sessionPrefix+views[i].Key] = views[i].Dialog
		}
	}
	if len(dialogs) == 0 {
		return rows
	}
	out := make([]Row, 0, len(rows)+3*len(dialogs))
	for i := 0; i < len(rows); i++ {
		out = append(out, rows[i])
		d := dialogs[rows[i].Key]
		if d == nil {
			continue
		}
		for i+1 < len(rows) && under(rows[i+1]) { // its detail line
			i++
			out = append(out, rows[i])
		}
		// The choices sit under the whole subject of their own request:
		// the session's row says what the store last said, cut to fit,
		// and a "Yes" allows exactly what is written above it.
		for _, line := range wrap(d.Subject, subjectWidth) {
			out = append(out, Row{Label: detailIndent + line, Disabled: true})
		}
		for _, c := range d.Choices {
			out = append(out, Row{Key: answerPrefix + d.ID + ":" + c.Key, Label: detailIndent + answerChoiceMark + c.Label,
				Tooltip: "Answer " + d.Subject})
		}
	}
	return out
}

// subjectWidth is the most runes of a dialog's subject one menu row
// holds: as wide as a session's detail line.
const subjectWidth = 60

// wrap cuts s into lines of at most width runes, at a space where there
// is one; every rune of s but the spaces it breaks at is kept.
func wrap(s string, width int) []string {
	var lines []string
	for utf8.RuneCountInString(s) > width {
		head := text.Head(s, width+1)
		cut := strings.LastIndexByte(head, ' ')
		if cut <= 0 {
			cut = len(text.Head(s, width))
			lines = append(lines, s[:cut])
			s = s[cut:]
			continue
		}
		lines = append(lines, s[:cut])
		s = s[cut+1:]
	}
	return append(lines, s)
}

// toggleRow is the menu item that turns answering on or off.
func (x *Answers) toggleRow() []Row {
	if x == nil || x.Switch == nil {
		return nil
	}
	x.mu.Lock()
	on := x.enabled
	x.mu.Unlock()
	if on {
		return []Row{{Key: KeyAnswerToggle, Label: answerToggleOn, Tooltip: "Click to answer in the terminal only"}}
	}
	return []Row{{Key: KeyAnswerToggle, Label: answerToggleOff, Tooltip: "Click to answer permission dialogs and questions from this menu and the notifications"}}
}

// Clicked handles a click on an answering row; it reports whether the key
// was one.
func (x *Answers) Clicked(key string) bool {
	if x == nil {
		return false
	}
	switch {
	case key == KeyAnswerToggle:
		x.mu.Lock()
		on := x.enabled
		x.mu.Unlock()
		if x.Switch != nil {
			if err := x.Switch(!on); err != nil {
				x.Logf("answering: %v", err)
			}
		}
		return true
	case strings.HasPrefix(key, answerPrefix):
		id, choice, _ := strings.Cut(strings.TrimPrefix(key, answerPrefix), ":")
		x.Answer(id, choice)
		return true
	}
	return false
}

// Answer sends choice to the hook waiting for request id; a request no
// longer waiting is refused (logged), never given to a later dialog.
func (x *Answers) Answer(id, choice string) error {
	_, err := x.AnswerBy(answer.Reply{ID: id, Choice: choice}, answer.ByTray)
	return err
}

// AnswerBy is Answer for a reply from another of the tray's surfaces
// (answer.ByWeb), which names the request's digest too.
func (x *Answers) AnswerBy(r answer.Reply, by string) (answer.Request, error) {
	srv := x.server()
	if srv == nil {
		return answer.Request{}, answer.ErrStale
	}
	req, err := srv.AnswerBy(r, by)
	if err != nil {
		x.Logf("answering: %v", err)
		return req, err
	}
	from := ""
	if by != answer.ByTray {
		from = ", from the " + by
	}
	x.Logf("answering: %q to %s (%s%s)", r.Choice, req.Subject, view.ShortID(req.Session), from)
	return req, nil
}
