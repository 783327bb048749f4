package hook_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

// TestMain makes the test binary double as bin/hud-hook for the scripts
// in testdata/hook and for TestConcurrentHooks. The hook it runs is the
// real one, except that it starts no helpers: a lock holder or activity
// worker started from a test binary would run the tests again.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"hud-hook": func() {
			env := hook.OSEnv()
			env.Executable = func() (string, error) {
				return "", errors.New("helpers are not started in tests")
			}
			os.Exit(hook.Main(os.Args[1:], env))
		},
	})
}

func TestScripts(t *testing.T) {
	fixtures, err := filepath.Abs("../../testdata/hook/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/hook",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// HOME is a fresh directory; the recorded events are in
			// fixtures/, and big.json is a valid event of 5 MiB.
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			for _, k := range []string{"CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR", "TMUX_PANE", "TERM_PROGRAM"} {
				env.Setenv(k, "")
			}
			if err := os.Mkdir(home, 0o700); err != nil {
				return err
			}
			// The hook runs as a child of this test process, which stands
			// in for Claude: Claude's own session registry names it, as
			// it names a real Claude process.
			sessions := filepath.Join(home, ".claude", "sessions")
			if err := os.MkdirAll(sessions, 0o700); err != nil {
				return err
			}
			pid := strconv.Itoa(os.Getpid())
			if err := os.WriteFile(filepath.Join(sessions, pid+".json"), []byte(`{"pid":`+pid+`}`), 0o600); err != nil {
				return err
			}
			if err := datedNow(env.WorkDir); err != nil {
				return err
			}
			if err := os.CopyFS(filepath.Join(env.WorkDir, "fixtures"), os.DirFS(fixtures)); err != nil {
				return err
			}
			big := fmt.Sprintf(`{"session_id":"big","hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":%q}`,
				strings.Repeat("x", 5<<20))
			return os.WriteFile(filepath.Join(env.WorkDir, "big.json"), []byte(big), 0o600)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"state":   cmdState,
			"records": cmdRecords,
			"field":   cmdField,
		},
	})
}

// datedNow writes the time the script starts for every NOW in the
// archive's own files: a store's records must be dated near the hook's
// clock, or they are dropped as stale (or as dated by a wrong clock).
func datedNow(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	now, _ := store.At(time.Now()).MarshalJSON()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(`"NOW"`)) {
			if err := os.WriteFile(f, bytes.ReplaceAll(b, []byte(`"NOW"`), now), 0o600); err != nil {
				return err
			}
		}
	}
	return nil
}

// readStore decodes $HOME/.capacitor/sessions.json as a reader would.
func readStore(ts *testscript.TestScript) *store.Store {
	b, err := os.ReadFile(paths.Layout{Home: ts.Getenv("HOME")}.StorePath())
	ts.Check(err)
	s, _, err := store.Decode(b)
	if err != nil {
		ts.Fatalf("store does not decode: %v\n%s", err, b)
	}
	return s
}

// state SESSION STATE: the session's record is in STATE ("none": there
// is no record).
func cmdState(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: state SESSION STATE")
	}
	got := "none"
	if r := readStore(ts).Sessions[args[0]]; r != nil {
		got = string(r.State)
	}
	if got != args[1] {
		ts.Fatalf("session %s is %s, want %s", args[0], got, args[1])
	}
}

// records N: the store holds N records.
func cmdRecords(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: records N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	if got := len(readStore(ts).Sessions); got != want {
		ts.Fatalf("%d records, want %d", got, want)
	}
}

// field SESSION NAME VALUE: the record's JSON field NAME (a.b for a
// nested one), as text, is VALUE; "<nil>" for a missing field.
func cmdField(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 || neg {
		ts.Fatalf("usage: field SESSION NAME VALUE")
	}
	r := readStore(ts).Sessions[args[0]]
	if r == nil {
		ts.Fatalf("no record for %s", args[0])
	}
	b, _ := json.Marshal(r)
	var v any
	ts.Check(json.Unmarshal(b, &v))
	for _, name := range strings.Split(args[1], ".") {
		m, _ := v.(map[string]any)
		v = m[name]
	}
	if got := fmt.Sprint(v); got != args[2] {
		ts.Fatalf("%s of %s is %q, want %q", args[1], args[0], got, args[2])
	}
}

