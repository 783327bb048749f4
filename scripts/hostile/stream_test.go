package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// chattyRemote stands in for ssh to a remote machine whose hud prints
// about 1,100 states a second, each another (the step counts up), with a
// line break inside its paths. It takes ssh's arguments and ignores them.
const chattyRemote = `#!/bin/sh
i=0
while :; do
	j=0
	while [ $j -lt 11 ]; do
		i=$((i+1)); j=$((j+1))
		printf '{"version":1,"state":"working","sessions":[{"session_id":"c1","state":"working","cwd":"/srv/api\\n-- 00:00:00","project_dir":"/srv/api\\n{}","project":"api","name":"","working_on":"step %d","waiting_for":"","agents":0,"pid":1,"since":"2026-11-23T10:40:00.000Z","updated_at":"2026-11-23T10:41:00.000Z","source":"lock","host":"","tmux_pane":"","activity":null}],"hooks_problem":"","remotes":[]}\n' "$i" || exit 0
	done
	sleep 0.01
done
`

// remoteDoc is the part of `hud status --json` (and of each state `hud
// watch --format json` prints) this test reads.
type remoteDoc struct {
	Sessions []struct {
		CWD        string `json:"cwd"`
		ProjectDir string `json:"project_dir"`
		WorkingOn  string `json:"working_on"`
		Host       string `json:"host"`
	} `json:"sessions"`
}

// watchOutput collects what a running `hud watch --format json` prints:
// a block per state, each starting "-- HH:MM:SS".
type watchOutput struct {
	mu  sync.Mutex
	out bytes.Buffer
}

func (w *watchOutput) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.out.Write(p)
}

// states is how many states were printed, and the step of the newest.
func (w *watchOutput) states() (n, step int) {
	w.mu.Lock()
	text := w.out.String()
	w.mu.Unlock()
	blocks := strings.Split(text, "\n-- ")
	for i := len(blocks) - 1; i >= 0 && step == 0; i-- {
		_, doc, _ := strings.Cut(blocks[i], "\n")
		var d remoteDoc
		if json.Unmarshal([]byte(doc), &d) == nil && len(d.Sessions) == 1 {
			fmt.Sscanf(d.Sessions[0].WorkingOn, "step %d", &step)
		}
	}
	return len(blocks), step
}

// cpuTicks is the CPU time (user and system, in clock ticks of 1/100 s)
// process pid has used.
func cpuTicks(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:])) // after the name
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return utime + stime
}

// TestAChattyRemote: a remote machine printing about 1,100 states a
// second costs a running `hud watch` (which follows remotes as the tray
// does) at most four states a second and a small part of a core, and a
// line break the remote put in a path never reaches `hud status --json`.
func TestAChattyRemote(t *testing.T) {
	w := newWorld(t)
	ssh := filepath.Join(w.root, "chatty-ssh")
	w.write(ssh, chattyRemote, 0o755)
	env := []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), "HUD_SSH_COMMAND=" + ssh}
	add := exec.Command(bin.hud, "remote", "add", "--name", "chatty", "devbox")
	add.Env = env
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("hud remote add: %v\n%s", err, out)
	}

	watch := exec.Command(bin.hud, "watch", "--format", "json")
	watch.Env = env
	out := &watchOutput{}
	watch.Stdout = out
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		watch.Process.Signal(os.Interrupt)
		watch.Wait()
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, step := out.states(); step > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("hud watch never showed the remote's session")
		}
	}
	const measured = 5 * time.Second
	ticks0, start := cpuTicks(t, watch.Process.Pid), time.Now()
	shown0, step0 := out.states()
	time.Sleep(measured)
	ticks, wall := cpuTicks(t, watch.Process.Pid)-ticks0, time.Since(start)
	shown, step := out.states()
	shown, sent := shown-shown0, step-step0
	cpu := float64(ticks) / 100 / wall.Seconds()
	t.Logf("in %s the remote went %d states on; hud watch printed %d and used %.1f%% of a core",
		wall.Round(time.Millisecond), sent, shown, 100*cpu)
	if sent < 200*int(measured/time.Second) {
		t.Fatalf("the remote went only %d states on: too slow to measure", sent)
	}
	if max := int(wall/(250*time.Millisecond)) + 3; shown > max {
		t.Errorf("hud watch printed %d states in %s, want at most %d", shown, wall.Round(time.Millisecond), max)
	}
	if cpu > 0.25 {
		t.Errorf("hud watch used %.0f%% of a core, want under 25%%", 100*cpu)
	}

	status := exec.Command(bin.hud, "status", "--json", "--remote-timeout", "15s")
	status.Env = env
	b, err := status.Output()
	if err != nil {
		t.Fatal(err)
	}
	var doc remoteDoc
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Sessions) != 1 {
		t.Fatalf("hud status --json: %v\n%s", err, b)
	}
	if s := doc.Sessions[0]; strings.Contains(s.CWD+s.ProjectDir, "\n") {
		t.Errorf("a remote's line break survives in hud status --json: cwd %q, project_dir %q", s.CWD, s.ProjectDir)
	}
}
