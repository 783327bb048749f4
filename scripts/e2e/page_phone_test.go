package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"
)

// phone is a headless chromium showing the page as a phone does: an
// iPhone 13's screen (390×844 CSS pixels at 3×), its user agent, touch.
type phone struct {
	t   *testing.T
	ctx context.Context // the tab's

	mu      sync.Mutex
	console []consoleLine // errors the page logged or threw
}

// consoleLine is an error the page logged or threw; bad, unless it is a
// failed load (a refused answer's 409, the unpaired page's 401, the
// favicon the page has none of).
type consoleLine struct {
	text string
	bad  bool
}

// newPhone starts chromium (headless, no sandbox: the suite may run as
// root; no GPU) with a tab emulating the phone; it ends with the test.
func newPhone(t *testing.T, chromium string) *phone {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		// The machine's HOME stays untouched (chromium keeps a key store there).
		chromedp.Env("HOME="+t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	p := &phone{t: t, ctx: ctx}
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		if t.Failed() {
			t.Logf("the page's console:\n%s", p.consoleText())
		}
	})
	started := make(chan error, 1)
	go func() {
		// The first action starts the browser, on the tab's own context: a
		// deadline here would end the browser with it.
		started <- chromedp.Do(ctx, chromedp.Emulate(device.IPhone13))
	}()
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("starting %s headless: %v", chromium, err)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not start within 60 s", chromium)
	}
	p.listen()
	return p
}

// listen collects what the page logs as an error or throws: the page must
// run without either (a script or style the Content-Security-Policy
// refuses shows here).
func (p *phone) listen() {
	err := chromedp.Listen(p.ctx, func(ev any) {
		var line string
		bad := true
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			line = "exception: " + ev.ExceptionDetails.Text
			if e := ev.ExceptionDetails.Exception; e != nil {
				line += " " + e.Description
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.ConsoleAPICalledTypeError {
				return
			}
			line = "console.error:"
			for _, a := range ev.Args {
				line += " " + string(a.Value) + a.Description
			}
		case *cdplog.EventEntryAdded:
			line = fmt.Sprintf("%s %s: %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			bad = ev.Entry.Source != cdplog.EntrySourceNetwork
		default:
			return
		}
		p.mu.Lock()
		p.console = append(p.console, consoleLine{time.Now().Format("15:04:05.000 ") + line, bad})
		p.mu.Unlock()
	})
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		p.t.Fatal(err)
	}
}

func (p *phone) consoleText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.console) == 0 {
		return "(nothing)"
	}
	var lines []string
	for _, l := range p.console {
		lines = append(lines, l.text)
	}
	return strings.Join(lines, "\n")
}

// checkConsole fails the test when the page threw, logged an error, or
// the browser refused something of it.
func (p *phone) checkConsole() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.console {
		if l.bad {
			p.t.Errorf("the page's console: %s", l.text)
		}
	}
}

// run runs actions on the tab, at most 10 s.
func (p *phone) run(actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

// open navigates to url as a person opening a link does.
func (p *phone) open(url string) {
	p.t.Helper()
	if err := p.run(chromedp.Navigate(url)); err != nil {
		p.t.Fatalf("opening %s: %v", url, err)
	}
}

// pageView is what the page shows of one session, read from its DOM.
type pageView struct {
	Path  string `json:"path"`
	Hash  string `json:"hash"`
	Title string `json:"title"`
	Note  string `json:"note"` // #note's text while shown
	// Found: the session's card (section.card#s-<id>) is on the page.
	Found   bool         `json:"found"`
	Classes string       `json:"classes"`
	Name    string       `json:"name"`
	State   string       `json:"state"`
	For     string       `json:"for"`
	Dialog  bool         `json:"dialog"`
	Subject string       `json:"subject"`
	Choices []pageChoice `json:"choices"`
	Live    string       `json:"live"` // #live's HTML, for failure reports
}

type pageChoice struct {
	ID       string `json:"id"`
	Digest   string `json:"digest"`
	Choice   string `json:"choice"`
	Label    string `json:"label"`
	Deny     bool   `json:"deny"`
	Disabled bool   `json:"disabled"`
	HTML     string `json:"html"`
}

// waiting: the card shows the session waiting.
func (v pageView) waiting() bool {
	return v.Found && strings.Contains(" "+v.Classes+" ", " waiting ")
}

func (v pageView) String() string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// viewJS reads the page as pageView, for the card of session %s.
const viewJS = `(() => {
  const text = (root, sel) => { const e = root.querySelector(sel); return e ? e.textContent.trim() : ""; };
  const note = document.getElementById("note");
  const live = document.getElementById("live");
  const card = document.getElementById("s-" + %s);
  const v = { path: location.pathname, hash: location.hash, title: document.title,
    note: note && !note.hidden ? note.textContent.trim() : "", found: !!card, choices: [],
    live: live ? live.innerHTML : document.body.innerHTML };
  if (!card) return v;
  v.classes = card.className; v.name = text(card, ".name"); v.state = text(card, ".state"); v.for = text(card, ".for");
  const d = card.querySelector(".dialog");
  v.dialog = !!d;
  if (d) {
    v.subject = text(d, "pre.subject");
    v.choices = Array.from(d.querySelectorAll("button.choice")).map(b => ({ id: b.dataset.id, digest: b.dataset.digest,
      choice: b.dataset.choice, label: b.textContent.trim(), deny: b.classList.contains("deny"), disabled: b.disabled, html: b.outerHTML }));
  }
  return v;
})()`

// view reads what the page shows of session id.
func (p *phone) view(id string) (pageView, error) {
	q, _ := json.Marshal(id)
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[pageView](fmt.Sprintf(viewJS, q)))
}

