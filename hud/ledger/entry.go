package ledger

import (
	"fmt"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// Ended is the state of an entry that says a session ended.
const Ended = "ended"

// An Entry is one line of the ledger. It is one of three kinds:
//   - a state: the session (Key) showed State from T on; For is what a
//     waiting session asked;
//   - an answer (Answer set): the person answered the dialog of session Key
//     at T from the tray's menu or `hud answer`, with Choice;
//   - an absence (Away set): the person was away from Away until T.
type Entry struct {
	T   time.Time `json:"t"`
	Key string    `json:"key,omitempty"`
	// Host names the remote machine the session runs on ("" for this one).
	Host    string `json:"host,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Project string `json:"project,omitempty"`
	Name    string `json:"name,omitempty"`
	State   string `json:"state,omitempty"`
	For     string `json:"for,omitempty"`
	// ByClaude says Claude's own session file, not a hook, decided the
	// state: a turn that went ready so was interrupted (Esc, or No in the
	// terminal's dialog).
	ByClaude bool `json:"by_claude,omitempty"`
	// Activity and Context are the session's at T: what a summary of an
	// absence compares.
	Commits int `json:"commits,omitempty"`
	Files   int `json:"files,omitempty"`
	Todos   int `json:"todos_done,omitempty"`
	Context int `json:"ctx,omitempty"` // percent of the window

	Answer  string `json:"answer,omitempty"` // ViaTray or ViaCommand
	Choice  string `json:"choice,omitempty"`
	Refused bool   `json:"refused,omitempty"`

	Away time.Time `json:"away,omitzero"`
}

// Where an answer came from.
const (
	ViaTray    = answer.ByTray
	ViaCommand = answer.ByCommand
	ViaWeb     = answer.ByWeb
)

// maxField bounds each text of a line: a subject is a command, a path or
// a question, shown on one line; the whole line stays well under the size
// one append writes at once.
const maxField = 300

// maxLine is the longest line a reader accepts: more than encode writes
// with every text at maxField in the characters JSON writes longest (six
// bytes for each of < > &).
const maxLine = 32 << 10

// encode writes e as one line, texts bounded and made one-line.
func (e Entry) encode() ([]byte, error) {
	for _, f := range []*string{&e.Key, &e.Host, &e.Agent, &e.Project, &e.Name, &e.State, &e.For, &e.Answer, &e.Choice} {
		*f = text.Line(*f, maxField)
	}
	b, err := e.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encoding a ledger entry: %w", err)
	}
	return append(b, '\n'), nil
}

// decode reads one line; ok is false for a line that is not a whole entry
// (cut by a crash, written by something else).
func decode(line []byte) (Entry, bool) { return newLineDecoder().decode(line) }

// A lineDecoder reads lines into one Entry through one list of its fields,
// made once: making the list per line was most of a long read's time.
type lineDecoder struct {
	e      Entry
	fields []jsonfields.Field
	json   jsonfields.Decoder
	// names holds one copy of each key, project, name, agent and state
	// read: a month repeats a few hundred of them in tens of thousands of
	// lines, and the copies would all stay alive.
	names map[string]string
}

func newLineDecoder() *lineDecoder {
	d := &lineDecoder{}
	d.fields = d.e.fields()
	return d
}

func (d *lineDecoder) decode(line []byte) (Entry, bool) {
	d.e = Entry{}
	if len(line) == 0 || len(line) > maxLine || d.json.Decode(line, d.fields...) != nil || d.e.T.IsZero() {
		return Entry{}, false
	}
	e := d.e
	for _, p := range []*string{&e.Key, &e.Host, &e.Agent, &e.Project, &e.Name, &e.State} {
		*p = d.intern(*p)
	}
	switch {
	case !e.Away.IsZero():
		return e, !e.Away.After(e.T)
	case e.Key == "":
		return Entry{}, false
	case e.Answer != "":
		return e, true
	}
	return e, e.State != ""
}

// maxNames bounds the names a lineDecoder keeps.
const maxNames = 4096

func (d *lineDecoder) intern(s string) string {
	if v, ok := d.names[s]; ok {
		return v
	}
	if d.names == nil {
		d.names = map[string]string{}
	}
	if len(d.names) < maxNames {
		d.names[s] = s
	}
	return s
}

// IsState, IsAnswer and IsAbsence tell an entry's kind.
func (e Entry) IsState() bool {
	return e.Key != "" && e.State != "" && e.Answer == "" && e.Away.IsZero()
}
func (e Entry) IsAnswer() bool  { return e.Key != "" && e.Answer != "" }
func (e Entry) IsAbsence() bool { return !e.Away.IsZero() }
