package hookevents

import (
	"slices"
	"testing"
)

func TestParseVersion(t *testing.T) {
	cases := []struct {
		in   string
		want Version
		ok   bool
	}{
		{"2.1.330 (Claude Code)\n", Version{2, 1, 330}, true},
		{"2.1.197", Version{2, 1, 197}, true},
		{"  10.0.1 (Claude Code)", Version{10, 0, 1}, true},
		{"2.1", Version{}, false},
		{"v2.1.3", Version{}, false},
		{"2.1.-3", Version{}, false},
		{"", Version{}, false},
	}
	for _, c := range cases {
		got, ok := ParseVersion(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestWired(t *testing.T) {
	state := func() []string {
		var out []string
		for _, s := range All {
			if s.Role == State {
				out = append(out, s.Name)
			}
		}
		return out
	}()
	if got := Names(Wired(Version{})); !slices.Equal(got, state) {
		t.Errorf("unknown client: %v, want every state event %v", got, state)
	}
	if got := Names(Wired(Version{2, 1, 330})); !slices.Equal(got, state) {
		t.Errorf("2.1.330: %v", got)
	}
	// A client older than an event never gets it: the registry's Since
	// is honoured (here for a made-up event, as every state event is as
	// old as Oldest today).
	saved := All
	defer func() { All = saved }()
	All = append(slices.Clone(saved), Spec{Name: "Future", Role: State, Since: Version{2, 2, 0}})
	if got := Names(Wired(Version{2, 1, 330})); slices.Contains(got, "Future") {
		t.Error("2.1.330 was given an event from 2.2.0")
	}
	if got := Names(Wired(Version{2, 2, 0})); !slices.Contains(got, "Future") {
		t.Error("2.2.0 was not given its own event")
	}
}

func TestRegistryIsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All {
		if seen[s.Name] {
			t.Errorf("%s listed twice", s.Name)
		}
		seen[s.Name] = true
		if s.Since.Less(Oldest) || s.Meaning == "" || s.Role == 0 {
			t.Errorf("%s: since %v, role %v, meaning %q", s.Name, s.Since, s.Role, s.Meaning)
		}
		if s.Tool && s.Role != State {
			t.Errorf("%s: a tool event that is not wired", s.Name)
		}
	}
	for _, n := range []string{"WorktreeCreate", "WorktreeRemove"} {
		if Carries(n) {
			t.Errorf("%s must never be wired", n)
		}
	}
}
