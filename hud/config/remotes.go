package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// The remote machines live in their own file beside config.toml,
// remotes.json, rather than in config.toml: `hud remote add` and `remove`
// write the list, and config.toml is the person's file, which hud creates
// once and never rewrites (a rewrite would lose their comments and their
// order). remotes.json is hud's: it is written whole by those commands and
// read by everything that shows sessions; a person may edit it too.

// RemotesName is the file's name in the settings directory.
const RemotesName = "remotes.json"

// maxRemotesFile bounds what is read of the file: a list of a few
// machines is a few hundred bytes.
const maxRemotesFile = 64 << 10

// MaxRemotes is how many machines the list holds; each is an ssh
// connection the tray keeps open.
const MaxRemotes = 16

// Remotes is the file: the machines whose sessions hud shows beside the
// local ones, and how to reach them.
type Remotes struct {
	// SSHCommand replaces "ssh" for every remote, the way git's
	// core.sshCommand does (HUD_SSH_COMMAND overrides it); "" for ssh.
	SSHCommand string `json:"ssh_command,omitempty"`
	// Remotes are the machines, in the order they were added.
	Remotes []Remote `json:"remotes"`
}

// Remote is one machine.
type Remote struct {
	// Name labels the machine's sessions on every surface ("devbox").
	Name string `json:"name"`
	// Destination is what ssh connects to: "devbox", "me@devbox",
	// "ssh://me@devbox:2222" (with the person's ~/.ssh/config).
	Destination string `json:"destination"`
	// Command is how hud is started there, as the remote's shell reads it
	// ("~/.local/bin/hud"; a non-interactive ssh often has no ~/.local/bin
	// on PATH); "" means "hud".
	Command string `json:"command,omitempty"`
}

// HudCommand is the command that starts hud on the remote.
func (r Remote) HudCommand() string {
	if r.Command == "" {
		return "hud"
	}
	return r.Command
}

// RemotesPath is remotes.json beside the settings file at settingsPath.
func RemotesPath(settingsPath string) string {
	return filepath.Join(filepath.Dir(settingsPath), RemotesName)
}

// LoadRemotes reads the list at path; a missing file is an empty list.
// Entries that do not check out are an error naming them, not dropped in
// silence: a machine the person added should not vanish.
func LoadRemotes(path string) (Remotes, error) {
	var rs Remotes
	b, _, err := safefile.Read(path, maxRemotesFile, safefile.Follow)
	if errors.Is(err, fs.ErrNotExist) {
		return rs, nil
	}
	if err != nil {
		return rs, fmt.Errorf("reading the remotes: %w", err)
	}
	if err := json.Unmarshal(b, &rs); err != nil {
		return Remotes{}, fmt.Errorf("reading the remotes: %s: %w", path, err)
	}
	if len(rs.Remotes) > MaxRemotes {
		return Remotes{}, fmt.Errorf("reading the remotes: %s lists %d machines, at most %d are followed", path, len(rs.Remotes), MaxRemotes)
	}
	for _, r := range rs.Remotes {
		if err := r.Check(); err != nil {
			return Remotes{}, fmt.Errorf("reading the remotes: %s: %w", path, err)
		}
	}
	if err := checkCommand("ssh_command", rs.SSHCommand); err != nil {
		return Remotes{}, fmt.Errorf("reading the remotes: %s: %w", path, err)
	}
	return rs, nil
}

// SaveRemotes writes the list to path, whole.
func SaveRemotes(path string, rs Remotes) error {
	if rs.Remotes == nil {
		rs.Remotes = []Remote{}
	}
	b, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("creating the settings directory: %w", err)
	}
	if err := safefile.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("writing the remotes: %w", err)
	}
	return nil
}

// Find returns the index of the machine called name, or -1.
func (rs *Remotes) Find(name string) int {
	return slices.IndexFunc(rs.Remotes, func(r Remote) bool { return r.Name == name })
}

// Check says what is wrong with r, if anything.
func (r Remote) Check() error {
	if err := CheckDestination(r.Destination); err != nil {
		return err
	}
	if err := CheckRemoteName(r.Name); err != nil {
		return err
	}
	return checkCommand("command", r.Command)
}

// CheckDestination refuses what ssh could read as something else than
// the machine to reach: a leading "-" is an option (ssh -oProxyCommand=…
// runs a command here), and white space or a control character is no
// host name. The destination is passed after "--" as well.
func CheckDestination(d string) error {
	switch {
	case d == "":
		return errors.New("no ssh destination")
	case strings.HasPrefix(d, "-"):
		return fmt.Errorf("ssh destination %q starts with '-', which ssh would read as an option", d)
	case len(d) > 255:
		return fmt.Errorf("ssh destination is %d bytes long, at most 255", len(d))
	case !utf8.ValidString(d) || strings.ContainsFunc(d, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return fmt.Errorf("ssh destination %q holds white space or a control character", d)
	}
	return nil
}

// CheckRemoteName refuses names that would not read as one short word on
// a menu row.
func CheckRemoteName(name string) error {
	switch {
	case name == "":
		return errors.New("no name for the remote")
	case utf8.RuneCountInString(name) > 40:
		return fmt.Errorf("remote name %q is longer than 40 characters", name)
	case !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return fmt.Errorf("remote name %q holds white space or a control character", name)
	}
	return nil
}

func checkCommand(key, cmd string) error {
	if strings.ContainsFunc(cmd, func(r rune) bool { return r == '\n' || r == '\r' || unicode.IsControl(r) && r != '\t' }) {
		return fmt.Errorf("%s %q holds a line break or a control character", key, cmd)
	}
	return nil
}

// RemoteName is the name a destination gets when the person gives none:
// its host, without user, scheme or port ("ssh://me@devbox:2222" is
// "devbox").
func RemoteName(destination string) string {
	d, isURL := strings.CutPrefix(destination, "ssh://")
	if i := strings.LastIndexByte(d, '@'); i >= 0 {
		d = d[i+1:]
	}
	if isURL {
		d, _, _ = strings.Cut(d, "/")
		if strings.HasPrefix(d, "[") {
			if end := strings.IndexByte(d, ']'); end > 0 {
				return d[1:end]
			}
		}
		if i := strings.LastIndexByte(d, ':'); i >= 0 {
			d = d[:i]
		}
	}
	return d
}
