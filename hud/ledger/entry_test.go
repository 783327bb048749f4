package ledger

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// setLocal makes loc the local time zone for the test: the ledger's days
// are local days.
func setLocal(t *testing.T, loc *time.Location) {
	t.Helper()
	old := time.Local
	time.Local = loc
	t.Cleanup(func() { time.Local = old })
}

// encodeLine encodes e or fails the test.
func encodeLine(t *testing.T, e Entry) []byte {
	t.Helper()
	b, err := e.encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fields are the texts of e that encode bounds, by name.
func fields(e Entry) map[string]string {
	return map[string]string{"key": e.Key, "host": e.Host, "agent": e.Agent, "project": e.Project,
		"name": e.Name, "state": e.State, "for": e.For, "answer": e.Answer, "choice": e.Choice}
}

func TestEncodeMakesFieldsOneBoundedLine(t *testing.T) {
	t0 := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	long := strings.Repeat("x", 1000)
	e := Entry{T: t0, Key: "k\x1b[31m1\x1b[0m", Host: "dev\nbox", Agent: "\x07codex", Project: "/src/\x1b]0;title\x07proj",
		Name: "auth\r\nrefactor", State: "waiting", For: "Bash:\tnpm   test\n--watch", Answer: "", Choice: long,
		Commits: 3, Files: 2, Todos: 1, Context: 40, ByClaude: true}
	line := encodeLine(t, e)
	if n := bytes.Count(line, []byte("\n")); n != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("encoded %q: %d line breaks, want one at the end", line, n)
	}
	got, ok := decode(bytes.TrimSuffix(line, []byte("\n")))
	if !ok {
		t.Fatalf("decode(%s) refused", line)
	}
	want := map[string]string{"key": "k1", "host": "dev box", "agent": "codex", "project": "/src/proj",
		"name": "auth refactor", "state": "waiting", "for": "Bash: npm test --watch", "answer": "",
		"choice": strings.Repeat("x", maxField-1) + "…"}
	for name, v := range fields(got) {
		if v != want[name] {
			t.Errorf("%s = %q, want %q", name, v, want[name])
		}
		if utf8.RuneCountInString(v) > maxField || strings.ContainsFunc(v, unicode.IsControl) {
			t.Errorf("%s = %q: over %d runes or holds control characters", name, v, maxField)
		}
	}
	if !got.T.Equal(t0) || got.Commits != 3 || got.Files != 2 || got.Todos != 1 || got.Context != 40 || !got.ByClaude {
		t.Errorf("decoded %+v, want the figures of %+v", got, e)
	}
}

