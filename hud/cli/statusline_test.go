package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/remote"
	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/store"
)

// runWithStdin saves h's store and runs `hud args...` with stdin.
func runWithStdin(t *testing.T, h *statusHome, stdin string, args ...string) (int, string, string) {
	t.Helper()
	b, err := store.Encode(h.store)
	if err != nil {
		t.Fatal(err)
	}
	h.write(h.layout.StorePath(), string(b))
	var out, errOut bytes.Buffer
	env := &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Home: h.layout.Home,
		Getenv: func(string) string { return "" }, Now: func() time.Time { return statusNow }}
	return Main(args, env), out.String(), errOut.String()
}

func TestStatusline(t *testing.T) {
	h := severalSessions(t)
	tests := []struct{ name, stdin, want string }{
		{"this session works, another waits",
			`{"session_id":"web-session","cwd":"/home/me/code/web/src","workspace":{"project_dir":"/home/me/code/web"},"model":{"display_name":"Opus"}}`,
			"● working · api waiting (Bash: npm test)\n"},
		{"this session is the one waiting",
			`{"session_id":"api-session"}`,
			"◆ waiting\n"},
		{"unknown session", `{"session_id":"nope"}`, "○ hud · api waiting (Bash: npm test)\n"},
		{"not JSON", `{{{`, "○ hud · api waiting (Bash: npm test)\n"},
		{"no input", ``, "○ hud · api waiting (Bash: npm test)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runWithStdin(t, h, tt.stdin, "statusline")
			if code != 0 || out != tt.want || errOut != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0, %q, nothing", code, out, errOut, tt.want)
			}
		})
	}
}

func TestStatuslineCorruptStoreStaysQuiet(t *testing.T) {
	h := newStatusHome(t)
	h.write(h.layout.StorePath(), "not json")
	var out, errOut bytes.Buffer
	env := &Env{Stdin: strings.NewReader(`{"session_id":"x"}`), Stdout: &out, Stderr: &errOut, Home: h.layout.Home,
		Getenv: func(string) string { return "" }, Now: func() time.Time { return statusNow }}
	if code := Main([]string{"statusline"}, env); code != 0 || out.String() != "○ hud\n" || errOut.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

func TestStatusOneLineFormats(t *testing.T) {
	h := severalSessions(t)
	for format, want := range map[string]string{
		"tmux":   "#[fg=colour208,bold]◆ api waiting#[default] #[fg=colour39]● 1 working#[default]\n",
		"waybar": `{"text":"◆ api waiting · ● 1 working","alt":"waiting","tooltip":"api: waiting — Bash: npm test\nweb: working — \"fix the login form\"","class":"waiting"}` + "\n",
	} {
		code, out, errOut := runWithStdin(t, h, "", "status", "--format", format)
		if code != 0 || out != want {
			t.Errorf("--format %s: exit %d, stdout %q, stderr %q; want %q", format, code, out, errOut, want)
		}
	}
	if code, _, errOut := runWithStdin(t, h, "", "status", "--watch", "--format", "tmux"); code != 2 || !strings.Contains(errOut, "json or waybar") {
		t.Errorf("--watch --format tmux: exit %d, stderr %q; want a usage error", code, errOut)
	}
}

// lockedBuffer is a bytes.Buffer safe for the watcher goroutine and the
// test to share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.SplitAfter(strings.TrimSuffix(l.b.String(), "\n"), "\n")
}

// TestStatusWatchStreamsLines starts the stream on an empty home, has a
// "hook" write the store, and expects exactly one new line for it.
func TestStatusWatchStreamsLines(t *testing.T) {
	home := t.TempDir()
	layout := paths.Layout{Home: home}
	var out lockedBuffer
	env := &Env{Stdout: &out, Stderr: os.Stderr, Home: home, Getenv: func(string) string { return "" }, Now: time.Now}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- streamLines(ctx, env, status.WriteJSONLine, func(int, int64) bool { return true }, remoteFeed{})
	}()
	waitFor := func(n int) []string {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if l := out.lines(); len(l) >= n && l[0] != "" {
				return l
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatalf("want %d lines, got %q", n, out.lines())
		return nil
	}
	if l := waitFor(1); l[0] != `{"version":1,"state":"idle","sessions":[],"hooks_problem":"Hooks not installed","remotes":[],"accounts":[]}` {
		t.Fatalf("first line %q", l[0])
	}

	st := store.New()
	now := store.At(time.Now())
	st.Sessions["s1"] = &store.Record{SessionID: "s1", State: store.StateWorking, CWD: "/p", UpdatedAt: now, StateChangedAt: now}
	b, _ := store.Encode(st)
	tmp := filepath.Join(layout.StoreDir(), ".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, layout.StorePath()); err != nil {
		t.Fatal(err)
	}
	l := waitFor(2)
	if !strings.HasPrefix(l[1], `{"version":1,"state":"working","sessions":[{"session_id":"s1"`) {
		t.Errorf("second line %q", l[1])
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("stream ended with %v", err)
	}
	if n := len(out.lines()); n != 2 {
		t.Errorf("%d lines; want 2 (no repeats): %q", n, out.lines())
	}
}

