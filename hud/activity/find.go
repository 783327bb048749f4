package activity

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// All loads every session's activity, most recently updated first.
// Unreadable files are skipped.
func All(l paths.Layout) ([]*Session, error) {
	entries, err := safefile.ListDir(Dir(l), "activity")
	if err != nil {
		return nil, err
	}
	var out []*Session
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() {
			continue
		}
		if s, err := Load(l, id); err == nil && s != nil {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return latest(out[i]).After(latest(out[j])) })
	return out, nil
}

func latest(s *Session) (t time.Time) {
	t = s.UpdatedAt
	if s.StartedAt.After(t) {
		t = s.StartedAt
	}
	if s.LastCheckpoint.After(t) {
		t = s.LastCheckpoint
	}
	return t
}

// Find picks the session a person means: a session id or a unique prefix of
// one, else a project path (the newest session whose project is that path,
// or contains it).
func Find(l paths.Layout, query string) (*Session, error) {
	all, err := All(l)
	if err != nil {
		return nil, err
	}
	var byID []*Session
	for _, s := range all {
		if s.SessionID == query {
			return s, nil
		}
		if strings.HasPrefix(s.SessionID, query) {
			byID = append(byID, s)
		}
	}
	if len(byID) == 1 {
		return byID[0], nil
	}
	if len(byID) > 1 && !strings.ContainsRune(query, filepath.Separator) {
		return nil, fmt.Errorf("%q matches %d sessions; give more of the id", query, len(byID))
	}
	project := paths.Normalize(query)
	for _, s := range all {
		if m := paths.Compare(paths.Normalize(s.ProjectDir), project); m == paths.MatchExact || m == paths.MatchChild {
			return s, nil
		}
	}
	return nil, nil
}
