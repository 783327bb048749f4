package focus

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// KWin asks KWin, KDE Plasma's compositor, through its scripting interface
// on the session bus: KWin lists no windows to clients and takes no
// request to raise one, but it runs a script it is handed, with the whole
// workspace in reach. Each call writes a script of its own, has KWin load
// and run it, and waits for the script's answer: a D-Bus call (callDBus)
// back to an object this process exports, with the random token the
// script was written with, so that concurrent calls, and anything else on
// the bus, cannot answer for one another. The script is unloaded and its
// file removed afterwards, whatever came of the call.
//
// The scripts run on KWin 5 (workspace.clientList, activeClient) and
// KWin 6 (windowList, activeWindow).
type KWin struct {
	// Bus returns the connection to the session bus KWin is on, which the
	// caller keeps open; nil: the process's shared session bus
	// (dbus.SessionBus).
	Bus func() (*dbus.Conn, error)
}

// The names KWin serves its scripting under.
const (
	kwinService   = "org.kde.KWin"
	kwinScripting = "org.kde.kwin.Scripting"
	kwinScript    = "org.kde.kwin.Script"
)

// The object the scripts answer.
const (
	kwinAnswerPath      = "/io/github/capacitor_hud/KWinScript"
	kwinAnswerInterface = "io.github.capacitor_hud.KWinScript"
	kwinAnswerMethod    = "Answer"
)

// kwinUnloadTimeout bounds the unloading of a script, which is done even
// when the caller's deadline has passed: a script left loaded would stay
// in KWin for the rest of the session.
const kwinUnloadTimeout = time.Second

// kwinFailed starts the answer of a script that threw: what it threw
// follows.
const kwinFailed = "error: "

func (KWin) Name() string { return "kwin" }

// Activate focuses the window of the first of pids that owns a normal
// window (not the desktop, a panel or a dock), which brings it to the
// current virtual desktop and out of minimized. For a window of XWayland
// KWin hands the focus over once the X server confirms it, a moment after
// Activate returns.
func (k KWin) Activate(ctx context.Context, pids []int) error {
	if len(pids) == 0 {
		return fmt.Errorf("%w (no process to look for)", ErrNoWindow)
	}
	pid, err := k.ask(ctx, kwinActivateBody(pids))
	if err != nil {
		return fmt.Errorf("focusing the window of process %d or its ancestors: %w", pids[0], err)
	}
	if pid <= 0 {
		return fmt.Errorf("%w (asked kwin about processes %v)", ErrNoWindow, pids)
	}
	return nil
}

// Focused returns the process that owns the active window, 0 when none
// is.
func (k KWin) Focused(ctx context.Context) (int, error) {
	pid, err := k.ask(ctx, kwinFocusedBody)
	if err != nil {
		return 0, fmt.Errorf("asking which window is active: %w", err)
	}
	return max(pid, 0), nil
}

// kwinActivateBody is the script that activates the first normal window
// of the nearest of pids, and returns its process (0 for none).
func kwinActivateBody(pids []int) string {
	list, _ := json.Marshal(pids)
	return `var pids = ` + string(list) + `;
	var windows = kwin6 ? workspace.windowList() : workspace.clientList();
	for (var i = 0; i < pids.length; i++) {
		for (var j = 0; j < windows.length; j++) {
			var w = windows[j];
			if (w.pid !== pids[i] || !w.normalWindow || w.desktopWindow || w.dock) {
				continue;
			}
			if (kwin6) {
				workspace.activeWindow = w;
			} else {
				workspace.activeClient = w;
			}
			return w.pid;
		}
	}
	return 0;`
}

// kwinFocusedBody is the script that returns the process of the active
// window (0 for none).
const kwinFocusedBody = `var w = kwin6 ? workspace.activeWindow : workspace.activeClient;
	return w ? w.pid : 0;`

// kwinScriptText wraps body, a function's statements that return a
// process id, in the script that calls the answer back, with token, to
// service (the caller's unique name on the bus). What the body throws is
// answered too, so that a failing script is told from one that is slow.
func kwinScriptText(body, service, token string) string {
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return `(function () {
	var answer;
	try {
		answer = String((function (kwin6) {
	` + body + `
		})(typeof workspace.windowList === "function"));
	} catch (e) {
		answer = ` + quote(kwinFailed) + ` + e;
	}
	callDBus(` + strings.Join([]string{quote(service), quote(kwinAnswerPath), quote(kwinAnswerInterface), quote(kwinAnswerMethod), quote(token)}, ", ") + `, answer);
})();
`
}

// kwinAnswers hands each script's answer to the call waiting for it, by
// the call's token. It is exported once on each connection a call is
// made on, and stays: godbus's Export is not safe to call while another
// goroutine exports on the same connection (the tray's icon, on the
// shared bus), so it is called as seldom as can be.
type kwinAnswers struct {
	mu       sync.Mutex
	waiting  map[string]chan string
	exported map[*dbus.Conn]bool
}