// Drawn right as the prompt is submitted: Claude's own file already says
// busy, the hook's write has not landed and the record still says ready.
// The line believes Claude for its own session, found in the config dir
// and process Claude names in the command's environment.
func TestStatuslineAsThePromptIsSubmitted(t *testing.T) {
	h := newStatusHome(t)
	if h.self.StartTicks == 0 {
		t.Skip("this OS has no start time in clock ticks")
	}
	work := filepath.Join(h.layout.Home, ".claude-work")
	h.record(store.Record{SessionID: "me", State: store.StateReady, CWD: "/home/me/code/api",
		PID: h.self.PID, ProcStarted: h.self.Started, ConfigDir: work}, time.Minute, time.Minute)
	busy := statusNow.Add(-100 * time.Millisecond).UnixMilli()
	h.write(filepath.Join(h.layout.WithConfig(work).LockDir(), fmt.Sprintf("%d.json", h.self.PID)), fmt.Sprintf(
		`{"pid":%d,"sessionId":"me","procStart":"%d","status":"busy","updatedAt":%d,"statusUpdatedAt":%d}`,
		h.self.PID, h.self.StartTicks, busy, busy))
	b, _ := store.Encode(h.store)
	h.write(h.layout.StorePath(), string(b))
	vars := map[string]string{"CLAUDE_CONFIG_DIR": work, "CLAUDE_PID": fmt.Sprint(h.self.PID)}
	var out bytes.Buffer
	env := &Env{Stdin: strings.NewReader(`{"session_id":"me","cwd":"/home/me/code/api"}`), Stdout: &out, Stderr: os.Stderr,
		Home: h.layout.Home, Getenv: func(k string) string { return vars[k] }, Now: func() time.Time { return statusNow }}
	if code := Main([]string{"statusline"}, env); code != 0 || out.String() != "● working\n" {
		t.Errorf("exit %d, line %q; want \"● working\"", code, out.String())
	}
}

// TestStatuslineNamesRemoteSessions: while a tray runs, the status line
// names the remote machines' waiting sessions as the tray last saw them;
// the same path over there is not this session. Without a tray, the line
// is this machine's alone (the file may be a stale one).
func TestStatuslineNamesRemoteSessions(t *testing.T) {
	h := newStatusHome(t)
	remoteAPI := view.Session{Key: "remote:devbox:r1", SessionID: "r1", State: store.StateWaiting,
		CWD: "/home/me/code/web", ProjectDir: "/srv/api", Since: statusNow, WaitingFor: "Bash: make deploy", Hooked: true, Host: "devbox"}
	if err := remote.WriteSeen(remote.SeenPath(h.layout), []view.Remote{{Host: "devbox", Up: true}}, []view.Session{remoteAPI}, statusNow); err != nil {
		t.Fatal(err)
	}
	stdin := `{"session_id":"web-session","cwd":"/home/me/code/web"}`
	if _, out, _ := runWithStdin(t, h, stdin, "statusline"); out != "○ hud\n" {
		t.Errorf("no tray: %q, want this machine alone", out)
	}
	unlock, err := safefile.Lock(h.layout.TrayLockPath(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, out, _ := runWithStdin(t, h, stdin, "statusline"); out != "○ hud · devbox · api waiting (Bash: make deploy)\n" {
		t.Errorf("with a tray: %q", out)
	}
}

// TestStatuslineNeverWaitsForever: a stdin that stays open (Claude Code
// or anyone else never closing it) does not hold the line up: the
// document is read as soon as it is whole, and a silent stdin is given up
// on after a second.
func TestStatuslineNeverWaitsForever(t *testing.T) {
	h := severalSessions(t)
	b, err := store.Encode(h.store)
	if err != nil {
		t.Fatal(err)
	}
	h.write(h.layout.StorePath(), string(b))
	for _, tt := range []struct{ name, written, want string }{
		{"the document, stdin left open", `{"session_id":"api-session"}` + "\n", "◆ waiting\n"},
		{"nothing, stdin left open", "", "○ hud · api waiting (Bash: npm test)\n"},
		{"half a document, stdin left open", `{"session_id":"api-`, "○ hud · api waiting (Bash: npm test)\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, w := io.Pipe()
			t.Cleanup(func() { w.Close() })
			go io.WriteString(w, tt.written)
			var out bytes.Buffer
			env := &Env{Stdin: r, Stdout: &out, Stderr: io.Discard, Home: h.layout.Home,
				Getenv: func(string) string { return "" }, Now: func() time.Time { return statusNow }}
			done := make(chan int, 1)
			start := time.Now()
			go func() { done <- Main([]string{"statusline"}, env) }()
			select {
			case code := <-done:
				if code != 0 || out.String() != tt.want {
					t.Errorf("exit %d, line %q; want 0, %q", code, out.String(), tt.want)
				}
				if took := time.Since(start); took > 3*time.Second {
					t.Errorf("took %s", took)
				}
			case <-time.After(6 * time.Second):
				t.Fatal("hud statusline still waits for stdin")
			}
		})
	}
}
