package main

import (
	"fmt"
	"time"
)

// printHookTable prints the hook against the empty program, one row per
// event, both store sizes side by side.
func printHookTable(cases []*hookCase, placeName, mode string) {
	how := "under a stand-in claude, through /bin/sh -c, as Claude Code runs it"
	if mode == noClaude {
		how = "no Claude above (the worst case of finding it), exec'd directly"
	}
	fmt.Printf("\nstore on %s, %s\n\n", placeName, how)
	printSizeHeader("%4d: hook", "empty   ", "ratio")
	rowNames := append(eventNames(), "all events", "no input (start-up only)")
	for _, name := range rowNames {
		fmt.Printf("| %-24s |", name)
		for _, n := range hookStoreSizes {
			p, e := hookRow(cases, placeName, mode, n, name)
			fmt.Printf(" %10s | %8s | %4.2f× |", ms(p.p50), ms(e.p50), float64(p.p50)/float64(e.p50))
		}
		fmt.Println()
	}
}

// hookRow is one row of a hook table: the hook's timings and their
// baseline's, for the cases of one place, way and store size that belong
// to the row name.
func hookRow(cases []*hookCase, placeName, mode string, size int, name string) (prog, base summary) {
	var p, b []time.Duration
	for _, c := range cases {
		if c.place == placeName && c.mode == mode && c.size == size && c.is(name) {
			p, b = append(p, c.progTimes...), append(b, c.baseTimes...)
		}
	}
	return summarize(p), summarize(b)
}

// hookGuard is the most the hook's p50 may be, as a multiple of the empty
// program's, for each store size, on every event, started as Claude Code
// starts it. It is a guard, not a target: below it the simpler code wins,
// and only a step that saves at least 5 % of the events it touches is
// worth code of its own (docs/performance.md).
var hookGuard = map[int]float64{10: 2.0, 200: 2.5}

// printGuard checks every event, under a stand-in Claude with the store on
// placeName, against hookGuard, and prints the worst ratio of each store
// size with PASS or FAIL. It reports whether every size passed.
func printGuard(cases []*hookCase, placeName string) bool {
	fmt.Printf("\nguard: every event within the limit of the empty program, store on %s, under a stand-in claude\n\n", placeName)
	pass := true
	for _, n := range hookStoreSizes {
		limit, ok := hookGuard[n]
		if !ok {
			continue
		}
		worst, worstName := 0.0, ""
		for _, name := range eventNames() {
			p, e := hookRow(cases, placeName, underClaude, n, name)
			if r := float64(p.p50) / float64(e.p50); r > worst {
				worst, worstName = r, name
			}
		}
		verdict := "PASS"
		if worst > limit {
			verdict, pass = "FAIL", false
		}
		fmt.Printf("%4d sessions: worst %4.2f× (%s), limit %.1f×: %s\n", n, worst, worstName, limit, verdict)
	}
	return pass
}

// printCompareTable prints this hook beside the compared build other: this
// hook's figures are its copy's (self), timed the way other is, both
// against the empty program of their own rounds.
func printCompareTable(cases []*hookCase, placeName string, self, other comparedBuild) {
	fmt.Printf("\nthis hook beside %s, store on %s, under a stand-in claude through /bin/sh -c,\n"+
		"each a copy in homes of its own, timed as often\n\n", other.name, placeName)
	fmt.Printf("| %-24s | %-8s | %10s | %10s | %7s | %7s | %8s | %7s |\n", "event", "sessions", "compared", "this", "empty", "ratio", "saved", "saved %")
	fmt.Printf("|%s|%s|%s|%s|%s|%s|%s|%s|\n", dashes(26), dashes(10), dashes(12), dashes(12), dashes(9), dashes(9), dashes(10), dashes(9))
	for _, name := range append(eventNames(), "all events", "no input (start-up only)") {
		for _, n := range hookStoreSizes {
			var this, that, base []time.Duration
			for _, c := range cases {
				if c.place != placeName || c.size != n || !c.is(name) {
					continue
				}
				if c.mode != compared {
					continue
				}
				switch c.prog {
				case self.bin:
					this = append(this, c.progTimes...)
				case other.bin:
					that, base = append(that, c.progTimes...), append(base, c.baseTimes...)
				}
			}
			h, o, e := summarize(this), summarize(that), summarize(base)
			fmt.Printf("| %-24s | %8d | %10s | %10s | %7s | %4.2f× | %8s | %6.1f%% |\n", name, n, ms(o.p50), ms(h.p50),
				ms(e.p50), float64(h.p50)/float64(o.p50), ms(o.p50-h.p50), 100*float64(o.p50-h.p50)/float64(o.p50))
		}
	}
}

// is reports whether the case belongs to the table row name.
func (c *hookCase) is(name string) bool {
	switch name {
	case "all events":
		return c.event != ""
	case "no input (start-up only)":
		return c.event == ""
	}
	return c.event == name
}

// printShellTable prints the shell way against the hook, both started the
// same way (shellMode and hookMode: under a stand-in Claude, or exec'd
// directly): per event and all events, the hook's figures those of its
// own table.
func printShellTable(cases []*hookCase, placeName, shellMode, hookMode string) {
	how := "both under a stand-in claude through /bin/sh -c"
	if shellMode == shellDirect {
		how = "both exec'd directly, no Claude above"
	}
	fmt.Printf("\nthe shell way (bash + jq: scripts/bench/shellhook.sh) against the hook, store on %s,\n%s\n\n", placeName, how)
	printSizeHeader("%4d: bash+jq", "hook    ", "ratio ")
	for _, name := range append(eventNames(), "all events") {
		fmt.Printf("| %-24s |", name)
		for _, n := range hookStoreSizes {
			var shell, hook []time.Duration
			for _, c := range cases {
				if c.place != placeName || c.size != n || c.event == "" || name != "all events" && c.event != name {
					continue
				}
				switch c.mode {
				case shellMode:
					shell = append(shell, c.progTimes...)
				case hookMode:
					hook = append(hook, c.progTimes...)
				}
			}
			s, h := summarize(shell), summarize(hook)
			fmt.Printf(" %13s | %8s | %5.1f× |", ms(s.p50), ms(h.p50), float64(s.p50)/float64(h.p50))
		}
		fmt.Println()
	}
}

// printSizeHeader prints the header of a table with a group of columns per
// store size; the first title holds the size's %4d.
func printSizeHeader(titles ...string) {
	fmt.Printf("| %-24s |", "event")
	for _, n := range hookStoreSizes {
		fmt.Printf(" "+titles[0]+" |", n)
		for _, t := range titles[1:] {
			fmt.Printf(" %s |", t)
		}
	}
	fmt.Printf("\n|%s|", dashes(26))
	for range hookStoreSizes {
		fmt.Printf("%s|", dashes(len(fmt.Sprintf(titles[0], 0))+2))
		for _, t := range titles[1:] {
			fmt.Printf("%s|", dashes(len(t)+2))
		}
	}
	fmt.Println()
}
