package focus

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
)

// MacTerminal raises the macOS Terminal or iTerm2 tab whose tty is the
// process's (Claude's, or a tmux client's), through AppleScript. Only an
// application already running is asked: `tell application` would launch
// one that is not. The tty is passed as the script's argument, never
// written into its text.
//
// Compiled and unit-tested on every OS; the scripts themselves have not
// been run against Terminal or iTerm2 by this project's tests.
type MacTerminal struct{ Run Runner }

// ttyName is what ps prints for a terminal: ttys003 (macOS), pts/3.
var ttyName = regexp.MustCompile(`^(ttys[0-9]{1,4}|pts/[0-9]{1,4})$`)

// Raise selects the tab of pid's tty and brings its window and
// application to the front.
func (m MacTerminal) Raise(ctx context.Context, pid int, _ string) error {
	if pid <= 0 {
		return ErrSkip
	}
	out, err := m.Run(ctx, Command{Name: "ps", Args: []string{"-o", "tty=", "-p", fmt.Sprint(pid)}})
	if err != nil {
		return fmt.Errorf("finding the tty of process %d: %w", pid, err)
	}
	tty := string(bytes.TrimSpace(out))
	if !ttyName.MatchString(tty) {
		return fmt.Errorf("%w: process %d has no terminal (%q)", ErrSkip, pid, tty)
	}
	_, err = m.Run(ctx, Command{Name: "osascript", Args: []string{"-e", raiseTabScript, "/dev/" + tty}})
	return err
}

// raiseTabScript takes the tty path as its argument.
const raiseTabScript = `on run argv
	set theTTY to item 1 of argv
	if application "iTerm2" is running then
		tell application "iTerm2"
			repeat with w in windows
				repeat with t in tabs of w
					repeat with s in sessions of t
						if tty of s is theTTY then
							select w
							select t
							select s
							activate
							return "iTerm2"
						end if
					end repeat
				end repeat
			end repeat
		end tell
	end if
	if application "Terminal" is running then
		tell application "Terminal"
			repeat with w in windows
				repeat with t in tabs of w
					if tty of t is theTTY then
						set selected of t to true
						set index of w to 1
						activate
						return "Terminal"
					end if
				end repeat
			end repeat
		end tell
	end if
	error "no Terminal or iTerm2 tab runs on " & theTTY
end run`
