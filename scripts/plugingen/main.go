// Command plugingen writes the Claude Code plugin's hooks file from the
// event list `hud install` uses (install.PluginHooks), so the plugin and
// `hud install` wire the same events the same way. Run by
// `go generate ./hud/install`; a test there fails when the committed file
// differs from what this writes.
package main

import (
	"fmt"
	"os"

	"github.com/capacitor-hud/hud/hud/install"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: plugingen <hooks.json>")
		os.Exit(2)
	}
	data, err := install.PluginHooks()
	if err == nil {
		err = os.WriteFile(os.Args[1], data, 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "plugingen: %v\n", err)
		os.Exit(1)
	}
}
