package assets

import (
	"embed"
	"fmt"
)

//go:generate go run ./gen -out png

//go:embed png
var icons embed.FS

// The icon names, one per aggregate state the tray can show.
const (
	IconWaiting    = "waiting"
	IconWorking    = "working"
	IconCompacting = "compacting"
	IconReady      = "ready"
	IconIdle       = "idle"
	IconUnsure     = "unsure"
)

// IconNames lists every icon name, attention first.
var IconNames = []string{IconWaiting, IconWorking, IconCompacting, IconReady, IconIdle, IconUnsure}

// MaxBadge is the highest count an icon's badge shows as a number; larger
// counts show as "9+".
const MaxBadge = 9

// IconPath returns the embedded file of the icon name with a badge for
// count (no badge for a count below 2), in colour or as a macOS template.
func IconPath(name string, count int, template bool) string {
	variant := "color"
	if template {
		variant = "template"
	}
	file := name
	switch {
	case count > MaxBadge:
		file += "-9plus"
	case count > 1:
		file += fmt.Sprintf("-%d", count)
	}
	return "png/" + variant + "/" + file + ".png"
}

// Icon returns the PNG of the icon name with a badge for count. The
// colour icon is for Linux (and the fallback everywhere), the template for
// the macOS menu bar.
func Icon(name string, count int, template bool) ([]byte, error) {
	b, err := icons.ReadFile(IconPath(name, count, template))
	if err != nil {
		return nil, fmt.Errorf("icon %q with count %d: %w", name, count, err)
	}
	return b, nil
}
