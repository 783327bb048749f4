package install

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// clientVersionTimeout bounds `claude --version`, which answers in
// milliseconds; a client that hangs must not hang install.
const clientVersionTimeout = 5 * time.Second

// ClientVersion asks the Claude Code at path for its version: `claude
// --version` prints "2.1.330 (Claude Code)". It runs nothing else and reads
// no settings.
func ClientVersion(path string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), clientVersionTimeout)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Stdout = &limitedBuffer{buf: &out, max: 4096}
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("asking %s for its version: %w", path, err)
	}
	v, _, _ := strings.Cut(strings.TrimSpace(out.String()), " ")
	if _, ok := parseVersion(v); !ok {
		return "", fmt.Errorf("asking %s for its version: %q is not a version", path, out.String())
	}
	return v, nil
}

// VersionAtLeast reports whether version v (major.minor.patch) is min or
// newer. An unknown v ("") counts as new: hud supports no client old
// enough to matter, and a newer one is the likelier guess.
func VersionAtLeast(v, min string) bool {
	a, ok := parseVersion(v)
	if !ok {
		return true
	}
	b, _ := parseVersion(min)
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return true
}

// parseVersion reads "2.1.330" (a pre-release suffix is ignored).
func parseVersion(v string) ([3]int, bool) {
	var out [3]int
	v, _, _ = strings.Cut(v, "-")
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
