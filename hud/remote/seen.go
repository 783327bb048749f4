package remote

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/store"
)

// SeenName is the file in the store's directory where the tray leaves what
// it last saw of the remote machines, for `hud statusline`: Claude Code
// runs that on every redraw, far too often to ask each machine over ssh.
// It holds the status JSON document (status.Version) of the remote
// machines and their sessions alone; the local store never holds them. A
// reader trusts it only while the tray that writes it runs.
const SeenName = "remotes-seen.json"

// SeenPath is SeenName in l's store directory.
func SeenPath(l paths.Layout) string { return filepath.Join(l.StoreDir(), SeenName) }

// WriteSeen replaces the file at path with the machines' state and their
// sessions at now.
func WriteSeen(path string, remotes []view.Remote, sessions []view.Session, now time.Time) error {
	doc, err := seenDoc(remotes, sessions, now)
	if err != nil {
		return err
	}
	return safefile.Replace(path, doc, 0o600)
}

// seenDoc is the file's content for the machines' state and sessions.
func seenDoc(remotes []view.Remote, sessions []view.Session, now time.Time) ([]byte, error) {
	v := &status.View{State: store.StateIdle, Sessions: []view.Session{}, Now: now}
	v.AddRemotes(remotes, sessions)
	var b bytes.Buffer
	if err := status.WriteJSONLine(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ReadSeen reads the file at path back, made safe and bounded as a
// stream's line is; nothing when it is missing, unreadable or of another
// version.
func ReadSeen(path string, now time.Time) ([]view.Remote, []view.Session) {
	b, _, err := safefile.Read(path, MaxLine, safefile.NoFollow)
	if err != nil {
		return nil, nil
	}
	var doc status.JSON
	if json.Unmarshal(b, &doc) != nil || doc.Version != status.Version || len(doc.Remotes) > 64 {
		return nil, nil
	}
	var (
		remotes  []view.Remote
		sessions []view.Session
		per      = map[string]int{}
	)
	for _, r := range doc.Remotes {
		remotes = append(remotes, view.Remote{
			Host: text.Line(r.Host, 40), Up: r.Reachable, Connecting: r.Connecting,
			Since: past(r.Since.Time, now), Problem: text.Line(r.Problem, maxText), Detail: text.Line(r.Detail, maxText),
		})
		per[text.Line(r.Host, 40)] = 0
	}
	for i := range doc.Sessions {
		host := text.Line(doc.Sessions[i].Host, 40)
		n, known := per[host]
		if !known || n == MaxSessions {
			continue // a session of no machine listed, or one too many
		}
		if s, ok := session(&doc.Sessions[i], host, now); ok {
			sessions = append(sessions, s)
			per[host] = n + 1
		}
	}
	return remotes, sessions
}
