package app

import (
	"fmt"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/remote"
)

// remoteMachine finds, at the click, the machine a remote session's host
// names in the remotes file, and the ssh command to reach it with: the
// ones the tray's stream of it uses.
func remoteMachine(s Setup) func(name string) (config.Remote, string, error) {
	return func(name string) (config.Remote, string, error) {
		rs, err := config.LoadRemotes(config.RemotesPath(s.ConfigPath))
		if err != nil {
			return config.Remote{}, "", err
		}
		i := rs.Find(name)
		if i < 0 {
			return config.Remote{}, "", fmt.Errorf("no remote machine is called %q any more (hud remote list)", name)
		}
		return rs.Remotes[i], remote.SSHCommand(s.Getenv, rs), nil
	}
}
