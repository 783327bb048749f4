package hostile

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The bounds every run must stay within: the hook's own watchdog, and
// what a helper on every tool call may cost.
const (
	maxDuration = 5 * time.Second
	maxRSS      = 100 << 20
)

var bin struct{ hook, hud, measure, claude string }

func TestMain(m *testing.M) {
	if runtime.GOOS != "linux" {
		fmt.Println("hostile: skipped: the suite reads /proc (Linux only)")
		os.Exit(0)
	}
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	// HUD_HOSTILE_BIN: run the suite against binaries built elsewhere
	// (an older release, to see which attacks it falls to).
	if dir := os.Getenv("HUD_HOSTILE_BIN"); dir != "" {
		bin.hook, bin.hud = filepath.Join(dir, "hud-hook"), filepath.Join(dir, "hud")
	}
	dir, err := os.MkdirTemp("", "hud-hostile-bin-")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		pkgs := map[string]string{"measure": "./scripts/hostile/measure", "claude": "./scripts/desktop/claude"}
		if bin.hook == "" {
			pkgs["hud-hook"], pkgs["hud"] = "./cmd/hud-hook", "./cmd/hud"
			bin.hook, bin.hud = filepath.Join(dir, "hud-hook"), filepath.Join(dir, "hud")
		}
		for name, pkg := range pkgs {
			cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg)
			cmd.Dir = "../.."
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Printf("building %s: %v\n%s", name, err, out)
				return 1
			}
		}
		bin.measure, bin.claude = filepath.Join(dir, "measure"), filepath.Join(dir, "claude")
		return m.Run()
	}()
	os.Exit(code)
}

// world is one attack's throwaway machine: a home, a project, and a
// victim directory standing for everything else the person owns.
type world struct {
	t       *testing.T
	root    string
	home    string
	project string
	victim  string
	marker  string // a repository's command, had it run, creates this
	before  map[string]fileState
}

func newWorld(t *testing.T) *world {
	t.Helper()
	if bin.hook == "" {
		t.Skip("short mode: the suite builds and runs the real binaries")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project"),
		victim: filepath.Join(root, "victim"), marker: filepath.Join(root, "pwned")}
	for _, d := range []string{w.home, w.project, w.victim} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.write(filepath.Join(w.victim, "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n", 0o600)
	w.write(filepath.Join(w.victim, ".bashrc"), "# the person's shell\n", 0o644)
	t.Cleanup(func() {
		w.waitHelpers()
		if _, err := os.Lstat(w.marker); err == nil {
			t.Errorf("a command from the project ran: %s exists", w.marker)
		}
	})
	return w
}

func (w *world) write(path, content string, mode fs.FileMode) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		w.t.Fatal(err)
	}
}

// result is one finished run of a binary.
type result struct {
	code           int
	stdout, stderr string
	took           time.Duration
	rss            int64 // bytes
}

