package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ShellQuote returns path as one word for /bin/sh, which is how Claude Code
// runs a hook command. Plain paths stay as they are (the file reads like
// one a person wrote); anything else goes in single quotes.
func ShellQuote(path string) string {
	if path != "" && strings.Trim(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/.,:@%+=-") == "" {
		return path
	}
	return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
}

// firstWord returns the program a shell command line runs: its first word,
// unquoted as /bin/sh would (single quotes, double quotes, backslashes).
// ok is false for an empty command or an unterminated quote.
func firstWord(cmd string) (word string, ok bool) {
	word, _, ok = nextWord(cmd)
	return word, ok
}

// nextWord splits the first shell word off cmd, unquoted, and returns the
// rest of the line after it. A word ends at a blank or at ; & | (the end
// of a simple command).
func nextWord(cmd string) (word, rest string, ok bool) {
	var b strings.Builder
	i := 0
	for i < len(cmd) && (cmd[i] == ' ' || cmd[i] == '\t') {
		i++
	}
	started := false
	for ; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|':
			return b.String(), cmd[i:], started
		case c == '\'':
			end := strings.IndexByte(cmd[i+1:], '\'')
			if end < 0 {
				return "", "", false
			}
			b.WriteString(cmd[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			i++
			for ; i < len(cmd) && cmd[i] != '"'; i++ {
				if cmd[i] == '\\' && i+1 < len(cmd) && strings.IndexByte(`$`+"`"+`"\`, cmd[i+1]) >= 0 {
					i++
				}
				b.WriteByte(cmd[i])
			}
			if i >= len(cmd) {
				return "", "", false
			}
		case c == '\\' && i+1 < len(cmd):
			i++
			b.WriteByte(cmd[i])
		default:
			b.WriteByte(c)
		}
		started = true
	}
	return b.String(), "", started
}

// Locator finds the hook binary. Its fields are the process facts it
// needs, so tests can describe any machine.
type Locator struct {
	// Executable is the running hud binary (os.Executable), or "".
	Executable string
	// PATH is the search path ($PATH).
	PATH string
}

// ErrHookNotFound is returned when hud-hook is neither next to hud nor on
// the search path.
var ErrHookNotFound = errors.New("cannot find " + HookName)

// FindHook returns the absolute path of hud-hook: next to the running hud
// (both as started and with symlinks resolved, for a hud symlinked into
// ~/.local/bin), else the first one on PATH.
func (l Locator) FindHook() (string, error) {
	var dirs []string
	if l.Executable != "" {
		dirs = append(dirs, filepath.Dir(l.Executable))
		if real, err := filepath.EvalSymlinks(l.Executable); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	dirs = append(dirs, filepath.SplitList(l.PATH)...)
	for _, dir := range dirs {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry would make the hook depend on Claude's cwd
		}
		p := filepath.Join(dir, HookName)
		if isExecutable(p) {
			return p, nil
		}
	}
	return "", ErrHookNotFound
}

// CheckExecutable makes path absolute and checks that it is an executable
// file (hud-hook, or hud for the status line).
func CheckExecutable(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err // *PathError names the path
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("%s is not an executable file", abs)
	}
	return abs, nil
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
