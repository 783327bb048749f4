package cli

import (
	"context"
	"fmt"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/remote"
	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/view"
)

const remoteUsage = `remote add [--name NAME] [--command HUD] DESTINATION | remove NAME | list

Shows the Claude Code sessions of other machines beside the local ones, in
the tray, 'hud status' and 'hud watch': hud runs the machine's own
'hud status --watch --json' over your ssh (your ~/.ssh/config, keys and
agent). The machine needs hud and its hook installed; run 'ssh DESTINATION'
once to accept its host key, since hud's ssh cannot ask.

  add DESTINATION   add a machine (or change the one of that name) and
                    connect once to say what the tray will find;
                    DESTINATION is what you give ssh: devbox, me@devbox,
                    ssh://me@devbox:2222
  remove NAME       stop following a machine
  list              list the machines

HUD_SSH_COMMAND (or "ssh_command" in remotes.json) replaces ssh, as
GIT_SSH_COMMAND does for git: e.g. HUD_SSH_COMMAND='ssh -F ~/.ssh/work'.
`

// remoteOptions is what every verb of `hud remote` acts on: the list of
// machines at path, and the flags of add.
type remoteOptions struct {
	env     *Env
	path    string
	remotes config.Remotes
	name    string // --name
	command string // --command
	check   bool   // --check
}

// remoteVerbs are the verbs of `hud remote`, with their short names; each
// takes the arguments after its name.
var remoteVerbs = map[string]func(o *remoteOptions, args []string) error{
	"add":    remoteAdd,
	"remove": remoteRemove,
	"rm":     remoteRemove,
	"list":   remoteList,
	"ls":     remoteList,
}

