package activity

import (
	"fmt"
	"strings"
)

// Facts are the numbers the HUD shows for a session: `hud status --json`
// carries them as "activity", the tray menu as Summary's line.
type Facts struct {
	TodosDone    int    `json:"todos_done"`
	TodosTotal   int    `json:"todos_total"`
	FilesEdited  int    `json:"files_edited"`
	Branch       string `json:"branch,omitempty"`
	Dirty        bool   `json:"dirty,omitempty"`
	Commits      int    `json:"commits"`
	SubagentRuns int    `json:"agent_runs"`
}

// FactsOf extracts the facts from a session's activity (nil: zero facts).
func FactsOf(s *Session) Facts {
	if s == nil {
		return Facts{}
	}
	f := Facts{FilesEdited: len(s.EditedFiles), Commits: s.Commits, SubagentRuns: s.SubagentRuns}
	f.TodosDone, f.TodosTotal = s.TodoCounts()
	if s.Git != nil {
		f.Branch, f.Dirty = s.Git.Branch, s.Git.Dirty
	}
	return f
}

// Summary is the one-line activity of a session, e.g.
// "3/7 todos · 12 files · main* · 2 commits"; empty when nothing is known.
func (f Facts) Summary() string {
	var parts []string
	if f.TodosTotal > 0 {
		parts = append(parts, fmt.Sprintf("%d/%d todos", f.TodosDone, f.TodosTotal))
	}
	if f.FilesEdited > 0 {
		parts = append(parts, plural(f.FilesEdited, "file"))
	}
	if f.Branch != "" {
		b := f.Branch
		if f.Dirty {
			b += "*"
		}
		parts = append(parts, b)
	}
	if f.Commits > 0 {
		parts = append(parts, plural(f.Commits, "commit"))
	}
	if f.SubagentRuns > 0 {
		parts = append(parts, plural(f.SubagentRuns, "agent"))
	}
	return strings.Join(parts, " · ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
