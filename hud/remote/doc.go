// Package remote shows the Claude Code sessions of other machines beside
// the local ones. For each machine the person added (`hud remote add`,
// config.Remotes) it runs that machine's own `hud status --watch --json`
// over the person's ssh (their config, keys and agent: no daemon, no open
// port), reads the stream's versioned JSON lines (docs/remote.md), and
// turns each into view.Sessions labelled with the machine's name, made
// plain text and bounded like local data: nothing a remote sends is
// trusted as terminal output, and no remote can flood a menu.
//
// Watch keeps one machine's stream up, retrying with a capped backoff, and
// reports each state to the caller's loop; Fetch takes one snapshot within
// a deadline for the one-shot `hud status`. Both take the ssh transport as
// a Dialer and a clock, so the core runs in tests without processes.
package remote
