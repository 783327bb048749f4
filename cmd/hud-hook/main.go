// Command hud-hook is the Claude Code hook of the HUD: Claude runs it on
// every hook event with the event as JSON on stdin, and it records the
// session's state in ~/.capacitor/sessions.json. It prints nothing on
// stdout and exits 0 whatever happens. See package hook.
//
// `hud-hook --version` prints its version: Claude never passes arguments,
// so the check costs the hook one comparison.
package main

import (
	"fmt"
	"os"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/hud/version"
)

func main() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Println(version.Get().Line("hud-hook"))
		return
	}
	env := hook.OSEnv()
	env.Sources = registry.Sources()
	os.Exit(hook.Main(os.Args[1:], env))
}
