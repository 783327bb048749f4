package activity

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"io/fs"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// Rotation limits of the append-only logs: past RotateAt lines
// the newest Keep are kept.
const (
	RotateAt = 500
	Keep     = 300
)

// maxLog bounds a log read: RotateAt lines of a few hundred bytes each,
// with room to spare for long file lists.
const maxLog = 8 << 20

// CommitLogPath is ~/.capacitor/commit-log.jsonl.
func CommitLogPath(l paths.Layout) string {
	return filepath.Join(l.StoreDir(), "commit-log.jsonl")
}

// AgentLogPath is ~/.capacitor/agent-invocations.jsonl.
func AgentLogPath(l paths.Layout) string {
	return filepath.Join(l.StoreDir(), "agent-invocations.jsonl")
}

// AppendJSONL appends one JSON line per value to path under an exclusive
// lock, then rotates the file when it has grown past RotateAt lines. Several
// hooks and workers append at once; the lock keeps lines whole and the
// rotation from losing a line appended meanwhile.
func AppendJSONL[T any](path string, values ...T) error {
	var buf bytes.Buffer
	for _, v := range values {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encoding %s line: %w", filepath.Base(path), err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	unlock, err := safefile.Lock(path+".lock", 2*time.Second)
	if err != nil {
		return err
	}
	defer unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	_, werr := f.Write(buf.Bytes())
	cerr := f.Close()
	if werr != nil || cerr != nil {
		return fmt.Errorf("appending to %s: %w", path, errors.Join(werr, cerr))
	}
	return rotate(path)
}

// rotate keeps the newest Keep lines once the file holds more than
// RotateAt. The caller holds the lock.
func rotate(path string) error {
	b, _, err := safefile.Read(path, maxLog, safefile.NoFollow)
	if err != nil {
		return fmt.Errorf("rotating %s: %w", path, err)
	}
	if bytes.Count(b, []byte{'\n'}) <= RotateAt {
		return nil
	}
	lines := bytes.SplitAfter(b, []byte{'\n'})
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return safefile.WriteFile(path, bytes.Join(lines[len(lines)-Keep:], nil), 0o600)
}

// ReadJSONL decodes every line of path that parses as T, skipping the rest
// (a hand-edited or truncated line must not hide the others). A missing
// file is empty.
func ReadJSONL[T any](path string) ([]T, error) {
	b, _, err := safefile.Read(path, maxLog, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var out []T
	for line := range bytes.SplitSeq(b, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var v T
		if json.Unmarshal(line, &v) == nil {
			out = append(out, v)
		}
	}
	return out, nil
}
