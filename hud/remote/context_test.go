package remote

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// TestDecodeContext: a session's context window in use crosses the
// stream as the remote's hud wrote it (status.WriteJSONLine, what `hud
// status --watch --json` prints); counts no model could have, a window of
// nothing, text that could act on a terminal, sources this hud does not
// know and a time ahead of the clock do not.
func TestDecodeContext(t *testing.T) {
	c := &resolver.Context{Tokens: 174_000, Window: 200_000, Model: "claude-sonnet-4-5", At: now.Add(-time.Minute),
		From: resolver.ContextFromStatusLine, WindowFrom: resolver.WindowFromStatusLine}
	v := &status.View{State: store.StateWorking, Now: now, Sessions: []view.Session{{
		Key: "s1", SessionID: "s1", State: store.StateWorking, CWD: "/home/me/api", Context: c}}}
	var b bytes.Buffer
	if err := status.WriteJSONLine(&b, v); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b.Bytes(), "devbox", now)
	if err != nil || len(got) != 1 || got[0].Context == nil || *got[0].Context != *c {
		t.Fatalf("got %+v %v, want the context %+v", got, err, c)
	}

	ctx := func(json string) string {
		return strings.Replace(waiting, `"activity":null`, `"activity":null,"context":`+json, 1)
	}
	cases := []struct {
		name string
		json string
		want *resolver.Context
	}{
		{"none", `null`, nil},
		{"negative", `{"tokens":-1,"window":200000}`, nil},
		{"no window", `{"tokens":5,"window":0}`, nil},
		{"no model could", `{"tokens":5,"window":999000000}`, nil},
		{"more than the window could hold", `{"tokens":500,"window":100}`, nil},
		{"hostile text, unknown sources, the future", `{"tokens":5,"window":100,"percent":99,"model":"m\u001b]0;x\u0007","from":"rm -rf","window_from":"model","at":"2099-01-01T00:00:00.000Z"}`,
			&resolver.Context{Tokens: 5, Window: 100, Model: "m", At: now, WindowFrom: resolver.WindowFromModel}},
	}
	for _, tc := range cases {
		got, err := Decode([]byte(line(ctx(tc.json))), "devbox", now)
		if err != nil || len(got) != 1 {
			t.Fatalf("%s: %+v %v", tc.name, got, err)
		}
		c := got[0].Context
		if (c == nil) != (tc.want == nil) || (c != nil && *c != *tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, c, tc.want)
		}
		if c != nil && c.Percent() != 5 {
			t.Errorf("%s: share %d, computed here from the counts, not the stream's", tc.name, c.Percent())
		}
	}
}
