package app

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/watch"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// TestRunwayWarnsOnceAndListsAccounts: the tray warns once when a
// session's context crosses the configured threshold, and not again on
// the next redraw; the account's usage shows under the sessions and in
// the tooltip.
func TestRunwayWarnsOnceAndListsAccounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := config.Default()
		cfg.Notifications.ContextAt = 80
		sender := &notify.Recorder{}
		n := NewNotifications(notify.NewTracker(cfg.Notifications), sender, t.Logf)
		defer n.Close()
		w := &world{}
		now := time.Now()
		w.put(record("s1", "/home/dev/api", store.StateWorking, 4242, now))
		setContext := func(tokens int) {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.snap.Contexts = map[string]resolver.Context{"s1": {Tokens: tokens, Window: 200_000}}
			w.snap.Accounts = []resolver.Account{{At: now, SevenDay: &resolver.RateLimit{UsedPercent: 40, ResetsAt: now.Add(48 * time.Hour)}}}
		}
		setContext(100_000)
		h := start(t, Options{Notifier: n, Runway: n.Runway(notify.NewRunway(config.Notifications{})),
			Config: func() config.Config { return cfg }}, w)
		defer h.stop(t)

		for _, tokens := range []int{170_000, 175_000} {
			setContext(tokens)
			h.changes <- watch.Change{Store: true}
			synctest.Wait()
		}
		var warned []string
		for _, msg := range sender.Sent() {
			if msg.Kind == notify.KindContext {
				warned = append(warned, msg.Title)
			}
		}
		if len(warned) != 1 || warned[0] != "api: context 85 %, Claude will compact soon" {
			t.Errorf("context warnings %q, want one at the configured 80 %%", warned)
		}
		h.ui.mu.Lock()
		defer h.ui.mu.Unlock()
		usage := "Usage ~/.claude: 5h unknown · week 40% (resets in 2d) · learnt now"
		if len(h.ui.menu.Section) == 0 || h.ui.menu.Section[0].Label != usage || !h.ui.menu.Section[0].Disabled ||
			!strings.Contains(h.ui.tooltip, usage) {
			t.Errorf("menu section %+v, tooltip %q", h.ui.menu.Section, h.ui.tooltip)
		}
	})
}
