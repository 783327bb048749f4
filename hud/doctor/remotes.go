package doctor

import (
	"fmt"
	"strings"
)

// checkRemotes says of each remote machine (`hud remote add`) whether its
// stream answered, and what to do when not. A machine that cannot be
// reached is only worth knowing: it may be off, and local sessions work.
func checkRemotes(env *Env) []Finding {
	var out []Finding
	for _, r := range env.Remotes {
		switch {
		case r.Up:
			n := 0
			for _, s := range env.RemoteSessions {
				if s.Host == r.Host {
					n++
				}
			}
			out = append(out, Finding{Severity: OK, Message: fmt.Sprintf("%s: connected, %d live session(s)", r.Host, n)})
		case r.Problem != "":
			// "what is wrong — what to do": the second half is the fix.
			msg, fix, _ := strings.Cut(r.Problem, " — ")
			out = append(out, Finding{Severity: Warn, Message: r.Host + ": " + msg, Fix: fix})
		default:
			msg := r.Host + ": unreachable"
			if r.Detail != "" {
				msg += " (" + r.Detail + ")"
			}
			out = append(out, Finding{Severity: Warn, Message: msg,
				Fix: "ssh to it once yourself ('hud remote list' shows its destination): hud's ssh runs with BatchMode=yes, so it cannot ask for a password or accept a host key"})
		}
	}
	return out
}
