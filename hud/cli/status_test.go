package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

var updateStatusGolden = flag.Bool("update-status", false, "rewrite testdata/status/*.golden from the current output")

// statusNow is the clock of the status tests.
var statusNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// deadPID is above any pid_max, so never a running process.
const deadPID = 2147483000

// statusHome is a temp home whose store and lock directories the test
// fills. Locks of the test process's own pid are live.
type statusHome struct {
	t      *testing.T
	layout paths.Layout
	self   proc.Process
	store  *store.Store
}

func newStatusHome(t *testing.T) *statusHome {
	t.Helper()
	self, err := proc.Inspect(os.Getpid())
	if err != nil {
		t.Fatalf("inspecting the test process: %v", err)
	}
	return &statusHome{t: t, layout: paths.Layout{Home: t.TempDir()}, self: self, store: store.New()}
}

// record adds a record changed changedAgo and updated updatedAgo before
// statusNow.
func (h *statusHome) record(r store.Record, changedAgo, updatedAgo time.Duration) {
	r.StateChangedAt = store.At(statusNow.Add(-changedAgo))
	r.UpdatedAt = store.At(statusNow.Add(-updatedAgo))
	h.store.Sessions[r.SessionID] = &r
}

// lock makes the lock directory of process pid (started at started).
func (h *statusHome) lock(path string, pid int, started int64, sessionID string) {
	h.t.Helper()
	dir := filepath.Join(h.layout.LockDir(), paths.LockName(path, pid))
	meta, _ := json.Marshal(resolver.LockMeta{PID: pid, Path: path, Created: statusNow.Add(-time.Hour).Unix(), ProcStarted: started, SessionID: sessionID})
	h.write(filepath.Join(dir, "pid"), strconv.Itoa(pid))
	h.write(filepath.Join(dir, "meta.json"), string(meta))
}

// liveLock makes a lock of the test process itself.
func (h *statusHome) liveLock(path, sessionID string) {
	h.lock(path, h.self.PID, h.self.Started, sessionID)
}

func (h *statusHome) write(path, content string) {
	h.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		h.t.Fatal(err)
	}
}

// run saves the store and runs `hud args...`.
func (h *statusHome) run(args ...string) (code int, stdout, stderr string) {
	h.t.Helper()
	if len(h.store.Sessions) > 0 {
		b, err := store.Encode(h.store)
		if err != nil {
			h.t.Fatal(err)
		}
		h.write(h.layout.StorePath(), string(b))
	}
	var out, errOut bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Home: h.layout.Home,
		Getenv: func(string) string { return "" }, Now: func() time.Time { return statusNow }}
	code = Main(args, env)
	return code, out.String(), errOut.String()
}

var pidField = regexp.MustCompile(`"pid": [0-9]+`)

