package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/text"
)

// EnvSSHCommand replaces ssh, like git's GIT_SSH_COMMAND: its value is
// run by sh with ssh's arguments after it, so it may hold options
// ("ssh -F ~/.ssh/work_config"). It wins over the remotes file's
// ssh_command.
const EnvSSHCommand = "HUD_SSH_COMMAND"

// Conn is one running stream: its lines, then how it ended.
type Conn interface {
	// Stdout is the remote hud's output, one JSON document a line.
	Stdout() io.Reader
	// Wait waits for the transport to end, after Stdout reached its end
	// or the context was cancelled, and says why it did.
	Wait() error
}

// Dialer starts a machine's stream; cancelling ctx ends it.
type Dialer func(ctx context.Context, r config.Remote) (Conn, error)

// SSH runs the stream over ssh.
type SSH struct {
	// Command replaces "ssh" (EnvSSHCommand, else the remotes file's
	// ssh_command); "" for ssh from PATH.
	Command string
	// ConnectTimeout bounds the TCP connection and ssh's handshake.
	ConnectTimeout time.Duration
}

// SSHCommand picks the ssh command: the environment's (getenv may be
// nil), else the file's.
func SSHCommand(getenv func(string) string, rs config.Remotes) string {
	if getenv != nil {
		if c := strings.TrimSpace(getenv(EnvSSHCommand)); c != "" {
			return c
		}
	}
	return strings.TrimSpace(rs.SSHCommand)
}

// StreamCommand is what the remote's shell runs: its own hud's stream.
func StreamCommand(r config.Remote) string { return r.HudCommand() + " status --watch --json" }

// Args is the command line that runs r's stream. The options make ssh
// fit a program in the background: BatchMode, since nobody is there to
// type a password or accept a host key (a person runs `ssh devbox` once
// for that); a connect timeout and keep-alives, so a machine that went
// away is noticed in seconds rather than at TCP's pace. The destination
// comes after "--", so it is never read as an option.
func (s SSH) Args(r config.Remote) []string {
	timeout := max(int(s.ConnectTimeout.Round(time.Second)/time.Second), 1)
	opts := []string{
		"-T",
		"-o", "BatchMode=yes",
		"-o", "ConnectTimeout=" + strconv.Itoa(timeout),
		"-o", "ServerAliveInterval=10",
		"-o", "ServerAliveCountMax=2",
		"--", r.Destination, StreamCommand(r),
	}
	return Argv(s.Command, opts...)
}

// Argv is the command line that runs ssh with args, or the command that
// replaces ssh (EnvSSHCommand, ssh_command; "" for ssh).
func Argv(sshCommand string, args ...string) []string {
	if sshCommand == "" {
		return append([]string{"ssh"}, args...)
	}
	// As git does with GIT_SSH_COMMAND: the shell splits the command, and
	// "$@" passes the arguments through untouched.
	return append([]string{"sh", "-c", sshCommand + ` "$@"`, sshCommand}, args...)
}

// Dial starts r's stream.
func (s SSH) Dial(ctx context.Context, r config.Remote) (Conn, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	args := s.Args(r)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	// A group of its own, signalled whole: with a replaced ssh command
	// the process started is sh, and ssh its child. SIGTERM lets ssh
	// close the connection properly; a stuck one is killed after
	// WaitDelay.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 3 * time.Second
	c := &sshConn{cmd: cmd}
	cmd.Stderr = &c.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c.stdout = out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", args[0], err)
	}
	return c, nil
}

type sshConn struct {
	cmd    *exec.Cmd
	stdout io.Reader
	stderr tail
}

func (c *sshConn) Stdout() io.Reader { return c.stdout }

func (c *sshConn) Wait() error {
	err := c.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return Classify(exit.ExitCode(), c.stderr.String())
	}
	if err != nil {
		return err
	}
	return &Ended{Detail: lastLine(c.stderr.String())}
}

// Unreachable is a machine ssh could not reach or lost (ssh's exit status
// 255).
type Unreachable struct{ Detail string }

func (e *Unreachable) Error() string { return "unreachable: " + e.Detail }

// NotFound is a machine without hud where the remote command looks for
// it (the shell's exit status 127).
type NotFound struct{ Detail string }

func (e *NotFound) Error() string { return "hud not found on the remote: " + e.Detail }

// Ended is a remote hud that stopped, with what it said last.
type Ended struct {
	Code   int
	Detail string
}

func (e *Ended) Error() string {
	msg := "the hud there stopped"
	if e.Code != 0 {
		msg += " (exit status " + strconv.Itoa(e.Code) + ")"
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Classify turns how ssh ended into what the person should know. ssh
// exits 255 for its own errors and with the remote command's status
// otherwise; a shell exits 127 for a command it cannot find; a hud from
// before --watch refuses the flag (a usage error, status 2).
func Classify(code int, stderr string) error {
	detail := lastLine(stderr)
	switch {
	case code == 255:
		return &Unreachable{Detail: detail}
	case code == 127 || code == 126:
		return &NotFound{Detail: detail}
	case code == 2 && strings.Contains(stderr, "flag provided but not defined"):
		return &VersionError{Got: 0}
	}
	return &Ended{Code: code, Detail: detail}
}

// lastLine is the last line of s that says anything, made plain.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return text.Line(lines[len(lines)-1], 200)
}

// tail keeps the last few KiB written to it: enough for ssh's last words,
// bounded whatever the remote writes on its stderr.
type tail struct {
	mu sync.Mutex
	b  []byte
}

const maxTail = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > maxTail {
		t.b = bytes.Clone(t.b[len(t.b)-maxTail:])
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
