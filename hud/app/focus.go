package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/focus"
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

// focuser brings a clicked session forward, and says so when it could
// not: the folder that opened instead is not the session.
func focuser(s Setup, logf func(string, ...any), say func(title, body string)) *focus.Focuser {
	f := focus.New(logf, OpenPath, remoteMachine(s))
	f.Failed = func(err error) {
		title, body := clickFailed(err)
		say(title, body)
	}
	return f
}

// clickFailed is what the person is told of a click that brought nothing
// of the session's own forward.
func clickFailed(err error) (title, body string) {
	// Only a session on this machine has a folder to open.
	if errors.Is(err, focus.ErrOnlyFolder) {
		return "The session's terminal could not be brought forward",
			"Its folder opened instead: hud cannot raise that terminal on this desktop. 'hud doctor' says what works here."
	}
	return "The session could not be shown", firstLine(err.Error()) + "\n'hud doctor' says what works here."
}

// firstLine is the first line of s, for a notification's body.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
