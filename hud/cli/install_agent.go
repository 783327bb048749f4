package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/install"
)

// agentEnv is where the agents' files are for env.
func agentEnv(env *Env) install.Env {
	return install.Env{Home: env.Home, Getenv: env.Getenv}
}

// lookupSetup is the named agent's install: an error listing the agents
// hud installs into when it names none of them.
func lookupSetup(name string) (*install.Setup, error) {
	if a, ok := registry.Lookup(name); ok && name != "" {
		if s := a.Setup(); s != nil {
			return s, nil
		}
	}
	var names []string
	for _, a := range registry.All {
		if a.Setup() != nil {
			names = append(names, a.Name())
		}
	}
	return nil, &install.Error{Err: fmt.Errorf("unknown agent %q", name),
		Hint: "hud install knows Claude Code (no argument) and " + strings.Join(names, ", ")}
}

// agentUsage is the part of install's and uninstall's help about the
// other agents.
func agentUsage() string {
	s := "\nOther coding agents: 'hud install AGENT' wires hud-hook into that agent\n" +
		"instead (with the same care), 'hud uninstall AGENT' takes it out again:\n"
	for _, a := range registry.All {
		if setup := a.Setup(); setup != nil {
			s += fmt.Sprintf("  %-10s %s\n", a.Name(), setup.Product)
		}
	}
	return s
}

// splitAgent takes an agent named before the flags (`hud install codex
// --dry-run`) off args; Go's flag package stops at the first argument.
func splitAgent(args []string) (agent string, rest []string) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args[0], args[1:]
	}
	return "", args
}

// parseAgentArgs parses install's and uninstall's arguments: the flags,
// and at most one agent, named before or after them ("" for Claude Code).
func parseAgentArgs(env *Env, fs *flag.FlagSet, args []string) (agent string, err error) {
	agent, args = splitAgent(args)
	if err := parseFlags(env, fs, args); err != nil {
		return "", err
	}
	switch {
	case fs.NArg() == 1 && agent == "":
		return fs.Arg(0), nil
	case fs.NArg() > 0:
		return "", usagef("unexpected argument %q", fs.Arg(fs.NArg()-1))
	}
	return agent, nil
}

// checkAgentFlags refuses the flags that choose Claude's settings file
// beside an agent, which has files of its own.
func checkAgentFlags(sf settingsFlags, agent string) error {
	if sf.settings != "" || sf.project != "" || sf.configDir != "" {
		return usagef("--settings, --project and --config-dir choose Claude Code's settings; 'hud install %s' edits %s's own files", agent, agent)
	}
	return nil
}

// installAgent is `hud install AGENT`.
func installAgent(env *Env, name, hookFlag string, sf settingsFlags) error {
	s, err := lookupSetup(name)
	if err != nil {
		return installError(err)
	}
	if err := checkAgentFlags(sf, name); err != nil {
		return err
	}
	hookPath, err := locateHook(env, hookFlag)
	if err != nil {
		return err
	}
	results, err := s.Install(agentEnv(env), install.Options{HookPath: hookPath, DryRun: sf.dryRun, Now: env.Now})
	if err != nil {
		return installError(err)
	}
	return reportAgent(env, s, results, sf.dryRun, true)
}

// uninstallAgent is `hud uninstall AGENT`.
func uninstallAgent(env *Env, name string, sf settingsFlags) error {
	s, err := lookupSetup(name)
	if err != nil {
		return installError(err)
	}
	if err := checkAgentFlags(sf, name); err != nil {
		return err
	}
	results, err := s.Uninstall(agentEnv(env), install.Options{DryRun: sf.dryRun, Now: env.Now})
	if err != nil {
		return installError(err)
	}
	return reportAgent(env, s, results, sf.dryRun, false)
}

// reportAgent says what an agent's install or uninstall did to each file.
func reportAgent(env *Env, s *install.Setup, results []install.Result, dryRun, installing bool) error {
	changed := false
	for _, res := range results {
		switch {
		case dryRun && res.Changed:
			fmt.Fprint(env.Stdout, res.Diff)
		case !res.Changed:
		case res.Removed:
			fmt.Fprintf(env.Stdout, "Removed %s (nothing else was in it)\n", res.Path)
		case installing && res.Created:
			fmt.Fprintf(env.Stdout, "Created %s\n", res.Path)
		case installing:
			fmt.Fprintf(env.Stdout, "Updated %s\n", res.Path)
		default:
			fmt.Fprintf(env.Stdout, "Removed hud's entries from %s\n", res.Path)
		}
		if res.Changed && res.Backup != "" && !dryRun {
			fmt.Fprintf(env.Stdout, "  backup of the previous file: %s\n", res.Backup)
		}
		changed = changed || res.Changed
	}
	switch {
	case !changed && installing:
		fmt.Fprintf(env.Stdout, "hud-hook is already installed for %s; nothing changed.\n", s.Product)
	case !changed:
		fmt.Fprintf(env.Stdout, "No hud entries for %s; nothing changed.\n", s.Product)
	case dryRun:
		fmt.Fprintln(env.Stderr, "(dry run: nothing was written)")
	case installing && s.After != "":
		fmt.Fprintln(env.Stdout, s.After)
	}
	return nil
}