// TestEncodedLinesDecode: whatever encode writes, decode reads back, even
// with every field at its bound in characters JSON writes longest.
func TestEncodedLinesDecode(t *testing.T) {
	t0 := time.Date(2026, 3, 10, 9, 0, 0, 0, time.FixedZone("X", -7*3600))
	for _, fill := range []string{"<", "&", "€", "😀", "\x1b[1m\"", `\`, "a"} {
		s := strings.Repeat(fill, 2*maxField)
		for _, e := range []Entry{
			{T: t0, Key: s, Host: s, Agent: s, Project: s, Name: s, State: s, For: s, Choice: s, Commits: 1 << 30},
			{T: t0, Key: s, Host: s, Agent: s, Project: s, Name: s, Answer: s, Choice: s, Refused: true},
			{T: t0, Away: t0.Add(-time.Hour), Key: s, Name: s},
		} {
			line := encodeLine(t, e)
			if _, ok := decode(bytes.TrimSuffix(line, []byte("\n"))); !ok {
				t.Errorf("fields of %q: the encoded line (%d bytes) is refused by decode", fill, len(line))
			}
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	good := `{"t":"2026-03-10T09:00:00Z","key":"k","state":"working"}`
	tests := []struct{ name, line string }{
		{"empty", ""},
		{"empty object", `{}`},
		{"an array", `[1]`},
		{"null", `null`},
		{"garbage", `not json at all`},
		{"binary", "\x00\x01\x02"},
		{"cut by a crash", good[:len(good)/2]},
		{"cut just before the brace", good[:len(good)-1]},
		{"missing t", `{"key":"k","state":"working"}`},
		{"zero t", `{"t":"0001-01-01T00:00:00Z","key":"k","state":"working"}`},
		{"t not a time", `{"t":"yesterday","key":"k","state":"working"}`},
		{"t a number", `{"t":1741597200,"key":"k","state":"working"}`},
		{"state without key", `{"t":"2026-03-10T09:00:00Z","state":"working"}`},
		{"key without state", `{"t":"2026-03-10T09:00:00Z","key":"k"}`},
		{"a field of another type", `{"t":"2026-03-10T09:00:00Z","key":"k","state":"working","commits":"3"}`},
		{"absence back to front", `{"t":"2026-03-10T09:00:00Z","away":"2026-03-10T09:00:01Z"}`},
		{"two entries on a line", good + good},
		{"over maxLine", `{"t":"2026-03-10T09:00:00Z","key":"k","state":"working","for":"` + strings.Repeat("x", maxLine) + `"}`},
	}
	for _, tt := range tests {
		if e, ok := decode([]byte(tt.line)); ok {
			t.Errorf("%s: decode(%.60q) = %+v, want refused", tt.name, tt.line, e)
		}
	}
	if _, ok := decode([]byte(good)); !ok {
		t.Errorf("decode(%s) refused", good)
	}
}

func TestDecodeAccepts(t *testing.T) {
	tests := []struct {
		name, line          string
		state, answer, away bool // the kind it reads as
	}{
		{"state", `{"t":"2026-03-10T09:00:00Z","key":"k","state":"working"}`, true, false, false},
		{"ended", `{"t":"2026-03-10T09:00:00+01:00","key":"k","state":"ended"}`, true, false, false},
		{"answer", `{"t":"2026-03-10T09:00:00Z","key":"k","answer":"tray","choice":"Allow"}`, false, true, false},
		{"absence", `{"t":"2026-03-10T09:00:00Z","away":"2026-03-10T08:00:00Z"}`, false, false, true},
		{"absence of no time", `{"t":"2026-03-10T09:00:00Z","away":"2026-03-10T09:00:00Z"}`, false, false, true},
		{"unknown names ignored", `{"t":"2026-03-10T09:00:00Z","key":"k","state":"ready","new":[1,2]}`, true, false, false},
	}
	for _, tt := range tests {
		e, ok := decode([]byte(tt.line))
		if !ok {
			t.Errorf("%s: decode(%s) refused", tt.name, tt.line)
			continue
		}
		if e.IsState() != tt.state || e.IsAnswer() != tt.answer || e.IsAbsence() != tt.away {
			t.Errorf("%s: state %v answer %v absence %v, want %v %v %v", tt.name,
				e.IsState(), e.IsAnswer(), e.IsAbsence(), tt.state, tt.answer, tt.away)
		}
	}
}

func TestKinds(t *testing.T) {
	t0 := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name                string
		e                   Entry
		state, answer, away bool
	}{
		{"state", Entry{T: t0, Key: "k", State: "working"}, true, false, false},
		{"ended", Entry{T: t0, Key: "k", State: Ended}, true, false, false},
		{"no key", Entry{T: t0, State: "working"}, false, false, false},
		{"no state", Entry{T: t0, Key: "k"}, false, false, false},
		{"answer", Entry{T: t0, Key: "k", Answer: ViaTray, Choice: "Allow"}, false, true, false},
		{"refused answer", Entry{T: t0, Key: "k", Answer: ViaCommand, Refused: true}, false, true, false},
		{"answer with a state", Entry{T: t0, Key: "k", State: "waiting", Answer: ViaTray}, false, true, false},
		{"answer without key", Entry{T: t0, Answer: ViaTray}, false, false, false},
		{"absence", Entry{T: t0, Away: t0.Add(-time.Hour)}, false, false, true},
		{"absence with a state", Entry{T: t0, Key: "k", State: "working", Away: t0.Add(-time.Hour)}, false, false, true},
		{"nothing", Entry{}, false, false, false},
	}
	for _, tt := range tests {
		if tt.e.IsState() != tt.state || tt.e.IsAnswer() != tt.answer || tt.e.IsAbsence() != tt.away {
			t.Errorf("%s: state %v answer %v absence %v, want %v %v %v", tt.name,
				tt.e.IsState(), tt.e.IsAnswer(), tt.e.IsAbsence(), tt.state, tt.answer, tt.away)
		}
	}
}
