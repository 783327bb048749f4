package resolver

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/store"
)

// Context is how full a session's context window is: what the model was
// last handed (the input, cache creation and cache read tokens of the
// session's newest answer, as Claude Code itself counts it), of a window
// of Window tokens.
type Context struct {
	// Tokens is the context in use.
	Tokens int `json:"tokens"`
	// Window is the model's context window in tokens.
	Window int `json:"window"`
	// Model is the model that gave the newest answer ("claude-opus-4-8").
	Model string `json:"model,omitempty"`
	// At is when the figure was learnt: the answer's time in the
	// transcript, or when the status line was handed it.
	At time.Time `json:"at"`
	// From says where the figure comes from: ContextFromTranscript or
	// ContextFromStatusLine.
	From string `json:"from"`
	// WindowFrom says how Window is known: WindowFromStatusLine (Claude's
	// own figure) or WindowFromModel (hud's table of models).
	WindowFrom string `json:"window_from"`
}

// Where a Context's figures come from. An agent's own log that counts
// them (Codex's rollout: its token_count events, with the window as the
// agent counts it) gives ContextFromRollout and WindowFromRollout.
const (
	ContextFromTranscript = "transcript"
	ContextFromStatusLine = "statusline"
	ContextFromRollout    = "rollout"
	WindowFromStatusLine  = "statusline"
	WindowFromModel       = "model"
	WindowFromRollout     = "rollout"
)

// Percent is the share of the window in use, rounded and held within 0 to
// 100 as Claude Code rounds its own used_percentage; 0 with no window.
func (c Context) Percent() int {
	if c.Window <= 0 {
		return 0
	}
	p := math.Round(float64(c.Tokens) * 100 / float64(c.Window))
	return int(min(100, max(0, p)))
}

// MaxTokens bounds every count of tokens and every context window hud
// takes from outside (a transcript, the status line, an agent's log): a
// hundred times the largest window a model has (LongWindow), so a model
// with a larger one is still shown, while a count no model could have (a
// garbled field, a sum that wrapped around) is not.
const MaxTokens = 100_000_000

// MaxContextPercent is the fullest a context may read and still be shown:
// a window can be exceeded for a while (the answer's own tokens before a
// compaction; Codex gives as its window the 95 % of the model's it lets a
// conversation fill), and such a context shows as 100 %. Half as much
// again as the window is more than any of that: the count and the window
// cannot both be right.
const MaxContextPercent = 150

// SumTokens is the sum of counts of tokens read from outside hud, and
// whether it is a count at all: every count and the sum within 0 to
// MaxTokens. Each count is held to what the bound leaves before it is
// added, so the sum never overflows.
func SumTokens(counts ...int) (int, bool) {
	sum := 0
	for _, n := range counts {
		if n < 0 || n > MaxTokens-sum {
			return 0, false
		}
		sum += n
	}
	return sum, true
}

// Plausible reports whether c can be shown: its tokens a count
// (SumTokens), its window above zero and within MaxTokens, and the share
// in use at most MaxContextPercent. LoadContexts holds every context to
// it, whichever file it came from; one that fails is unknown, never a
// number.
func (c Context) Plausible() bool {
	if _, ok := SumTokens(c.Tokens); !ok || c.Window <= 0 || c.Window > MaxTokens {
		return false
	}
	return float64(c.Tokens)*100 <= MaxContextPercent*float64(c.Window)
}

// Windows of Claude's models, as Claude Code's own table of models gives
// them: the models named here answer from a 1,000,000-token window by
// default; every other one from 200,000, unless asked for its 1M variant
// ("[1m]" after the id, which only the status line shows). The status
// line's context_window_size, Claude's own figure, wins over this table
// whenever hud statusline has recorded one for the session.
const (
	DefaultWindow = 200_000
	LongWindow    = 1_000_000
)

