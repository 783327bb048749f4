package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ListDir lists dir, whose entries are what ("locks"), sorted by name. A
// directory that does not exist (yet) holds nothing: every directory the
// HUD reads is created by its first writer, so a missing one is the normal
// state before that, not an error.
func ListDir(dir, what string) ([]os.DirEntry, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, err)
	}
	return entries, nil
}
