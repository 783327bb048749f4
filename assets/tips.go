package assets

import (
	"embed"
	"strings"
)

//go:embed tips/*.txt
var tipFiles embed.FS

// Tips returns the break tips of a category ("micro_break", "hydration",
// "full_break"), one per line of tips/<category>.txt, in file order. An
// unknown category has none.
func Tips(category string) []string {
	data, err := tipFiles.ReadFile("tips/" + category + ".txt")
	if err != nil {
		return nil
	}
	var tips []string
	for line := range strings.Lines(string(data)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			tips = append(tips, line)
		}
	}
	return tips
}