// await reads the page every 20 ms until ok says it shows what is
// wanted or limit has passed since from, and returns the last view and
// how long after from it was seen (counted to the end of the read that
// saw it: an upper bound).
func (p *phone) await(id string, from time.Time, limit time.Duration, ok func(pageView) bool) (pageView, time.Duration, bool) {
	var v pageView
	var err error
	for {
		v, err = p.view(id)
		wait := time.Since(from)
		if err == nil && ok(v) && wait <= limit {
			return v, wait, true
		}
		if wait > limit {
			if err != nil {
				v.Live = "(the page could not be read: " + err.Error() + ")"
			}
			return v, wait, false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// must waits as await does, within limit of now, and fails the test
// when the page does not show what is wanted.
func (p *phone) must(what, id string, limit time.Duration, ok func(pageView) bool) pageView {
	p.t.Helper()
	v, _, shown := p.await(id, time.Now(), limit, ok)
	if !shown {
		p.t.Fatalf("the page did not show %s within %v; it shows:\n%s", what, limit, v)
	}
	return v
}

// tap taps the element sel as a finger does (touch events, which the
// browser turns into a click) and returns the moment of the touch. It
// finds the element and scrolls it into view first, and checks that
// nothing covers it.
func (p *phone) tap(sel string) time.Time {
	p.t.Helper()
	q, _ := json.Marshal(sel)
	type point struct {
		X   float64 `json:"x"`
		Y   float64 `json:"y"`
		Err string  `json:"err"`
	}
	pt := eval[point](p, fmt.Sprintf(`(() => {
  const e = document.querySelector(%s);
  if (!e) return { err: "no such element" };
  e.scrollIntoView({ block: "center" });
  const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = document.elementFromPoint(x, y);
  if (!top || !e.contains(top)) return { err: "covered by " + (top ? top.outerHTML : "nothing") };
  return { x: x, y: y };
})()`, q))
	if pt.Err != "" {
		p.t.Fatalf("tapping %s: %s", sel, pt.Err)
	}
	at := time.Now()
	if err := p.run(chromedp.TapXY(pt.X, pt.Y)); err != nil {
		p.t.Fatalf("tapping %s: %v", sel, err)
	}
	return at
}

// eval runs a script on the page (a promise is awaited) and decodes its
// value into T.
func eval[T any](p *phone, script string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](script, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("running on the page: %v\n%s", err, script)
	}
	return v
}

// postAnswer posts an answer from the page's context as app.js does
// (its CSRF token, same origin, the device's cookie) and returns the
// server's status and text.
func (p *phone) postAnswer(c pageChoice, choice string) (int, string) {
	p.t.Helper()
	fields, _ := json.Marshal(map[string]string{"id": c.ID, "digest": c.Digest, "choice": choice})
	type reply struct {
		Status int    `json:"status"`
		Text   string `json:"text"`
	}
	r := eval[reply](p, fmt.Sprintf(`(async () => {
  const csrf = document.querySelector('meta[name="hud-csrf"]').content;
  const res = await fetch("/answer", { method: "POST", headers: { "X-Hud-CSRF": csrf },
    body: new URLSearchParams(%s), credentials: "same-origin" });
  return { status: res.status, text: (await res.text()).trim() };
})()`, fields))
	return r.Status, r.Text
}

// tapStale puts a button the page showed earlier back into the page and
// clicks it, as a tap on a page that had not redrawn yet does: app.js
// posts its choice and says the server's reply in #note.
func (p *phone) tapStale(c pageChoice) {
	p.t.Helper()
	html, _ := json.Marshal(c.HTML)
	eval[bool](p, fmt.Sprintf(`(() => {
  const d = document.createElement("div");
  d.innerHTML = %s;
  document.getElementById("live").appendChild(d);
  d.querySelector("button").click();
  return true;
})()`, html))
}

// screenshot is the phone's screen as PNG.
func (p *phone) screenshot() []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("the screenshot: %v", err)
	}
	return png
}