// runRemote manages the list of remote machines.
func runRemote(env *Env, args []string) error {
	fs := newFlagSet(env, "remote", remoteUsage)
	o := &remoteOptions{env: env}
	fs.StringVar(&o.name, "name", "", "the `NAME` the machine's sessions are labelled with (default: its host)")
	fs.BoolVar(&o.check, "check", true, "with add: connect once and say what the tray will find (-check=false: don't)")
	fs.StringVar(&o.command, "command", "", "how hud is started on the machine, as its shell reads it, when it is not on the PATH\nof a non-interactive ssh (`HUD`: ~/.local/bin/hud)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	sub, rest := "list", fs.Args()
	if len(rest) > 0 {
		sub, rest = rest[0], rest[1:]
	}
	// Flags may come after the subcommand too: hud remote add --name x devbox.
	if err := fs.Parse(rest); err != nil {
		return usagef("%v", err)
	}
	o.path = remotesPath(env)
	var err error
	if o.remotes, err = config.LoadRemotes(o.path); err != nil {
		return withHint(err, "fix or remove "+o.path)
	}
	run, ok := remoteVerbs[sub]
	if !ok {
		return usagef("unknown subcommand %q (want add, remove or list)", sub)
	}
	return run(o, fs.Args())
}

// remoteAdd adds the machine args name (or changes the one of its name),
// as --name and --command say, and with --check connects once to say what
// the tray will find.
func remoteAdd(o *remoteOptions, args []string) error {
	if len(args) != 1 {
		return usagef("add takes one ssh destination")
	}
	r := config.Remote{Name: o.name, Destination: args[0], Command: o.command}
	if r.Name == "" {
		r.Name = config.RemoteName(r.Destination)
	}
	if err := r.Check(); err != nil {
		return usagef("%v", err)
	}
	rs, verb := o.remotes, "added"
	switch i := rs.Find(r.Name); {
	case i >= 0:
		rs.Remotes[i], verb = r, "changed"
	case len(rs.Remotes) >= config.MaxRemotes:
		return fmt.Errorf("hud follows at most %d machines; remove one first", config.MaxRemotes)
	default:
		rs.Remotes = append(rs.Remotes, r)
	}
	if err := config.SaveRemotes(o.path, rs); err != nil {
		return err
	}
	env := o.env
	fmt.Fprintf(env.Stdout, "%s %s (ssh %s, runs %q there)\n", verb, r.Name, r.Destination, remote.StreamCommand(r))
	if o.check {
		// What the tray will meet, said now, while the person is here to
		// fix it. The machine stays added either way: it may be off for
		// now.
		_, opts := followedRemotes(env)
		u := remote.Fetch(context.Background(), r, opts, 10*time.Second)
		if u.Remote.Up {
			fmt.Fprintf(env.Stdout, "%s: connected, %d live session(s)\n", r.Name, len(u.Sessions))
		} else {
			fmt.Fprintln(env.Stdout, u.Remote.Status(env.Now()))
		}
	}
	fmt.Fprintln(env.Stdout, "The tray, 'hud status' and 'hud watch' show its sessions.")
	return nil
}

// remoteRemove stops following the machine args name.
func remoteRemove(o *remoteOptions, args []string) error {
	if len(args) != 1 {
		return usagef("remove takes the name of one machine")
	}
	name, rs := args[0], o.remotes
	i := rs.Find(name)
	if i < 0 {
		return withHint(fmt.Errorf("no remote called %q", name), "'hud remote list' lists them")
	}
	rs.Remotes = append(rs.Remotes[:i], rs.Remotes[i+1:]...)
	if err := config.SaveRemotes(o.path, rs); err != nil {
		return err
	}
	fmt.Fprintf(o.env.Stdout, "removed %s\n", name)
	return nil
}

// remoteList prints the machines and the ssh command in use.
func remoteList(o *remoteOptions, args []string) error {
	if len(args) != 0 {
		return usagef("list takes no argument")
	}
	if len(o.remotes.Remotes) == 0 {
		fmt.Fprintln(o.env.Stdout, "no remote machines (add one with 'hud remote add DESTINATION')")
		return nil
	}
	tw := tabwriter.NewWriter(o.env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tDESTINATION\tCOMMAND")
	for _, r := range o.remotes.Remotes {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Destination, remote.StreamCommand(r))
	}
	if c := remote.SSHCommand(o.env.Getenv, o.remotes); c != "" {
		fmt.Fprintf(tw, "\nssh command: %s\n", c)
	}
	return tw.Flush()
}

// remotesPath is remotes.json beside the settings file.
func remotesPath(env *Env) string {
	return config.RemotesPath(config.DefaultPath(env.Home, env.Getenv))
}

// followedRemotes reads the list of machines and how to reach them; a list
// that cannot be read is said on stderr and taken as empty, so local
// sessions always show.
func followedRemotes(env *Env) ([]config.Remote, remote.Options) {
	rs, err := config.LoadRemotes(remotesPath(env))
	if err != nil {
		fmt.Fprintf(env.Stderr, "hud: %v\n", err)
	}
	ssh := remote.SSH{Command: remote.SSHCommand(env.Getenv, rs), ConnectTimeout: 10 * time.Second}
	return rs.Remotes, remote.Options{Dial: ssh.Dial, Now: env.Now}
}

// fetchRemotes takes one state of every machine at once, each within
// timeout, in the list's order.
func fetchRemotes(env *Env, timeout time.Duration) ([]view.Remote, []view.Session) {
	list, opts := followedRemotes(env)
	if len(list) == 0 {
		return nil, nil
	}
	updates := make([]remote.Update, len(list))
	var wg sync.WaitGroup
	for i, r := range list {
		wg.Go(func() { updates[i] = remote.Fetch(context.Background(), r, opts, timeout) })
	}
	wg.Wait()
	var (
		remotes  []view.Remote
		sessions []view.Session
	)
	for _, u := range updates {
		remotes = append(remotes, u.Remote)
		sessions = append(sessions, u.Sessions...)
	}
	return remotes, sessions
}

// remoteFeed is the remote machines as a loop follows them (remote.Set):
// their state, and a signal when it changed. The zero feed is none.
type remoteFeed struct {
	state   func() ([]view.Remote, []view.Session)
	changed <-chan struct{}
}

// addTo puts the machines' state and sessions into v.
func (f remoteFeed) addTo(v *status.View) {
	if f.state != nil {
		v.AddRemotes(f.state())
	}
}

// followRemotes follows every machine of the list until stop (or ctx
// ends); with none, the feed is the zero one.
func followRemotes(ctx context.Context, env *Env) (feed remoteFeed, stop func()) {
	list, opts := followedRemotes(env)
	if len(list) == 0 {
		return remoteFeed{}, func() {}
	}
	set := remote.NewSet(ctx, opts)
	set.Follow(list)
	return remoteFeed{state: set.State, changed: set.Changed()}, set.Stop
}