// TestConcurrentHooks fires 64 hook processes at once, one per session,
// several times over: every run must leave its record with its own last
// prompt. A lost update (two writers reading the same store) would leave
// a record behind or lose it. A hook may instead give up on a lock held
// longer than its budget (2 s), as it must not hold Claude up, saying so
// in the debug log; on a loaded machine 64 race-built processes can queue
// that long, and that is no lost update.
func TestConcurrentHooks(t *testing.T) {
	bin, err := exec.LookPath("hud-hook")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	layout := paths.Layout{Home: home}
	const sessions, rounds = 64, 3
	gaveUp := make([]int, sessions) // per session, the runs that gave up on the lock
	for round := range rounds {
		var wg sync.WaitGroup
		errs := make(chan error, sessions)
		for i := range sessions {
			wg.Go(func() {
				ev := fmt.Sprintf(`{"session_id":"s%02d","hook_event_name":"UserPromptSubmit","cwd":%q,"prompt":"round %d"}`, i, home, round)
				var stdout, stderr bytes.Buffer
				cmd := exec.Command(bin)
				cmd.Env = append(os.Environ(), "HOME="+home)
				cmd.Stdin = strings.NewReader(ev)
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil || stdout.Len() > 0 {
					errs <- fmt.Errorf("session %d: %v, stdout %q, stderr %q", i, err, stdout.Bytes(), stderr.Bytes())
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		b, err := os.ReadFile(layout.StorePath())
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := store.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		log, _ := os.ReadFile(layout.DebugLogPath())
		for i := range sessions {
			busy := bytes.Count(log, fmt.Appendf(nil, " s%02d error: UserPromptSubmit: st lock busy", i))
			if busy > gaveUp[i] {
				gaveUp[i] = busy
				t.Logf("round %d: session %d gave up on the lock, as it may under load", round, i)
				continue
			}
			r := s.Sessions[fmt.Sprintf("s%02d", i)]
			if r == nil || r.WorkingOn != fmt.Sprint("round ", round) || r.State != store.StateWorking {
				t.Fatalf("round %d: session %d is %+v: its update was lost", round, i, r)
			}
		}
	}
	log, _ := os.ReadFile(layout.DebugLogPath())
	recorded := bytes.Count(log, []byte("UserPromptSubmit "))
	given := 0
	for _, n := range gaveUp {
		given += n
	}
	if recorded+given != sessions*rounds {
		t.Errorf("debug log has %d event lines and %d lock give-ups, want %d runs in all", recorded, given, sessions*rounds)
	}
}

// TestStdinNeverCloses: someone runs the hook by hand and types nothing,
// or a parent keeps the pipe open. The hook gives up on its own and exits 0.
func TestStdinNeverCloses(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("hud-hook")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "HOME="+home)
	cmd.Stdin = r
	start := time.Now()
	if out, err := cmd.Output(); err != nil || len(out) > 0 {
		t.Fatalf("exit %v, stdout %q", err, out)
	}
	r.Close()
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("gave up after %v", took)
	}
	log, _ := os.ReadFile(paths.Layout{Home: home}.DebugLogPath())
	if !bytes.Contains(log, []byte("error: gave up after 5s: stdin never closed")) {
		t.Errorf("debug log: %q", log)
	}
}

// TestHookLinksNoDesktopLibraries: the hook starts on every tool call, so
// it must not link the tray's libraries, whose initialisation alone would
// outweigh the hook's own work, nor math/big, whose initialisation every
// run would pay for nothing the hook does. fsnotify may come in: the lock
// holder records the ledger with it (hud/ledger.Follow), and its
// initialisation is one environment lookup.
func TestHookLinksNoDesktopLibraries(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	out, err := exec.Command(gotool, "list", "-deps", "github.com/capacitor-hud/hud/cmd/hud-hook").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"fyne.io/systray", "github.com/gen2brain/beeep", "github.com/godbus/dbus",
			"math/big"} {
			if pkg == banned || strings.HasPrefix(pkg, banned+"/") {
				t.Errorf("bin/hud-hook links %s", pkg)
			}
		}
	}
}
