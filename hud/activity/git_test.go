package activity

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gitRepo makes a real repository with one commit.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	run(t, dir, "config", "user.name", "Test Person")
	run(t, dir, "config", "user.email", "test@example.com")
	run(t, dir, "config", "commit.gpgsign", "false")
	write(t, dir, "README.md", "hello\n")
	run(t, dir, "add", "README.md")
	run(t, dir, "commit", "-q", "-m", "first commit")
	return dir
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadGitFacts(t *testing.T) {
	dir := gitRepo(t)
	f, err := ReadGitFacts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Branch != "main" || f.HasUncommittedChanges || !strings.HasSuffix(f.LastCommit, " first commit") || len(f.Head) != 40 {
		t.Fatalf("clean repo: %+v", f)
	}
	write(t, dir, "staged.txt", "s")
	run(t, dir, "add", "staged.txt")
	write(t, dir, "README.md", "changed\n")
	write(t, dir, "new1.txt", "u")
	write(t, dir, "new2.txt", "u")
	f, err = ReadGitFacts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.StagedFiles != 1 || f.UnstagedFiles != 1 || f.UntrackedFiles != 2 || !f.HasUncommittedChanges {
		t.Errorf("dirty repo: %+v", f)
	}
	if _, err := ReadGitFacts(t.TempDir()); err != ErrNotRepo {
		t.Errorf("outside a repo: %v, want ErrNotRepo", err)
	}
}

func TestParseStatusDetachedAndInitial(t *testing.T) {
	f := parseStatus([]byte("# branch.oid (initial)\n# branch.head main\n? a\n"))
	if f.Head != "" || f.Branch != "main" || f.UntrackedFiles != 1 {
		t.Errorf("initial: %+v", f)
	}
	f = parseStatus([]byte("# branch.oid 0123\n# branch.head (detached)\n2 R. N... 100644 100644 100644 a b R100 new\told\n"))
	if f.Branch != "HEAD" || f.StagedFiles != 1 || f.UnstagedFiles != 0 {
		t.Errorf("detached with a staged rename: %+v", f)
	}
}

