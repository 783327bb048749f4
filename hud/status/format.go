package status

import (
	"io"
	"maps"
	"slices"
)

// Format renders a View. Each format is one function over the same View.
type Format func(w io.Writer, v *View) error

// ProjectFormat renders a ProjectView.
type ProjectFormat func(w io.Writer, p *ProjectView) error

// Formats are the renderings of `hud status`, by --format name.
var Formats = map[string]Format{
	"text":   WriteText,
	"json":   WriteJSON,
	"tmux":   WriteTmux,   // formats.go
	"waybar": WriteWaybar, // formats.go
}

// ProjectFormats are the renderings of `hud status --project`.
var ProjectFormats = map[string]ProjectFormat{
	"text": WriteProjectText,
	"json": WriteProjectJSON,
}

// FormatNames lists the names in Formats, sorted, for usage messages.
func FormatNames() []string { return slices.Sorted(maps.Keys(Formats)) }
