package web

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
)

type sseEvent struct{ name, data string }

// openEvents opens /events of srv as c and parses the stream as a browser
// does (EventSource), into the returned channel.
func openEvents(t *testing.T, srv *httptest.Server, c *client) <-chan sseEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/events", nil)
	req.AddCookie(c.cookie)
	res, err := srv.Client().Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); res.Body.Close() })
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET /events: %s, %s", res.Status, res.Header.Get("Content-Type"))
	}
	events := make(chan sseEvent)
	go func() {
		defer close(events)
		parseEvents(ctx, res.Body, events)
	}()
	return events
}

// parseEvents follows the HTML standard's event stream interpretation:
// lines end at CR LF, LF or CR; "data" lines join with LF; an empty line
// dispatches.
func parseEvents(ctx context.Context, r io.Reader, out chan<- sseEvent) {
	br := bufio.NewReader(r)
	var name string
	var data []string
	for {
		line, err := sseLine(br)
		if err != nil {
			return
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch {
		case line == "":
			if data != nil {
				if name == "" {
					name = "message"
				}
				select {
				case out <- sseEvent{name, strings.Join(data, "\n")}:
				case <-ctx.Done():
					return
				}
			}
			name, data = "", nil
		case field == "event":
			name = value
		case field == "data":
			data = append(data, value)
		}
	}
}

func sseLine(br *bufio.Reader) (string, error) {
	var b []byte
	for {
		c, err := br.ReadByte()
		if err != nil {
			return "", err
		}
		switch c {
		case '\n':
			return string(b), nil
		case '\r':
			if next, err := br.Peek(1); err == nil && next[0] == '\n' {
				br.ReadByte()
			}
			return string(b), nil
		}
		b = append(b, c)
	}
}

// within is the next event, or fails t after d.
func within(t *testing.T, events <-chan sseEvent, d time.Duration) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-events:
		if !ok {
			t.Fatal("the event stream ended")
		}
		return ev
	case <-time.After(d):
		t.Fatalf("no event within %v", d)
	}
	return sseEvent{}
}

// fragment is the live part the page draws now, as a browser's parser
// reads it (line breaks as LF).
func fragment(s *Server) string {
	part, _, _ := s.liveHTML()
	html := strings.ReplaceAll(strings.ReplaceAll(string(part), "\r\n", "\n"), "\r", "\n")
	return strings.TrimSuffix(html, "\n")
}

func eventServer(t *testing.T, snap Snapshot) (*Server, *client, <-chan sseEvent) {
	s := newServer(t, Config{}, newFakeActions())
	s.Publish(snap)
	c := paired(t, s)
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, c, openEvents(t, srv, c)
}

func TestEventsUpdate(t *testing.T) {
	s, _, events := eventServer(t, snapshot())
	ev := within(t, events, time.Second)
	if ev.name != "update" || ev.data != fragment(s) || !strings.Contains(ev.data, "secret-project") {
		t.Fatalf("first event %q:\n%s\nwant update:\n%s", ev.name, ev.data, fragment(s))
	}
	if strings.Count(ev.data, "\n") < 3 {
		t.Errorf("the live part came as %d lines, want many joined", strings.Count(ev.data, "\n")+1)
	}
	s.Publish(snapshot()) // equal: nothing to send
	select {
	case ev := <-events:
		t.Fatalf("an event for an equal snapshot: %q", ev.data)
	case <-time.After(300 * time.Millisecond):
	}
	changed := snapshot()
	changed.Sessions[0].Name = "renamed-project"
	s.Publish(changed)
	ev = within(t, events, time.Second)
	if ev.name != "update" || ev.data != fragment(s) || !strings.Contains(ev.data, "renamed-project") {
		t.Errorf("after Publish: %q:\n%s", ev.name, ev.data)
	}
}

// TestEventsLineBreaks: text holding CR or CR LF must not end an event
// stream line early (a browser takes CR alone as a line's end): the live
// part reaches the page whole, as one update.
func TestEventsLineBreaks(t *testing.T) {
	snap := snapshot()
	snap.Sessions[0].Name = "a\revent: other\rdata: <b>forged</b>"
	snap.Sessions[0].Dialog.Subject = "line one\r\nline two\rid: 7\rretry: 1"
	s, _, events := eventServer(t, snap)
	ev := within(t, events, time.Second)
	if ev.name != "update" || ev.data != fragment(s) {
		t.Errorf("event %q:\n%q\nwant update:\n%q", ev.name, ev.data, fragment(s))
	}
	if strings.Contains(ev.data, "<b>") {
		t.Errorf("markup in the event: %q", ev.data)
	}
}

// hostile is markup in every text of a snapshot.
func hostile() Snapshot {
	const x = `<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">go</a>"' onmouseover=alert(1) x="`
	return Snapshot{Summary: x, Status: x, Today: x, Timeline: true, Accounts: []string{x},
		Section: []Action{{Key: x, Label: x}, {Label: x}},
		Sessions: []Card{{Key: x, Name: x, State: x, Age: x, WaitingFor: x, Detail: x,
			Dialog: &answer.Request{ID: x, Digest: x, Subject: x, Choices: []answer.Choice{{Key: x, Label: x}}}}}}
}

// raw are what must never appear in a page drawn from hostile text.
var raw = []string{"<script>alert", "<img src=x", "<a href", "javascript:alert(1)\"", `" onmouseover`, `' onmouseover`}

func TestMarkupEscaped(t *testing.T) {
	_, c, events := eventServer(t, hostile())
	page := c.get("/").Body.String()
	ev := within(t, events, time.Second)
	for name, out := range map[string]string{"the page": page, "the event": ev.data} {
		for _, r := range raw {
			if strings.Contains(out, r) {
				t.Errorf("%s holds %q unescaped:\n%s", name, r, out)
			}
		}
		if !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("%s lost the text:\n%s", name, out)
		}
	}
	if !strings.Contains(page, ev.data) {
		t.Error("the event's live part is not the page's")
	}
}

func TestEventFraming(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"one", "event: update\ndata: one\n\n"},
		{"one\ntwo\n", "event: update\ndata: one\ndata: two\n\n"},
		{"a\r\nb\rc\n\nd", "event: update\ndata: a\ndata: b\ndata: c\ndata: \ndata: d\n\n"},
		{"x\rdata: y\revent: z", "event: update\ndata: x\ndata: data: y\ndata: event: z\n\n"},
		{"", "event: update\n\n"},
	} {
		if got := string(event("update", []byte(c.data))); got != c.want {
			t.Errorf("event(%q) = %q, want %q", c.data, got, c.want)
		}
	}
}
