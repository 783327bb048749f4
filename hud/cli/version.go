package cli

import (
	"fmt"

	"github.com/capacitor-hud/hud/hud/version"
)

func runVersion(env *Env, args []string) error {
	fs := newFlagSet(env, "version", "version")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, version.Get())
	return nil
}

// isGlobalFlag reports whether a first argument starting with "-" is
// hud's own (help, version) rather than a flag of the default command.
func isGlobalFlag(arg string) bool {
	switch arg {
	case "-h", "--help", "--version", "-version":
		return true
	}
	return false
}
