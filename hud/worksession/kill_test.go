package worksession

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// TestMain lets the test binary act as a writer process that the test
// kills with SIGKILL.
func TestMain(m *testing.M) {
	if project := os.Getenv("WORKSESSION_TEST_WRITER"); project != "" {
		files := Files{Layout: paths.Layout{Home: os.Getenv("WORKSESSION_TEST_HOME")}}
		fmt.Println("ready")
		for i := 0; ; i++ {
			files.Update(project, func(s *State) error {
				// A long summary makes each write take a while.
				s.Summary = strings.Repeat(fmt.Sprint(i%10), 1<<16)
				return nil
			})
		}
	}
	os.Exit(m.Run())
}

func TestKilledWriterLeavesAWholeFile(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	files := Files{Layout: paths.Layout{Home: home}}
	s, _ := New("task", "scope", t0)
	if err := files.Create(project, s); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "WORKSESSION_TEST_WRITER="+project, "WORKSESSION_TEST_HOME="+home)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("writer said %q", line)
	}
	reads := 0
	for deadline := time.Now().Add(300 * time.Millisecond); time.Now().Before(deadline); reads++ {
		if _, err := Load(project); err != nil {
			t.Fatalf("read %d while writing: %v", reads, err)
		}
	}
	cmd.Process.Signal(os.Kill)
	cmd.Wait()
	got, err := Load(project)
	if err != nil {
		t.Fatalf("after kill -9: %v", err)
	}
	// The dead writer's lock is gone: stop works and clears its temp file.
	if _, err := files.Remove(project); err != nil {
		t.Fatalf("stop after kill -9: %v", err)
	}
	if left, _ := os.ReadDir(project + "/.claude"); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	t.Logf("%d whole reads; last summary %.1s…", reads, got.Summary)
}
