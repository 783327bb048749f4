package app

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/focus"
)

func TestRemoteMachine(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "config.toml")
	rs := config.Remotes{SSHCommand: "ssh -F /etc/work", Remotes: []config.Remote{{Name: "devbox", Destination: "me@devbox.lan"}}}
	if err := config.SaveRemotes(config.RemotesPath(settings), rs); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	machine := remoteMachine(Setup{ConfigPath: settings, Getenv: func(k string) string { return env[k] }})

	m, ssh, err := machine("devbox")
	if err != nil || m.Destination != "me@devbox.lan" || ssh != "ssh -F /etc/work" {
		t.Errorf("devbox: %+v %q %v", m, ssh, err)
	}
	env["HUD_SSH_COMMAND"] = "ssh -i /k"
	if _, ssh, _ := machine("devbox"); ssh != "ssh -i /k" {
		t.Errorf("HUD_SSH_COMMAND not used: %q", ssh)
	}
	if _, _, err := machine("laptop2"); err == nil || !strings.Contains(err.Error(), "laptop2") {
		t.Errorf("a machine no longer listed: %v", err)
	}
}

func TestClickFailedSaysWhy(t *testing.T) {
	title, body := clickFailed(errors.Join(errors.New("sway: no window"), focus.ErrOnlyFolder))
	if !strings.Contains(title, "could not be brought forward") || !strings.Contains(body, "Its folder opened instead") {
		t.Errorf("only the folder: %q / %q", title, body)
	}
	title, body = clickFailed(errors.New("nothing brings a session on devbox forward\nmore"))
	if title != "The session could not be shown" || !strings.HasPrefix(body, "nothing brings a session on devbox forward\n'hud doctor'") {
		t.Errorf("remote: %q / %q", title, body)
	}
}