var longContextModels = []string{
	"claude-fable-5", "claude-haiku-5-5", "claude-mythos-5",
	"claude-opus-4-7", "claude-opus-4-8", "claude-opus-5", "claude-sonnet-5",
}

// ModelWindow is the context window of model by hud's table, for tokens
// in use: a model named with its 1M variant, or one of longContextModels
// (any release of it: "claude-opus-5-5", "claude-opus-4-8-20261101"), has
// 1,000,000 tokens; any other 200,000, unless more than that is in use,
// which only a 1M window holds.
func ModelWindow(model string, tokens int) int {
	m := strings.ToLower(model)
	if strings.HasSuffix(m, "[1m]") {
		return LongWindow
	}
	for _, long := range longContextModels {
		if m == long || strings.HasPrefix(m, long+"-") {
			return LongWindow
		}
	}
	if tokens > DefaultWindow {
		return LongWindow
	}
	return DefaultWindow
}

// claudeTranscript is the transcript a Claude Code session's hooks name
// (transcript_path), taken only where Claude keeps it and by the name it
// gives it: <config dir>/projects/<project>/<session id>.jsonl. A payload
// cannot make hud read anything else.
func claudeTranscript(l paths.Layout, rec *store.Record) string {
	p := rec.TranscriptPath
	if store.CheckSessionID(rec.SessionID) != nil || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return ""
	}
	if filepath.Base(p) != rec.SessionID+".jsonl" || filepath.Dir(filepath.Dir(p)) != claudeProjects(l, rec) {
		return ""
	}
	return p
}

// claudeProjects is the directory of rec's config dir that holds its
// transcripts, one directory per project.
func claudeProjects(l paths.Layout, rec *store.Record) string {
	return filepath.Join(l.WithConfig(rec.ConfigDir).ConfigDir(), "projects")
}

// transcriptUsage is what lastContext reads of a transcript line.
type transcriptUsage struct {
	Type        string    `json:"type"`
	IsSidechain bool      `json:"isSidechain"`
	Timestamp   time.Time `json:"timestamp"`
	Message     struct {
		Model string `json:"model"`
		Usage *struct {
			InputTokens              int `json:"input_tokens"`
			CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
			CacheReadInputTokens     int `json:"cache_read_input_tokens"`
		} `json:"usage"`
	} `json:"message"`
}

// lastContext finds the newest answer of the main conversation in a
// transcript's tail and the context it was given. A subagent's answers
// (isSidechain) are its own context, not the session's; Claude's
// "<synthetic>" messages (an error, an interrupt) carry no usage of a
// real request. A newest answer whose counts are no count (SumTokens)
// leaves the context unknown rather than an older answer's.
func lastContext(tail []byte) (Context, bool) {
	lines := bytes.Split(tail, []byte{'\n'})
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if !bytes.Contains(l, []byte(`"usage"`)) || !bytes.Contains(l, []byte(`"assistant"`)) {
			continue
		}
		var u transcriptUsage
		if json.Unmarshal(l, &u) != nil || u.Type != "assistant" || u.IsSidechain {
			continue // the cut first line, or not the main conversation's answer
		}
		usage := u.Message.Usage
		if usage == nil || u.Message.Model == "<synthetic>" {
			continue
		}
		tokens, ok := SumTokens(usage.InputTokens, usage.CacheCreationInputTokens, usage.CacheReadInputTokens)
		if !ok {
			return Context{}, false
		}
		return Context{
			Tokens: tokens, Window: ModelWindow(u.Message.Model, tokens), Model: u.Message.Model,
			At: u.Timestamp.UTC(), From: ContextFromTranscript, WindowFrom: WindowFromModel,
		}, true
	}
	return Context{}, false
}

// contextTails are the tails read of a Claude transcript for its newest
// answer, the next only when the one before held none: the answer is
// nearly always in the last few KiB, but a tool's result after it can be
// long (a file read whole). Never the whole file.
var contextTails = [...]int64{maxTranscriptTail, 1 << 20}

