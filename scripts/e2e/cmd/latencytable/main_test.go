package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMerge(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const head = "| scenario | step | expected in `hud status --json` | measured from | limit | wait |\n|---|---|---|---|---|---|\n"
	old := write("latency-2.1.197.md", head+
		"| A | start → ready | ready | prompt on screen | 1s | 4 ms |\n"+
		"|  | turn ends → ready | ready | Claude idle again | 1s | 5 ms |\n"+
		"|  | turn ends → ready | ready | Claude idle again | 1s | 6 ms |\n")
	newer := write("latency-2.1.330.md", head+
		"| A | start → ready | ready | prompt on screen | 1s | 3 ms |\n"+
		"|  | question → waiting | waiting | question on screen | 1s | 7 ms |\n"+
		"|  | turn ends → ready | ready | Claude idle again | 1s | 8 ms |\n"+
		"|  | turn ends → ready | ready | Claude idle again | 1s | 9 ms |\n"+
		"| B | a \\| b | x | Enter | 1s | 1 ms |\n")
	var rows []*row
	index := map[key]*row{}
	for _, f := range []struct{ path, release string }{{old, "2.1.197"}, {newer, "2.1.330"}} {
		if err := read(f.path, f.release, &rows, index); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.scenario+"/"+r.step+": "+r.waits["2.1.197"]+", "+r.waits["2.1.330"])
	}
	want := []string{
		"A/start → ready: 4 ms, 3 ms",
		"A/question → waiting: , 7 ms",
		"A/turn ends → ready: 5 ms, 8 ms",
		"A/turn ends → ready: 6 ms, 9 ms",
		`B/a \| b: , 1 ms`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("merged:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
