package resolver

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

// Transcript lines as Claude Code 2.1.197 writes them (trimmed of fields
// hud does not read).
const (
	answerLine    = `{"parentUuid":"dc64","isSidechain":false,"message":{"content":[{"type":"text","text":"Done."}],"model":"claude-sonnet-4-5","role":"assistant","type":"message","usage":{"input_tokens":23132,"cache_creation_input_tokens":1000,"cache_read_input_tokens":20000,"output_tokens":1}},"type":"assistant","timestamp":"2026-11-26T14:13:10.408Z","sessionId":"s1"}`
	sidechainLine = `{"parentUuid":"aa","isSidechain":true,"message":{"model":"claude-haiku-4-5","role":"assistant","usage":{"input_tokens":500,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}},"type":"assistant","timestamp":"2026-11-26T14:13:11.000Z"}`
	syntheticLine = `{"isSidechain":false,"message":{"model":"<synthetic>","role":"assistant","usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}},"type":"assistant","timestamp":"2026-11-26T14:13:12.000Z"}`
	userLine      = `{"isSidechain":false,"message":{"role":"user","content":"the usage of \"assistant\" tokens"},"type":"user","timestamp":"2026-11-26T14:13:13.000Z"}`
)

// usageOf is answerLine with other counts: input, cache creation, cache
// read.
func usageOf(input, creation, read string) string {
	return strings.NewReplacer(`"input_tokens":23132`, `"input_tokens":`+input,
		`"cache_creation_input_tokens":1000`, `"cache_creation_input_tokens":`+creation,
		`"cache_read_input_tokens":20000`, `"cache_read_input_tokens":`+read).Replace(answerLine)
}

func TestLastContext(t *testing.T) {
	at := time.Date(2026, 11, 26, 14, 13, 10, 408e6, time.UTC)
	cases := []struct {
		name   string
		lines  []string
		ok     bool
		tokens int
	}{
		{"the newest answer", []string{answerLine, userLine}, true, 44132},
		{"a subagent's answer is its own context", []string{answerLine, sidechainLine}, true, 44132},
		{"a synthetic message has no usage of a request", []string{answerLine, syntheticLine}, true, 44132},
		{"a cut line is skipped", []string{answerLine[40:]}, false, 0},
		{"no answer yet", []string{userLine}, false, 0},
		// The newest answer's count is none: unknown, not the older one's.
		{"a negative count", []string{answerLine, usageOf("-5", "100", "0")}, false, 0},
		{"a sum that overflows", []string{answerLine, usageOf(strconv.Itoa(math.MaxInt), strconv.Itoa(math.MaxInt), "4")}, false, 0},
		{"a count past MaxTokens", []string{answerLine, usageOf("0", "0", "200000000")}, false, 0},
	}
	for _, c := range cases {
		got, ok := lastContext([]byte(strings.Join(c.lines, "\n") + "\n"))
		if ok != c.ok || got.Tokens != c.tokens {
			t.Errorf("%s: %+v %v, want %d tokens %v", c.name, got, ok, c.tokens, c.ok)
			continue
		}
		if ok && (!got.At.Equal(at) || got.Model != "claude-sonnet-4-5" || got.Window != DefaultWindow || got.Percent() != 22) {
			t.Errorf("%s: %+v, percent %d", c.name, got, got.Percent())
		}
	}
}

func TestModelWindow(t *testing.T) {
	cases := []struct {
		model  string
		tokens int
		want   int
	}{
		{"claude-sonnet-4-5", 1000, DefaultWindow},
		{"claude-sonnet-4-5-20250929", 1000, DefaultWindow},
		{"claude-sonnet-4-6[1m]", 1000, LongWindow},
		{"claude-opus-4-8", 1000, LongWindow},
		{"claude-opus-4-8-20261101", 1000, LongWindow},
		{"claude-opus-5-5", 1000, LongWindow},
		{"claude-opus-4-6", 1000, DefaultWindow},
		{"claude-opus-4-70", 1000, DefaultWindow},
		{"claude-haiku-4-5", 250_000, LongWindow},
		{"", 1000, DefaultWindow},
	}
	for _, c := range cases {
		if got := ModelWindow(c.model, c.tokens); got != c.want {
			t.Errorf("ModelWindow(%q, %d) = %d, want %d", c.model, c.tokens, got, c.want)
		}
	}
}

func TestContextPercent(t *testing.T) {
	cases := []struct {
		c    Context
		want int
	}{
		{Context{Tokens: 174_000, Window: 200_000}, 87},
		{Context{Tokens: 1_005, Window: 200_000}, 1},
		{Context{Tokens: 300_000, Window: 200_000}, 100},
		{Context{Tokens: 10}, 0},
	}
	for _, c := range cases {
		if got := c.c.Percent(); got != c.want {
			t.Errorf("%+v: %d, want %d", c.c, got, c.want)
		}
	}
}