var kwinRouter = &kwinAnswers{waiting: map[string]chan string{}, exported: map[*dbus.Conn]bool{}}

// Answer is what a script calls back. A token no call waits for (one
// that gave up, or a guess) is ignored; so is a second answer.
func (a *kwinAnswers) Answer(token, answer string) *dbus.Error {
	a.mu.Lock()
	defer a.mu.Unlock()
	select {
	case a.waiting[token] <- answer:
	default:
	}
	return nil
}

// wait registers a call's token on conn, exporting the object there
// first if need be, and returns the channel its answer comes on, and the
// function that ends the wait.
func (a *kwinAnswers) wait(conn *dbus.Conn, token string) (<-chan string, func(), error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.exported[conn] {
		for c := range a.exported {
			if c.Context().Err() != nil {
				delete(a.exported, c) // closed
			}
		}
		if err := conn.Export(a, kwinAnswerPath, kwinAnswerInterface); err != nil {
			return nil, nil, fmt.Errorf("exporting the object the script answers: %w", err)
		}
		a.exported[conn] = true
	}
	ch := make(chan string, 1)
	a.waiting[token] = ch
	return ch, func() {
		a.mu.Lock()
		delete(a.waiting, token)
		a.mu.Unlock()
	}, nil
}

// ask has KWin run body (kwinScriptText) and returns the process id it
// answered.
func (k KWin) ask(ctx context.Context, body string) (int, error) {
	conn, err := k.bus()
	if err != nil {
		return 0, fmt.Errorf("connecting to the session bus: %w", err)
	}
	names := conn.Names()
	if len(names) == 0 {
		return 0, errors.New("the session bus gave this process no name")
	}
	// This call's name: the answer's token and the plugin's name.
	token := rand.Text()
	answers, done, err := kwinRouter.wait(conn, token)
	if err != nil {
		return 0, err
	}
	defer done()
	answer, err := kwinRun(ctx, conn, "hud-"+token, kwinScriptText(body, names[0], token), answers)
	if err != nil {
		return 0, err
	}
	if msg, failed := strings.CutPrefix(answer, kwinFailed); failed {
		return 0, fmt.Errorf("the script failed: %s", msg)
	}
	pid, err := strconv.Atoi(answer)
	if err != nil {
		return 0, fmt.Errorf("the script answered %q, not a process id", answer)
	}
	return pid, nil
}

// kwinRun writes script to a file of its own, in a directory only this
// user can read (KWin reads it; nobody else should, nor change it before
// KWin runs it), has KWin load it as plugin and run it, and waits for its
// answer or ctx's end. It unloads the script and removes its file in any
// case.
func kwinRun(ctx context.Context, conn *dbus.Conn, plugin, script string, answers <-chan string) (string, error) {
	dir, err := os.MkdirTemp("", "hud-kwin-")
	if err != nil {
		return "", fmt.Errorf("making the script's directory: %w", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "focus.js")
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		return "", fmt.Errorf("writing the script: %w", err)
	}
	scripting := conn.Object(kwinService, "/Scripting")
	defer kwinUnload(ctx, scripting, plugin)
	var id int32
	if err := scripting.CallWithContext(ctx, kwinScripting+".loadScript", 0, file, plugin).Store(&id); err != nil {
		return "", fmt.Errorf("loading the script: %w", err)
	}
	if id < 0 {
		return "", fmt.Errorf("kwin did not load the script (id %d)", id)
	}
	if err := kwinStart(ctx, conn); err != nil {
		return "", err
	}
	select {
	case answer := <-answers:
		return answer, nil
	case <-ctx.Done():
		return "", fmt.Errorf("waiting for the script's answer: %w", ctx.Err())
	}
}

// kwinStart has KWin run the scripts it has loaded and not yet run, this
// one among them (/Scripting's start), rather than the one script at its
// object's path: KWin 5 numbers a script by how many it holds, so a
// script loaded while another program's is being unloaded can take a
// number still in use, and then that path runs the other program's
// script, or none. Another program's script that start runs was loaded to
// be run.
func kwinStart(ctx context.Context, conn *dbus.Conn) error {
	if err := conn.Object(kwinService, "/Scripting").CallWithContext(ctx, kwinScripting+".start", 0).Err; err != nil {
		return fmt.Errorf("running the script: %w", err)
	}
	return nil
}

// kwinUnload unloads plugin, past ctx's end if need be (bounded by
// kwinUnloadTimeout). A plugin KWin does not have (it never loaded it) is
// no harm.
func kwinUnload(ctx context.Context, scripting dbus.BusObject, plugin string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), kwinUnloadTimeout)
	defer cancel()
	scripting.CallWithContext(ctx, kwinScripting+".unloadScript", 0, plugin)
}

func (k KWin) bus() (*dbus.Conn, error) {
	if k.Bus != nil {
		return k.Bus()
	}
	return dbus.SessionBus()
}
