package resolver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/store"
)

// StatusLine is what Claude Code last handed `hud statusline` for one
// session, as hud keeps it in ~/.capacitor/statusline/<session id>.json:
// the context in use with Claude's own window, and the account's usage
// limits. Claude runs its status line command at every refresh; hud
// statusline records only what changed (or, unchanged, once every
// StatusLineRefresh), so the file says when each figure was learnt.
type StatusLine struct {
	SessionID string `json:"session_id"`
	// ConfigDir is the Claude config directory the session runs with
	// (normalized), "" for ~/.claude: the account the limits are of.
	ConfigDir string `json:"config_dir,omitempty"`
	// At is when Claude handed these figures to the status line.
	At    time.Time `json:"at"`
	Model string    `json:"model,omitempty"`
	// Tokens and Window are context_window's current usage (input, cache
	// creation, cache read) and context_window_size; 0 when not given, or
	// not a count (SumTokens).
	Tokens int `json:"tokens,omitempty"`
	Window int `json:"window,omitempty"`
	// FiveHour and SevenDay are rate_limits' windows; nil when Claude gave
	// none (an API-key login has no such limits, and Claude says null), or
	// one hud does not believe (RateLimit.checked).
	FiveHour *RateLimit `json:"five_hour,omitempty"`
	SevenDay *RateLimit `json:"seven_day,omitempty"`
}

// RateLimit is one of an account's usage windows: the share used and when
// it starts afresh (zero: not given).
type RateLimit struct {
	UsedPercent float64   `json:"used_percentage"`
	ResetsAt    time.Time `json:"resets_at,omitzero"`
}

// StatusLineRefresh is how long hud statusline leaves unchanged figures
// unwritten: the file's At then says how fresh they are to within it,
// without a write at every refresh.
const StatusLineRefresh = time.Minute

// maxStatusLineFile bounds a recorded status line (a few hundred bytes).
const maxStatusLineFile = 16 << 10

// statusLineInput is the part of Claude Code's status line JSON the
// record keeps.
type statusLineInput struct {
	SessionID string `json:"session_id"`
	Model     struct {
		ID string `json:"id"`
	} `json:"model"`
	ContextWindow *struct {
		Size         int `json:"context_window_size"`
		CurrentUsage *struct {
			InputTokens              int `json:"input_tokens"`
			CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
			CacheReadInputTokens     int `json:"cache_read_input_tokens"`
		} `json:"current_usage"`
	} `json:"context_window"`
	RateLimits *struct {
		FiveHour *rateLimitInput `json:"five_hour"`
		SevenDay *rateLimitInput `json:"seven_day"`
	} `json:"rate_limits"`
}

// rateLimitInput is one window of rate_limits: resets_at in Unix seconds.
type rateLimitInput struct {
	UsedPercentage *float64 `json:"used_percentage"`
	ResetsAt       *float64 `json:"resets_at"`
}

func (r *rateLimitInput) limit(length time.Duration, at time.Time) *RateLimit {
	if r == nil {
		return nil
	}
	return NewRateLimit(r.UsedPercentage, r.ResetsAt, length, at)
}

// The lengths of the usage windows Claude names (five_hour, seven_day),
// which Codex gives as window_minutes.
const (
	FiveHourWindow = 5 * time.Hour
	WeekWindow     = 7 * 24 * time.Hour
)

// Bounds of a usage window's figures, which come from the agent's API.
const (
	// MaxLimitPercent is the largest share of a window that is shown:
	// the request that crosses a limit counts whole, so an account can
	// stand a little past 100 %, never ten points past it.
	MaxLimitPercent = 110
	// maxWindow is the longest window believed: a month. One of unknown
	// length is taken as this long.
	maxWindow = 31 * 24 * time.Hour
	// resetLate is how long before the figure was learnt its reset may
	// lie: two clocks a little apart. Known hides the window from its
	// reset on in any case.
	resetLate = time.Minute
)

