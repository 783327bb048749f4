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

func runBreak(env *Env, args []string) error {
	fs := newFlagSet(env, "break", breakUsage)
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	args = fs.Args()
	if len(args) == 0 {
		return usagef("which one: status, now, snooze, skip, pause or resume?")
	}
	sub, rest := args[0], args[1:]
	cfg := loadConfig(env)
	sched := breaks.NewScheduler(env.Layout(), breaks.FromConfig(cfg.Breaks), func(format string, a ...any) {
		fmt.Fprintf(env.Stderr, "hud break: "+format+"\n", a...)
	})
	now := env.Now()
	wantArgs := func(min, max int) error {
		if len(rest) < min || len(rest) > max {
			return usagef("%s: wrong number of arguments", sub)
		}
		return nil
	}
	switch sub {
	case "status":
		if err := wantArgs(0, 0); err != nil {
			return err
		}
		printBreakStatus(env, sched, now)
		return nil
	case "now":
		if err := wantArgs(0, 0); err != nil {
			return err
		}
		r, err := sched.TakeBreakNow(now)
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, r.String())
		return nil
	case "snooze":
		if err := wantArgs(0, 1); err != nil {
			return err
		}
		d := 10 * time.Minute
		if len(rest) == 1 {
			var err error
			if d, err = parsePositiveDuration(rest[0]); err != nil {
				return err
			}
		}
		if err := sched.Snooze(now, d); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "Break reminders snoozed until %s.\n", now.Add(d).Format("15:04"))
		return nil
	case "skip":
		if err := wantArgs(0, 0); err != nil {
			return err
		}
		kind, due, err := sched.Skip(now, breaks.Sessions{})
		if err != nil {
			return err
		}
		next := sched.Status(now, breaks.Sessions{})
		fmt.Fprintf(env.Stdout, "Skipped the %s due at %s. %s.\n", kind.Label(), due.Format("15:04"), next.MenuLine())
		return nil
	case "pause":
		if err := wantArgs(1, 1); err != nil {
			return usagef("pause: say for how long (\"1h\") or \"tomorrow\"")
		}
		until := breaks.Tomorrow(now)
		if rest[0] != "tomorrow" {
			d, err := parsePositiveDuration(rest[0])
			if err != nil {
				return err
			}
			until = now.Add(d)
		}
		if err := sched.Pause(now, until); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "Break reminders paused %s.\n", pausedText(now, until))
		return nil
	case "resume":
		if err := wantArgs(0, 0); err != nil {
			return err
		}
		if err := sched.Resume(now); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "Break reminders resumed. %s.\n", sched.Status(now, breaks.Sessions{}).MenuLine())
		return nil
	}
	return usagef("unknown subcommand %q (status, now, snooze, skip, pause, resume)", sub)
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
