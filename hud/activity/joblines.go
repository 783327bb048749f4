package activity

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/capacitor-hud/hud/lockholder"
)

// A launch travels to the lock holder as lines: a header naming the kind
// and the version of its encoding, then one field a line, every line
// ended by a newline. encodeLines and decodeLines are the two sides, so
// that it is read as strictly as it is written.

// encodeLines renders a job of the kind header with fields, one a line. A
// field holding a newline (which would end it early) or a NUL (which no
// path, command line or environment carries), or a job over
// lockholder.MaxJob, is an error: the sender then does the work itself.
func encodeLines(header string, fields ...string) ([]byte, error) {
	n := len(header) + 1
	for _, f := range fields {
		if strings.ContainsAny(f, "\x00\n") {
			return nil, fmt.Errorf("encoding %s: a newline or NUL in %.80q", header, f)
		}
		n += len(f) + 1
	}
	if n > lockholder.MaxJob {
		return nil, fmt.Errorf("encoding %s: %d bytes, over %d", header, n, lockholder.MaxJob)
	}
	b := make([]byte, 0, n)
	b = append(b, header...)
	b = append(b, '\n')
	for _, f := range fields {
		b = append(b, f...)
		b = append(b, '\n')
	}
	return b, nil
}

// decodeLines returns the n fields of a job of the kind header, as
// encodeLines wrote it, and an error for anything else: another kind or
// version, a field more or less, a line not ended, a NUL, a job over
// lockholder.MaxJob.
func decodeLines(job []byte, header string, n int) ([]string, error) {
	if len(job) > lockholder.MaxJob {
		return nil, fmt.Errorf("decoding %s: %d bytes, over %d", header, len(job), lockholder.MaxJob)
	}
	if !bytes.HasPrefix(job, []byte(header+"\n")) {
		return nil, fmt.Errorf("decoding %s: another kind of job: %.40q", header, job)
	}
	lines := bytes.SplitAfter(job[len(header)+1:], []byte{'\n'})
	if len(lines) != n+1 || len(lines[n]) != 0 {
		return nil, fmt.Errorf("decoding %s: %d fields, want %d", header, len(lines)-1, n)
	}
	fields := make([]string, n)
	for i := range fields {
		line := bytes.TrimSuffix(lines[i], []byte{'\n'})
		if bytes.IndexByte(line, 0) >= 0 {
			return nil, fmt.Errorf("decoding %s: a NUL in field %d", header, i+1)
		}
		fields[i] = string(line)
	}
	return fields, nil
}
