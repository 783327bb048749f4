package assets

import (
	"embed"
	"fmt"
	"io/fs"
)

//go:embed commands/*.md
var commandFiles embed.FS

// CommandNames lists the Claude Code slash commands the HUD ships
// ("session.md"), which `hud session install-commands` copies into
// ~/.claude/commands/.
func CommandNames() []string {
	entries, _ := fs.ReadDir(commandFiles, "commands")
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// Command returns the text of one slash command file.
func Command(name string) ([]byte, error) {
	data, err := commandFiles.ReadFile("commands/" + name)
	if err != nil {
		return nil, fmt.Errorf("slash command %q: %w", name, err)
	}
	return data, nil
}