// NewRateLimit is a window of an agent's rate limits as its API gives
// them: the share used, in percent, and when it resets in Unix seconds
// (nil when not given), for a window of length (0 when not known) learnt
// at at. No share is no figure, and a figure that fails checked is none
// either: nil, unknown.
func NewRateLimit(usedPercent, resetsAt *float64, length time.Duration, at time.Time) *RateLimit {
	if usedPercent == nil {
		return nil
	}
	r := &RateLimit{UsedPercent: *usedPercent}
	if resetsAt != nil {
		s := *resetsAt
		if !(math.Abs(s) < 1e11) {
			return nil // NaN, or thousands of years from now: no time at all
		}
		r.ResetsAt = time.Unix(int64(s), 0).UTC()
	}
	return r.checked(length, at)
}

// checked is r when its figures can be shown, nil (unknown) when not, for
// a window of length (0, or longer than maxWindow: maxWindow) learnt at
// at: the share within 0 to MaxLimitPercent (never NaN or infinite), and
// the reset, when given, at most resetLate before at and at most the
// window's length and a fifth more after it (a provider that rounds the
// reset up to the hour or the day, a clock a little off): 6 hours for the
// 5-hour window, 8.4 days for the week. A window whose reset is not
// believed is unknown as a whole, share and all: Known expires a window
// at its reset and the usage warnings tell its periods apart by it, so a
// share kept without it could be shown, and warned of, long after its
// window started afresh.
func (r *RateLimit) checked(length time.Duration, at time.Time) *RateLimit {
	if r == nil || !(r.UsedPercent >= 0 && r.UsedPercent <= MaxLimitPercent) {
		return nil
	}
	if length <= 0 || length > maxWindow {
		length = maxWindow
	}
	if !r.ResetsAt.IsZero() {
		if ahead := r.ResetsAt.Sub(at); ahead < -resetLate || ahead > length+length/5 {
			return nil
		}
	}
	return r
}

// ParseStatusLine reads what Claude Code handed its status line command
// (b) into the record hud keeps, for a session of config directory
// configDir at now. Input with no valid session id is an error: nothing
// is recorded from it. A figure out of bounds (SumTokens, MaxTokens,
// RateLimit.checked) is recorded as not given: unknown.
func ParseStatusLine(b []byte, configDir string, now time.Time) (StatusLine, error) {
	var in statusLineInput
	if err := json.Unmarshal(b, &in); err != nil {
		return StatusLine{}, fmt.Errorf("reading status line input: %w", err)
	}
	if err := store.CheckSessionID(in.SessionID); err != nil {
		return StatusLine{}, fmt.Errorf("status line input: %w", err)
	}
	sl := StatusLine{SessionID: in.SessionID, ConfigDir: configDir, At: now.UTC(), Model: in.Model.ID}
	if len(sl.Model) > 200 {
		return StatusLine{}, errors.New("status line input: model id too long")
	}
	if cw := in.ContextWindow; cw != nil {
		if window, ok := SumTokens(cw.Size); ok {
			sl.Window = window
		}
		if u := cw.CurrentUsage; u != nil {
			if tokens, ok := SumTokens(u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens); ok {
				sl.Tokens = tokens
			}
		}
	}
	if rl := in.RateLimits; rl != nil {
		sl.FiveHour = rl.FiveHour.limit(FiveHourWindow, sl.At)
		sl.SevenDay = rl.SevenDay.limit(WeekWindow, sl.At)
	}
	return sl, nil
}

