// Command hud-hook is the Claude Code hook of the HUD: Claude runs it on
// every hook event with the event as JSON on stdin, and it records the
// session's state in ~/.capacitor/sessions.json. It prints nothing on
// stdout and exits 0 whatever happens. See package hook.
package main

import (
	"os"

	"github.com/capacitor-hud/hud/hud/hook"
)

func main() {
	os.Exit(hook.Main(os.Args[1:], hook.OSEnv()))
}
