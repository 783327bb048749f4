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
// file (its flock held) as descriptor 3 (proc.StartDetached). Its
// environment is the home it works for
// (the ledger it records is there), the time zone the person set, which
// names the ledger's days, and where their settings are; nothing else of
// the hook's.
func spawnHolder(holderExe, home, dir string, lockFile *os.File, claude proc.Process) error {
	env := []string{"HOME=" + home}
	for _, name := range []string{"TZ", "XDG_CONFIG_HOME"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	_, err := proc.StartDetached(holderExe, []string{HoldMode, dir, strconv.Itoa(claude.PID), strconv.FormatInt(claude.Started, 10)}, env, lockFile)
	if err != nil {
		return fmt.Errorf("starting lock holder: %w", err)
	}
	return nil
}