// sameFigures reports whether a and b say the same apart from when.
func (a StatusLine) sameFigures(b StatusLine) bool {
	a.At, b.At = time.Time{}, time.Time{}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// RecordStatusLine keeps sl as its session's recorded status line (0600,
// replaced atomically) unless the file already says the same and is
// younger than StatusLineRefresh. It reports whether it wrote.
func RecordStatusLine(l paths.Layout, sl StatusLine) (bool, error) {
	if err := store.CheckSessionID(sl.SessionID); err != nil {
		return false, fmt.Errorf("recording status line: %w", err)
	}
	path := l.StatusLinePath(sl.SessionID)
	if old, err := readStatusLine(path); err == nil && old.sameFigures(sl) && sl.At.Sub(old.At) < StatusLineRefresh {
		return false, nil
	}
	b, err := json.Marshal(sl)
	if err != nil {
		return false, fmt.Errorf("encoding status line: %w", err)
	}
	// Never written through a link at the directory's name.
	if err := os.MkdirAll(l.StoreDir(), 0o700); err != nil {
		return false, fmt.Errorf("recording status line: %w", err)
	}
	if err := safefile.RealDir(l.StatusLineDir(), 0o700); err != nil {
		return false, fmt.Errorf("recording status line: %w", err)
	}
	if err := safefile.Replace(path, append(b, '\n'), 0o600); err != nil {
		return false, fmt.Errorf("recording status line: %w", err)
	}
	return true, nil
}

// readStatusLine reads one recorded status line, bounded and never
// through a link.
func readStatusLine(path string) (StatusLine, error) {
	b, _, err := safefile.Read(path, maxStatusLineFile, safefile.NoFollow)
	if err != nil {
		return StatusLine{}, err
	}
	var sl StatusLine
	if err := json.Unmarshal(b, &sl); err != nil {
		return StatusLine{}, fmt.Errorf("reading %s: %w", path, err)
	}
	if filepath.Base(path) != sl.SessionID+".json" {
		return StatusLine{}, fmt.Errorf("reading %s: it names session %q", path, sl.SessionID)
	}
	// The file is hud's, but its figures came from outside: the windows
	// are held to their rule again (the context to its own in
	// LoadContexts).
	sl.FiveHour = sl.FiveHour.checked(FiveHourWindow, sl.At)
	sl.SevenDay = sl.SevenDay.checked(WeekWindow, sl.At)
	return sl, nil
}

// StatusLineKeep is how long a recorded status line is kept after its
// last write: an account's limits stay known for a week (the longest
// window) after its last session.
const StatusLineKeep = 8 * 24 * time.Hour

// LoadStatusLines reads every recorded status line, by session id.
// Unreadable files are skipped: the figures are a bonus, never a reason
// to fail.
func LoadStatusLines(l paths.Layout) map[string]StatusLine {
	if fi, err := os.Lstat(l.StatusLineDir()); err != nil || !fi.IsDir() {
		return nil // none yet, or a link that is not hud's directory
	}
	entries, err := safefile.ListDir(l.StatusLineDir(), "status lines")
	if err != nil {
		return nil
	}
	var out map[string]StatusLine
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() || store.CheckSessionID(id) != nil {
			continue
		}
		sl, err := readStatusLine(filepath.Join(l.StatusLineDir(), e.Name()))
		if err != nil {
			continue
		}
		if out == nil {
			out = map[string]StatusLine{}
		}
		out[id] = sl
	}
	return out
}

// TidyStatusLines removes the recorded status lines last written before
// cutoff, the ones of sessions long gone. hud statusline calls it when it
// records a session for the first time, so the directory holds a week's
// sessions at most. Only files hud writes there are removed (regular,
// named <session id>.json), and only in the directory itself: a link at
// its name is never followed, so no other directory loses a file.
func TidyStatusLines(l paths.Layout, cutoff time.Time) error {
	dir := l.StatusLineDir()
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return nil // none yet, or not hud's: nothing of ours to tidy
	}
	entries, err := safefile.ListDir(dir, "status lines")
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() || store.CheckSessionID(id) != nil {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(cutoff) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// contextOver is the session's context with the status line's figures
// over the transcript's (c, ok): the status line's own tokens when it has
// some and is as new as the transcript's answer, and its window (Claude's
// own figure) whenever it names the same model. A status line with no
// usage yet (a session resumed, before its first answer) says nothing of
// the tokens.
func (sl StatusLine) contextOver(c Context, ok bool) (Context, bool) {
	if sl.Window <= 0 {
		return c, ok
	}
	if sl.Tokens > 0 && (!ok || !sl.At.Before(c.At)) {
		return Context{
			Tokens: sl.Tokens, Window: sl.Window, Model: sl.Model, At: sl.At,
			From: ContextFromStatusLine, WindowFrom: WindowFromStatusLine,
		}, true
	}
	if ok && sameModel(sl.Model, c.Model) {
		c.Window, c.WindowFrom = sl.Window, WindowFromStatusLine
	}
	return c, ok
}

// sameModel compares the status line's model id, which may name the 1M
// variant ("claude-sonnet-4-6[1m]"), with the API's.
func sameModel(statusLine, api string) bool {
	return strings.EqualFold(strings.TrimSuffix(strings.ToLower(statusLine), "[1m]"), api)
}
