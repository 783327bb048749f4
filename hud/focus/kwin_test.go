package focus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/internal/bustest"
)

// kwinStub runs a KWin script in node against a stand-in workspace: its
// windows (KWin 5's clientList and activeClient, or KWin 6's windowList
// and activeWindow), and a callDBus that prints its arguments and the
// window active by then, as JSON.
const kwinStub = `
var kwin6 = %v;
var windows = %s;
var active = %s;
var workspace = {};
var list = function () { if (windows === null) { throw new TypeError("no list"); } return windows; };
var get = function () { return active; };
var set = function (w) { active = w; };
if (kwin6) {
	workspace.windowList = list;
	Object.defineProperty(workspace, "activeWindow", {get: get, set: set});
} else {
	workspace.clientList = list;
	Object.defineProperty(workspace, "activeClient", {get: get, set: set});
}
function callDBus() {
	console.log(JSON.stringify({args: Array.prototype.slice.call(arguments), active: active ? active.name : ""}));
}
`

// kwinWindow is a window of the stand-in workspace.
type kwinWindow struct {
	Name          string `json:"name"`
	PID           int    `json:"pid"`
	NormalWindow  bool   `json:"normalWindow"`
	Dock          bool   `json:"dock"`
	DesktopWindow bool   `json:"desktopWindow"`
}

