package lockholder

import (
	"fmt"
	"os"
	"strconv"

	"github.com/capacitor-hud/hud/internal/proc"
)

// HoldMode is the hidden hud-hook mode that runs a lock holder:
//
//	hud-hook hold-lock <lock dir> <claude pid> <claude start, Unix seconds>
//
// with the lock's pid file, its flock held, open as file descriptor 3.
const HoldMode = "hold-lock"

// spawnHolder starts holderExe in hold mode for dir, with the lock's pid
// file (its flock held) as descriptor 3 (proc.StartDetached).
func spawnHolder(holderExe, dir string, lockFile *os.File, claude proc.Process) error {
	_, err := proc.StartDetached(holderExe, []string{HoldMode, dir, strconv.Itoa(claude.PID), strconv.FormatInt(claude.Started, 10)}, nil, lockFile)
	if err != nil {
		return fmt.Errorf("starting lock holder: %w", err)
	}
	return nil
}