func TestSumTokens(t *testing.T) {
	cases := []struct {
		counts []int
		want   int
		ok     bool
	}{
		{[]int{10, 1000, 88990}, 90000, true},
		{nil, 0, true},
		{[]int{MaxTokens}, MaxTokens, true},
		{[]int{MaxTokens, 1}, 0, false},
		{[]int{-5, 100}, 0, false},
		{[]int{math.MaxInt, math.MaxInt, 4}, 0, false},
		{[]int{math.MaxInt / 2, math.MaxInt / 2, 2}, 0, false},
		{[]int{math.MinInt}, 0, false},
	}
	for _, c := range cases {
		if got, ok := SumTokens(c.counts...); got != c.want || ok != c.ok {
			t.Errorf("SumTokens(%v) = %d, %v; want %d, %v", c.counts, got, ok, c.want, c.ok)
		}
	}
}

func TestContextPlausible(t *testing.T) {
	cases := []struct {
		c    Context
		want bool
	}{
		{Context{Tokens: 174_000, Window: 200_000}, true},
		{Context{Tokens: 0, Window: 200_000}, true},
		{Context{Tokens: 202_000, Window: 200_000}, true}, // a window exceeded before a compaction: 100 %
		{Context{Tokens: 300_000, Window: 200_000}, true}, // MaxContextPercent itself
		{Context{Tokens: 300_001, Window: 200_000}, false},
		{Context{Tokens: 10}, false},
		{Context{Tokens: 10, Window: -200_000}, false},
		{Context{Tokens: -1, Window: 200_000}, false},
		{Context{Tokens: math.MinInt, Window: 200_000}, false},
		{Context{Tokens: MaxTokens + 1, Window: MaxTokens}, false},
		{Context{Tokens: 10, Window: MaxTokens + 1}, false},
		{Context{Tokens: 10, Window: math.MaxInt}, false},
	}
	for _, c := range cases {
		if got := c.c.Plausible(); got != c.want {
			t.Errorf("%+v: Plausible() = %v, want %v", c.c, got, c.want)
		}
	}
}

// TestClaudeTranscript: only <config dir>/projects/<dir>/<id>.jsonl is
// read, whatever path a payload names.
func TestClaudeTranscript(t *testing.T) {
	l := paths.Layout{Home: "/home/u"}
	good := "/home/u/.claude/projects/-p/s1.jsonl"
	cases := []struct {
		rec  store.Record
		want string
	}{
		{store.Record{SessionID: "s1", TranscriptPath: good}, good},
		{store.Record{SessionID: "s1", ConfigDir: "/home/u/.claude-work", TranscriptPath: "/home/u/.claude-work/projects/-p/s1.jsonl"}, "/home/u/.claude-work/projects/-p/s1.jsonl"},
		{store.Record{SessionID: "s1", ConfigDir: "/home/u/.claude-work", TranscriptPath: good}, ""},
		{store.Record{SessionID: "s2", TranscriptPath: good}, ""},
		{store.Record{SessionID: "s1", TranscriptPath: "/etc/projects/-p/s1.jsonl"}, ""},
		{store.Record{SessionID: "s1", TranscriptPath: "/home/u/.claude/projects/-p/../../x/s1.jsonl"}, ""},
		{store.Record{SessionID: "s1", TranscriptPath: "/home/u/.claude/projects/s1.jsonl"}, ""},
		{store.Record{SessionID: "s1", TranscriptPath: "relative/s1.jsonl"}, ""},
	}
	for _, c := range cases {
		if got := claudeTranscript(l, &c.rec); got != c.want {
			t.Errorf("%+v: %q, want %q", c.rec, got, c.want)
		}
	}
}

