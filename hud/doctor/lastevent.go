package doctor

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/store"
)

// tailBytes is how much of the debug log's end is read: many lines, a
// bounded read however big the log grew.
const tailBytes = 64 << 10

// LogLine is one entry of the hook's debug log:
// "<time> <session id or -> <message>", where an error's message starts
// with "error: ".
type LogLine struct {
	Time    time.Time
	Session string
	Message string
}

// ParseLogLine parses one entry; ok is false for continuation lines (a
// stack trace, indented) and anything else.
func ParseLogLine(line string) (l LogLine, ok bool) {
	ts, rest, found := strings.Cut(line, " ")
	if !found {
		return l, false
	}
	t, err := time.Parse(store.TimestampLayout, ts)
	if err != nil {
		return l, false
	}
	session, msg, _ := strings.Cut(rest, " ")
	return LogLine{Time: t, Session: session, Message: msg}, true
}

// lastLogLines returns the entries at the end of the debug log, oldest
// first.
func lastLogLines(path string) ([]LogLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := max(0, fi.Size()-tailBytes)
	b, err := io.ReadAll(io.NewSectionReader(f, off, fi.Size()-off))
	if err != nil {
		return nil, err
	}
	if off > 0 { // drop the partial first line
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	var lines []LogLine
	for _, s := range strings.Split(string(b), "\n") {
		if l, ok := ParseLogLine(s); ok {
			lines = append(lines, l)
		}
	}
	return lines, nil
}

// checkLastEvent reports the last event the hook logged and how long ago,
// and the last error if it came after the last success.
func checkLastEvent(env *Env) []Finding {
	path := env.Layout.DebugLogPath()
	lines, err := lastLogLines(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(lines) == 0) {
		return []Finding{warn("start a Claude Code session (hooks run once the folder is trusted), then run 'hud doctor' again",
			"the hook has not run yet (no %s)", path)}
	}
	if err != nil {
		return []Finding{fail("check the permissions: ls -l "+path, "reading the debug log: %v", err)}
	}
	last := lines[len(lines)-1]
	last.Message = text.Truncate(last.Message, maxQuoted)
	age := text.Duration(env.Now.Sub(last.Time))
	if msg, isErr := strings.CutPrefix(last.Message, "error: "); isErr {
		return []Finding{fail("see tail -F "+path+" while Claude Code runs",
			"the hook's last entry, %s ago, is an error: %s", age, msg)}
	}
	out := []Finding{ok("%s ago: %s", age, last.Message)}
	// Errors before a later success: the hook works, but something it
	// does on the side (the lock holder, activity, breaks) fails.
	var errs []LogLine
	for _, l := range lines {
		if strings.HasPrefix(l.Message, "error: ") && env.Now.Sub(l.Time) < recentErrors {
			errs = append(errs, l)
		}
	}
	if len(errs) > 0 {
		e := errs[len(errs)-1]
		e.Message = text.Truncate(e.Message, maxQuoted)
		out = append(out, warn("see "+path,
			"%d error(s) logged in the last day, the latest %s ago: %s",
			len(errs), text.Duration(env.Now.Sub(e.Time)), strings.TrimPrefix(e.Message, "error: ")))
	}
	return out
}

// maxQuoted bounds how much of a log entry a finding quotes.
const maxQuoted = 300

// recentErrors is how far back errors in the log are worth a mention.
const recentErrors = 24 * time.Hour
