package answer

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// When the test binary runs as this helper, it is a hook of another uid:
// it offers a dialog and prints what came back.
func TestMain(m *testing.M) {
	if home := os.Getenv("HUD_ANSWER_HELPER_HOME"); home != "" {
		h, err := Connect(home)
		if err != nil {
			fmt.Println("connect:", err)
			os.Exit(0)
		}
		req := Request{ID: "0123456789abcdef0123456789abcdef", Session: "intruder", Choices: []Choice{{Allow, "Yes"}}, At: time.Now()}
		choice, err := h.Offer(req, 2*time.Second)
		fmt.Println("offer:", choice, err)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestAnotherUserRefused: a process of another uid that reaches the
// socket (its modes loosened, as by a careless umask or a hostile copy)
// is still refused by the peer check: its offer never shows in the tray,
// and the tray it reached is refused by it in turn.
func TestAnotherUserRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to run a process as another uid (the injected-uid test covers the check itself)")
	}
	home, err := os.MkdirTemp("", "hud-uid-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	s, err := Listen(SocketPath(home), os.Getuid(), t.Logf, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Loosen every mode on the way, so only the peer check stands.
	for _, p := range []string{home, filepath.Dir(SocketPath(home))} {
		os.Chmod(p, 0o755)
	}
	os.Chmod(SocketPath(home), 0o777)

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A copy the other uid may run: the build directory is the test's own.
	bin := filepath.Join(home, "helper.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = []string{"HUD_ANSWER_HELPER_HOME=" + home}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Skipf("cannot run a process as uid 65534 here: %v", err)
	}
	t.Logf("the other uid's hook: %s", out)
	if p := s.Pending(); len(p) != 0 {
		t.Errorf("the tray holds a request from another uid: %+v", p)
	}
	if want := "connect: refused a peer of uid 0"; string(out[:min(len(out), len(want))]) != want {
		t.Errorf("the other uid's hook got %q, want it to refuse the tray of uid 0", out)
	}
}
