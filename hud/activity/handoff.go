package activity

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// Handoff is the snapshot saved when compaction begins, so what the session
// was doing survives the loss of its context. Its shape is that of the handoff.json other
// context-keeping tools write, so they can read it too.
type Handoff struct {
	Version       int          `json:"version"`
	Timestamp     string       `json:"timestamp"`
	Session       string       `json:"session"`
	ProjectRoot   string       `json:"project_root"`
	Git           *HandoffGit  `json:"git,omitempty"`
	Tasks         []string     `json:"tasks"`
	FilesEdited   []string     `json:"filesEdited"`
	RecentCommits []HandoffRef `json:"recentCommits"`
	Context       string       `json:"context"`
}

// HandoffGit is the repository position at the handoff.
type HandoffGit struct {
	Branch string `json:"branch"`
	Head   string `json:"head"`
}

// HandoffRef is one recent commit.
type HandoffRef struct {
	Hash    string `json:"hash"`
	Message string `json:"message"`
}

// handoffVersion is the version of that handoff.json shape.
const handoffVersion = 2

// recentCommitsInHandoff is how many of the session's commits a handoff
// carries.
const recentCommitsInHandoff = 5

// HandoffPath is ~/.capacitor/handoff/<session_id>.json.
func HandoffPath(l paths.Layout, sessionID string) (string, error) {
	if _, err := Path(l, sessionID); err != nil {
		return "", err
	}
	return filepath.Join(l.StoreDir(), "handoff", sessionID+".json"), nil
}

// BuildHandoff assembles the snapshot from a session's activity, the git
// facts (may be nil) and the session's commits from the commit log.
func BuildHandoff(s *Session, git *GitFacts, commits []Commit, now time.Time) *Handoff {
	h := &Handoff{
		Version:       handoffVersion,
		Timestamp:     now.UTC().Format(time.RFC3339),
		Session:       s.SessionID,
		ProjectRoot:   s.ProjectDir,
		Tasks:         []string{},
		FilesEdited:   append([]string{}, s.EditedFiles...),
		RecentCommits: []HandoffRef{},
		Context:       s.WorkingOn,
	}
	if git != nil {
		h.Git = &HandoffGit{Branch: git.Branch, Head: git.Head}
	}
	for _, t := range s.OpenTodos() {
		h.Tasks = append(h.Tasks, t.Content)
	}
	if len(commits) > recentCommitsInHandoff {
		commits = commits[len(commits)-recentCommitsInHandoff:]
	}
	for i := len(commits) - 1; i >= 0; i-- {
		h.RecentCommits = append(h.RecentCommits, HandoffRef{Hash: commits[i].ShortHash, Message: commits[i].Message})
	}
	return h
}

// WriteHandoff saves h for its session.
func WriteHandoff(l paths.Layout, h *Handoff) error {
	path, err := HandoffPath(l, h.Session)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding handoff: %w", err)
	}
	return safefile.WriteFile(path, append(b, '\n'), 0o600)
}

// ReadHandoff loads a session's handoff; missing is (nil, nil).
func ReadHandoff(l paths.Layout, sessionID string) (*Handoff, error) {
	path, err := HandoffPath(l, sessionID)
	if err != nil {
		return nil, err
	}
	return readJSONFile[Handoff]("handoff", path)
}

// RestoreNote is the short text the hook prints after a compaction (when
// the person enabled it), which Claude Code adds to the new context. Every
// piece is someone else's text (a prompt, a todo, a file name, a commit
// subject pulled from anywhere), so each is one clean line (hud/text):
// nothing can add lines that pose as hud's own, or carry escapes.
func (h *Handoff) RestoreNote() string {
	var b strings.Builder
	b.WriteString("Context restored by hud after compaction.\n")
	if c := text.Line(h.Context, noteLine); c != "" {
		fmt.Fprintf(&b, "You were working on: %s\n", c)
	}
	if h.Git != nil && h.Git.Branch != "" {
		fmt.Fprintf(&b, "Git: branch %s at %s\n", text.Line(h.Git.Branch, 100), text.Line(shortHash(h.Git.Head), 0))
	}
	if len(h.Tasks) > 0 {
		b.WriteString("Open todos:\n")
		for _, t := range h.Tasks {
			fmt.Fprintf(&b, "- %s\n", text.Line(t, noteLine))
		}
	}
	if len(h.FilesEdited) > 0 {
		files := h.FilesEdited
		if len(files) > 10 {
			files = files[:10]
		}
		clean := make([]string, len(files))
		for i, f := range files {
			clean[i] = text.Line(f, noteLine)
		}
		fmt.Fprintf(&b, "Files edited: %s\n", strings.Join(clean, ", "))
	}
	if len(h.RecentCommits) > 0 {
		b.WriteString("Recent commits:\n")
		for _, c := range h.RecentCommits {
			fmt.Fprintf(&b, "- %s %s\n", text.Line(c.Hash, 40), text.Line(c.Message, noteLine))
		}
	}
	return b.String()
}

// noteLine bounds each line of the restore note, in runes.
const noteLine = 200

func shortHash(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}
