package hook

import (
	"cmp"
	"errors"
	"os"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/config/settings"
	"github.com/capacitor-hud/hud/internal/store"
)

// answerDialog offers a permission dialog or question to the tray, when
// answering is on and a tray listens, and says the person's choice to
// Claude as the PermissionRequest decision (on stdout, through
// Context.Say).
//
// Claude Code shows its dialog before it runs this hook and keeps it
// usable while the hook runs: whichever answer comes first, the person's
// key or this output, wins, and Claude ignores the other. So the wait
// holds nobody up; it is bounded all the same ([answer] wait), and ends
// at once when the tray ends the request or quits.
//
// With answering off or no tray, this costs one failed connect: the tray
// serves the socket only while answering is on.
func answerDialog(ctx *Context, log *debugLog, extend func(time.Duration)) {
	ev := ctx.Event
	if ctx.After == nil || ctx.After.State != store.StateWaiting {
		return
	}
	d := answer.Dialog{Session: ev.SessionID, Tool: ev.ToolName, Input: ev.ToolInput, Suggestions: ev.PermissionSuggestions,
		Project: cmp.Or(ctx.After.Project(), ev.CWD)}
	h, err := answer.Connect(ctx.Layout.Home)
	if err != nil {
		return // no tray listens: the terminal alone answers
	}
	defer h.Close()
	cfg := ctx.Config().Answer
	wait := min(cfg.Wait, settings.MaxAnswerWait)
	if !cfg.Enabled || wait <= 0 {
		return
	}
	req, err := answer.NewRequest(d, ctx.Now, os.Getpid())
	if err != nil {
		log.errorf(ev.SessionID, "answering: %v", err)
		return
	}
	if len(req.Choices) == 0 {
		return // a dialog only the terminal answers (a plan, several questions)
	}
	if extend != nil {
		extend(wait)
	}
	start := time.Now()
	choice, err := h.Offer(req, wait)
	switch {
	case errors.Is(err, answer.ErrEnded):
		log.eventf(ev.SessionID, "answering: request %s ended without an answer after %v (answered in the terminal, or the tray quit)", req.ID[:8], time.Since(start).Round(time.Millisecond))
		return
	case err != nil:
		log.errorf(ev.SessionID, "answering: request %s: %v", req.ID[:8], err)
		return
	}
	out, err := d.Output(choice)
	if err != nil {
		log.errorf(ev.SessionID, "answering: request %s: %v", req.ID[:8], err)
		return
	}
	log.eventf(ev.SessionID, "answering: request %s answered %q from the tray after %v", req.ID[:8], choice, time.Since(start).Round(time.Millisecond))
	ctx.Say(string(out))
}
