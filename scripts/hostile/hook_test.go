package hostile

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// sessions reads the store's session ids.
func (w *world) sessions() map[string]bool {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.home, ".capacitor", "sessions.json"))
	if err != nil {
		w.t.Fatalf("reading the store: %v", err)
	}
	var store struct {
		Version  int                        `json:"version"`
		Sessions map[string]json.RawMessage `json:"sessions"`
	}
	if err := json.Unmarshal(b, &store); err != nil || store.Version != 3 {
		w.t.Fatalf("the store is not a v3 store (%v):\n%s", err, b)
	}
	ids := map[string]bool{}
	for id := range store.Sessions {
		ids[id] = true
	}
	return ids
}

func (w *world) mustHave(ids ...string) {
	w.t.Helper()
	have := w.sessions()
	for _, id := range ids {
		if !have[id] {
			w.t.Errorf("session %s lost from the store", id)
		}
	}
}

// TestGarbageStdin: whatever arrives on stdin, the hook exits 0, prints
// nothing, and the sessions already recorded stay.
func TestGarbageStdin(t *testing.T) {
	w := newWorld(t)
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"keep me"`))
	rng := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 64<<10)
	for i := range noise {
		noise[i] = byte(rng.IntN(256))
	}
	inputs := map[string]string{
		"empty":          "",
		"noise":          string(noise),
		"over 1 MiB":     `{"session_id":"` + strings.Repeat("a", 2<<20) + `"}`,
		"deep nesting":   strings.Repeat("[", 200000) + strings.Repeat("]", 200000),
		"nul":            "\x00\x00\x00",
		"not an object":  `["SessionStart"]`,
		"path traversal": w.eventIn("../../victim/x", w.project, "SessionStart", ""),
		"hidden id":      w.eventIn(".hidden", w.project, "SessionStart", ""),
		"escape in id":   w.eventIn("a\x1b]0;t\x07", w.project, "SessionStart", ""),
		"huge number":    `{"session_id":"s","hook_event_name":"Stop","cwd":"/","x":1.0e+400}`,
		"wrong types":    `{"session_id":5,"hook_event_name":["Stop"],"cwd":{}}`,
		"relative cwd":   w.eventIn("s2", "../../victim", "SessionStart", ""),
	}
	w.mark()
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			w.t = t
			w.hook(in)
		})
	}
	w.t = t
	w.checkWrites()
	w.mustHave(sid)
	for p := range snapshot(w.home) {
		if strings.Contains(p, "victim") || strings.Contains(p, "\x1b") {
			t.Errorf("a file named from the input: %s", p)
		}
	}
}

// TestLongCwd: a cwd of ten thousand components costs no more than a
// short one.
func TestLongCwd(t *testing.T) {
	w := newWorld(t)
	cwd := w.project + strings.Repeat("/a", 10000)
	w.mark()
	w.hook(w.eventIn(sid, cwd, "SessionStart", `,"source":"startup"`))
	w.hook(w.eventIn(sid, cwd, "UserPromptSubmit", `,"prompt":"deep"`))
	w.checkWrites()
	w.mustHave(sid)
}

// TestConcurrentWriters: 200 hooks at once, each a session of its own.
// Every one is recorded, or (on a machine so loaded that a hook waits
// past the store lock's 2 s bound, or past the run's 5 s watchdog) says in
// the debug log that it dropped its event: no update is ever lost in
// silence. Each hook ends within its bound; the whole burst's time depends
// on the machine's load and is only logged. The hooks run directly, not
// under measure, so the test's own processes do not double the load.
func TestConcurrentWriters(t *testing.T) {
	w := newWorld(t)
	const n = 200
	var wg sync.WaitGroup
	codes := make([]int, n)
	outs := make([]string, n)
	tooks := make([]time.Duration, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			cmd := exec.Command(bin.hook)
			cmd.Env = []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH")}
			cmd.Stdin = strings.NewReader(w.event(fmt.Sprintf("writer-%03d", i), "UserPromptSubmit", `,"prompt":"p"`))
			began := time.Now()
			out, _ := cmd.Output()
			codes[i], outs[i], tooks[i] = cmd.ProcessState.ExitCode(), string(out), time.Since(began)
		}()
	}
	w.mark()
	begin := time.Now()
	close(start)
	wg.Wait()
	took := time.Since(begin)
	for i := range n {
		if codes[i] != 0 || outs[i] != "" {
			t.Errorf("writer %d: exit %d, stdout %q", i, codes[i], outs[i])
		}
		// The run's watchdog ends it at 5 s; the margin is for a process
		// that a loaded machine does not schedule on time.
		if tooks[i] > 2*maxDuration {
			t.Errorf("writer %d took %v", i, tooks[i])
		}
	}
	w.checkWrites()
	have, log := w.sessions(), w.debugLog()
	dropped := 0
	for i := range n {
		id := fmt.Sprintf("writer-%03d", i)
		switch {
		case have[id]:
		case strings.Contains(log, id+" error: UserPromptSubmit: store lock busy"),
			strings.Contains(log, id+" error: UserPromptSubmit: gave up after"):
			dropped++
		default:
			t.Errorf("session %s lost without a word in the debug log", id)
		}
	}
	t.Logf("%d concurrent hooks in %v; %d dropped their event after the lock's bound (machine load)", n, took.Round(time.Millisecond), dropped)
}

// TestKilledMidWrite: hooks killed (SIGKILL) at random moments leave a
// store that reads whole, with every session recorded before.
func TestKilledMidWrite(t *testing.T) {
	w := newWorld(t)
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"before the kills"`))
	big := `,"prompt":"` + strings.Repeat("x", 200<<10) + `"`
	rng := rand.New(rand.NewPCG(3, 4))
	w.mark()
	for i := range 60 {
		cmd := exec.Command(bin.hook)
		cmd.Env = []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH")}
		cmd.Stdin = strings.NewReader(w.event(fmt.Sprintf("victim-%02d", i), "UserPromptSubmit", big))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(4000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
	w.hook(w.event("after", "UserPromptSubmit", `,"prompt":"after the kills"`))
	w.checkWrites()
	w.mustHave(sid, "after")
}

// TestFullDisk: with the file system full, the hook still exits 0 and
// quietly, and the store it could not write is the one it had.
func TestFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to mount a tiny file system")
	}
	w := newWorld(t)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs", w.home).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { w.waitHelpers(); exec.Command("umount", "-l", w.home).Run() })
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"before the disk filled"`))
	filler, _ := os.Create(filepath.Join(w.home, "filler"))
	for {
		if _, err := filler.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	filler.Close()
	w.mark()
	for i := range 5 {
		w.hook(w.event(fmt.Sprintf("full-%d", i), "UserPromptSubmit", `,"prompt":"`+strings.Repeat("y", 8<<10)+`"`))
	}
	w.checkWrites()
	w.mustHave(sid)
}

// TestHostileStoreFiles: the hook's own files in ~/.capacitor and its
// debug log are links to the person's files; none is written through.
func TestHostileStoreFiles(t *testing.T) {
	w := newWorld(t)
	bashrc := filepath.Join(w.victim, ".bashrc")
	for _, rel := range []string{".capacitor/sessions.json.lock", ".capacitor/sessions.json.tmp", ".claude/hud-hook-debug.log"} {
		path := filepath.Join(w.home, rel)
		os.MkdirAll(filepath.Dir(path), 0o700)
		os.Symlink(bashrc, path)
	}
	w.mark()
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"p"`))
	w.hook(w.event(sid, "Stop", ``))
	w.checkWrites()
}

