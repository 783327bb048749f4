package breaks_test

import (
	"fmt"
	"os"
	"time"

	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// The tray's side: one Section, fed the live sessions; the time Update
// returns is when to call it again.
func ExampleSection() {
	home, _ := os.MkdirTemp("", "breaks-example")
	defer os.RemoveAll(home)
	sched := breaks.NewScheduler(paths.Layout{Home: home}, breaks.DefaultSettings(), nil)
	section := breaks.NewSection(sched, func(title, body string) { fmt.Println("notify:", title) }, nil)

	start := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	sched.SessionStarted(start) // the hook, on SessionStart

	working := []resolver.Session{{State: store.StateWorking}}
	waiting := []resolver.Session{{State: store.StateWaiting}}

	next := section.Update(start, working)
	fmt.Println("call again at", next.Format("15:04")) // the early window opens
	next = section.Update(next, waiting)               // a permission dialog
	fmt.Println("call again at", next.Format("15:04")) // the due time
	next = section.Update(next, waiting)
	fmt.Println("held until the sessions change:", next.IsZero())
	answered := start.Add(21 * time.Minute)
	section.Update(answered, working)
	rows, _ := section.Rows(answered)
	fmt.Println(rows[0].Label)
	// Output:
	// call again at 10:15
	// call again at 10:20
	// held until the sessions change: true
	// notify: Time for a 1m eye break
	// Next: water break in 9m
}
