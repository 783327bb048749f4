package cli

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/remote"
	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/resolver"
)

// maxStatuslineInput bounds what is read of Claude Code's JSON, and
// statuslineWait how long it is waited for: Claude Code writes it at once,
// and a status line that never comes is worse than one that does not know
// its session.
const (
	maxStatuslineInput = 1 << 20
	statuslineWait     = time.Second
)

// statuslineInput is the part of Claude Code's status line JSON we use.
type statuslineInput struct {
	SessionID string `json:"session_id"`
	CWD       string `json:"cwd"`
	Workspace struct {
		ProjectDir string `json:"project_dir"`
	} `json:"workspace"`
}

// self names the session the line is for, paths normalized as the hook
// records them.
func (in statuslineInput) self() status.Self {
	me := status.Self{SessionID: in.SessionID}
	if in.CWD != "" {
		me.CWD = paths.Normalize(in.CWD)
	}
	if in.Workspace.ProjectDir != "" {
		me.ProjectDir = paths.Normalize(in.Workspace.ProjectDir)
	}
	return me
}

func runStatusline(env *Env, args []string) error {
	fs := newFlagSet(env, "statusline", "statusline\n\n"+
		"For Claude Code's statusLine setting: reads the session's JSON on stdin\n"+
		"and prints one line with this session's state and the other sessions\n"+
		"that wait for you. It never fails: without input it prints \"○ hud\".\n"+
		"In ~/.claude/settings.json:\n"+
		"  \"statusLine\": {\"type\": \"command\", \"command\": \"hud statusline\"}\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	var in statuslineInput
	now := env.Now()
	if !isTerminalReader(env.Stdin) {
		b := readStatuslineInput(env.Stdin, statuslineWait)
		_ = json.Unmarshal(b, &in) // bad input: no session, still a line
		recordStatusLine(env.Layout(), b, now)
	}
	// A store that cannot be read shows as no sessions: the status line
	// is no place for an error message (hud doctor is).
	snap, _ := resolver.LoadSnapshot(env.Layout(), proc.StartTicks, registry.Logs)
	sessions := resolver.ResolveAll(snap, now, proc.Alive)
	// Claude Code (2.1.x) runs the command with CLAUDE_PID set to its own
	// process, and with CLAUDE_CONFIG_DIR when the person set it, which
	// env.Layout follows.
	pid, _ := strconv.Atoi(env.Getenv("CLAUDE_PID"))
	sessions = resolver.WithSelf(snap, sessions, in.SessionID, pid, now)
	v := status.New(sessions, now)
	// The remote machines as the running tray last saw them: asking them
	// here would cost an ssh per redraw. Without a tray, local alone.
	if l := env.Layout(); safefile.Held(l.TrayLockPath()) {
		v.AddRemotes(remote.ReadSeen(remote.SeenPath(l), now))
	}
	status.WriteStatusline(env.Stdout, v, in.self())
	return nil
}

// readStatuslineInput returns the one JSON document on r, waiting at most
// wait for it: a stdin that stays open and silent (a caller that never
// writes, never closes) must not hold the line up. The document ends the
// read, not the end of r. Bad or missing input is nil: no session, still a
// line.
func readStatuslineInput(r io.Reader, wait time.Duration) []byte {
	got := make(chan []byte, 1)
	go func() {
		var doc json.RawMessage
		_ = json.NewDecoder(io.LimitReader(r, maxStatuslineInput)).Decode(&doc)
		got <- doc
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case doc := <-got:
		return doc
	case <-timer.C:
		// The reader stays blocked until the process exits with the line.
		return nil
	}
}

// recordStatusLine keeps what Claude handed the status line (the
// session's context window, its account's usage limits) for every other
// reader: the tray and `hud status` see them only through this file.
// Input it cannot read records nothing, and a write that fails costs only
// the figures: the line is drawn all the same.
func recordStatusLine(l paths.Layout, b []byte, now time.Time) {
	sl, err := resolver.ParseStatusLine(b, l.Config, now)
	if err != nil {
		return
	}
	if _, err := os.Lstat(l.StatusLinePath(sl.SessionID)); errors.Is(err, fs.ErrNotExist) {
		// A session's first line: the time to let go of the weeks-old ones.
		_ = resolver.TidyStatusLines(l, now.Add(-resolver.StatusLineKeep))
	}
	_, _ = resolver.RecordStatusLine(l, sl)
}

// isTerminalReader reports whether r is a terminal: a person trying the
// command by hand, who should not be left waiting for input.
func isTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
