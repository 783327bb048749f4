package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// workerLimit is how long the detached activity worker (git) may take
// after the turn that started it ended.
const workerLimit = 5 * time.Second

// TestActivity checks activity tracking with the real CLI: a session writes a file,
// keeps a todo list (TaskCreate, TaskUpdate) and commits; `hud status --json` shows what it did,
// the checkpoint holds its required fields and the facts, the
// commit log has the commit, and /compact leaves a handoff.
func TestActivity(t *testing.T) {
	r := newRig(t, "proj")
	// Claude Code offers its task list (TaskCreate, TaskUpdate) to Claude 5
	// models only when the person asks for it; 2.1.197's models have it
	// anyway.
	r.env = append(r.env, "CLAUDE_CODE_ENABLE_TODO_TOOLS=1")
	dir := r.dir("proj")
	gitInit(t, dir)
	c, id := r.startReady("claude", dir)

	c.submit("WRITE:" + filepath.Join(dir, "feature.go"))
	shown := c.waitScreen("the file-creation dialog", 10*time.Second, contains("Do you want to create feature.go?"))
	at := c.answer(shown, "Enter") // "1. Yes"
	c.turnEnd(at, 15*time.Second)

	// Claude Code 2.1.x keeps its todo list with the Task tools.
	for _, task := range []string{"write the feature", "test it", "ship it"} {
		at = c.submit("TASK:" + task)
		c.turnEnd(at, 15*time.Second)
	}
	at = c.submit("TASKDONE:1")
	c.turnEnd(at, 15*time.Second)
	r.expect("Write, TaskCreate ×3, TaskUpdate → activity", at, "Enter", stepLimit, activity(id, "1/3 todos, 1 file", func(a *hudActivity) bool {
		return a.TodosDone == 1 && a.TodosTotal == 3 && a.FilesEdited == 1
	}))

	c.submit("TOOL:git add feature.go && git commit -qm 'add the feature'")
	shown = c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	at = c.answer(shown, "Enter")
	end := c.turnEnd(at, 15*time.Second)
	r.expect("commit, turn over → branch and commit", end, turnDone, workerLimit, activity(id, "main, 1 commit, clean", func(a *hudActivity) bool {
		return a.Branch == "main" && a.Commits == 1 && !a.Dirty
	}))

	checkCheckpoint(t, dir, id)
	checkCommitLog(t, r.home, id)

	at = c.submit("/compact")
	c.waitScreen("the end of compaction", 20*time.Second, contains("Compacted"))
	handoff := filepath.Join(r.home, ".capacitor", "handoff", id+".json")
	var h struct {
		Session     string   `json:"session"`
		Tasks       []string `json:"tasks"`
		FilesEdited []string `json:"filesEdited"`
		Git         struct {
			Branch string `json:"branch"`
		} `json:"git"`
		RecentCommits []struct {
			Message string `json:"message"`
		} `json:"recentCommits"`
	}
	if err := readJSONWithin(handoff, workerLimit, &h, nil); err != nil {
		t.Fatalf("handoff after /compact: %v", err)
	}
	if h.Session != id || len(h.Tasks) != 2 || len(h.FilesEdited) != 1 || h.Git.Branch != "main" ||
		len(h.RecentCommits) != 1 || h.RecentCommits[0].Message != "add the feature" {
		t.Errorf("handoff %+v", h)
	}
	t.Logf("handoff saved %v after /compact", time.Since(at).Round(time.Millisecond))
}

// activity: the session's activity in `hud status --json` satisfies ok.
func activity(sessionID, desc string, ok func(*hudActivity) bool) want {
	return want{
		id:   sessionID,
		desc: "activity: " + desc,
		ok: func(st hudStatus) bool {
			s, found := st.session(sessionID)
			return found && s.Activity != nil && ok(s.Activity)
		},
	}
}