// TestWorkerLogsNewCommitsAndCheckpoints runs the worker's jobs the way the
// hook's detached helper does: the first scan sets the baseline, commits
// made afterwards are logged once, and a checkpoint carries the git facts.
func TestWorkerLogsNewCommitsAndCheckpoints(t *testing.T) {
	dir := gitRepo(t)
	l := testLayout(t)
	id := "7261fbe8-c132-4197-8154-4b9c1e3e818d"
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	logf := func(f string, a ...any) { t.Logf(f, a...) }
	if _, err := Update(l, id, func(s *Session) bool {
		s.ProjectDir, s.StartedAt, s.WorkingOn = dir, now, "add the feature"
		s.Todos = []Todo{{Content: "commit it", Status: "pending"}}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if err := RunJob(Job{Home: l.Home, SessionID: id, Kind: JobScan}, now, logf); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadJSONL[Commit](CommitLogPath(l)); len(got) != 0 {
		t.Fatalf("the baseline scan logged history: %+v", got)
	}
	write(t, dir, "feature.go", "package feature\n")
	write(t, dir, "feature_test.go", "package feature\n")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "add the feature")
	write(t, dir, "feature.go", "package feature // v2\n")
	run(t, dir, "commit", "-qam", "polish the feature")
	for range 2 { // a second run must not log the same commits again
		if err := RunJob(Job{Home: l.Home, SessionID: id, Kind: JobCheckpoint, Reason: ReasonStop}, now.Add(5*time.Minute), logf); err != nil {
			t.Fatal(err)
		}
	}
	commits, _ := ReadJSONL[Commit](CommitLogPath(l))
	if len(commits) != 2 {
		t.Fatalf("logged %d commits, want 2: %+v", len(commits), commits)
	}
	c := commits[0]
	if c.Message != "add the feature" || c.FilesChanged != 2 || c.Branch != "main" || c.Session != id ||
		len(c.Hash) != 40 || len(c.ShortHash) < 7 || c.Author != "Test Person" || c.AuthorDate == "" {
		t.Errorf("first commit line: %+v", c)
	}
	if commits[1].Message != "polish the feature" {
		t.Errorf("order: %q second", commits[1].Message)
	}
	s, _ := Load(l, id)
	if s.Commits != 2 || s.Git == nil || s.Git.Branch != "main" || s.Git.Dirty {
		t.Errorf("activity after the scan: %+v git=%+v", s, s.Git)
	}
	if got := FactsOf(s).Summary(); got != "0/1 todos · main · 2 commits" {
		t.Errorf("summary %q", got)
	}
	cp, err := ReadCheckpoint(dir)
	if err != nil || cp == nil {
		t.Fatalf("checkpoint: %v, %v", cp, err)
	}
	if cp.Git == nil || cp.Git.Branch != "main" || !strings.HasSuffix(cp.Git.LastCommit, "polish the feature") ||
		cp.ActivitySummary.Commits != 2 || cp.CheckpointReason != ReasonStop {
		t.Errorf("checkpoint %+v git=%+v", cp, cp.Git)
	}
	// The handoff carries the session's commits, newest first.
	if err := RunJob(Job{Home: l.Home, SessionID: id, Kind: JobHandoff}, now.Add(6*time.Minute), logf); err != nil {
		t.Fatal(err)
	}
	h, err := ReadHandoff(l, id)
	if err != nil || h == nil || len(h.RecentCommits) != 2 || h.RecentCommits[0].Message != "polish the feature" ||
		h.Git.Branch != "main" || h.Context != "add the feature" || len(h.Tasks) != 1 {
		t.Errorf("handoff %+v, %v", h, err)
	}
}

func TestWorkerMainRejectsBadArguments(t *testing.T) {
	var logged, homes []string
	newLog := func(home, _ string) (func(string, ...any), func()) {
		homes = append(homes, home)
		return func(f string, a ...any) { logged = append(logged, f) }, func() {}
	}
	if code := WorkerMain([]string{"--job", "checkpoint"}, time.Now, newLog); code != 2 || len(logged) == 0 {
		t.Errorf("missing --home/--session: code %d, logged %v", code, logged)
	}
	home := t.TempDir()
	logged = nil
	if code := WorkerMain([]string{"--home", home, "--session", "../x"}, time.Now, newLog); code != 1 || len(logged) == 0 {
		t.Errorf("bad session id: code %d, logged %v", code, logged)
	}
	// The worker logs into the home it works for, not its own $HOME.
	if homes[len(homes)-1] != home {
		t.Errorf("logged to the home %q, want %q", homes[len(homes)-1], home)
	}
}

// TestWorkerLogsTheFirstCommitsOfAnEmptyRepository: a session started in a
// repository with no commit yet logs the commits it makes.
func TestWorkerLogsTheFirstCommitsOfAnEmptyRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	run(t, dir, "config", "user.name", "Test Person")
	run(t, dir, "config", "user.email", "test@example.com")
	l := testLayout(t)
	now := time.Now()
	Update(l, "s", func(s *Session) bool { s.ProjectDir, s.StartedAt = dir, now; return true })
	logf := func(f string, a ...any) { t.Logf(f, a...) }
	if err := RunJob(Job{Home: l.Home, SessionID: "s", Kind: JobScan}, now, logf); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "a.txt", "a")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "the very first commit")
	if err := RunJob(Job{Home: l.Home, SessionID: "s", Kind: JobScan}, now, logf); err != nil {
		t.Fatal(err)
	}
	commits, _ := ReadJSONL[Commit](CommitLogPath(l))
	if len(commits) != 1 || commits[0].Message != "the very first commit" {
		t.Errorf("logged %+v, want the first commit", commits)
	}
}
