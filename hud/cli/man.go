package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/resolver"
)

// ManPage writes the manual page hud(1), in roff, for the packages. Its
// COMMANDS are what `hud help` lists, each with the usage its --help
// prints, so the manual says exactly what the program does. date is the
// release's (the commit's time, for a reproducible page).
func ManPage(w io.Writer, version string, date time.Time) error {
	var b strings.Builder
	manHead(&b, "hud", "what your Claude Code sessions are doing, in the system tray", version, date,
		".B hud\n[\\fIcommand\\fR] [\\fIflags\\fR]\n",
		"hud shows in one tray icon (the menu bar on macOS) whether any Claude Code session "+
			"is waiting for you, working, compacting or ready, lists every session in its menu, "+
			"notifies you and reminds you to take breaks. Claude Code runs hud-hook(1) on every "+
			"hook event; hud only reads what it recorded. Without a command, hud starts the tray.",
		"Getting started: 'hud install' wires the hook into Claude Code (or install the Claude Code "+
			"plugin: 'claude plugin install hud@hud'), 'hud' starts the tray, 'hud autostart on' starts "+
			"it at login, 'hud doctor' says what is wrong when nothing shows.")
	b.WriteString(".SH COMMANDS\n")
	for _, c := range commands {
		var usage bytes.Buffer
		env := &Env{Stdout: &usage, Stderr: io.Discard, Home: "~", Getenv: func(string) string { return "" }, Now: time.Now}
		Main([]string{c.name, "--help"}, env)
		summary := strings.ToUpper(c.summary[:1]) + c.summary[1:] + "."
		fmt.Fprintf(&b, ".SS %s\n%s\n.PP\n.nf\n%s.fi\n", roffText(c.name), roffText(summary), roffLines(usage.String()))
	}
	b.WriteString(".SH FILES\n" + roffText(
		"~/.capacitor/sessions.json (the sessions, written by hud-hook), ~/.capacitor/ledger/ "+
			"(what each session did, a file per day: 'hud history', 'hud away'), ~/.config/hud/config.toml "+
			"(every setting, with comments), ~/.claude/hud-hook-debug.log (one line per hook event). "+
			"All of them are described in docs/state-files.md of the source.") + "\n")
	b.WriteString(".SH SEE ALSO\nhud-hook(1), claude(1)\n.PP\nhttps://github.com/capacitor-hud/hud\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// HookManPage writes hud-hook(1).
func HookManPage(w io.Writer, version string, date time.Time) error {
	var b strings.Builder
	manHead(&b, "hud-hook", "the Claude Code hook of hud", version, date,
		".B hud-hook\n[\\fIagent\\fR [\\fIevent\\fR]] < \\fIevent.json\\fR\n.br\n.B hud-hook \\-\\-version\n",
		"Claude Code runs hud-hook on every hook event, with the event as JSON on standard input. "+
			"It records the session's state in ~/.capacitor/sessions.json for hud(1), keeps a lock "+
			"directory in ~/.claude/sessions/ while the Claude Code process lives (a detached helper "+
			"of its own), prints nothing (save what an agent requires, or the person's answer to a dialog "+
			"when 'hud answer on') and exits 0 whatever happens; problems go to "+
			"~/.claude/hud-hook-debug.log. It is not meant to be run by hand. "+
			"The other coding agents run it with their name first ("+otherAgents()+"; "+
			"Copilot CLI with the event's name too, which its payloads lack), as 'hud install <agent>' wires it.",
		"'hud install' wires it into ~/.claude/settings.json and 'hud uninstall' takes it out; "+
			"the Claude Code plugin (hud@hud) wires it without touching that file.")
	b.WriteString(".SH SEE ALSO\nhud(1)\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// otherAgents names the coding agents besides Claude Code, as hud-hook
// takes them.
func otherAgents() string {
	var names []string
	for _, a := range registry.All {
		if a.Name() != resolver.AgentClaude {
			names = append(names, a.Name())
		}
	}
	return strings.Join(names, ", ")
}

// manHead writes a page's title line, its NAME, its SYNOPSIS (roff as
// given) and its DESCRIPTION, one paragraph each; date is the release's,
// for a reproducible page.
func manHead(b *strings.Builder, name, what, version string, date time.Time, synopsis string, description ...string) {
	fmt.Fprintf(b, ".TH %s 1 %q %q \"User Commands\"\n", strings.ToUpper(name), date.UTC().Format("2006-01-02"), "hud "+version)
	fmt.Fprintf(b, ".SH NAME\n%s \\- %s\n", name, what)
	b.WriteString(".SH SYNOPSIS\n" + synopsis)
	b.WriteString(".SH DESCRIPTION\n")
	for i, p := range description {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		b.WriteString(roffText(p) + "\n")
	}
}

// roffText escapes running text: backslashes, a leading . or ' that roff
// would take for a request, and every character outside ASCII (the
// doctor's ✓ and ✗), which roff reads only as a \[uXXXX] escape.
func roffText(s string) string {
	var b strings.Builder
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		b.WriteString(`\&`)
	}
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r > unicode.MaxASCII:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// roffLines escapes preformatted text line by line.
func roffLines(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			b.WriteString(roffText(line))
		}
	}
	return b.String()
}
