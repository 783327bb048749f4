package app

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"time"

	"github.com/capacitor-hud/hud/hud/present"
)

// Runner runs a program to completion; tests replace it.
type Runner func(ctx context.Context, name string, args ...string) error

// ExecRunner runs the program for real, with its output discarded.
func ExecRunner(ctx context.Context, name string, args ...string) error {
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil && len(out) > 0 {
		return fmt.Errorf("%s: %w: %s", name, err, trimOutput(out))
	}
	return err
}

func trimOutput(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	return string(b)
}

// tmuxPane is what tmux puts in $TMUX_PANE: "%" and a number. Anything
// else in a record is not passed to tmux (it could read as an option).
var tmuxPane = regexp.MustCompile(`^%[0-9]+$`)

// Focuser brings a session forward: its tmux pane when it has one and tmux
// still knows it, else its folder in the file manager.
type Focuser struct {
	Run  Runner
	Open func(path string) error
}

// Focus brings f forward.
func (fo Focuser) Focus(f present.Focus) error {
	var tmuxErr error
	if f.TmuxPane != "" {
		if tmuxErr = fo.tmux(f.TmuxPane); tmuxErr == nil {
			return nil
		}
	}
	if f.Dir == "" {
		return errors.Join(tmuxErr, errors.New("the session has no folder to open"))
	}
	if err := fo.Open(f.Dir); err != nil {
		return errors.Join(tmuxErr, err)
	}
	return nil
}

// tmux makes pane the current pane of its window and that window the
// current one of its session, so the terminal attached to it shows it.
func (fo Focuser) tmux(pane string) error {
	if !tmuxPane.MatchString(pane) {
		return fmt.Errorf("tmux pane %q is not a pane id", pane)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := fo.Run(ctx, "tmux", "select-window", "-t", pane); err != nil {
		return fmt.Errorf("switching to tmux pane %s: %w", pane, err)
	}
	if err := fo.Run(ctx, "tmux", "select-pane", "-t", pane); err != nil {
		return fmt.Errorf("switching to tmux pane %s: %w", pane, err)
	}
	return nil
}

// OpenPath opens path with the desktop's default application (xdg-open on
// Linux, open on macOS) without waiting for it to close.
func OpenPath(path string) error {
	cmd := exec.Command(openCommand, path)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	go cmd.Wait() // reap it; the application may outlive any wait
	return nil
}
