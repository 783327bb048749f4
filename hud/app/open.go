package app

import (
	"fmt"
	"os/exec"
)

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
