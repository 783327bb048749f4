package view

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
	"github.com/capacitor-hud/hud/resolver"
)

// transcriptAnswer is an answer of a Claude transcript with the given counts:
// input, cache creation, cache read.
func transcriptAnswer(input, creation, read string) string {
	return `{"isSidechain":false,"message":{"model":"claude-sonnet-4-5","role":"assistant","usage":{"input_tokens":` + input +
		`,"cache_creation_input_tokens":` + creation + `,"cache_read_input_tokens":` + read + `,"output_tokens":1}},` +
		`"type":"assistant","timestamp":"2026-11-26T14:13:10.408Z"}`
}

// TestContextOutOfBoundsShowsNothing: a context no model could be in,
// read from a transcript or handed to the status line, shows nothing on
// any surface, as an unknown one does; a real one beside it shows.
func TestContextOutOfBoundsShowsNothing(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "projects", "-p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	maxInt := strconv.Itoa(math.MaxInt)
	recs := map[string]*store.Record{}
	lines := map[string]resolver.StatusLine{}
	transcripts := map[string]string{
		"good":                   transcriptAnswer("23132", "1000", "20000"),
		"a negative count":       transcriptAnswer("-5", "100", "0"),
		"a sum that overflows":   transcriptAnswer(maxInt, maxInt, "4"),
		"a billion tokens":       transcriptAnswer("0", "0", "1000000000"),
		"a count no int can fit": transcriptAnswer("0", "0", "1e30"),
	}
	for name, line := range transcripts {
		id := strings.ReplaceAll(name, " ", "-")
		p := filepath.Join(dir, id+".jsonl")
		if err := os.WriteFile(p, []byte(line+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		recs[id] = &store.Record{SessionID: id, TranscriptPath: p}
	}
	statusLines := map[string]string{
		"1000 % of the window": `"context_window":{"context_window_size":1000,"current_usage":{"input_tokens":10000}}`,
		"a wrapped sum":        `"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":` + maxInt + `,"cache_creation_input_tokens":` + maxInt + `,"cache_read_input_tokens":4}}`,
		"a window of 1e15":     `"context_window":{"context_window_size":1000000000000000,"current_usage":{"input_tokens":5000}}`,
	}
	now := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	for name, in := range statusLines {
		id := strings.ReplaceAll(name, " ", "-")
		recs[id] = &store.Record{SessionID: id}
		if sl, err := resolver.ParseStatusLine([]byte(`{"session_id":"`+id+`",`+in+`}`), "", now); err == nil {
			lines[id] = sl
		}
	}
	contexts, _ := resolver.LoadContexts(paths.Layout{Home: home}, &store.Store{Version: store.Version, Sessions: recs}, lines, nil)
	for id := range recs {
		s := resolver.Session{SessionID: id}
		if c, ok := contexts[id]; ok {
			s.Context = &c
		}
		v := Of(&s)
		short, long := v.ContextShort(), v.ContextLong()
		if id == "good" {
			if short != "ctx 22%" || long != "context 22 % (44k of 200k tokens)" {
				t.Errorf("good: %q, %q", short, long)
			}
			continue
		}
		if short != "" || long != "" {
			t.Errorf("%s: %q, %q; want nothing", id, short, long)
		}
	}
}
