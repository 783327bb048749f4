package safegit

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gitInit makes a repository with one commit and returns its path.
func gitInit(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.email=a@example.com", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "first"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return dir
}

func gitConfig(t *testing.T, dir, key, value string) {
	t.Helper()
	if out, err := exec.Command("git", "-C", dir, "config", key, value).CombinedOutput(); err != nil {
		t.Fatalf("git config %s: %v %s", key, err, out)
	}
}

func runT(t *testing.T, dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return Run(ctx, dir, args...)
}

// TestRepositoryConfigRunsNothing plants every kind of command a
// repository's config can name for status and log, and checks none ran.
func TestRepositoryConfigRunsNothing(t *testing.T) {
	dir := gitInit(t)
	pwned := filepath.Join(t.TempDir(), "pwned")
	cmd := "touch " + pwned + "; cat"
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("* filter=evil diff=evil\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("one\n"), 0o644)
	exec.Command("git", "-C", dir, "add", ".").Run()
	exec.Command("git", "-C", dir, "-c", "user.email=a@example.com", "-c", "user.name=a", "commit", "-qm", "two").Run()
	for key, value := range map[string]string{
		"core.fsmonitor":          cmd,
		"core.pager":              cmd,
		"filter.evil.clean":       cmd,
		"filter.evil.process":     cmd,
		"diff.evil.textconv":      cmd,
		"diff.external":           cmd,
		"log.showSignature":       "true",
		"gpg.program":             cmd,
		`filter.weird name.clean`: cmd,
		"core.hooksPath":          dir,
	} {
		gitConfig(t, dir, key, value)
	}
	// A changed file of the same size and mtime second is racily clean:
	// status must read it, through the clean filter if it ran one.
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("two\n"), 0o644)
	out, err := runT(t, dir, "status", "--porcelain=v2", "--branch")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "# branch.head main") {
		t.Errorf("status: %s", out)
	}
	if _, err := runT(t, dir, "log", "-1", "--format=%h %s", "--name-only"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("a command from the repository's config ran")
	}
}

// TestUnoverridableDriver: a driver whose name holds '=' cannot be named
// in -c, so the repository is refused rather than read with it.
func TestUnoverridableDriver(t *testing.T) {
	dir := gitInit(t)
	pwned := filepath.Join(t.TempDir(), "pwned")
	gitConfig(t, dir, "filter.a=b.clean", "touch "+pwned)
	if _, err := runT(t, dir, "status"); err == nil || !strings.Contains(err.Error(), "cannot be overridden") {
		t.Errorf("status: %v, want a refusal", err)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("the driver ran")
	}
}

func TestNotRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	if _, err := runT(t, dir, "status"); !errors.Is(err, ErrNotRepo) {
		t.Errorf("outside a repository: %v, want ErrNotRepo", err)
	}
}

// TestEnvironmentStaysBehind: GIT_DIR in hud's environment (Claude's, for
// `hud checkpoint`) must not point git somewhere else.
func TestEnvironmentStaysBehind(t *testing.T) {
	dir := gitInit(t)
	t.Setenv("GIT_DIR", t.TempDir())
	if out, err := runT(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); err != nil || strings.TrimSpace(string(out)) != "main" {
		t.Errorf("rev-parse: %q, %v", out, err)
	}
}

func TestOutputBounded(t *testing.T) {
	var b limitedBuffer
	b.max = 4
	b.Write([]byte("abc"))
	b.Write([]byte("def"))
	if !b.over || b.String() != "abcd" {
		t.Errorf("limitedBuffer: %q over=%v", b.String(), b.over)
	}
}

func TestCommandKey(t *testing.T) {
	for name, want := range map[string]bool{
		"filter.lfs.clean": true, "filter.a.b.smudge": true, "filter.x.process": true,
		"diff.x.textconv": true, "diff.x.command": true, "merge.x.driver": true,
		"filter.lfs.required": false, "core.editor": false, "diff.external": false, "user.name": false,
	} {
		if got := commandKey(name); got != want {
			t.Errorf("commandKey(%q) = %v", name, got)
		}
	}
}