// run runs a binary with the world's HOME and waits, bounded; the max
// RSS comes from measure, which runs it as its own child.
func (w *world) run(stdin string, env []string, name string, args ...string) result {
	w.t.Helper()
	return measured(w.t, w.project, append([]string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH")}, env...), stdin, name, args...)
}

func measured(t *testing.T, dir string, env []string, stdin, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin.measure, append([]string{name}, args...)...)
	cmd.Env = env
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	rep, repw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	cmd.ExtraFiles = []*os.File{repw}
	start := time.Now()
	err = cmd.Start()
	repw.Close()
	if err != nil {
		t.Fatal(err)
	}
	// A run past three times its bound is killed: the test then fails on
	// the time, rather than hang.
	timer := time.AfterFunc(3*maxDuration, func() { cmd.Process.Kill() })
	err = cmd.Wait()
	timer.Stop()
	r := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	if cmd.ProcessState == nil {
		t.Fatalf("%s: %v", filepath.Base(name), err)
	}
	r.code = cmd.ProcessState.ExitCode()
	var kib int64
	fmt.Fscan(rep, &kib)
	r.rss = kib << 10
	return r
}

// hook runs hud-hook on one event and checks the hook's promises: exit 0,
// nothing on stdout, within the time and memory bounds.
func (w *world) hook(event string, env ...string) result {
	w.t.Helper()
	r := w.run(event, env, bin.hook)
	w.bounded("hud-hook", r)
	if r.code != 0 || r.stdout != "" {
		w.t.Errorf("hud-hook: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	return r
}

// worker runs an activity job the way the hook starts it, but as a child,
// so its time and memory are measured too.
func (w *world) worker(session, job string, extra ...string) result {
	w.t.Helper()
	args := append([]string{"activity-worker", "--home", w.home, "--session", session, "--job", job}, extra...)
	r := w.run("", nil, bin.hook, args...)
	w.bounded("activity worker", r)
	return r
}

func (w *world) bounded(what string, r result) {
	w.t.Helper()
	if r.took > maxDuration {
		w.t.Errorf("%s took %v (bound %v)", what, r.took.Round(time.Millisecond), maxDuration)
	}
	if r.rss > maxRSS {
		w.t.Errorf("%s peaked at %d MB (bound %d MB)", what, r.rss>>20, maxRSS>>20)
	}
}

// event renders a hook event for session id in the project.
func (w *world) event(id, name, extra string) string {
	return w.eventIn(id, w.project, name, extra)
}

func (w *world) eventIn(id, cwd, name, extra string) string {
	return `{"session_id":` + jsonString(id) + `,"cwd":` + jsonString(cwd) + `,"hook_event_name":` + jsonString(name) + extra + `}`
}

// waitHelpers waits until no helper the hook started for this world (an
// activity worker, a lock holder) still runs: their writes count too.
func (w *world) waitHelpers() {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if len(helpersOf(w.home)) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.t.Errorf("helpers still running after 20 s: %v", helpersOf(w.home))
}

// helpersOf lists the pids of hud-hook helpers working for home.
func helpersOf(home string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if len(args) > 1 && filepath.Base(args[0]) == "hud-hook" && strings.Contains(string(b), "\x00"+home+"\x00") {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// fileState is what a snapshot remembers of one path.
type fileState struct {
	mode  fs.FileMode
	size  int64
	mtime time.Time
	link  string
}

func snapshot(root string) map[string]fileState {
	m := map[string]fileState{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		st := fileState{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime()}
		if fi.Mode()&fs.ModeSymlink != 0 {
			st.link, _ = os.Readlink(path)
		}
		if fi.IsDir() {
			st.size, st.mtime = 0, time.Time{} // a directory changes with what it holds
		}
		m[path] = st
		return nil
	})
	return m
}

// mark remembers the world as the attacker left it.
func (w *world) mark() { w.before = snapshot(w.root) }

// checkWrites fails for every path created, changed or removed since mark
// outside hud's own directories and the project's .claude/.
func (w *world) checkWrites() {
	w.t.Helper()
	w.waitHelpers()
	after := snapshot(w.root)
	allowed := []string{
		filepath.Join(w.home, ".capacitor"),
		filepath.Join(w.home, ".claude"),
		filepath.Join(w.project, ".claude"),
	}
	ok := func(p string) bool {
		for _, a := range allowed {
			if p == a || strings.HasPrefix(p, a+"/") {
				// Only if the allowed directory itself is real: a .claude
				// that is a link is the attacker's, not hud's.
				if fi, err := os.Lstat(a); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
					return true
				}
			}
		}
		return false
	}
	for p, st := range after {
		if old, was := w.before[p]; (!was || old != st) && !ok(p) {
			w.t.Errorf("written outside hud's files: %s (%v)", p, st.mode)
		}
	}
	for p := range w.before {
		if _, still := after[p]; !still && !ok(p) {
			w.t.Errorf("removed outside hud's files: %s", p)
		}
	}
}

// git runs git as the attacker (no hardening) in dir.
func (w *world) git(dir string, args ...string) {
	w.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com",
		"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com", "HOME="+w.home)
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// hostileRepo makes dir a repository whose config names a command for
// every hook git has into a read-only command; each would create marker.
func (w *world) hostileRepo(dir string) {
	w.t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		w.t.Skip("git not installed")
	}
	w.git(dir, "init", "-q", "-b", "main")
	w.write(filepath.Join(dir, ".gitattributes"), "* filter=evil diff=evil\n", 0o644)
	w.write(filepath.Join(dir, "main.go"), "package main\n", 0o644)
	w.git(dir, "add", ".")
	w.git(dir, "commit", "-qm", "first")
	cmd := "touch " + w.marker + "; cat"
	for _, kv := range [][2]string{
		{"core.fsmonitor", cmd}, {"core.pager", cmd}, {"core.hooksPath", dir},
		{"filter.evil.clean", cmd}, {"filter.evil.smudge", cmd}, {"filter.evil.process", cmd},
		{"diff.evil.textconv", cmd}, {"diff.external", cmd},
		{"log.showSignature", "true"}, {"gpg.program", cmd},
	} {
		w.git(dir, "config", kv[0], kv[1])
	}
	// Changed, same size: racily clean, so status must read it (through
	// the clean filter, were it run).
	w.write(filepath.Join(dir, "main.go"), "package mein\n", 0o644)
}

// debugLog is the hook's log of this world.
func (w *world) debugLog() string {
	b, _ := os.ReadFile(filepath.Join(w.home, ".claude", "hud-hook-debug.log"))
	return string(b)
}

// hasControl reports a control character other than a newline.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) })
}
