package activity

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// Checkpoint reasons, as the checkpoint's checkpoint_reason writes them.
const (
	ReasonAutomatic = "automatic"
	ReasonManual    = "manual"
	ReasonStop      = "Stop hook"
)

// checkpointTypes maps a reason to the checkpoint's checkpoint_type.
var checkpointTypes = map[string]string{
	ReasonAutomatic: "periodic",
	ReasonManual:    "user_requested",
	ReasonStop:      "event_driven",
}

// Size limits: a checkpoint is read back into Claude's context, so it is
// bounded as a whole and per free-text field.
const (
	MaxCheckpointBytes = 10 * 1024
	MaxWarningRunes    = 500
	MaxNotesRunes      = 1000
)

// Checkpoint is <project>/.claude/.project-state.json. Its keys are
// fixed: other tools read the file.
type Checkpoint struct {
	SessionID              string           `json:"session_id"`
	Timestamp              string           `json:"timestamp"`
	ProjectRoot            string           `json:"project_root"`
	ProjectName            string           `json:"project_name,omitempty"`
	EditedFiles            []string         `json:"edited_files"`
	Todos                  []Todo           `json:"todos"`
	Phase                  *Phase           `json:"phase,omitempty"`
	Plan                   *Plan            `json:"plan,omitempty"`
	Git                    *GitFacts        `json:"git,omitempty"`
	SessionDurationMinutes int              `json:"session_duration_minutes"`
	CheckpointReason       string           `json:"checkpoint_reason"`
	CheckpointType         string           `json:"checkpoint_type,omitempty"`
	ActivitySummary        *ActivitySummary `json:"activity_summary,omitempty"`
	ContextNotes           string           `json:"context_notes,omitempty"`
	Warnings               []string         `json:"warnings"`
	// ClaudeSessionID ties the checkpoint to Claude Code's own session id
	// (session_id is a timestamp name, see [CheckpointSessionID]).
	ClaudeSessionID string `json:"claude_session_id,omitempty"`
}

// ActivitySummary is the checkpoint's activity_summary. Line counts are not
// known from hook events, so they are left out rather than guessed.
type ActivitySummary struct {
	FilesCreated  int `json:"files_created"`
	FilesModified int `json:"files_modified"`
	Commits       int `json:"commits"`
}

// CheckpointPath is <project>/.claude/.project-state.json.
func CheckpointPath(project string) string {
	return filepath.Join(project, ".claude", ".project-state.json")
}

// CheckpointSessionID is a checkpoint's session_id: a name made from the
// session's start, "session_2006-01-02_15-04-05" in UTC.
func CheckpointSessionID(started time.Time) string {
	return "session_" + started.UTC().Format("2006-01-02_15-04-05")
}

// BuildCheckpoint assembles a checkpoint from a session's activity and the
// facts the worker gathered. git and plan may be nil.
func BuildCheckpoint(s *Session, reason string, now time.Time, git *GitFacts, plan *PlanFile, warnings []string) *Checkpoint {
	started := s.StartedAt
	if started.IsZero() {
		started = now
	}
	cp := &Checkpoint{
		SessionID:              CheckpointSessionID(started),
		Timestamp:              now.UTC().Format(time.RFC3339),
		ProjectRoot:            s.ProjectDir,
		ProjectName:            filepath.Base(s.ProjectDir),
		EditedFiles:            append([]string{}, s.EditedFiles...),
		Todos:                  withoutIDs(s.Todos),
		Git:                    git,
		SessionDurationMinutes: int(now.Sub(started).Minutes()),
		CheckpointReason:       reason,
		CheckpointType:         checkpointTypes[reason],
		ActivitySummary: &ActivitySummary{
			FilesCreated:  s.FilesCreated,
			FilesModified: s.FilesModified,
			Commits:       s.Commits,
		},
		Warnings:        []string{},
		ClaudeSessionID: s.SessionID,
	}
	if s.WorkingOn != "" {
		cp.ContextNotes = text.Truncate("Working on: "+s.WorkingOn, MaxNotesRunes)
	}
	if plan != nil {
		cp.Plan, cp.Phase = plan.Plan, plan.Phase
	}
	for _, w := range warnings {
		cp.Warnings = append(cp.Warnings, text.Truncate(w, MaxWarningRunes))
	}
	if len(cp.EditedFiles) > MaxEditedFiles {
		cp.EditedFiles = cp.EditedFiles[:MaxEditedFiles]
	}
	if len(cp.Todos) > MaxTodos {
		cp.Todos = cp.Todos[:MaxTodos]
	}
	return cp
}

