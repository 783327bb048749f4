package activity

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/store"
)

// MaxEditedFiles and MaxTodos bound what a checkpoint lists, so it stays small
// enough to read back into Claude's context.
const (
	MaxEditedFiles = 50
	MaxTodos       = 50
)

// Todo is one item of the session's todo list: TodoWrite's items in older
// Claude Code versions, the Task tools' tasks in 2.1.x.
type Todo struct {
	// ID is the task id the Task tools use ("1", "2", …); empty for
	// TodoWrite items. It stays out of checkpoints, whose todos
	// have no ids.
	ID         string `json:"id,omitempty"`
	Content    string `json:"content"`
	Status     string `json:"status"` // pending, in_progress, completed
	ActiveForm string `json:"activeForm,omitempty"`
}

// GitState is what the worker last saw of the session's repository.
type GitState struct {
	Branch string `json:"branch"`
	Head   string `json:"head,omitempty"`
	Dirty  bool   `json:"dirty"`
}

// Session is the per-session activity the hook keeps in
// ~/.capacitor/activity/<session_id>.json.
type Session struct {
	SessionID  string    `json:"session_id"`
	ProjectDir string    `json:"project_dir"`
	StartedAt  time.Time `json:"started_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	// EditedFiles are relative to ProjectDir where possible, most recent
	// first, at most MaxEditedFiles.
	EditedFiles   []string `json:"edited_files,omitempty"`
	FilesCreated  int      `json:"files_created,omitempty"`
	FilesModified int      `json:"files_modified,omitempty"`
	Todos         []Todo   `json:"todos,omitempty"`
	SubagentRuns  int      `json:"agent_runs,omitempty"`
	Commits       int      `json:"commits,omitempty"`
	// Git is filled by the worker.
	Git *GitState `json:"git,omitempty"`
	// WorkingOn is the session's latest prompt, for the handoff.
	WorkingOn      string    `json:"working_on,omitempty"`
	LastCheckpoint time.Time `json:"last_checkpoint,omitzero"`
	// CheckpointEvery is the config's [activity] checkpoint_every, read
	// once at SessionStart so tool events never parse the config file.
	CheckpointEvery time.Duration `json:"checkpoint_every,omitempty"`
}

// CheckpointDue reports whether a periodic checkpoint is due at now.
func (s *Session) CheckpointDue(now time.Time) bool {
	if s.CheckpointEvery <= 0 {
		return false
	}
	last := s.LastCheckpoint
	if last.IsZero() {
		last = s.StartedAt
	}
	return !last.IsZero() && now.Sub(last) >= s.CheckpointEvery
}

// FillWorkingOn takes the session's latest prompt from the store, where
// the hook records it (it does not write it here too, to spare a file
// write on every prompt). A store that cannot be read, or a session no
// longer in it, keeps the last one seen.
func (s *Session) FillWorkingOn(l paths.Layout) {
	st, err := store.Load(l.StorePath())
	if err != nil {
		return
	}
	if rec := st.Sessions[s.SessionID]; rec != nil && rec.WorkingOn != "" {
		s.WorkingOn = rec.WorkingOn
	}
}

// TodoCounts returns how many todos are completed, and how many there are.
func (s *Session) TodoCounts() (done, total int) {
	for _, t := range s.Todos {
		if t.Status == "completed" {
			done++
		}
	}
	return done, len(s.Todos)
}

// OpenTodos returns the todos not completed.
func (s *Session) OpenTodos() []Todo {
	var open []Todo
	for _, t := range s.Todos {
		if t.Status != "completed" {
			open = append(open, t)
		}
	}
	return open
}

// ErrBadSessionID is returned for a session id unfit to name a file.
var ErrBadSessionID = errors.New("invalid session id")

// Dir is ~/.capacitor/activity.
func Dir(l paths.Layout) string { return filepath.Join(l.StoreDir(), "activity") }

// Path returns the activity file of a session.
func Path(l paths.Layout, sessionID string) (string, error) {
	if !store.ValidSessionID(sessionID) {
		return "", fmt.Errorf("%w: %q", ErrBadSessionID, sessionID)
	}
	return filepath.Join(Dir(l), sessionID+".json"), nil
}

// Load reads a session's activity; a missing file is (nil, nil).
func Load(l paths.Layout, sessionID string) (*Session, error) {
	path, err := Path(l, sessionID)
	if err != nil {
		return nil, err
	}
	return readJSONFile[Session]("activity", path)
}

// readJSONFile decodes the JSON file at path; a missing file is (nil, nil).
// what names the file in errors. The read is bounded and refuses a link:
// the checkpoint lives in a project, which the repository shapes, and
// hud's own files are never links.
func readJSONFile[T any](what, path string) (*T, error) {
	b, _, err := safefile.Read(path, safefile.MaxRead, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("reading %s %s: %w", what, path, err)
	}
	return &v, nil
}

// lockTimeout bounds how long the hook waits for a peer updating the same
// session (parallel tool calls fire their hooks at once).
const lockTimeout = time.Second

// Update applies fn to the session's activity under its lock and writes the
// result when fn reports a change. A missing or unreadable file starts
// empty: the activity is a convenience, never worth failing a hook over.
func Update(l paths.Layout, sessionID string, fn func(s *Session) (changed bool)) (*Session, error) {
	path, err := Path(l, sessionID)
	if err != nil {
		return nil, err
	}
	unlock, err := safefile.Lock(path+".lock", lockTimeout)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s, err := Load(l, sessionID)
	if err != nil || s == nil {
		s = &Session{SessionID: sessionID}
	}
	if !fn(s) {
		return s, nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encoding activity: %w", err)
	}
	// Not durable: the hook rewrites this on tool events, and a power cut
	// costing the last edit in a summary is no reason to fsync each time.
	if err := safefile.Replace(path, b, 0o600); err != nil {
		return nil, err
	}
	return s, nil
}

// Remove deletes a session's activity file and its lock.
func Remove(l paths.Layout, sessionID string) error {
	path, err := Path(l, sessionID)
	if err != nil {
		return err
	}
	os.Remove(path + ".lock")
	os.Remove(path + ".worker")
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing activity: %w", err)
	}
	return nil
}
