// Command hud is the tray HUD for Claude Code sessions and its command line
// (status, install, doctor, ...). See 'hud help'.
package main

import (
	"os"

	"github.com/capacitor-hud/hud/hud/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.OSEnv(trayRunner)))
}
