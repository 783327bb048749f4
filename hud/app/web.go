package app

import (
	"bytes"
	"context"
	"errors"
	"net"
	"slices"
	"syscall"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/history"
	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/hud/present"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/hud/web"
)

// Page is the loop's side of the page (hud/web): each drawing is published
// to it; its clicks come back on Options.PageClicks, for the loop to act on
// as on a menu click.
type Page interface {
	Publish(web.Snapshot)
}

// webActions are the page's actions, through the tray's own ways.
type webActions struct {
	answers *Answers
	clicks  chan string
}

func (w webActions) Answer(id, digest, choice string) (answer.Request, error) {
	if w.answers == nil {
		return answer.Request{}, answer.ErrStale
	}
	return w.answers.AnswerBy(answer.Reply{ID: id, Digest: digest, Choice: choice}, answer.ByWeb)
}

// Click hands key to the loop; a loop too busy to take it drops it (the
// page says "Done." and redraws as things stand).
func (w webActions) Click(key string) {
	select {
	case w.clicks <- key:
	default:
	}
}

// publish hands the page what the menu shows now: the sessions in the
// menu's order with their dialogs, the section's rows, the usage limits
// and the day's line.
func (a *App) publish(now time.Time, views []view.Session, picture present.View, section []Row, today string) {
	if a.opts.Page == nil {
		return
	}
	sorted := slices.Clone(views)
	present.ByAttention(sorted)
	snap := web.Snapshot{Summary: present.SummaryLine(views), Status: picture.Status, Sessions: web.Cards(sorted, now),
		Accounts: picture.Accounts, Today: today, Timeline: today != ""}
	for _, r := range section {
		act := web.Action{Label: r.Label}
		if !r.Disabled {
			act.Key = r.Key
		}
		snap.Section = append(snap.Section, act)
	}
	a.opts.Page.Publish(snap)
}

// serve starts the page for the tray when s.Serve says so, until ctx ends.
// The page answers through answers and clicks the menu through the
// returned channel.
func serve(ctx context.Context, s Setup, cfg web.Config, answers *Answers) (*web.Server, <-chan string, error) {
	clicks := make(chan string, 8)
	srv, err := web.New(cfg, s.Layout.WebDir(), webActions{answers, clicks}, s.Logf)
	if err != nil {
		return nil, nil, err
	}
	srv.Timeline = func() ([]byte, error) { return todaySVG(s.Layout.LedgerDir(), s.clock()()) }
	ready := make(chan error, 1)
	go func() {
		err := srv.Serve(ctx, func(addr net.Addr) {
			s.Logf("serving the page on %s", addr)
			ready <- web.WriteServerFile(s.Layout.WebDir(), cfg, addr)
		})
		if err != nil {
			s.Logf("the page: %v", err)
			ready <- err
		}
	}()
	if err := <-ready; err != nil {
		return nil, nil, err
	}
	return srv, clicks, nil
}

// todaySVG is today's timeline from the ledger, as hud history --svg draws
// it.
func todaySVG(dir string, now time.Time) ([]byte, error) {
	from := startOfDay(now)
	entries, _, err := ledger.ReadFor(dir, from, now)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = history.SVG(&b, ledger.Fold(entries, from, now), now)
	return b.Bytes(), err
}

// pageHint says what to do when the page cannot be served.
func pageHint(err error) string {
	switch {
	case errors.Is(err, web.ErrPlaintext):
		return "serve it over TLS (--cert and --key, [serve] cert and key), keep it on the loopback and reach it through tailscale serve or an ssh tunnel (docs/web.md), or allow it with --plaintext-beyond-loopback"
	case errors.Is(err, syscall.EADDRINUSE):
		return "another program listens there: choose another address (--listen, [serve] listen)"
	}
	return "see docs/web.md"
}