// Encode renders cp within MaxCheckpointBytes: when it is too big it drops
// the oldest edited files, then completed todos, then the longest texts,
// and says so in a warning.
func (cp *Checkpoint) Encode() ([]byte, error) {
	trimmed := false
	for {
		b, err := json.MarshalIndent(cp, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("encoding checkpoint: %w", err)
		}
		if len(b) < MaxCheckpointBytes {
			return append(b, '\n'), nil
		}
		if !trimmed {
			trimmed = true
			cp.Warnings = append(cp.Warnings, "checkpoint trimmed to stay under 10 KB")
		}
		if !cp.shrink() {
			return nil, fmt.Errorf("encoding checkpoint: still %d bytes after trimming", len(b))
		}
	}
}

// shrink removes one piece of the least useful content; false when there
// is nothing left to remove.
func (cp *Checkpoint) shrink() bool {
	switch {
	case len(cp.EditedFiles) > 10:
		cp.EditedFiles = cp.EditedFiles[:len(cp.EditedFiles)-5]
	case dropCompletedTodo(cp):
	case utf8.RuneCountInString(cp.ContextNotes) > 200:
		cp.ContextNotes = text.Truncate(cp.ContextNotes, 200)
	case len(cp.Todos) > 10:
		cp.Todos = cp.Todos[:len(cp.Todos)-5]
	case len(cp.Warnings) > 1:
		cp.Warnings = cp.Warnings[1:]
	case len(cp.EditedFiles) > 0:
		cp.EditedFiles = cp.EditedFiles[:len(cp.EditedFiles)-1]
	case len(cp.Todos) > 0:
		cp.Todos = cp.Todos[:len(cp.Todos)-1]
	default:
		return false
	}
	return true
}

func dropCompletedTodo(cp *Checkpoint) bool {
	for i := len(cp.Todos) - 1; i >= 0; i-- {
		if cp.Todos[i].Status == "completed" {
			cp.Todos = append(cp.Todos[:i], cp.Todos[i+1:]...)
			return true
		}
	}
	return false
}

// WriteCheckpoint writes cp into its project, keeping the previous one as
// .project-state.json.bak. The project must be one the person opened: see
// IsProjectDir. The project is the repository's to shape, so: .claude must
// be a real directory (not a link out of the project); the previous
// checkpoint is backed up only when it is a regular file (a planted link
// to a secret is replaced, never copied) and with its own mode; both are
// replaced by rename, which replaces a link rather than writing through
// it; and the checkpoint is 0600, like everything else hud writes: it
// holds the first line of a prompt.
func WriteCheckpoint(cp *Checkpoint, home string) error {
	if err := IsProjectDir(cp.ProjectRoot, home); err != nil {
		return err
	}
	b, err := cp.Encode()
	if err != nil {
		return err
	}
	path := CheckpointPath(cp.ProjectRoot)
	// A project's .claude is a project folder (0755), not one of hud's own.
	if err := safefile.RealDir(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing checkpoint: %w", err)
	}
	if prev, fi, err := safefile.Read(path, safefile.MaxRead, safefile.NoFollow); err == nil {
		if err := safefile.WriteFile(path+".bak", prev, fi.Mode().Perm()); err != nil {
			return fmt.Errorf("backing up checkpoint: %w", err)
		}
	}
	return safefile.WriteFile(path, b, 0o600)
}

// ErrNotProject is returned for a directory the HUD must not write into.
var ErrNotProject = errors.New("not a project directory")

// IsProjectDir allows writing a checkpoint into dir only when it is an
// existing, absolute directory that looks like a project (it holds .git or
// .claude) and is neither the home directory nor the file system root: a
// session started in ~ must not litter it.
func IsProjectDir(dir, home string) error {
	if dir == "" || !filepath.IsAbs(dir) {
		return fmt.Errorf("%w: %q", ErrNotProject, dir)
	}
	clean := filepath.Clean(dir)
	if clean == string(filepath.Separator) || (home != "" && clean == filepath.Clean(home)) {
		return fmt.Errorf("%w: %s", ErrNotProject, dir)
	}
	if fi, err := os.Stat(clean); err != nil || !fi.IsDir() {
		return fmt.Errorf("%w: %s does not exist", ErrNotProject, dir)
	}
	for _, marker := range []string{".git", ".claude"} {
		if _, err := os.Stat(filepath.Join(clean, marker)); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%w: %s has no .git or .claude", ErrNotProject, dir)
}

// ReadCheckpoint reads a project's checkpoint; missing is (nil, nil).
func ReadCheckpoint(project string) (*Checkpoint, error) {
	return readJSONFile[Checkpoint]("checkpoint", CheckpointPath(project))
}

// withoutIDs copies todos without the Task tools' ids: a checkpoint's todos
// are content, status and activeForm only.
func withoutIDs(todos []Todo) []Todo {
	out := make([]Todo, len(todos))
	for i, t := range todos {
		t.ID = ""
		out[i] = t
	}
	return out
}