// TestLoadContexts: the transcript's newest answer, unless the status
// line recorded a figure as new; a link at the transcript's name, or at
// its project's directory, is never followed; another agent's sessions
// are not read as Claude's.
func TestLoadContexts(t *testing.T) {
	home := t.TempDir()
	l := paths.Layout{Home: home}
	dir := filepath.Join(home, ".claude", "projects", "-p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(id string, lines ...string) string {
		p := filepath.Join(dir, id+".jsonl")
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A long tool result after the answer: the first tail holds no answer.
	long := `{"type":"user","message":{"content":"` + strings.Repeat("x", maxTranscriptTail) + `"}}`
	p1 := write("s1", answerLine, long)
	p2 := write("s2", answerLine)
	if err := os.Symlink(p2, filepath.Join(dir, "s3.jsonl")); err != nil {
		t.Fatal(err)
	}
	p4 := write("s4", answerLine)
	// A project directory that is a link to another (where s5's answer is).
	linked := filepath.Join(home, ".claude", "projects", "-linked")
	if err := os.Symlink(dir, linked); err != nil {
		t.Fatal(err)
	}
	write("s5", answerLine)
	recs := map[string]*store.Record{
		"s5": {SessionID: "s5", TranscriptPath: filepath.Join(linked, "s5.jsonl")},
		"s1": {SessionID: "s1", TranscriptPath: p1},
		"s2": {SessionID: "s2", TranscriptPath: p2},
		"s3": {SessionID: "s3", TranscriptPath: filepath.Join(dir, "s3.jsonl")},
		"s4": {SessionID: "s4", Agent: "codex", TranscriptPath: p4},
	}
	answered := time.Date(2026, 11, 26, 14, 13, 10, 408e6, time.UTC)
	lines := map[string]StatusLine{
		// Newer than the answer: its figures win.
		"s2": {SessionID: "s2", At: answered.Add(time.Second), Model: "claude-sonnet-4-5[1m]", Tokens: 50_000, Window: LongWindow},
	}
	got, _ := LoadContexts(l, &store.Store{Version: store.Version, Sessions: recs}, lines, nil)
	if len(got) != 2 {
		t.Fatalf("contexts of %d sessions, want s1 and s2: %+v", len(got), got)
	}
	if c := got["s1"]; c.Tokens != 44132 || c.From != ContextFromTranscript || c.WindowFrom != WindowFromModel {
		t.Errorf("s1: %+v", c)
	}
	if c := got["s2"]; c.Tokens != 50_000 || c.Window != LongWindow || c.Percent() != 5 || c.From != ContextFromStatusLine {
		t.Errorf("s2: %+v", c)
	}
}

// TestLoadContextsOutOfBounds: a context no model could be in is
// unknown, whichever file gave it: the transcript's counts, the status
// line's figures, or the status line's window over the transcript's
// tokens.
func TestLoadContextsOutOfBounds(t *testing.T) {
	home := t.TempDir()
	l := paths.Layout{Home: home}
	dir := filepath.Join(home, ".claude", "projects", "-p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	answered := time.Date(2026, 11, 26, 14, 13, 10, 408e6, time.UTC)
	recs := map[string]*store.Record{}
	lines := map[string]StatusLine{}
	transcript := func(id, line string) {
		p := filepath.Join(dir, id+".jsonl")
		if err := os.WriteFile(p, []byte(line+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		recs[id] = &store.Record{SessionID: id, TranscriptPath: p}
	}
	statusLine := func(id, in string) {
		if recs[id] == nil {
			recs[id] = &store.Record{SessionID: id}
		}
		if sl, err := ParseStatusLine([]byte(`{"session_id":"`+id+`",`+in+`}`), "", answered.Add(time.Second)); err == nil {
			lines[id] = sl
		}
	}
	maxInt := strconv.Itoa(math.MaxInt)
	transcript("negative", usageOf("-5", "100", "0"))
	transcript("overflow", usageOf(maxInt, maxInt, "4"))
	transcript("huge", usageOf("0", "0", "1000000000"))
	statusLine("share", `"context_window":{"context_window_size":1000,"current_usage":{"input_tokens":10000}}`)
	statusLine("sl-overflow", `"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":`+maxInt+`,"cache_creation_input_tokens":`+maxInt+`,"cache_read_input_tokens":4}}`)
	statusLine("window", `"context_window":{"context_window_size":1000000000000000,"current_usage":{"input_tokens":5000}}`)
	// The transcript's 44,132 tokens in a window Claude says is 1,000.
	transcript("lent", answerLine)
	lines["lent"] = StatusLine{SessionID: "lent", At: answered.Add(-time.Second), Model: "claude-sonnet-4-5", Window: 1000}
	// A control: the transcript's answer as it is.
	transcript("good", answerLine)

	got, _ := LoadContexts(l, &store.Store{Version: store.Version, Sessions: recs}, lines, nil)
	if len(got) != 1 || got["good"].Tokens != 44132 {
		t.Errorf("contexts %+v, want only good's", got)
	}
}

// TestStatusLineOverTranscript: an older status line lends only its
// window, and only for the same model.
func TestStatusLineOverTranscript(t *testing.T) {
	answered := time.Date(2026, 11, 26, 14, 13, 10, 0, time.UTC)
	tr := Context{Tokens: 44_000, Window: DefaultWindow, Model: "claude-sonnet-4-5", At: answered, From: ContextFromTranscript, WindowFrom: WindowFromModel}
	cases := []struct {
		name string
		sl   StatusLine
		ok   bool
		want Context
	}{
		{"older, same model: Claude's window", StatusLine{At: answered.Add(-time.Second), Model: "claude-sonnet-4-5[1m]", Tokens: 1, Window: LongWindow}, true,
			Context{Tokens: 44_000, Window: LongWindow, Model: "claude-sonnet-4-5", At: answered, From: ContextFromTranscript, WindowFrom: WindowFromStatusLine}},
		{"older, another model: the transcript's", StatusLine{At: answered.Add(-time.Second), Model: "claude-opus-4-8", Tokens: 1, Window: LongWindow}, true, tr},
		{"no window: the transcript's", StatusLine{At: answered.Add(time.Second)}, true, tr},
		{"newer, no usage yet: the transcript's tokens, Claude's window", StatusLine{At: answered.Add(time.Second), Model: "claude-sonnet-4-5", Window: LongWindow}, true,
			Context{Tokens: 44_000, Window: LongWindow, Model: "claude-sonnet-4-5", At: answered, From: ContextFromTranscript, WindowFrom: WindowFromStatusLine}},
		{"as new: the status line's", StatusLine{At: answered, Model: "m", Tokens: 7, Window: 100}, true,
			Context{Tokens: 7, Window: 100, Model: "m", At: answered, From: ContextFromStatusLine, WindowFrom: WindowFromStatusLine}},
	}
	for _, c := range cases {
		got, ok := c.sl.contextOver(tr, true)
		if ok != c.ok || got != c.want {
			t.Errorf("%s: %+v %v, want %+v", c.name, got, ok, c.want)
		}
	}
	if _, ok := (StatusLine{At: answered, Window: DefaultWindow}).contextOver(Context{}, false); ok {
		t.Error("a status line with no tokens yet made a context known")
	}
}

// BenchmarkLoadContexts: what a reload of the readers pays for ten
// Claude sessions whose transcripts are 4 MiB each, the answer among the
// last lines (the usual case) and, for one, behind a 100 KiB tool result.
func BenchmarkLoadContexts(b *testing.B) {
	home := b.TempDir()
	dir := filepath.Join(home, ".claude", "projects", "-p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	filler := strings.Repeat(userLine+"\n", 4<<20/len(userLine))
	recs := map[string]*store.Record{}
	for i := range 10 {
		id := "s" + string(rune('0'+i))
		tail := answerLine + "\n" + userLine + "\n"
		if i == 0 {
			tail = answerLine + "\n" + `{"type":"user","message":{"content":"` + strings.Repeat("x", 100<<10) + `"}}` + "\n"
		}
		p := filepath.Join(dir, id+".jsonl")
		if err := os.WriteFile(p, []byte(filler+tail), 0o600); err != nil {
			b.Fatal(err)
		}
		recs[id] = &store.Record{SessionID: id, TranscriptPath: p}
	}
	st := &store.Store{Version: store.Version, Sessions: recs}
	load := func(b *testing.B) {
		if c, _ := LoadContexts(paths.Layout{Home: home}, st, nil, nil); len(c) != 10 {
			b.Fatalf("%d contexts", len(c))
		}
	}
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			load(b)
		}
	})
	b.Run("every one changed", func(b *testing.B) {
		for b.Loop() {
			tailCache.Lock()
			tailCache.m = nil
			tailCache.Unlock()
			load(b)
		}
	})
}

// TestContextCache: a transcript whose size and time are as they were is
// not read again; one that grew is.
func TestContextCache(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "projects", "-p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "s1.jsonl")
	st := &store.Store{Version: store.Version, Sessions: map[string]*store.Record{"s1": {SessionID: "s1", TranscriptPath: p}}}
	tokens := func() int {
		c, _ := LoadContexts(paths.Layout{Home: home}, st, nil, nil)
		return c["s1"].Tokens
	}
	write := func(data string) {
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(answerLine + "\n")
	if got := tokens(); got != 44132 {
		t.Fatalf("first read: %d", got)
	}
	fi, _ := os.Stat(p)
	// The same size and time: taken as unchanged.
	write(strings.Replace(answerLine, `"input_tokens":23132`, `"input_tokens":33132`, 1) + "\n")
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := tokens(); got != 44132 {
		t.Errorf("an unchanged file was read again: %d", got)
	}
	// Grown: read again.
	write(answerLine + "\n" + strings.Replace(answerLine, `"input_tokens":23132`, `"input_tokens":3132`, 1) + "\n")
	if got := tokens(); got != 24132 {
		t.Errorf("a grown file gave %d, want the newest answer's 24132", got)
	}
}