// gitInit makes dir a repository with one commit (the rig made an empty
// .git) so the session's commit is the second.
func gitInit(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.name", "E2E Person"},
		{"config", "user.email", "e2e@example.com"},
		{"commit", "-q", "--allow-empty", "-m", "start"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// checkCheckpoint validates <dir>/.claude/.project-state.json against the
// checkpoint's required fields and what the session did.
func checkCheckpoint(t *testing.T, dir, sessionID string) {
	t.Helper()
	var cp struct {
		SessionID        string   `json:"session_id"`
		Timestamp        string   `json:"timestamp"`
		ProjectRoot      string   `json:"project_root"`
		CheckpointReason string   `json:"checkpoint_reason"`
		ClaudeSessionID  string   `json:"claude_session_id"`
		EditedFiles      []string `json:"edited_files"`
		Todos            []struct {
			Status string `json:"status"`
		} `json:"todos"`
		Git *struct {
			Branch     string `json:"branch"`
			LastCommit string `json:"last_commit"`
		} `json:"git"`
	}
	path := filepath.Join(dir, ".claude", ".project-state.json")
	// A checkpoint of an earlier turn may be there already: wait for the
	// one of the turn that made the commit (the worker writes it after
	// the activity shows the commit).
	committed := func() bool { return cp.Git != nil && strings.HasSuffix(cp.Git.LastCommit, "add the feature") }
	if err := readJSONWithin(path, workerLimit, &cp, committed); err != nil {
		t.Fatalf("checkpoint: %v", err)
	}
	if !regexp.MustCompile(`^session_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}$`).MatchString(cp.SessionID) {
		t.Errorf("checkpoint session_id %q: want session_YYYY-MM-DD_HH-MM-SS", cp.SessionID)
	}
	if _, err := time.Parse(time.RFC3339, cp.Timestamp); err != nil {
		t.Errorf("checkpoint timestamp %q: %v", cp.Timestamp, err)
	}
	if cp.ProjectRoot != dir || cp.CheckpointReason != "Stop hook" || cp.ClaudeSessionID != sessionID {
		t.Errorf("checkpoint root %q reason %q session %q", cp.ProjectRoot, cp.CheckpointReason, cp.ClaudeSessionID)
	}
	if len(cp.EditedFiles) != 1 || cp.EditedFiles[0] != "feature.go" || len(cp.Todos) != 3 {
		t.Errorf("checkpoint edited %q, %d todos", cp.EditedFiles, len(cp.Todos))
	}
	if cp.Git == nil || cp.Git.Branch != "main" || !strings.HasSuffix(cp.Git.LastCommit, "add the feature") {
		t.Errorf("checkpoint git %+v", cp.Git)
	}
}

// checkCommitLog: ~/.capacitor/commit-log.jsonl has the session's commit.
func checkCommitLog(t *testing.T, home, sessionID string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, ".capacitor", "commit-log.jsonl"))
	if err != nil {
		t.Fatalf("commit log: %v", err)
	}
	var c struct {
		Message      string   `json:"message"`
		Session      string   `json:"session"`
		FilesChanged int      `json:"filesChanged"`
		FilesList    []string `json:"filesList"`
	}
	if err := json.Unmarshal(b, &c); err != nil || c.Message != "add the feature" || c.Session != sessionID ||
		c.FilesChanged != 1 || c.FilesList[0] != "feature.go" {
		t.Errorf("commit log %s: %+v, %v", b, c, err)
	}
}

// readJSONWithin waits up to limit for path to exist and decodes it.
func readJSONWithin(path string, limit time.Duration, v any, ready func() bool) error {
	deadline := time.Now().Add(limit)
	for {
		b, err := os.ReadFile(path)
		if err == nil {
			reflect.ValueOf(v).Elem().SetZero()
			if err = json.Unmarshal(b, v); err == nil && (ready == nil || ready()) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			if err == nil {
				return nil // the caller's checks say what is wrong with it
			}
			return fmt.Errorf("%s did not appear within %v: %w", path, limit, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
