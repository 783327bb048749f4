package desktop

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// readmeDesk is the README's desktop: a person's home with hud wired into
// Claude Code and Codex and answering on, a second machine (devbox, a home
// of its own reached through a stand-in ssh), and the tray.
type readmeDesk struct {
	t                                 *testing.T
	r                                 rig
	home, devbox                      string
	env                               []string
	claude, codex                     string // the stand-in binaries
	claudeHook, codexHook, devboxHook string // the commands install wrote
	notes                             chan sni.Notification
	bubbles                           *bubbles
	item                              *sni.Item
	hud                               *hudProcess
}

// setUpReadmeDesk wires both homes as their person would (`hud install`,
// `hud answer on`, `hud remote add`) and starts the tray, its
// notifications watched.
func setUpReadmeDesk(t *testing.T, r rig) *readmeDesk {
	t.Helper()
	d := &readmeDesk{t: t, r: r, home: t.TempDir(), devbox: t.TempDir(), notes: make(chan sni.Notification, 16)}
	d.env = append(personEnv(d.home), "HUD_SSH_COMMAND="+loopbackSSH(t))
	d.hudIn(d.devbox, "install", "--hook", r.hook)
	d.devboxHook = installedCommand(t, d.devbox)
	d.hudIn(d.home, "install", "--hook", r.hook)
	d.hudIn(d.home, "install", "--hook", r.hook, "codex")
	d.hudIn(d.home, "answer", "on")
	d.hudIn(d.home, "remote", "add", "--name", "devbox", "--command", "env HOME="+d.devbox+" "+r.hud, "me@devbox")
	d.claudeHook = installedCommand(t, d.home)
	d.codexHook = hookCommandIn(t, filepath.Join(d.home, ".codex", "hooks.json"))

	// The hook knows an agent's process by its name: the same stand-in,
	// named codex, is a Codex.
	d.claude = buildStandIn(t)
	d.codex = filepath.Join(t.TempDir(), "codex")
	b, err := os.ReadFile(d.claude)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.codex, b, 0o755); err != nil {
		t.Fatal(err)
	}

	monitor, err := sni.WatchNotifications(d.notes)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { monitor.Close() })
	d.bubbles = watchBubbles(t)
	d.hud = startHud(t, r, d.env)
	if d.item, err = sni.FindItem(sessionBus(t), d.hud.cmd.Process.Pid, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	return d
}

// hudIn runs hud with args as the person whose home is home.
func (d *readmeDesk) hudIn(home string, args ...string) {
	d.t.Helper()
	cmd := exec.Command(d.r.hud, args...)
	cmd.Env = personEnv(home)
	if home == d.home {
		cmd.Env = d.env
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		d.t.Fatalf("hud %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// loopbackSSH writes an ssh stand-in that runs the remote command on this
// machine, as ssh runs it on the other one (its last argument, in a shell),
// and returns its path for HUD_SSH_COMMAND.
func loopbackSSH(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ssh")
	script := "#!/bin/sh\nfor last; do :; done\nexec /bin/sh -c \"$last\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// start runs a stand-in agent (bin) in home's project name.
func (d *readmeDesk) start(bin, hook, home, name, id string) *standIn {
	d.t.Helper()
	return startClaude(d.t, bin, hook, home, name, id, nil)
}

// gitRepo makes dir a git repository on branch, with file not yet
// committed.
func (d *readmeDesk) gitRepo(dir, branch, file string) {
	d.t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, file)), 0o755); err != nil {
		d.t.Fatal(err)
	}
	git := exec.Command("git", "init", "-q", "-b", branch, dir)
	git.Env = personEnv(d.home)
	if out, err := git.CombinedOutput(); err != nil {
		d.t.Fatalf("git init: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, file), []byte("export {}\n"), 0o644); err != nil {
		d.t.Fatal(err)
	}
}

// play sends the recorded Claude Code event through s's hook, the fields
// of set replacing the recorded ones.
func (d *readmeDesk) play(s *standIn, event string, set map[string]any) {
	d.playFile(s, s.eventFile(event), set)
}

func (d *readmeDesk) playFile(s *standIn, file string, set map[string]any) {
	s.Send(file, func(ev map[string]any) { maps.Copy(ev, set) })
}

// playAsync is play for an event whose hook waits for the tray's answer.
func (d *readmeDesk) playAsync(s *standIn, event string, set map[string]any) <-chan string {
	return playAsync(s.Process, s.Prepare(s.eventFile(event), func(ev map[string]any) { maps.Copy(ev, set) }))
}
