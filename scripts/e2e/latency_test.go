package e2e

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// checkpoint is one step's outcome: how long after the keystroke (or other
// moment, see from) `hud status --json` first showed the expected state.
type checkpoint struct {
	scenario string
	step     string
	want     string
	from     string
	wait     time.Duration
	limit    time.Duration
	ok       bool
	held     bool // wait is how long a state held, not how long it took
}

// latencyTable collects every checkpoint of the run, in order.
type latencyTable struct {
	mu   sync.Mutex
	rows []checkpoint
}

func (l *latencyTable) add(c checkpoint) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rows = append(l.rows, c)
}

func (l *latencyTable) snapshot() []checkpoint {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]checkpoint(nil), l.rows...)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func (c checkpoint) result() string {
	if c.ok && c.held {
		return "held " + ms(c.wait)
	}
	if c.ok {
		return ms(c.wait)
	}
	return "FAIL (not within " + c.limit.String() + ")"
}

// text is the table for a terminal, its columns as wide as their widest
// cell.
func (l *latencyTable) text() string {
	rows := [][]string{{"scenario", "step", "expected", "measured from", "limit", "wait"}}
	passed, failed := 0, 0
	last := ""
	for _, c := range l.snapshot() {
		name := strings.TrimPrefix(c.scenario, "Test")
		if name == last {
			name = ""
		} else {
			last = name
		}
		rows = append(rows, []string{name, c.step, clip(c.want, 48), c.from, c.limit.String(), c.result()})
		if c.ok {
			passed++
		} else {
			failed++
		}
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		for i, cell := range row {
			pad := widths[i] - utf8.RuneCountInString(cell)
			if i == len(row)-1 {
				pad = 0
			}
			b.WriteString(cell + strings.Repeat(" ", pad))
			if i < len(row)-1 {
				b.WriteString("  ")
			}
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "\ncheckpoints: %d passed, %d failed\n", passed, failed)
	return b.String()
}

// markdown is the same table for docs/latency.md.
func (l *latencyTable) markdown() string {
	var b strings.Builder
	b.WriteString("| scenario | step | expected in `hud status --json` | measured from | limit | wait |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	last := ""
	for _, c := range l.snapshot() {
		name := strings.TrimPrefix(c.scenario, "Test")
		if name == last {
			name = ""
		} else {
			last = name
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %v | %s |\n", name, c.step, strings.ReplaceAll(c.want, "|", `\|`), c.from, c.limit, c.result())
	}
	return b.String()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
