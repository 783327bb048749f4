package doctor

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/autostart"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/paths"
)

// Severity is how bad a finding is.
type Severity int

const (
	OK   Severity = iota // ✓ this link works
	Warn                 // ! works, but worth knowing (stale locks, no event yet)
	Fail                 // ✗ the HUD cannot work until this is fixed
)

func (s Severity) mark() string {
	switch s {
	case OK:
		return "✓"
	case Warn:
		return "!"
	}
	return "✗"
}

// Finding is one line of the report.
type Finding struct {
	Check    string
	Severity Severity
	Message  string
	// Fix says what to do; empty for OK findings.
	Fix string
}

// Bus answers questions about the D-Bus session bus.
type Bus interface {
	// NameHasOwner reports whether a process owns the well-known name.
	NameHasOwner(name string) (bool, error)
}

// Env is everything the checks look at.
type Env struct {
	Layout paths.Layout
	Now    time.Time
	// UserSettings is ~/.claude/settings.json; ProjectSettings are the
	// project's .claude/settings.json and settings.local.json (they may not
	// exist). Hooks count when they are in any of them.
	UserSettings    string
	ProjectSettings []string
	// ConfigDirSettings are the user settings of the other Claude config
	// directories hud follows (CLAUDE_CONFIG_DIR), and SessionProjects the
	// project directories of the live sessions, whose settings may wire
	// the hooks too.
	ConfigDirSettings []string
	SessionProjects   []string
	// LockDirs are the sessions/ directories of every followed config
	// directory; empty means Layout's alone.
	LockDirs []string
	// ConfigPath is the HUD's config.toml; Getenv feeds its overrides.
	ConfigPath string
	Getenv     func(string) string
	// Bus is the session bus, nil where the desktop checks do not apply
	// (macOS); BusErr says why there is no bus where there should be one.
	Bus    Bus
	BusErr error
	// Alive tells a live process from a dead or reused pid
	// (proc.Alive).
	Alive func(pid int, started int64) bool
	// Autostart is this OS's autostart file and Executable the running
	// hud; the autostart check is skipped when either is missing.
	Autostart  *autostart.Target
	Executable string
	// Remotes are the remote machines as they answered just now, and
	// RemoteSessions their sessions; none when none were added.
	Remotes        []view.Remote
	RemoteSessions []view.Session
	// Attention is what the checks of Do Not Disturb, the terminal in
	// front, the sounds and the away push ask the desktop; nil skips the
	// checks that need it.
	Attention *Attention
}

// check is one link of the chain.
type check struct {
	name string
	run  func(*Env) []Finding
}

// checks run in the order of the chain, from Claude Code to the screen.
var checks = []check{
	{"hooks", checkHooksOrPlugin},
	{"plugin", checkPlugin},
	{"hooks enabled", checkDisableAllHooks},
	{"config dirs", checkConfigDirs},
	{"agents", checkAgents},
	{"store", checkStore},
	{"locks", checkLocks},
	{"last event", checkLastEvent},
	{"tray host", checkTrayHost},
	{"tray", checkTrayRunning},
	{"autostart", checkAutostart},
	{"notifications", checkNotifications},
	{"dnd", checkDND},
	{"focus-aware", checkFocusAware},
	{"sounds", checkSounds},
	{"away push", checkAwayPush},
	{"answering", checkAnswering},
	{"config", checkConfig},
	{"permissions", checkPermissions},
	{"remotes", checkRemotes},
	{"history", checkHistory},
	{"page", checkWeb},
}

// Run runs every check.
func Run(env *Env) []Finding {
	var all []Finding
	for _, c := range checks {
		for _, f := range c.run(env) {
			f.Check = c.name
			all = append(all, f)
		}
	}
	return all
}

// Failed reports whether any finding is a failure.
func Failed(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == Fail {
			return true
		}
	}
	return false
}

// Write prints the findings, one per line with its mark, and the fix
// indented below. Messages quote what others wrote (the debug log's last
// entry, a path, a file's error), so each goes through hud/text first:
// nothing reaches the terminal that it would interpret.
//
//	✓ hooks          installed in ~/.claude/settings.json (15 events)
//	✗ tray host      nothing on the session bus shows tray icons
//	                 fix: on GNOME, install the AppIndicator extension
func Write(w io.Writer, fs []Finding, home string) error {
	width := 0
	for _, f := range fs {
		width = max(width, len(f.Check))
	}
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %-*s  %s\n", f.Severity.mark(), width, f.Check, text.Line(tildify(f.Message, home), 0))
		if f.Fix != "" {
			fmt.Fprintf(&b, "  %*s  fix: %s\n", width, "", text.Line(tildify(f.Fix, home), 0))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tildify shortens paths under home to ~/..., as a person writes them.
func tildify(s, home string) string {
	if home == "" || home == "/" {
		return s
	}
	return strings.ReplaceAll(s, home+"/", "~/")
}

func ok(format string, args ...any) Finding {
	return Finding{Severity: OK, Message: fmt.Sprintf(format, args...)}
}

func warn(fix, format string, args ...any) Finding {
	return Finding{Severity: Warn, Message: fmt.Sprintf(format, args...), Fix: fix}
}

func fail(fix, format string, args ...any) Finding {
	return Finding{Severity: Fail, Message: fmt.Sprintf(format, args...), Fix: fix}
}