// runKWinScript runs body's script in node; it returns the arguments of
// the script's callDBus and the name of the window active after it.
func runKWinScript(t *testing.T, kwin6 bool, windows []kwinWindow, active int, body string) ([]string, string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the scripts are not run")
	}
	list, _ := json.Marshal(windows)
	if windows == nil {
		list = []byte("null")
	}
	first := "null"
	if active >= 0 {
		first = fmt.Sprintf("windows[%d]", active)
	}
	script := fmt.Sprintf(kwinStub, kwin6, list, first) + kwinScriptText(body, ":1.42", "TOKEN")
	out, err := exec.Command(node, "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got struct {
		Args   []string `json:"args"`
		Active string   `json:"active"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the script printed %q: %v", out, err)
	}
	return got.Args, got.Active
}

// The script activates the first normal window of the nearest process,
// and answers its process, on KWin 5 and KWin 6 alike.
func TestKWinActivateScript(t *testing.T) {
	// claude 500 ← sh 400 ← konsole 300 ← plasmashell 200
	pids := []int{500, 400, 300, 200}
	terminal := kwinWindow{Name: "terminal", PID: 300, NormalWindow: true}
	other := kwinWindow{Name: "other", PID: 301, NormalWindow: true}
	tests := []struct {
		name       string
		windows    []kwinWindow
		want       string // the window activated
		wantAnswer string
	}{
		{"the terminal among the ancestors", []kwinWindow{other, terminal}, "terminal", "300"},
		{"the nearest ancestor wins", []kwinWindow{
			{Name: "shell", PID: 200, NormalWindow: true}, terminal}, "terminal", "300"},
		{"a desktop and a panel are passed over", []kwinWindow{
			{Name: "desktop", PID: 300, DesktopWindow: true},
			{Name: "panel", PID: 300, Dock: true},
			{Name: "shell", PID: 200, NormalWindow: true}}, "shell", "200"},
		{"a dock of the terminal's own is passed over for its window", []kwinWindow{
			{Name: "dock", PID: 300, Dock: true}, terminal}, "terminal", "300"},
		{"no window of ours", []kwinWindow{other}, "other", "0"},
		{"no window at all", []kwinWindow{}, "", "0"},
	}
	for _, kwin6 := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(tt.name+"/"+kwinVersion(kwin6), func(t *testing.T) {
				active := -1
				if len(tt.windows) > 0 {
					active = 0
				}
				args, got := runKWinScript(t, kwin6, tt.windows, active, kwinActivateBody(pids))
				want := []string{":1.42", kwinAnswerPath, kwinAnswerInterface, kwinAnswerMethod, "TOKEN", tt.wantAnswer}
				if strings.Join(args, "|") != strings.Join(want, "|") {
					t.Errorf("callDBus(%q), want %q", args, want)
				}
				if got != tt.want {
					t.Errorf("active window %q, want %q", got, tt.want)
				}
			})
		}
	}
}

// The focus script answers the active window's process, 0 for none; a
// script that throws answers what it threw.
func TestKWinFocusedScript(t *testing.T) {
	windows := []kwinWindow{{Name: "a", PID: 300, NormalWindow: true}, {Name: "b", PID: 301, NormalWindow: true}}
	for _, kwin6 := range []bool{false, true} {
		t.Run(kwinVersion(kwin6), func(t *testing.T) {
			if args, _ := runKWinScript(t, kwin6, windows, 1, kwinFocusedBody); args[5] != "301" {
				t.Errorf("answer %q with b active, want 301", args[5])
			}
			if args, _ := runKWinScript(t, kwin6, windows, -1, kwinFocusedBody); args[5] != "0" {
				t.Errorf("answer %q with none active, want 0", args[5])
			}
			args, _ := runKWinScript(t, kwin6, nil, -1, kwinActivateBody([]int{1}))
			if !strings.HasPrefix(args[5], kwinFailed+"TypeError: no list") {
				t.Errorf("answer %q from a script that threw", args[5])
			}
		})
	}
}

// The script's text: the pids as a list, the answer's address and token
// quoted as JavaScript strings, whatever the name holds.
func TestKWinScriptText(t *testing.T) {
	if got := kwinActivateBody([]int{500, 400, 1}); !strings.HasPrefix(got, "var pids = [500,400,1];") {
		t.Errorf("body starts %q", got[:min(len(got), 40)])
	}
	text := kwinScriptText("return 0;", `:1."\`+"\u2028", "TOKEN")
	call := regexp.MustCompile(`callDBus\((.*), answer\);`).FindStringSubmatch(text)
	if call == nil {
		t.Fatalf("no callDBus in %s", text)
	}
	var args []string
	if err := json.Unmarshal([]byte("["+call[1]+"]"), &args); err != nil {
		t.Fatal(err)
	}
	if args[0] != `:1."\`+"\u2028" || args[4] != "TOKEN" || strings.Contains(call[1], "\u2028") {
		t.Errorf("callDBus arguments %s", call[1])
	}
}

// A failure reading the answer says what came back; none is taken for a
// process.
func TestKWinAnswers(t *testing.T) {
	tests := []struct {
		answer, err string
		pid         int
		noWindow    bool
	}{
		{answer: "4321", pid: 4321},
		{answer: "0", noWindow: true},
		{answer: kwinFailed + "TypeError: x is undefined", err: "the script failed: TypeError: x is undefined"},
		{answer: "four", err: `the script answered "four"`},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			k := startFakeKWin(t, false, func([]int) (string, bool) { return tt.answer, true })
			err := k.client.Activate(context.Background(), []int{4321, 1})
			focused, ferr := k.client.Focused(context.Background())
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) || errors.Is(err, ErrNoWindow) {
					t.Errorf("Activate: %v, want %q", err, tt.err)
				}
				if ferr == nil || !strings.Contains(ferr.Error(), tt.err) {
					t.Errorf("Focused: %v, want %q", ferr, tt.err)
				}
			case tt.noWindow:
				if !errors.Is(err, ErrNoWindow) {
					t.Errorf("Activate: %v, want ErrNoWindow", err)
				}
			default:
				if err != nil || ferr != nil || focused != tt.pid {
					t.Errorf("Activate: %v; Focused: %d %v, want %d", err, focused, ferr, tt.pid)
				}
			}
			k.checkCleanedUp(t)
		})
	}
}

func TestKWinNoProcesses(t *testing.T) {
	if err := (KWin{}).Activate(context.Background(), nil); !errors.Is(err, ErrNoWindow) {
		t.Errorf("err = %v, want ErrNoWindow", err)
	}
}

// kwinScriptFile checks the script file KWin is handed: only its owner
// reads it, in a directory only its owner enters.
func kwinScriptFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return err
	}
	if fi.Mode().Perm() != 0o600 || dir.Mode().Perm() != 0o700 {
		return fmt.Errorf("script %s mode %v in a directory of mode %v", path, fi.Mode().Perm(), dir.Mode().Perm())
	}
	return nil
}

// KWin 5 and KWin 6 keep a loaded script at different paths; /Scripting's
// start runs it on both.
func TestKWinScriptPaths(t *testing.T) {
	for _, kwin6 := range []bool{false, true} {
		t.Run(kwinVersion(kwin6), func(t *testing.T) {
			k := startFakeKWin(t, kwin6, func(pids []int) (string, bool) { return fmt.Sprint(pids[1]), true })
			if err := k.client.Activate(context.Background(), []int{500, 300}); err != nil {
				t.Fatal(err)
			}
			k.checkCleanedUp(t)
		})
	}
}

// A script KWin 5 numbered over another's still loaded has no object of
// its own: /Scripting's start runs it.
func TestKWinScriptWithoutItsObject(t *testing.T) {
	k := startFakeKWin(t, false, func(pids []int) (string, bool) { return fmt.Sprint(pids[0]), true })
	k.mu.Lock()
	k.collide = true
	k.mu.Unlock()
	if err := k.client.Activate(context.Background(), []int{500, 300}); err != nil {
		t.Fatal(err)
	}
	k.checkCleanedUp(t)
}

// A script that never answers holds the call until the caller's
// deadline, no longer, and is unloaded all the same; so is one KWin
// refused.
func TestKWinBounded(t *testing.T) {
	k := startFakeKWin(t, false, func([]int) (string, bool) { return "", false })
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := k.client.Activate(ctx, []int{500})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("took %v past a 300ms deadline", took)
	}
	k.checkCleanedUp(t)

	k.mu.Lock()
	k.refuse = true
	k.mu.Unlock()
	if _, err := k.client.Focused(context.Background()); err == nil || !strings.Contains(err.Error(), "did not load") {
		t.Errorf("err = %v, want a refused script", err)
	}
	k.checkCleanedUp(t)
}

// Without KWin on the bus, the call fails at once.
func TestKWinAbsent(t *testing.T) {
	conn, err := dbus.Connect(bustest.Start(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = KWin{Bus: func() (*dbus.Conn, error) { return conn, nil }}.Focused(ctx)
	if err == nil || ctx.Err() != nil {
		t.Errorf("err = %v (deadline: %v), want KWin's absence", err, ctx.Err())
	}
}

// Concurrent calls each get their own script's answer, whatever order
// the answers come in.
func TestKWinConcurrentCalls(t *testing.T) {
	const n = 8
	var arrived sync.WaitGroup
	arrived.Add(n)
	k := startFakeKWin(t, true, func(pids []int) (string, bool) {
		arrived.Done()
		arrived.Wait()
		i := pids[0] - 1000
		time.Sleep(time.Duration(n-i) * 5 * time.Millisecond) // the last asked answers first
		if i%2 == 0 {
			return fmt.Sprint(pids[0]), true
		}
		return "0", true
	})
	errs := make([]error, n)
	var done sync.WaitGroup
	for i := range n {
		done.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			errs[i] = k.client.Activate(ctx, []int{1000 + i, 1})
		})
	}
	done.Wait()
	for i, err := range errs {
		if i%2 == 0 && err != nil || i%2 == 1 && !errors.Is(err, ErrNoWindow) {
			t.Errorf("call %d: %v", i, err)
		}
	}
	k.checkCleanedUp(t)
}

// kwinVersion names a subtest (its name is part of the bus address of
// bustest, which takes no "=").
func kwinVersion(kwin6 bool) string {
	if kwin6 {
		return "KWin 6"
	}
	return "KWin 5"
}
