package remote

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sshd is a real OpenSSH server on the loopback, with its own keys and
// configuration, for the user running the test (root on CI).
type sshd struct {
	t      *testing.T
	dir    string
	config string
	port   int
	cmd    *exec.Cmd
	done   chan struct{}
	// sshCommand is the HUD_SSH_COMMAND that reaches it with the test's
	// key, known_hosts and port.
	sshCommand string
}

func newSSHD(t *testing.T) *sshd {
	t.Helper()
	dir := t.TempDir()
	for _, key := range []string{"host_key", "user_key"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "hud-test", "-f", filepath.Join(dir, key)).CombinedOutput()
		if err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	pub, err := os.ReadFile(filepath.Join(dir, "user_key.pub"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &sshd{t: t, dir: dir, config: filepath.Join(dir, "sshd_config"), port: freePort(t)}
	// LogLevel FATAL: the readiness probe's bare connections are no error.
	// SHLVL=1: bash, the login shell of root on CI, reads ~/.bashrc for a
	// command sshd runs only as a top-level shell; this one counts as
	// nested, so the test user's startup files (on a developer's machine,
	// a pyenv rehash that waited 60s on a lock) stay out of the test.
	// Only what this test needs: the test's keys, no password, no PAM (a
	// non-root sshd cannot use it), and StrictModes off because the test's
	// directories are whatever TMPDIR gives.
	config := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile %s
AuthorizedKeysFile %s
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PrintMotd no
LogLevel FATAL
SetEnv SHLVL=1
`, s.port, filepath.Join(dir, "host_key"), filepath.Join(dir, "sshd.pid"), filepath.Join(dir, "authorized_keys"))
	if err := os.WriteFile(s.config, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// sshd as root insists on its privilege separation directory.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.sshCommand = strings.Join([]string{
		"ssh", "-F", "/dev/null",
		"-i", filepath.Join(dir, "user_key"), "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
		"-o", "UserKnownHostsFile=" + filepath.Join(dir, "known_hosts"), "-o", "StrictHostKeyChecking=accept-new",
		"-o", "LogLevel=ERROR",
		"-p", strconv.Itoa(s.port),
	}, " ")
	s.start()
	t.Cleanup(s.kill)
	return s
}

// start runs sshd in the foreground and waits until it accepts
// connections.
func (s *sshd) start() {
	s.t.Helper()
	s.cmd = exec.Command("/usr/sbin/sshd", "-D", "-e", "-f", s.config)
	s.cmd.Stderr = &prefixWriter{t: s.t, prefix: "sshd: "}
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("starting sshd: %v", err)
	}
	s.done = make(chan struct{})
	go func() { s.cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)), time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-s.done:
			s.t.Fatalf("sshd exited: %v", s.cmd.ProcessState)
		default:
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("sshd does not accept on port %d: %v", s.port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill ends sshd and every connection it serves, as a machine that goes
// away does: each connection is a child sshd in a session of its own,
// which killing the listener alone leaves running.
func (s *sshd) kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	select {
	case <-s.done:
		return
	default:
	}
	pids := append(descendants(s.cmd.Process.Pid), s.cmd.Process.Pid)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	<-s.done
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The command name, in parentheses, may hold spaces: fields
		// start after the last ')'.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 {
			ppid, _ := strconv.Atoi(f[1])
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	var walk func(int)
	walk = func(p int) {
		for _, c := range children[p] {
			out = append(out, c)
			walk(c)
		}
	}
	walk(pid)
	return out
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// prefixWriter logs what a process writes, line by line.
type prefixWriter struct {
	t      *testing.T
	prefix string
}

func (w *prefixWriter) Write(p []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		w.t.Log(w.prefix + l)
	}
	return len(p), nil
}
