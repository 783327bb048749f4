package activity

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// Phase and Plan are the checkpoint's optional "phase" and "plan" objects.
type Phase struct {
	Name       string `json:"name"`
	Completion int    `json:"completion"`
}

// Plan summarises a plan file's task list.
type Plan struct {
	File           string `json:"file"`
	Path           string `json:"path"`
	TotalTasks     int    `json:"total_tasks"`
	CompletedTasks int    `json:"completed_tasks"`
	Progress       int    `json:"progress"`
	LastModified   string `json:"last_modified"`
}

// PlanFile is what a project's plan file says.
type PlanFile struct {
	Plan  *Plan
	Phase *Phase
}

// planNames are the files looked for, in order, at the project root and in
// .claude/: the first that exists is the plan.
var planNames = []string{"PLAN.md", "plan.md", filepath.Join(".claude", "PLAN.md"), filepath.Join(".claude", "plan.md")}

// ReadPlan finds the project's plan file and counts its Markdown task
// items (`- [ ]` open, `- [x]` done). The phase is the last heading before
// the first open task, with that section's completion. No plan file, or
// one without tasks, yields nil.
func ReadPlan(project string) *PlanFile {
	for _, name := range planNames {
		path := filepath.Join(project, name)
		// The repository chooses what its PLAN.md is: a link (to a
		// secret), a FIFO, /dev/zero. Only a regular file of sane size
		// counts, and the first name present decides.
		b, fi, err := safefile.Read(path, safefile.MaxRead, safefile.NoFollow)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil
		}
		pf := parsePlan(b)
		if pf == nil {
			return nil
		}
		pf.Plan.File = filepath.Base(path)
		pf.Plan.Path = path
		pf.Plan.LastModified = fi.ModTime().UTC().Format(time.RFC3339)
		return pf
	}
	return nil
}

func parsePlan(b []byte) *PlanFile {
	type section struct {
		name        string
		total, done int
	}
	var sections []*section
	cur := &section{}
	sections = append(sections, cur)
	plan := &Plan{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			cur = &section{name: strings.TrimSpace(strings.TrimLeft(line, "#"))}
			sections = append(sections, cur)
			continue
		}
		for _, bullet := range []string{"- ", "* ", "+ "} {
			rest, ok := strings.CutPrefix(line, bullet)
			if !ok {
				continue
			}
			switch {
			case strings.HasPrefix(rest, "[ ]"):
				cur.total++
				plan.TotalTasks++
			case strings.HasPrefix(rest, "[x]"), strings.HasPrefix(rest, "[X]"):
				cur.total++
				cur.done++
				plan.TotalTasks++
				plan.CompletedTasks++
			}
		}
	}
	if plan.TotalTasks == 0 {
		return nil
	}
	plan.Progress = plan.CompletedTasks * 100 / plan.TotalTasks
	pf := &PlanFile{Plan: plan}
	for _, s := range sections {
		if s.total > s.done && s.name != "" {
			pf.Phase = &Phase{Name: s.name, Completion: s.done * 100 / s.total}
			break
		}
	}
	return pf
}
