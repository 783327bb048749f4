package answer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// ListedName is the file in hud's directory where `hud answer` notes the
// dialogs it last listed to the person.
const ListedName = "answer-listed.json"

// ListedPath is the file's path for a home directory.
func ListedPath(home string) string {
	return filepath.Join(paths.Layout{Home: home}.StoreDir(), ListedName)
}

// maxListed bounds the read of the file: a note per dialog listed.
const maxListed = 1 << 20

// Listed is one dialog a listing showed: the request it was and its
// session.
type Listed struct {
	ID      string `json:"id"`
	Digest  string `json:"digest"`
	Session string `json:"session"`
}

// NoteListed records reqs as what the person was last shown, replacing
// the previous listing.
func NoteListed(home string, reqs []Request) error {
	listed := make([]Listed, len(reqs))
	for i, r := range reqs {
		listed[i] = Listed{ID: r.ID, Digest: r.Digest, Session: r.Session}
	}
	data, err := json.Marshal(struct {
		Requests []Listed `json:"requests"`
	}{listed})
	if err != nil {
		return err
	}
	if err := safefile.Replace(ListedPath(home), data, 0o600); err != nil {
		return fmt.Errorf("noting the dialogs listed: %w", err)
	}
	return nil
}

// ErrNotListed is CheckListed's error for a request the last listing did
// not show.
var ErrNotListed = errors.New("not the dialog `hud answer` listed")

// CheckListed reports whether req is a dialog the last listing showed,
// by its ID and digest: an answer named by session or project goes to
// the dialog the person read, never to one that took its place since.
func CheckListed(home string, req Request) error {
	data, _, err := safefile.Read(ListedPath(home), maxListed, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotListed
	}
	if err != nil {
		return fmt.Errorf("reading the dialogs listed: %w", err)
	}
	var f struct {
		Requests []Listed `json:"requests"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("reading %s: %w", ListedPath(home), err)
	}
	for _, l := range f.Requests {
		if l.ID == req.ID && l.Digest == req.Digest {
			return nil
		}
	}
	return ErrNotListed
}