// TestSymlinkedStore: sessions.json itself a link to the person's file:
// the write replaces the link, the file it pointed to is untouched.
func TestSymlinkedStore(t *testing.T) {
	w := newWorld(t)
	store := filepath.Join(w.home, ".capacitor", "sessions.json")
	os.MkdirAll(filepath.Dir(store), 0o700)
	os.Symlink(filepath.Join(w.victim, ".bashrc"), store)
	w.mark()
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"p"`))
	w.checkWrites()
}

// TestOneBadRecord: one record with a bad timestamp costs that record,
// not the store: the other live session stays.
func TestOneBadRecord(t *testing.T) {
	w := newWorld(t)
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"keep me"`))
	path := filepath.Join(w.home, ".capacitor", "sessions.json")
	b, _ := os.ReadFile(path)
	var store map[string]any
	json.Unmarshal(b, &store)
	store["sessions"].(map[string]any)["bad"] = map[string]any{"session_id": "bad", "state": "ready", "cwd": "/", "updated_at": "yesterday", "state_changed_at": "never"}
	b, _ = json.Marshal(store)
	os.WriteFile(path, b, 0o600)
	w.hook(w.event("other", "UserPromptSubmit", `,"prompt":"p"`))
	w.mustHave(sid, "other")
	if m, _ := filepath.Glob(path + ".corrupt-*"); len(m) > 0 {
		t.Errorf("one bad record quarantined the store: %v", m)
	}
}

// TestMismatchedRecord: a record whose session_id differs from its key is
// repaired or dropped, and the hook says so in its log.
func TestMismatchedRecord(t *testing.T) {
	w := newWorld(t)
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"keep me"`))
	path := filepath.Join(w.home, ".capacitor", "sessions.json")
	b, _ := os.ReadFile(path)
	var store map[string]any
	json.Unmarshal(b, &store)
	sessions := store["sessions"].(map[string]any)
	rec := sessions[sid].(map[string]any)
	clone := map[string]any{}
	for k, v := range rec {
		clone[k] = v
	}
	sessions["other-key"] = clone // session_id still says sid
	b, _ = json.Marshal(store)
	os.WriteFile(path, b, 0o600)
	w.hook(w.event("third", "UserPromptSubmit", `,"prompt":"p"`))
	w.mustHave(sid, "third")
	if have := w.sessions(); have["other-key"] && !strings.Contains(w.debugLog(), "other-key") {
		t.Errorf("the mismatched record was kept without a word")
	}
}

// TestStaleTempFiles: temp files a killed hook left in ~/.capacitor are
// cleaned up by a later run.
func TestStaleTempFiles(t *testing.T) {
	w := newWorld(t)
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"p"`))
	stale := filepath.Join(w.home, ".capacitor", "activity", "."+sid+".json.tmp-123456")
	w.write(stale, "{half", 0o600)
	old := time.Now().Add(-24 * time.Hour)
	os.Chtimes(stale, old, old)
	w.hook(w.event(sid, "PostToolUse", `,"tool_name":"Write","tool_input":{"file_path":"x.go","content":"x"},"tool_response":{"type":"create"}`))
	w.hook(w.event(sid, "Stop", ``))
	w.waitHelpers()
	if _, err := os.Lstat(stale); err == nil {
		t.Errorf("a day-old temp file is still there: %s", stale)
	}
}
