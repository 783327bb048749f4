package app

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/internal/paths"
)

func TestOneTrayPerUser(t *testing.T) {
	path := paths.Layout{Home: t.TempDir()}.TrayLockPath()
	release, err := AcquireInstance(path)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to open files: a second open in this process
	// conflicts just as another process would.
	_, err = AcquireInstance(path)
	if !errors.Is(err, ErrAlreadyRunning) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second tray: %v, want ErrAlreadyRunning naming our pid", err)
	}
	release()
	again, err := AcquireInstance(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
}
