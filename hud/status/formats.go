package status

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
)

// The formats for other programs' status bars: tmux, waybar/polybar, and
// Claude Code's own status line. Each says the most urgent thing first,
// in one line, and names a session only when it waits for the person.

// glyphs mark each state the same way in every one-line format; the
// shapes differ as well as the colours, for people who cannot tell the
// colours apart. A state outside the list (from a newer hook) is "?".
var glyphs = map[store.State]string{
	store.StateWaiting:    "◆",
	store.StateWorking:    "●",
	store.StateCompacting: "◐",
	store.StateReady:      "✓",
	store.StateIdle:       "○",
	stateDown:             "✕",
}

// tmuxColours are tmux colour names (256-colour palette) per state; an
// unknown state is grey.
var tmuxColours = map[store.State]string{
	store.StateWaiting:    "colour208,bold",
	store.StateWorking:    "colour39",
	store.StateCompacting: "colour141",
	store.StateReady:      "colour70",
	store.StateIdle:       "colour244",
	stateDown:             "colour244",
}

func glyph(st store.State) string {
	if g, ok := glyphs[st]; ok {
		return g
	}
	return "?"
}

func tmuxColour(st store.State) string {
	if c, ok := tmuxColours[st]; ok {
		return c
	}
	return tmuxColours[store.StateIdle]
}

// maxNamed is how many waiting sessions a one-line summary names before
// it only counts them.
const maxNamed = 2

// summaryParts are the summary's parts: the sessions' (view.Summary),
// then the remote machines whose sessions cannot be seen ("devbox
// unreachable"), so nobody takes their silence for no sessions.
func summaryParts(v *View) []view.Part {
	parts := view.Summary(v.Sessions, maxNamed)
	var down []string
	for _, r := range v.Remotes {
		if r.Down() {
			down = append(down, text.Line(r.Host, 40))
		}
	}
	if len(down) > 0 {
		parts = append(parts, view.Part{State: stateDown, Text: strings.Join(down, ", ") + " unreachable"})
	}
	return parts
}

// stateDown marks the summary's part about remote machines that cannot be
// reached; it is no session's state.
const stateDown store.State = "unreachable"

// Summary is the plain one-line summary, glyphs included:
// "◆ api waiting · ● 2 working", or "○ idle".
func Summary(v *View) string {
	parts := summaryParts(v)
	if len(parts) == 0 {
		return glyphs[store.StateIdle] + " idle"
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = glyph(p.State) + " " + p.Text
	}
	return strings.Join(out, " · ")
}

// WriteTmux prints the summary with tmux style codes, for status-right:
//
//	set -g status-right '#(hud status --format tmux)'
//
// A '#' in a project name is doubled, so tmux shows it rather than
// reading it as a format.
func WriteTmux(w io.Writer, v *View) error {
	parts := summaryParts(v)
	if len(parts) == 0 {
		_, err := fmt.Fprintf(w, "#[fg=%s]%s#[default]\n", tmuxColours[store.StateIdle], glyphs[store.StateIdle])
		return err
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "#[fg=%s]%s %s#[default]", tmuxColour(p.State), glyph(p.State), strings.ReplaceAll(p.Text, "#", "##"))
	}
	// The fullest context window, by its session's project: the one
	// figure a person watches for before Claude compacts.
	if s := view.Fullest(v.Sessions); s != nil {
		fmt.Fprintf(&b, " %s %s", strings.ReplaceAll(s.Name(), "#", "##"), s.ContextShort())
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// waybarOutput is what waybar's custom module reads with
// "return-type": "json" (polybar users take .text with jq).
type waybarOutput struct {
	Text    string `json:"text"`
	Alt     string `json:"alt"`
	Tooltip string `json:"tooltip"`
	// Class is the aggregate state, for CSS: #custom-hud.waiting { ... }.
	Class string `json:"class"`
}

// WriteWaybar prints one JSON object on one line: the summary as text,
// one line per session as tooltip, the aggregate state as class and alt.
// Ages are left out of the tooltip: waybar keeps the last line it read,
// and with --watch a new one comes only when something changes.
func WriteWaybar(w io.Writer, v *View) error {
	var tip []string
	for i := range v.Sessions {
		s := &v.Sessions[i]
		line := s.Name() + ": " + string(s.State)
		if ctx := s.ContextShort(); ctx != "" {
			line += " · " + ctx
		}
		if d := detail(s); d != "" {
			line += " — " + d
		}
		tip = append(tip, line)
	}
	if len(tip) == 0 {
		tip = []string{NoSessions}
	}
	for _, r := range v.Remotes {
		if r.Down() {
			tip = append(tip, r.Status(v.Now))
		}
	}
	out := waybarOutput{
		Text:    text.Markup(Summary(v)),
		Alt:     string(v.State),
		Tooltip: text.Markup(strings.Join(tip, "\n")),
		Class:   string(v.State),
	}
	return encodeLine(w, out)
}

// WriteJSONLine prints the same document as WriteJSON on a single line,
// for `hud status --watch`: one line per change, for other programs.
func WriteJSONLine(w io.Writer, v *View) error { return encodeLine(w, newJSONView(v)) }

func encodeLine(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// maxStatuslineWait is how much of a waiting session's reason the status
// line quotes.
const maxStatuslineWait = 40

// Self says which session a status line belongs to: Claude Code passes
// its session id, cwd and project directory.
type Self struct {
	SessionID  string
	CWD        string // normalized
	ProjectDir string // normalized
}

// find returns the session the line is for: the one with the id, else
// (a session whose record the hook has not written yet, or one started
// before the hooks were installed) the only live session in the same
// directory. Nil when there is no such session, or several.
func (me Self) find(v *View) *view.Session {
	var byDir *view.Session
	n := 0
	for i := range v.Sessions {
		s := &v.Sessions[i]
		if s.Host != "" {
			continue // the line's session runs here; the same path there is another
		}
		if me.SessionID != "" && s.SessionID == me.SessionID {
			return s
		}
		if (me.CWD != "" && s.CWD == me.CWD) || (me.ProjectDir != "" && s.ProjectDir == me.ProjectDir) {
			byDir, n = s, n+1
		}
	}
	if n == 1 && (me.SessionID == "" || byDir.SessionID == "") {
		return byDir
	}
	return nil
}

// WriteStatusline prints the line for Claude Code's statusLine setting:
// the state of this session (me), then the other sessions that wait for
// the person, with what they wait for: "● working · api waiting (Bash:
// npm test)". It always prints one line, even when the session is not
// (yet) known: "○ hud".
func WriteStatusline(w io.Writer, v *View, me Self) error {
	self := "○ hud"
	mine := me.find(v)
	if mine != nil {
		self = glyph(mine.State) + " " + string(mine.State)
		if ctx := mine.ContextShort(); ctx != "" {
			self += " · " + ctx
		}
	}
	parts := []string{self}
	var others []*view.Session
	for i := range v.Sessions {
		if s := &v.Sessions[i]; s != mine && s.State == store.StateWaiting {
			others = append(others, s)
		}
	}
	for i, s := range others {
		if i == maxNamed {
			parts = append(parts, fmt.Sprintf("+%d waiting", len(others)-maxNamed))
			break
		}
		part := s.Name() + " waiting"
		if s.WaitingFor != "" {
			part += " (" + text.Line(s.WaitingFor, maxStatuslineWait) + ")"
		}
		parts = append(parts, part)
	}
	_, err := fmt.Fprintln(w, strings.Join(parts, " · "))
	return err
}
