package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/fieldfile"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
)

// recordings matches every directory of payloads recorded from a real
// Claude Code CLI by the e2e rig (HUD_E2E_RECORD, see
// testdata/hook/README.md): claude-code-<release>/<scenario>/. A directory
// added later is replayed without a change here.
const recordings = "../../testdata/hook/claude-code-*/*"

// replayFile, in each recording directory, says what the hook leaves in
// the store after each recorded event.
const replayFile = "replay.txt"

var updateReplay = flag.Bool("update-replay", false, "rewrite each recording's "+replayFile+" from what the hook does now (review the diff)")

var payloadName = regexp.MustCompile(`^(\d+)-[A-Za-z0-9_.-]+\.json$`)

// TestRecordedReplay replays every recording in order, one event a second,
// each under the Claude process Claude's own session file named at that
// moment, and checks the event's session after each against replay.txt:
// its state, "none" when it has no record, "dropped" when the hook
// ignored the event.
func TestRecordedReplay(t *testing.T) {
	for name, dir := range recordingDirs(t) {
		t.Run(name, func(t *testing.T) { replayRecording(t, dir, &ClaudeCode) })
	}
}

// recordingDirs maps each recording's name (claude-code-<release>/<scenario>)
// to its directory, and fails the test when there is none.
func recordingDirs(t *testing.T) map[string]string {
	t.Helper()
	dirs, err := filepath.Glob(recordings)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		name, _ := filepath.Rel("../../testdata/hook", dir)
		found[filepath.ToSlash(name)] = dir
	}
	if len(found) == 0 {
		t.Fatalf("no recordings match %s", recordings)
	}
	return found
}

// replayRecording replays dir's payloads as src's hook receives them (the
// event named in argv, for an agent that passes it, is the file's).
func replayRecording(t *testing.T, dir string, src *Source) {
	payloads, err := recordedPayloads(dir)
	if err != nil {
		t.Fatal(err)
	}
	tb := store.NewTable()
	now := t0
	var got []replayStep
	for _, name := range payloads {
		now = now.Add(time.Second)
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		ev, err := src.Decode(payloadEvent(name), b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ev == nil {
			got = append(got, replayStep{name, "dropped"}) // an agent's event that carries no state
			continue
		}
		ev.Agent = src.Name
		obs := observation{Alive: func(int, int64) bool { return true }}
		obs.Process, err = recordedClaude(filepath.Join(dir, strings.TrimSuffix(name, ".json")+".claude-session.json"), ev.SessionID)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		u := applyEvent(tb, ev, obs, now)
		state := "none"
		if u.Dropped != "" {
			state = "dropped"
		} else if r, err := tb.Get(ev.SessionID); err != nil {
			t.Fatalf("%s: %v", name, err)
		} else if r != nil {
			state = string(r.State)
			if r.Agent != src.Name {
				t.Errorf("%s: record's agent %q, want %q", name, r.Agent, src.Name)
			}
		}
		got = append(got, replayStep{name, state})
	}

	path := filepath.Join(dir, replayFile)
	if *updateReplay {
		if err := writeReplay(path, got); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := readReplay(path)
	if err != nil {
		t.Fatalf("%v (write it with go test ./hud/hook -run Recorded -update-replay, then review it)", err)
	}
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(want):
			t.Errorf("%s: %s has no line for it", got[i].payload, replayFile)
		case i >= len(got):
			t.Errorf("%s names %s, which is not recorded", replayFile, want[i].payload)
		case got[i].payload != want[i].payload:
			t.Fatalf("%s line %d names %s, the recording has %s", replayFile, i+1, want[i].payload, got[i].payload)
		case got[i].state != want[i].state:
			t.Errorf("%s: %s, want %s", got[i].payload, got[i].state, want[i].state)
		}
	}
}

// payloadEvent is the event a payload's file name gives (NN-Event.json).
func payloadEvent(name string) string {
	_, rest, _ := strings.Cut(strings.TrimSuffix(name, ".json"), "-")
	event, _, _ := strings.Cut(rest, "-")
	return event
}

// recordedPayloads lists a recording's hook payloads in the order they
// were recorded (by number: the count may outgrow its zero padding).
func recordedPayloads(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type numbered struct {
		n    int
		name string
	}
	var list []numbered
	for _, e := range entries {
		name := e.Name()
		m := payloadName.FindStringSubmatch(name)
		if m == nil || strings.HasSuffix(name, ".claude-session.json") {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		list = append(list, numbered{n, name})
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s holds no NNN-Event.json payloads", dir)
	}
	slices.SortFunc(list, func(a, b numbered) int { return a.n - b.n })
	names := make([]string, len(list))
	for i, x := range list {
		names[i] = x.name
	}
	return names, nil
}

// recordedClaude is the Claude process whose session file (at path: the
// files of every live process, run together) names session, or the only
// one there is; the zero Process when there is none to tell.
func recordedClaude(path, session string) (proc.Process, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return proc.Process{}, nil
	}
	if err != nil {
		return proc.Process{}, err
	}
	type claudeFile struct {
		PID       int    `json:"pid"`
		SessionID string `json:"sessionId"`
		StartedAt int64  `json:"startedAt"` // Unix ms
	}
	var files []claudeFile
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var f claudeFile
		if err := dec.Decode(&f); err == io.EOF {
			break
		} else if err != nil {
			return proc.Process{}, fmt.Errorf("%s: %w", path, err)
		}
		files = append(files, f)
	}
	for _, f := range files {
		if f.SessionID == session {
			return proc.Process{PID: f.PID, Started: f.StartedAt / 1000}, nil
		}
	}
	if len(files) == 1 {
		return proc.Process{PID: files[0].PID, Started: files[0].StartedAt / 1000}, nil
	}
	return proc.Process{}, nil
}

// replayStep is one line of replay.txt: a payload and the state its
// session is left in.
type replayStep struct{ payload, state string }

const replayHeader = `# The state the hook leaves the event's session in after each recorded
# payload, replayed in order by hud/hook's TestRecordedReplay (Claude
# Code) or TestAgentRecordedReplay (the other agents): a state, "none" (no
# record) or "dropped" (the event was ignored). Rewrite it with
#   go test ./hud/hook -run Recorded -update-replay
# and review the diff: each line is a claim about what a person sees.
`

func writeReplay(path string, steps []replayStep) error {
	var b strings.Builder
	b.WriteString(replayHeader)
	for _, s := range steps {
		fmt.Fprintf(&b, "%-45s %s\n", s.payload, s.state)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func readReplay(path string) ([]replayStep, error) {
	records, err := fieldfile.Read(path, 2, "PAYLOAD STATE")
	if err != nil {
		return nil, err
	}
	steps := make([]replayStep, len(records))
	for i, r := range records {
		steps[i] = replayStep{r[0], r[1]}
	}
	return steps, nil
}
