package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/breaks"
)

const breakUsage = `break status | now | snooze [DURATION] | skip | pause DURATION|tomorrow | resume

Break reminders (Vibe Check): an eye break every 20 min, water every 30,
a full break every 50, shown by the tray. The same choices as its menu:

  status              the next break and when it comes
  now                 take a break now (shows the reminder and its tip)
  snooze [DURATION]   postpone reminders (default 10m)
  skip                drop the next reminder; the one after comes as usual
  pause DURATION      no reminders for a while ("1h"), or until "tomorrow"
  resume              end a pause or a snooze

Durations are Go durations: "90s", "10m", "1h30m". Intervals and quiet
hours are in the [breaks] table of the settings file.
`

// breakOptions is what every verb of `hud break` acts on.
type breakOptions struct {
	env   *Env
	sched *breaks.Scheduler
	now   time.Time
}

// breakVerbs are the verbs of `hud break`; each takes the arguments after
// its name.
var breakVerbs = map[string]func(o *breakOptions, args []string) error{
	"status": breakStatus,
	"now":    breakNow,
	"snooze": breakSnooze,
	"skip":   breakSkip,
	"pause":  breakPause,
	"resume": breakResume,
}

func runBreak(env *Env, args []string) error {
	fs := newFlagSet(env, "break", breakUsage)
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	args = fs.Args()
	if len(args) == 0 {
		return usagef("which one: status, now, snooze, skip, pause or resume?")
	}
	cfg := loadConfig(env)
	o := &breakOptions{env: env, now: env.Now()}
	o.sched = breaks.NewScheduler(env.Layout(), breaks.FromConfig(cfg.Breaks), func(format string, a ...any) {
		fmt.Fprintf(env.Stderr, "hud break: "+format+"\n", a...)
	})
	run, ok := breakVerbs[args[0]]
	if !ok {
		return usagef("unknown subcommand %q (status, now, snooze, skip, pause, resume)", args[0])
	}
	return run(o, args[1:])
}

// breakStatus shows the next break and when it comes.
func breakStatus(o *breakOptions, args []string) error {
	if err := argCount("status", args, 0, 0); err != nil {
		return err
	}
	printBreakStatus(o.env, o.sched, o.now)
	return nil
}

// breakNow starts a break at once and shows its reminder.
func breakNow(o *breakOptions, args []string) error {
	if err := argCount("now", args, 0, 0); err != nil {
		return err
	}
	r, err := o.sched.TakeBreakNow(o.now)
	if err != nil {
		return err
	}
	fmt.Fprintln(o.env.Stdout, r.String())
	return nil
}

// breakSnooze postpones the reminders, by 10 minutes unless args says.
func breakSnooze(o *breakOptions, args []string) error {
	if err := argCount("snooze", args, 0, 1); err != nil {
		return err
	}
	d := 10 * time.Minute
	if len(args) == 1 {
		var err error
		if d, err = parsePositiveDuration(args[0]); err != nil {
			return err
		}
	}
	if err := o.sched.Snooze(o.now, d); err != nil {
		return err
	}
	fmt.Fprintf(o.env.Stdout, "Break reminders snoozed until %s.\n", o.now.Add(d).Format("15:04"))
	return nil
}

// breakSkip drops the next reminder.
func breakSkip(o *breakOptions, args []string) error {
	if err := argCount("skip", args, 0, 0); err != nil {
		return err
	}
	kind, due, err := o.sched.Skip(o.now, breaks.Sessions{})
	if err != nil {
		return err
	}
	next := o.sched.Status(o.now, breaks.Sessions{})
	fmt.Fprintf(o.env.Stdout, "Skipped the %s due at %s. %s.\n", kind.Label(), due.Format("15:04"), next.MenuLine())
	return nil
}

// breakPause stops the reminders for a duration or until tomorrow.
func breakPause(o *breakOptions, args []string) error {
	if len(args) != 1 {
		return usagef("pause: say for how long (\"1h\") or \"tomorrow\"")
	}
	until := breaks.Tomorrow(o.now)
	if args[0] != "tomorrow" {
		d, err := parsePositiveDuration(args[0])
		if err != nil {
			return err
		}
		until = o.now.Add(d)
	}
	if err := o.sched.Pause(o.now, until); err != nil {
		return err
	}
	fmt.Fprintf(o.env.Stdout, "Break reminders paused %s.\n", pausedText(o.now, until))
	return nil
}

// breakResume ends a pause or a snooze.
func breakResume(o *breakOptions, args []string) error {
	if err := argCount("resume", args, 0, 0); err != nil {
		return err
	}
	if err := o.sched.Resume(o.now); err != nil {
		return err
	}
	fmt.Fprintf(o.env.Stdout, "Break reminders resumed. %s.\n", o.sched.Status(o.now, breaks.Sessions{}).MenuLine())
	return nil
}

// argCount is the usage error of a verb given fewer than min or more
// than max arguments.
func argCount(verb string, args []string, min, max int) error {
	if len(args) < min || len(args) > max {
		return usagef("%s: wrong number of arguments", verb)
	}
	return nil
}

func parsePositiveDuration(text string) (time.Duration, error) {
	d, err := time.ParseDuration(text)
	if err != nil || d <= 0 {
		return 0, usagef("%q is not a duration like 10m or 1h30m", text)
	}
	return d, nil
}

func pausedText(now, until time.Time) string {
	if until.Equal(breaks.Tomorrow(now)) {
		return "until tomorrow"
	}
	return "until " + until.Format("15:04")
}

// printBreakStatus shows the plan and each kind's next time. The terminal
// does not know what the sessions are doing, so it shows the plan as if
// none waited; the tray's menu holds the full picture.
func printBreakStatus(env *Env, sched *breaks.Scheduler, now time.Time) {
	st := sched.Status(now, breaks.Sessions{})
	fmt.Fprintln(env.Stdout, st.MenuLine())
	var parts []string
	for _, k := range []breaks.Kind{breaks.Micro, breaks.Hydration, breaks.Full} {
		parts = append(parts, fmt.Sprintf("%s %s", k.Label(), clockOrNow(now, st.DueAt[k])))
	}
	fmt.Fprintf(env.Stdout, "Due: %s\n", strings.Join(parts, " · "))
	if p := st.Pending; p != nil {
		label := p.Type + " break"
		if k, ok := breaks.ParseKind(p.Type); ok {
			label = k.Label()
		}
		fmt.Fprintf(env.Stdout, "Last reminder: %s at %s (checked on your next prompt)\n",
			label, p.FiredAt.Time().In(now.Location()).Format("15:04"))
	}
	if !st.Recorded {
		fmt.Fprintln(env.Stdout, "No activity recorded yet: timers start with your next Claude session.")
	} else {
		fmt.Fprintf(env.Stdout, "Reminders this session: %d\n", st.ReminderCount)
	}
}

func clockOrNow(now, t time.Time) string {
	if !t.After(now) {
		return "now"
	}
	return t.In(now.Location()).Format("15:04")
}
