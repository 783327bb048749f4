// Package fieldfile reads the small line-based files the tests and the e2e
// rig keep beside their data (scripts/e2e/claude-code-versions, a
// recording's replay.txt): one record a line, its fields separated by
// blanks, blank lines and lines starting with # ignored.
package fieldfile

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Read returns the records of the file at path, each of exactly n fields;
// usage describes a record for the error about a line that is not one.
func Read(path string, n int, usage string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var records [][]string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != n {
			return nil, fmt.Errorf("%s:%d: want %q, got %q", path, line, usage, text)
		}
		records = append(records, fields)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return records, nil
}
