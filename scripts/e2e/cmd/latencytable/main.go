// Command latencytable merges the e2e suite's latency tables of several
// Claude Code releases (the Markdown run.sh writes per release) into one,
// a wait column per release, for docs/latency.md:
//
//	go run ./scripts/e2e/cmd/latencytable bin/e2e/latency-2.1.197.md bin/e2e/latency-2.1.330.md
//
// A release's column is named after its file (latency-<release>.md). A step
// one release has and another lacks (a scenario skipped on an older
// client, a step only one of them shows) gets "–" in the other's column.
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// row is one checkpoint: its identity (scenario, step) and what the table
// says about it.
type row struct {
	scenario, step, expected, from, limit string
	waits                                 map[string]string // release → wait
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: latencytable latency-<release>.md…")
		os.Exit(2)
	}
	var releases []string
	var rows []*row
	index := map[key]*row{}
	for _, path := range os.Args[1:] {
		release := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "latency-"), ".md")
		releases = append(releases, release)
		if err := read(path, release, &rows, index); err != nil {
			fmt.Fprintf(os.Stderr, "latencytable: %v\n", err)
			os.Exit(1)
		}
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "| scenario | step | expected in `hud status --json` | measured from | limit | %s |\n", strings.Join(releases, " | "))
	fmt.Fprintf(w, "|---|---|---|---|---|%s\n", strings.Repeat("---|", len(releases)))
	last := ""
	for _, r := range rows {
		name := r.scenario
		if name == last {
			name = ""
		}
		last = r.scenario
		var waits []string
		for _, rel := range releases {
			wait, ok := r.waits[rel]
			if !ok {
				wait = "–"
			}
			waits = append(waits, wait)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", name, r.step, r.expected, r.from, r.limit, strings.Join(waits, " | "))
	}
}

// read adds one release's table to rows: a step seen before gets this
// release's wait, a new one goes right after the row before it in this
// release's table. A step is known by its scenario, its name and which
// occurrence of that name it is ("turn ends → ready" comes often).
func read(path, release string, rows *[]*row, index map[key]*row) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	scenario := ""
	seen := map[key]int{}
	var prev *row
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| scenario ") {
			continue
		}
		// Cells hold escaped pipes (\|) but never " | ".
		cells := strings.Split(strings.TrimSuffix(line[2:], " |"), " | ")
		if len(cells) != 6 {
			return fmt.Errorf("%s:%d: %d cells, want 6", path, n, len(cells))
		}
		if cells[0] != "" {
			scenario = cells[0]
		}
		k := key{scenario: scenario, step: cells[1]}
		seen[k]++
		k.nth = seen[k]
		r := index[k]
		if r == nil {
			r = &row{scenario: scenario, step: cells[1], expected: cells[2], from: cells[3], limit: cells[4], waits: map[string]string{}}
			index[k] = r
			*rows = insertAfter(*rows, prev, r)
		}
		r.waits[release] = cells[5]
		prev = r
	}
	return sc.Err()
}

// key identifies a step across the releases' tables.
type key struct {
	scenario, step string
	nth            int
}

// insertAfter puts r right after prev when both are of one scenario, else
// after the last row of r's scenario, else at the end.
func insertAfter(rows []*row, prev, r *row) []*row {
	at := len(rows)
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i] == prev && prev.scenario == r.scenario {
			at = i + 1
			break
		}
	}
	if at == len(rows) {
		for i := len(rows) - 1; i >= 0; i-- {
			if rows[i].scenario == r.scenario {
				at = i + 1
				break
			}
		}
	}
	rows = append(rows, nil)
	copy(rows[at+1:], rows[at:])
	rows[at] = r
	return rows
}