// golden compares got with testdata/status/name.golden, after replacing
// what varies between runs (the home directory, the test's pid).
func (h *statusHome) golden(name, got string) {
	h.t.Helper()
	got = strings.ReplaceAll(got, h.layout.Home, "$HOME")
	got = pidField.ReplaceAllStringFunc(got, func(m string) string {
		if m == fmt.Sprintf(`"pid": %d`, h.self.PID) {
			return `"pid": $PID`
		}
		return m
	})
	path := filepath.Join("testdata", "status", name+".golden")
	if *updateStatusGolden {
		h.write(path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatalf("%v (run with -update-status to create it)", err)
	}
	if got != string(want) {
		h.t.Errorf("%s differs (run with -update-status to accept):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// severalSessions is a home with one live session by lock, one fresh, and
// leftovers that must not show.
func severalSessions(t *testing.T) *statusHome {
	h := newStatusHome(t)
	h.liveLock("/home/me/code/api", "api-session")
	h.record(store.Record{SessionID: "api-session", State: store.StateWaiting, CWD: "/home/me/code/api",
		ProjectDir: "/home/me/code/api", WorkingOn: "run the tests", WaitingFor: "Bash: npm test", PID: h.self.PID, ProcStarted: h.self.Started},
		2*time.Minute, 2*time.Minute)
	// No lock yet, updated 5 s ago.
	h.record(store.Record{SessionID: "web-session", State: store.StateWorking, CWD: "/home/me/code/web/src",
		ProjectDir: "/home/me/code/web", WorkingOn: "fix the login form"}, 40*time.Second, 5*time.Second)
	// A closed terminal: stale record, its lock's process gone.
	h.lock("/home/me/code/old", deadPID, 1, "old-session")
	h.record(store.Record{SessionID: "old-session", State: store.StateWorking, CWD: "/home/me/code/old"}, time.Hour, time.Hour)
	// A kill -9 a moment ago: fresh, but its process is dead.
	h.record(store.Record{SessionID: "killed-session", State: store.StateWorking, CWD: "/home/me/code/k", PID: deadPID}, time.Second, time.Second)
	// A live pid with another start time: the pid was reused.
	h.lock("/home/me/code/reused", h.self.PID, h.self.Started-3600, "reused-session")
	h.record(store.Record{SessionID: "reused-session", State: store.StateWaiting, CWD: "/home/me/code/reused"}, time.Hour, time.Hour)
	return h
}

func TestStatusGolden(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) *statusHome
		args  []string
	}{
		{"empty", newStatusHome, []string{"status"}},
		{"empty_json", newStatusHome, []string{"status", "--json"}},
		{"several", severalSessions, []string{"status"}},
		{"several_json", severalSessions, []string{"status", "--json"}},
		{"several_format_json", severalSessions, []string{"status", "--format", "json"}},
		{"project_lock_json", severalSessions, []string{"status", "--json", "--project", "/home/me/code/api"}},
		{"project_fresh_child_json", severalSessions, []string{"status", "--project", "/home/me/code/web", "--json"}},
		{"project_none_json", severalSessions, []string{"status", "--json", "--project", "/home/me/code/old"}},
		{"project_lock_text", severalSessions, []string{"status", "--project", "/home/me/code/api"}},
		{"project_none_text", severalSessions, []string{"status", "--project", "/home/me/code/old"}},
		{"esc_interrupt", escInterrupted, []string{"status"}},
		{"esc_interrupt_json", escInterrupted, []string{"status", "--json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.setup(t)
			code, stdout, stderr := h.run(tt.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if strings.Contains(tt.name, "json") && !json.Valid([]byte(stdout)) {
				t.Errorf("not JSON:\n%s", stdout)
			}
			h.golden(tt.name, stdout)
		})
	}
}

// escInterrupted is a live session whose record says working, while
// Claude Code's own file says it went idle 12 s ago: Esc, no Stop hook.
func escInterrupted(t *testing.T) *statusHome {
	h := newStatusHome(t)
	if h.self.StartTicks == 0 {
		t.Skip("this OS has no start time in clock ticks")
	}
	h.liveLock("/home/me/code/api", "api-session")
	h.record(store.Record{SessionID: "api-session", State: store.StateWorking, CWD: "/home/me/code/api",
		WorkingOn: "SLOW:30 take your time", PID: h.self.PID, ProcStarted: h.self.Started}, 30*time.Second, 20*time.Second)
	idleAt := statusNow.Add(-12 * time.Second).UnixMilli()
	h.write(filepath.Join(h.layout.LockDir(), fmt.Sprintf("%d.json", h.self.PID)), fmt.Sprintf(
		`{"pid":%d,"sessionId":"api-session","cwd":"/home/me/code/api","procStart":"%d","status":"idle","updatedAt":%d,"statusUpdatedAt":%d}`,
		h.self.PID, h.self.StartTicks, idleAt, idleAt))
	return h
}

func TestStatusClaudeFileOfAnotherProcessIsIgnored(t *testing.T) {
	h := escInterrupted(t)
	// Same pid, another start time: a reused pid's leftover file.
	h.write(filepath.Join(h.layout.LockDir(), fmt.Sprintf("%d.json", h.self.PID)), fmt.Sprintf(
		`{"pid":%d,"sessionId":"api-session","procStart":"%d","status":"idle","statusUpdatedAt":%d}`,
		h.self.PID, h.self.StartTicks+1, statusNow.Add(-time.Minute).UnixMilli()))
	_, stdout, _ := h.run("status")
	if !strings.Contains(stdout, "working") {
		t.Errorf("a file of another process changed the state:\n%s", stdout)
	}
}

func TestStatusErrors(t *testing.T) {
	tests := []struct {
		name       string
		store      string
		args       []string
		wantCode   int
		wantStderr []string
	}{
		{"corrupt store", `{"version":3,"sessions":`, []string{"status"}, 1,
			[]string{"hud status: reading $HOME/.capacitor/sessions.json: corrupt store", "hint: the hook moves $HOME/.capacitor/sessions.json aside"}},
		{"foreign store", `{"version":2}`, []string{"status", "--json"}, 1,
			[]string{"not a version 3 store", "hint:"}},
		{"extra argument", "", []string{"status", "api"}, 2, []string{`unexpected argument "api"`, "hud status --help"}},
		{"unknown format", "", []string{"status", "--format", "xml"}, 2, []string{`unknown format "xml"`}},
		{"unknown flag", "", []string{"status", "--verbose"}, 2, []string{"-verbose"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newStatusHome(t)
			if tt.store != "" {
				h.write(h.layout.StorePath(), tt.store)
			}
			code, stdout, stderr := h.run(tt.args...)
			stderr = strings.ReplaceAll(stderr, h.layout.Home, "$HOME")
			if code != tt.wantCode || stdout != "" {
				t.Errorf("exit %d, stdout %q; want exit %d and nothing on stdout", code, stdout, tt.wantCode)
			}
			for _, want := range tt.wantStderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
		})
	}
}

func TestStatusHelp(t *testing.T) {
	h := newStatusHome(t)
	code, stdout, _ := h.run("status", "--help")
	if code != 0 || !strings.Contains(stdout, "--project") && !strings.Contains(stdout, "-project") {
		t.Errorf("exit %d, help:\n%s", code, stdout)
	}
	_, stdout, _ = h.run("help")
	if !strings.Contains(stdout, "status") {
		t.Errorf("hud help does not list status:\n%s", stdout)
	}
}

// TestStatusProjectSymlink: --project through a symlink resolves the
// session recorded under the real path.
func TestStatusProjectSymlink(t *testing.T) {
	h := newStatusHome(t)
	real := filepath.Join(h.layout.Home, "code", "api")
	if err := os.MkdirAll(real, 0o700); err != nil {
		t.Fatal(err)
	}
	real = paths.Normalize(real)
	link := filepath.Join(h.layout.Home, "api-link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	h.liveLock(real, "s")
	h.record(store.Record{SessionID: "s", State: store.StateReady, CWD: real, PID: h.self.PID, ProcStarted: h.self.Started}, time.Minute, time.Minute)
	_, stdout, stderr := h.run("status", "--json", "--project", link+"/")
	var doc struct {
		Project  string
		Resolved *struct {
			State      string
			IsFromLock bool `json:"is_from_lock"`
			Match      string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v: %s %s", err, stdout, stderr)
	}
	if doc.Project != real || doc.Resolved == nil || doc.Resolved.State != "ready" || !doc.Resolved.IsFromLock || doc.Resolved.Match != "exact" {
		t.Errorf("got %s", stdout)
	}
}