// LoadContexts reads the context in use of the store's sessions, by
// session id: a Claude Code session's from the tail of its transcript,
// with what the status line recorded (lines, by session id) winning where
// it is as new or newer; another agent's from its own log when its
// AgentLog is an AgentRunway (Codex's rollout), which may also give the
// limits of the agent's home (accounts: the newest of each home). A
// session with none, or with one that is not Plausible, is left out:
// unknown, never a guess.
func LoadContexts(l paths.Layout, st *store.Store, lines map[string]StatusLine, logs AgentLogs) (contexts map[string]Context, accounts []Account) {
	if st == nil {
		return nil, nil
	}
	for id, rec := range st.Sessions {
		if rec == nil {
			continue
		}
		var c Context
		var ok bool
		if AgentOf(rec) == AgentClaude {
			c, ok = transcriptContext(l, rec)
			if line, has := lines[id]; has {
				c, ok = line.contextOver(c, ok)
			}
		} else if runway, is := agentLog(logs, rec.Agent).(AgentRunway); is {
			var a *Account
			c, a, ok = agentRunway(l, rec, runway)
			accounts = newerAccount(accounts, a)
		}
		if !ok || !c.Plausible() {
			continue
		}
		if contexts == nil {
			contexts = map[string]Context{}
		}
		contexts[id] = c
	}
	slices.SortFunc(accounts, func(a, b Account) int { return strings.Compare(a.ConfigDir, b.ConfigDir) })
	return contexts, accounts
}

// agentLog is logs(agent), nil when there are no logs to ask.
func agentLog(logs AgentLogs, agent string) AgentLog {
	if logs == nil {
		return nil
	}
	return logs(agent)
}

// agentRunway is the runway of rec's own log, read bounded and never
// through a link, with the account its home is.
func agentRunway(l paths.Layout, rec *store.Record, r AgentRunway) (Context, *Account, bool) {
	path, home := r.Path(l, rec)
	c, a, ok := tailFigures(path, home, r.Runway)
	if a != nil {
		a.ConfigDir = home // a copy: cachedTail keeps its own
	}
	return c, a, ok
}

// newerAccount puts a among accounts, in place of an older figure of the
// same directory.
func newerAccount(accounts []Account, a *Account) []Account {
	if a == nil {
		return accounts
	}
	for i := range accounts {
		if accounts[i].ConfigDir == a.ConfigDir {
			if a.At.After(accounts[i].At) {
				accounts[i] = *a
			}
			return accounts
		}
	}
	return append(accounts, *a)
}

// transcriptContext is lastContext of rec's transcript, read bounded and
// never through a link.
func transcriptContext(l paths.Layout, rec *store.Record) (Context, bool) {
	c, _, ok := tailFigures(claudeTranscript(l, rec), claudeProjects(l, rec), func(tail []byte) (Context, *Account, bool) {
		c, ok := lastContext(tail)
		return c, nil, ok
	})
	return c, ok
}

// tailFigures is what find reads in the tail of path, an agent's log
// below home: the tail grows (contextTails) only while find sees nothing
// in it, the file is never read whole, and neither it nor any directory
// from home down to it may be a link. Unchanged files are not read again
// (cachedTail). path "" finds nothing.
func tailFigures(path, home string, find func(tail []byte) (Context, *Account, bool)) (Context, *Account, bool) {
	if path == "" || !realDirsBelow(home, filepath.Dir(path)) {
		return Context{}, nil, false
	}
	return cachedTail(path, func() (Context, *Account, bool) {
		for _, n := range contextTails {
			tail, err := safefile.ReadTail(path, n, safefile.NoFollow)
			if err != nil {
				return Context{}, nil, false
			}
			if c, a, ok := find(tail); ok || int64(len(tail)) < n {
				return c, a, ok
			}
		}
		return Context{}, nil, false
	})
}
