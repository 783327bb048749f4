package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/lockholder"
)

// standIn is a running stand-in Claude (scripts/desktop/claude): one per
// home, alive for the whole bench like a Claude session, so its lock
// holder is started once, as in real use.
type standIn struct {
	pid  int
	home string
	in   io.Writer
	out  *bufio.Scanner
}

// startStandIn starts the stand-in Claude in project with env; it ends,
// and its lock holder with it, when the bench cleans up.
func startStandIn(b *bench, claude string, env []string, project string) (*standIn, error) {
	cmd := exec.Command(claude)
	cmd.Dir = project
	cmd.Env = env
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	b.cleanup = append(b.cleanup, func() {
		in.Close()
		cmd.Wait()
	})
	home := strings.TrimPrefix(env[0], "HOME=")
	return &standIn{pid: cmd.Process.Pid, home: home, in: in, out: bufio.NewScanner(out)}, nil
}

// check fails unless the hook, run by the stand-in on event, found it as
// the session's Claude: the record names its pid and a lock holder keeps a
// live lock for it. Otherwise the bench would time the worst case (the
// walk up to init) under the name of the real one.
func (s *standIn) check(event []byte) error {
	var ev struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(event, &ev); err != nil {
		return err
	}
	l := paths.Layout{Home: s.home}
	data, err := os.ReadFile(l.StorePath())
	if err != nil {
		return err
	}
	store, _, err := store.Decode(data)
	if err != nil {
		return err
	}
	r := store.Sessions[ev.SessionID]
	if r == nil || r.PID != s.pid {
		return fmt.Errorf("the hook under the stand-in Claude (pid %d) did not record it: %+v", s.pid, r)
	}
	if !lockholder.HasLiveLock(l, proc.Process{PID: s.pid}) {
		return fmt.Errorf("no live lock for the stand-in Claude (pid %d) in %s", s.pid, l.LockDir())
	}
	return nil
}

// run has the stand-in run `/bin/sh -c <prog>` on the event in inputPath
// and returns how long that took, as the stand-in timed it.
func (s *standIn) run(prog, inputPath string) (time.Duration, error) {
	if _, err := fmt.Fprintf(s.in, "%s\t'%s'\n", inputPath, prog); err != nil {
		return 0, err
	}
	if !s.out.Scan() {
		return 0, fmt.Errorf("the stand-in Claude died: %v", s.out.Err())
	}
	var exited, started int64
	if _, err := fmt.Sscanf(s.out.Text(), "ok %d %d", &exited, &started); err != nil {
		return 0, fmt.Errorf("stand-in Claude running %s: %s", filepath.Base(prog), s.out.Text())
	}
	return time.Duration(exited - started), nil
}
