package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// SetBool sets one boolean key of the settings file at path (created from
// the template when missing) and leaves every other line as the person
// wrote it: the key's line is replaced in place, or added under its table,
// or the table is added at the end. A file that is a link (into the
// person's dotfiles) is edited where it points.
func SetBool(path, table, key string, value bool) error {
	s, ok := lookup(table, key)
	if !ok || s.kind != kindBool {
		return fmt.Errorf("config: %s.%s is not a boolean setting", table, key)
	}
	if _, err := EnsureFile(path); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("finding the settings file: %w", err)
	}
	data, info, err := safefile.Read(real, safefile.MaxRead, safefile.NoFollow)
	if err != nil {
		return fmt.Errorf("reading the settings: %w", err)
	}
	text := setLine(string(data), table, key, fmt.Sprintf("%s = %t", key, value))
	if err := safefile.WriteFile(real, []byte(text), info.Mode().Perm()); err != nil {
		return fmt.Errorf("writing the settings: %w", err)
	}
	return nil
}

// lookup finds a setting by table and key.
func lookup(table, key string) (setting, bool) {
	for _, s := range keys {
		if s.table == table && s.key == key {
			return s, true
		}
	}
	return setting{}, false
}

// setLine returns text with table's key line replaced by line: in place
// when the key is there, right under the table's header when only the
// table is, and in a new table at the end otherwise.
func setLine(text, table, key, line string) string {
	lines := strings.SplitAfter(text, "\n")
	header := -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			if header >= 0 {
				break // the next table: the key is not in ours
			}
			if tableName(t) == table {
				header = i
			}
			continue
		}
		if header >= 0 && keyName(t) == key {
			lines[i] = line + "\n"
			return strings.Join(lines, "")
		}
	}
	if header >= 0 {
		lines = append(lines[:header+1], append([]string{line + "\n"}, lines[header+1:]...)...)
		return strings.Join(lines, "")
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text + "\n[" + table + "]\n" + line + "\n"
}

// tableName is the name in a "[table]" header line ("" for none).
func tableName(line string) string {
	if i := strings.Index(line, "#"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	if !strings.HasPrefix(line, "[") || !strings.HasSuffix(line, "]") || strings.HasPrefix(line, "[[") {
		return ""
	}
	return strings.TrimSpace(strings.Trim(line, "[]"))
}

// keyName is the key a "key = value" line sets ("" for none).
func keyName(line string) string {
	k, _, ok := strings.Cut(line, "=")
	if !ok || strings.HasPrefix(line, "#") {
		return ""
	}
	return strings.Trim(strings.TrimSpace(k), `"`)
}
