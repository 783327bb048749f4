package store

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestCheckSessionID(t *testing.T) {
	cases := []struct {
		id, wantErr string // "" = valid
	}{
		{"7261fbe8-c132-4197-8154-4b9c1e3e818d", ""},
		{"s", ""},
		{"a.b_c-d", ""},
		{"9", ""},
		{strings.Repeat("a", MaxSessionID), ""},
		{"", "no session_id"},
		{strings.Repeat("a", MaxSessionID+1), "longer than"},
		{".", "must start"},
		{"..", "must start"},
		{".hidden", "must start"},
		{"-rf", "must start"},
		{"_x", "must start"},
		{"../../etc", "character '/' not allowed"},
		{"a/b", "not allowed"},
		{"a b", "not allowed"},
		{"a\x00b", "not allowed"},
		{"a\x1b[2Jb", "not allowed"},
		{"é", "not allowed"},
	}
	for _, c := range cases {
		err := CheckSessionID(c.id)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%q: %v", c.id, err)
		case c.wantErr != "" && err == nil:
			t.Errorf("%q accepted", c.id)
		case c.wantErr != "" && !strings.Contains(err.Error(), c.wantErr):
			t.Errorf("%q: %v, want %q", c.id, err, c.wantErr)
		}
		if ValidSessionID(c.id) != (err == nil) {
			t.Errorf("%q: ValidSessionID disagrees with CheckSessionID", c.id)
		}
	}
}

func TestDecodeStore(t *testing.T) {
	const ok = `"state": "ready", "cwd": "/p", "updated_at": "2026-01-21T10:30:00.000Z", "state_changed_at": "2026-01-21T10:30:00.000Z"`
	rec := func(id string) string { return `{"session_id": "` + id + `", ` + ok + `}` }
	cases := []struct {
		name    string
		in      string
		wantErr error  // the file is refused (moved aside by the hook)
		ids     string // records kept, sorted, comma-separated
		ended   int
		problem []string // each is in one problem, in any order
	}{
		{name: "empty", in: "", ids: ""},
		{name: "white space", in: " \n", ids: ""},
		{name: "good", in: `{"version": 3, "sessions": {"a": ` + rec("a") + `}, "ended": {"b": "2026-01-21T10:30:00.000Z"}}`, ids: "a", ended: 1},
		{name: "no sessions", in: `{"version": 3}`, ids: ""},
		{name: "bad timestamp", in: `{"version": 3, "sessions": {"a": ` + rec("a") + `, "b": {"session_id": "b", "state": "ready", "updated_at": "noon"}}}`,
			ids: "a", problem: []string{`"b": dropped: field "updated_at": timestamp "noon"`}},
		{name: "wrong type", in: `{"version": 3, "sessions": {"a": ` + rec("a") + `, "b": 5, "c": null, "d": {"pid": "x"}}}`,
			ids: "a", problem: []string{`"b": dropped`, `"c": dropped: null`, `"d": dropped`}},
		{name: "id differs from key", in: `{"version": 3, "sessions": {"a": ` + rec("z") + `, "b": {` + ok + `}}}`,
			ids: "a,b", problem: []string{`"a": session_id "z" repaired`, `"b": session_id "" repaired`}},
		{name: "bad key", in: `{"version": 3, "sessions": {".hidden": ` + rec(".hidden") + `, "../x": ` + rec("../x") + `, "": ` + rec("") + `, "a": ` + rec("a") + `}}`,
			ids: "a", problem: []string{`".hidden": dropped`, `"../x": dropped`, `"": dropped: no session_id`}},
		{name: "bad ended", in: `{"version": 3, "sessions": {}, "ended": {"a": "soon", "b": 5, ".c": "2026-01-21T10:30:00.000Z", "d": "2026-01-21T10:30:00.000Z"}}`,
			ids: "", ended: 1, problem: []string{`"a": ended entry dropped`, `"b": ended entry dropped`, `".c": ended entry dropped`}},
		{name: "not JSON", in: `{"version": 3, "sessions": {`, wantErr: errAny},
		{name: "not an object", in: `[1]`, wantErr: errAny},
		{name: "sessions not an object", in: `{"version": 3, "sessions": []}`, wantErr: errAny},
		{name: "no version", in: `{"sessions": {}}`, wantErr: ErrForeign},
		{name: "other version", in: `{"version": 2, "sessions": {}}`, wantErr: ErrForeign},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, problems, err := Decode([]byte(c.in))
			if c.wantErr != nil {
				if err == nil || c.wantErr != errAny && !errors.Is(err, c.wantErr) {
					t.Fatalf("err %v, want %v", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for id, r := range s.Sessions {
				if r.SessionID != id {
					t.Errorf("record under %q says %q", id, r.SessionID)
				}
				ids = append(ids, id)
			}
			if got := strings.Join(slices.Sorted(slices.Values(ids)), ","); got != c.ids {
				t.Errorf("records %q, want %q", got, c.ids)
			}
			if len(s.Ended) != c.ended {
				t.Errorf("ended %v, want %d entries", s.Ended, c.ended)
			}
			if len(problems) != len(c.problem) {
				t.Errorf("problems %v, want %d", problems, len(c.problem))
			}
			for _, want := range c.problem {
				found := false
				for _, p := range problems {
					found = found || strings.Contains(p.Error(), want)
				}
				if !found {
					t.Errorf("no problem says %q: %v", want, problems)
				}
			}
		})
	}
}

var errAny = errors.New("any error")
