package focus

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/terminal"
)

// ErrSkip is what a Backend returns when the target holds nothing it can
// use (no pane of its kind, no display): the next one is tried, and the
// failure is not worth a log line.
var ErrSkip = errors.New("not this terminal")

// ErrOnlyFolder is what Focus returns when no backend brought the
// session's terminal forward and its folder was opened instead: nothing of
// the session's own was raised, and the caller says so (hud focus exits
// non-zero, the tray logs it) rather than pass a folder off as the
// session.
var ErrOnlyFolder = errors.New("nothing brought the session's terminal forward: its folder was opened instead")

// Backend is one way of bringing a session's terminal forward.
type Backend interface {
	// Name names the backend in the log ("tmux", "x11").
	Name() string
	// Focus brings t forward, or returns ErrSkip (possibly wrapped) when t
	// holds nothing this backend uses.
	Focus(ctx context.Context, t view.Place) error
}

// Raiser raises the desktop window that holds a process: the terminal
// among its ancestors. hint names the window when the terminal told
// (Terminal.WindowID); "" if not.
type Raiser interface {
	Raise(ctx context.Context, pid int, hint string) error
}

// Command is a program to run, with extra environment variables.
type Command struct {
	Name string
	Args []string
	Env  []string
}

func (c Command) String() string { return strings.Join(append([]string{c.Name}, c.Args...), " ") }

// Runner runs a command to completion and returns its standard output;
// tests replace it.
type Runner func(ctx context.Context, c Command) ([]byte, error)

// Exec runs the command for real. Standard error, when the command fails,
// is part of the error (trimmed).
func Exec(ctx context.Context, c Command) ([]byte, error) {
	cmd := exec.CommandContext(ctx, c.Name, c.Args...)
	if len(c.Env) > 0 {
		cmd.Env = append(cmd.Environ(), c.Env...)
	}
	// A child the program leaves behind holding its output open must not
	// hold the click past the timeout.
	cmd.WaitDelay = 500 * time.Millisecond
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 200 {
			msg = msg[:200]
		}
		if msg != "" {
			return out, fmt.Errorf("%s: %w: %s", c.Name, err, msg)
		}
		return out, fmt.Errorf("%s: %w", c.Name, err)
	}
	return out, nil
}

// DefaultTimeout bounds each backend: a terminal's control socket that
// does not answer, an X server that hangs.
const DefaultTimeout = 3 * time.Second

// Focuser tries its backends in order, then opens the folder.
type Focuser struct {
	Backends []Backend
	// Open opens a folder in the file manager; nil: no folder fallback.
	Open func(path string) error
	Logf func(format string, args ...any)
	// Timeout bounds each backend; 0 means DefaultTimeout.
	Timeout time.Duration
	// Failed hears of a click that brought nothing of the session's own
	// forward (Start's): the person should learn why a folder opened, or
	// nothing did. nil: the log only.
	Failed func(err error)
	// Sockets checks the terminal's control sockets before any backend
	// talks to them, and returns the terminal with the checked paths and
	// without what failed; nil means OwnSockets for this process's uid.
	Sockets func(terminal.Terminal) (terminal.Terminal, error)

	// mu runs one click at a time: two chains interleaving could leave
	// the first session's window on top.
	mu sync.Mutex
}

// New returns the focuser for this machine: the backends in the order
// that finds the most exact place first. machine finds a remote session's
// machine (Remote.Machine); nil when there are none.
func New(logf func(string, ...any), open func(string) error, machine func(name string) (config.Remote, string, error)) *Focuser {
	return &Focuser{Backends: Backends(Exec, runtime.GOOS, machine), Open: open, Logf: logf}
}

// Backends lists the backends for goos, most exact first: a tmux pane
// before the window it is shown in; a terminal's own control interface
// (which knows the tab) before the desktop's window.
func Backends(run Runner, goos string, machine func(name string) (config.Remote, string, error)) []Backend {
	var window Raiser
	switch goos {
	case "darwin":
		window = MacTerminal{Run: run}
	default:
		window = Desktop{Compositor: DetectCompositor(os.Getenv)}
	}
	return []Backend{
		Remote{GOOS: goos, Machine: machine},
		Tmux{Run: run, Window: window},
		Kitty{Run: run, Window: window},
		WezTerm{Run: run, Window: window},
		Window{Raiser: window},
	}
}

// Start brings t forward off the caller's goroutine (the tray's event
// loop must never wait on a terminal) and logs what failed.
func (f *Focuser) Start(t view.Place) {
	go func() {
		if err := f.Focus(context.Background(), t); err != nil {
			f.logf("bringing the session forward: %v", err)
			if f.Failed != nil {
				f.Failed(err)
			}
		}
	}()
}

// Focus brings t forward: the first backend that succeeds wins; when none
// does, the folder opens, and the error is ErrOnlyFolder (with why each
// way failed). Failures along the way are logged; any other error says
// why nothing at all could be shown.
func (f *Focuser) Focus(ctx context.Context, t view.Place) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	// Checked again here, whoever built t: every value reaches a program.
	t.Terminal = t.Terminal.Checked()
	var errs []error
	terminal, err := f.sockets(t.Terminal)
	t.Terminal = terminal
	if err != nil {
		// The next way (the window, the folder) still shows the session.
		f.logf("focus: %v", err)
		errs = append(errs, err)
	}
	for _, b := range f.Backends {
		err := f.try(ctx, b, t)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrSkip) {
			f.logf("focus: %s: %v", b.Name(), err)
			errs = append(errs, fmt.Errorf("%s: %w", b.Name(), err))
		}
	}
	if t.Host != "" {
		// The folder is on the other machine.
		return errors.Join(append(errs, fmt.Errorf("nothing brings a session on %s forward", t.Host))...)
	}
	if t.Dir == "" || f.Open == nil {
		return errors.Join(append(errs, errors.New("the session has no folder to open"))...)
	}
	dir, err := folder(t.Dir)
	if err == nil {
		err = f.Open(dir)
	}
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	return errors.Join(append(errs, ErrOnlyFolder)...)
}

// folder checks that path, a session's recorded cwd, names a directory,
// and returns it with its links resolved. The file manager's opener runs
// whatever a file asks for (a .desktop entry, a script a desktop trusts),
// so a path that names a file, or a link to one, is never handed to it.
func folder(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("not opening %q: not an absolute path", path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("not opening the session's folder: %w", err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("not opening %s: not a folder", path)
	}
	return real, nil
}

func (f *Focuser) try(ctx context.Context, b Backend, t view.Place) error {
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(f.Timeout, DefaultTimeout))
	defer cancel()
	return b.Focus(ctx, t)
}

func (f *Focuser) sockets(t terminal.Terminal) (terminal.Terminal, error) {
	return checkSockets(f.Sockets, t)
}

// checkSockets is check(t), or, with check nil, OwnSockets for this
// process's uid: every way hud reaches a terminal (a click, the question
// whether the person looks at it) checks its sockets the same way.
func checkSockets(check func(terminal.Terminal) (terminal.Terminal, error), t terminal.Terminal) (terminal.Terminal, error) {
	if check != nil {
		return check(t)
	}
	return OwnSockets(t, os.Getuid())
}

func (f *Focuser) logf(format string, args ...any) {
	if f.Logf != nil {
		f.Logf(format, args...)
	}
}
