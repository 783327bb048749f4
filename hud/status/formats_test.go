package status

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

var updateFormats = flag.Bool("update-formats", false, "rewrite testdata/formats/*.golden")

var formatsNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func formatsSession(id, project string, state store.State, waitingFor string) view.Session {
	return view.Session{
		Key: id, SessionID: id, State: state, CWD: "/home/ann/" + project, ProjectDir: "/home/ann/" + project,
		WaitingFor: waitingFor, WorkingOn: "fix the " + project + " tests",
		PID: 4242, Since: formatsNow.Add(-2 * time.Minute), UpdatedAt: formatsNow.Add(-time.Minute),
		Source: resolver.SourceLock,
	}
}

func withContext(s view.Session, tokens, window int) view.Session {
	s.Context = &resolver.Context{Tokens: tokens, Window: window, Model: "claude-sonnet-4-5", At: formatsNow.Add(-time.Minute),
		From: resolver.ContextFromTranscript, WindowFrom: resolver.WindowFromModel}
	return s
}

// formatCases are the views every one-line format is golden-tested on.
var formatCases = []struct {
	name string
	self string // the session whose status line is printed
	view *View
}{
	{"empty", "", &View{State: store.StateIdle, Sessions: []view.Session{}, Now: formatsNow}},
	{"one-working", "s-web", &View{State: store.StateWorking, Now: formatsNow, Sessions: []view.Session{
		formatsSession("s-web", "web", store.StateWorking, ""),
	}}},
	{"mixed", "s-web", &View{State: store.StateWaiting, Now: formatsNow, Sessions: []view.Session{
		formatsSession("s-api", "api", store.StateWaiting, "Bash: npm test -- --watch=false --reporter=dot --coverage"),
		formatsSession("s-web", "web", store.StateWorking, ""),
		formatsSession("s-cc", "c#-lib", store.StateWaiting, "AskUserQuestion"),
		formatsSession("s-big", "monorepo", store.StateCompacting, ""),
		formatsSession("s-rd", "r&d <lab>", store.StateReady, ""),
		formatsSession("s-docs", "docs", store.StateReady, ""),
	}}},
	{"context", "s-web", &View{State: store.StateWorking, Now: formatsNow, Sessions: []view.Session{
		withContext(formatsSession("s-web", "web", store.StateWorking, ""), 174_000, resolver.DefaultWindow),
		withContext(formatsSession("s-api", "api", store.StateReady, ""), 120_000, resolver.LongWindow),
		formatsSession("s-docs", "docs", store.StateReady, ""),
	}}},
	{"many-waiting", "s-web", &View{State: store.StateWaiting, Now: formatsNow, Sessions: []view.Session{
		formatsSession("s-a", "a", store.StateWaiting, "Edit: main.go"),
		formatsSession("s-b", "b", store.StateWaiting, ""),
		formatsSession("s-c", "c", store.StateWaiting, "question"),
		formatsSession("s-web", "web", store.StateWaiting, "Bash: make"),
	}}},
	{"unknown-self", "s-gone", &View{State: store.StateReady, Now: formatsNow, Sessions: []view.Session{
		formatsSession("s-docs", "docs", store.StateReady, ""),
	}}},
}

// TestOneLineFormatsGolden renders each case in each one-line format into
// testdata/formats/<case>.golden.
func TestOneLineFormatsGolden(t *testing.T) {
	for _, tc := range formatCases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			for _, f := range []struct {
				name   string
				render func(*bytes.Buffer) error
			}{
				{"tmux", func(b *bytes.Buffer) error { return WriteTmux(b, tc.view) }},
				{"waybar", func(b *bytes.Buffer) error { return WriteWaybar(b, tc.view) }},
				{"statusline " + tc.self, func(b *bytes.Buffer) error { return WriteStatusline(b, tc.view, Self{SessionID: tc.self}) }},
				{"json line", func(b *bytes.Buffer) error { return WriteJSONLine(b, tc.view) }},
			} {
				var out bytes.Buffer
				if err := f.render(&out); err != nil {
					t.Fatalf("%s: %v", f.name, err)
				}
				if n := strings.Count(out.String(), "\n"); n != 1 || !strings.HasSuffix(out.String(), "\n") {
					t.Errorf("%s printed %d lines; want exactly one:\n%s", f.name, n, out.String())
				}
				b.WriteString("-- " + f.name + " --\n")
				b.Write(out.Bytes())
			}
			file := filepath.Join("testdata", "formats", tc.name+".golden")
			if *updateFormats {
				os.WriteFile(file, b.Bytes(), 0o644)
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update-formats)", err)
			}
			if b.String() != string(want) {
				t.Errorf("%s:\ngot:\n%s\nwant:\n%s", file, b.String(), want)
			}
		})
	}
}

func TestWaybarIsJSONWithStateClass(t *testing.T) {
	for _, tc := range formatCases {
		var b bytes.Buffer
		WriteWaybar(&b, tc.view)
		var out struct{ Text, Tooltip, Class, Alt string }
		if err := json.Unmarshal(b.Bytes(), &out); err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, b.String())
		}
		if out.Class != string(tc.view.State) || out.Text == "" || out.Tooltip == "" {
			t.Errorf("%s: %+v", tc.name, out)
		}
	}
}

func TestStatuslineFindsItsSession(t *testing.T) {
	v := &View{State: store.StateWorking, Now: formatsNow, Sessions: []view.Session{
		formatsSession("s-web", "web", store.StateWorking, ""),
		formatsSession("s-api", "api", store.StateReady, ""),
	}}
	tests := []struct {
		me   Self
		want string
	}{
		{Self{SessionID: "s-api"}, "✓ ready\n"},
		{Self{CWD: "/home/ann/web"}, "● working\n"},
		{Self{ProjectDir: "/home/ann/api"}, "✓ ready\n"},
		// Another session in the same directory is not this one.
		{Self{SessionID: "s-new", CWD: "/home/ann/web"}, "○ hud\n"},
		{Self{}, "○ hud\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		WriteStatusline(&b, v, tt.me)
		if b.String() != tt.want {
			t.Errorf("%+v: %q; want %q", tt.me, b.String(), tt.want)
		}
	}
}
