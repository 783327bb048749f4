package doctor

import (
	"fmt"
	"strings"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/install"
)

// checkAgents checks each coding agent besides Claude Code that hud is
// installed for: its files as `hud install <agent>` left them, and
// whether the agent will run the hooks at all (Codex runs a hook only
// once the person has trusted it).
func checkAgents(env *Env) []Finding {
	ae := install.Env{Home: env.Layout.Home, Getenv: env.Getenv}
	var out []Finding
	for _, a := range registry.All {
		s := a.Setup()
		if s == nil || !s.Installed(ae) {
			continue
		}
		problems := s.Problems(ae)
		for _, p := range problems {
			out = append(out, fail("run 'hud install "+a.Name()+"'", "%s: %s", s.Product, p))
		}
		if s.Untrusted != nil {
			untrusted, err := s.Untrusted(ae)
			switch {
			case err != nil:
				out = append(out, warn("", "%s: cannot tell whether it trusts hud's hooks: %v", s.Product, err))
				continue
			case len(untrusted) > 0:
				out = append(out, fail(fmt.Sprintf("start %s and trust the hooks when it asks, or review them in /hooks", a.Name()),
					"%s has not trusted hud's hooks on %s, so it runs none of them", s.Product, strings.Join(untrusted, ", ")))
				continue
			}
		}
		if len(problems) == 0 {
			out = append(out, ok("%s: installed", s.Product))
		}
	}
	return out
}
