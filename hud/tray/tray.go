package tray

import (
	"sync"

	"fyne.io/systray"

	"github.com/capacitor-hud/hud/hud/app"
)

// Run shows the tray icon and runs loop with the tray's UI in a goroutine
// of its own; when loop returns, the tray goes away and Run returns. It
// must be called from the main goroutine (systray locks the OS thread for
// Cocoa). On Linux it first checks for a session bus and returns an error
// wrapping app.ErrNoSessionBus when there is none: every systray call
// would silently do nothing.
func Run(loop func(ui app.UI)) error {
	if err := checkSessionBus(); err != nil {
		return err
	}
	// The item's Id is taken from the title when the tray registers: set
	// it before Run so hosts see a stable "hud".
	systray.SetTitle("hud")
	u := &ui{events: make(chan app.Event, 32)}
	systray.Run(func() {
		// onReady must return promptly: in v1.12.2 the Linux menu handler
		// (GetLayout) waits for it, so a loop run here would leave the
		// host's first menu request hanging and the menu empty. Build the
		// pool here, run the loop elsewhere.
		u.build()
		go watchTrayHost(u.send)
		go func() {
			defer systray.Quit()
			waitExported()
			loop(u)
		}()
	}, nil)
	return nil
}

// ui implements app.UI over systray.
type ui struct {
	events chan app.Event

	mu       sync.Mutex // guards the items' shown state, read by click forwarders
	status   *item
	hooks    *item
	sessions []*item
	more     *item
	section  []*item
}

// item is one pooled menu item and what it shows now, so that only real
// changes reach systray (each one is a D-Bus signal the panel acts on).
type item struct {
	mi       *systray.MenuItem
	key      string
	label    string
	tooltip  string
	visible  bool
	disabled bool
}

func (u *ui) build() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.status = u.add(false)
	u.hooks = u.add(true)
	for range app.SessionRows {
		u.sessions = append(u.sessions, u.add(true))
	}
	u.more = u.add(false)
	systray.AddSeparator()
	for range app.SectionRows {
		u.section = append(u.section, u.add(true))
	}
	systray.AddSeparator()
	debugLog := u.add(true)
	debugLog.set(app.Row{Key: app.KeyDebugLog, Label: "Open debug log", Tooltip: "The hook's log of every Claude Code event"}, true)
	quit := u.add(true)
	quit.set(app.Row{Key: app.KeyQuit, Label: "Quit", Tooltip: "Quit hud (the hooks keep recording)"}, true)
	u.hooks.key = app.KeyInstallHooks
	go u.forwardMenuOpened()
}

// add creates a hidden item and a goroutine that forwards its clicks.
// ClickedCh is unbuffered and systray drops a click nobody receives, so
// every item has a receiver at all times.
func (u *ui) add(clickable bool) *item {
	it := &item{mi: systray.AddMenuItem("", "")}
	it.mi.Hide()
	if !clickable {
		it.mi.Disable()
		it.disabled = true
		return it
	}
	go func() {
		for range it.mi.ClickedCh {
			u.mu.Lock()
			key, visible := it.key, it.visible
			u.mu.Unlock()
			if visible && key != "" {
				u.send(app.Event{Kind: app.Clicked, Key: key})
			}
		}
	}()
	return it
}

func (u *ui) forwardMenuOpened() {
	for range systray.TrayOpenedCh {
		u.send(app.Event{Kind: app.MenuOpened})
	}
}

// send delivers ev to the loop without ever blocking systray's D-Bus
// handlers: a loop that is that far behind is better off without it.
func (u *ui) send(ev app.Event) {
	select {
	case u.events <- ev:
	default:
	}
}

// set shows row on the item (visible true) or hides it.
func (it *item) set(row app.Row, visible bool) {
	it.key = row.Key
	if !visible {
		if it.visible {
			it.mi.Hide()
			it.visible = false
		}
		return
	}
	if row.Label != it.label {
		it.mi.SetTitle(menuLabel(row.Label))
		it.label = row.Label
	}
	if row.Tooltip != it.tooltip {
		it.mi.SetTooltip(row.Tooltip)
		it.tooltip = row.Tooltip
	}
	if row.Disabled != it.disabled {
		if row.Disabled {
			it.mi.Disable()
		} else {
			it.mi.Enable()
		}
		it.disabled = row.Disabled
	}
	if !it.visible {
		it.mi.Show()
		it.visible = true
	}
}

// SetMenu implements app.UI.
func (u *ui) SetMenu(m app.Menu) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.status.set(app.Row{Label: m.Status, Disabled: true}, m.Status != "")
	u.hooks.set(app.Row{Key: app.KeyInstallHooks, Label: m.Hooks, Tooltip: "Adds hud-hook to ~/.claude/settings.json (hud install)"}, m.Hooks != "")
	fill(u.sessions, m.Sessions)
	u.more.set(app.Row{Label: m.More, Disabled: true}, m.More != "")
	fill(u.section, m.Section)
}

// fill shows rows on the first items of pool and hides the rest.
func fill(pool []*item, rows []app.Row) {
	for i, it := range pool {
		if i < len(rows) {
			it.set(rows[i], true)
		} else {
			it.set(app.Row{}, false)
		}
	}
}

// SetIcon implements app.UI. On Linux systray uses png; on macOS the
// template, which the menu bar tints for light and dark mode.
func (u *ui) SetIcon(png, template []byte) {
	if template == nil {
		template = png
	}
	systray.SetTemplateIcon(template, png)
}

// SetTitle implements app.UI.
func (u *ui) SetTitle(title string) { setTitle(title) }

// SetTooltip implements app.UI.
func (u *ui) SetTooltip(tooltip string) { systray.SetTooltip(tooltip) }

// Events implements app.UI.
func (u *ui) Events() <-chan app.Event { return u.events }

// Quit implements app.UI.
func (u *ui) Quit() { systray.Quit() }
