// Package claudestandin runs stand-in Claude Code processes for the suites
// that need live sessions without the real CLI (the desktop test, the
// remote machines' test). Each is scripts/desktop/claude: it runs the hook
// the way Claude Code does and stays alive between events, so the hook
// finds it as the session's process and the lock holder watches it.
package claudestandin

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Build builds the stand-in (scripts/desktop/claude, named claude like the
// real one) into a temporary directory of t; pkg is its package path as
// the caller's directory sees it ("./claude", "../desktop/claude").
func Build(t testing.TB, pkg string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "claude")
	build := exec.Command("go", "build", "-o", out, pkg)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the stand-in Claude: %v\n%s", err, msg)
	}
	return out
}

// Process is one running stand-in: one session, in Dir.
type Process struct {
	t       testing.TB
	Dir, ID string
	scratch string
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Scanner
}

// Start runs the stand-in bin as session id in dir (created, as a git
// work tree), with env and the hook command; it ends when t does.
func Start(t testing.TB, bin, hookCommand string, env []string, dir, id string) *Process {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &Process{t: t, Dir: dir, ID: id, scratch: t.TempDir()}
	p.cmd = exec.Command(bin)
	p.cmd.Dir = dir
	p.cmd.Env = append(env, "HUD_HOOK_COMMAND="+hookCommand)
	p.cmd.Stderr = os.Stderr
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.out = bufio.NewScanner(stdout)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Exit)
	return p
}

// Send plays the recorded event in file through the hook, rewritten for
// this session (session id, cwd, transcript) and then by edit (nil for
// none), and returns the moment the hook exited.
func (p *Process) Send(file string, edit func(ev map[string]any)) time.Time {
	p.t.Helper()
	p.Play(p.Prepare(file, edit))
	return p.Done()
}

// Prepare writes the recorded event in file, rewritten as Send does, and
// returns the path to Play.
func (p *Process) Prepare(file string, edit func(ev map[string]any)) string {
	p.t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		p.t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(b, &ev); err != nil {
		p.t.Fatal(err)
	}
	ev["session_id"] = p.ID
	ev["cwd"] = p.Dir
	ev["transcript_path"] = filepath.Join(p.scratch, p.ID+".jsonl")
	if edit != nil {
		edit(ev)
	}
	b, _ = json.Marshal(ev)
	path := filepath.Join(p.scratch, filepath.Base(file))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// Play hands the stand-in a prepared event and returns at once: the hook
// runs while the caller acts (answers a dialog); Done waits for it.
func (p *Process) Play(path string) { fmt.Fprintln(p.in, path) }

// Done waits for the hook of the event played last to exit, and returns
// when it did.
func (p *Process) Done() time.Time {
	p.t.Helper()
	if !p.out.Scan() {
		p.t.Fatalf("stand-in Claude in %s died: %v", p.Dir, p.out.Err())
	}
	reply := p.out.Text()
	var ns int64
	if _, err := fmt.Sscanf(reply, "ok %d", &ns); err != nil || !strings.HasPrefix(reply, "ok ") {
		p.t.Fatalf("the hook in %s: %s", p.Dir, reply)
	}
	return time.Unix(0, ns)
}

// Exit ends the stand-in as /exit ends Claude Code.
func (p *Process) Exit() {
	if p.cmd.ProcessState != nil {
		return
	}
	p.in.Close()
	p.cmd.Wait()
}
