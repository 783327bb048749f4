package status

import (
	"fmt"
	"io"
	"strings"
)

// Render renders a View. Each format is one function over the same View.
type Render func(w io.Writer, v *View) error

// ProjectRender renders a ProjectView.
type ProjectRender func(w io.Writer, p *ProjectView) error

// Format is one output format of `hud status` and `hud watch`: everything
// the flag, its help, --watch and --project need to know about it.
type Format struct {
	Name string
	// About says in a few words what the format is for, for --help.
	About string
	// Render prints the live sessions.
	Render Render
	// Line prints them as exactly one line, so `hud status --watch` can
	// stream one line per change (waybar's custom module reads it that
	// way); nil for a format that cannot.
	Line Render
	// Project prints `hud status --project PATH`; nil when the format has
	// no such rendering.
	Project ProjectRender
}

// Formats are the formats, in the order --help lists them; the first is
// the default. Adding one is one entry here, its renderer and its golden
// file in hud/cli/testdata/status.
var Formats = []Format{
	{Name: "text", About: "a table", Render: WriteText, Project: WriteProjectText},
	{Name: "json", About: "the whole state", Render: WriteJSON, Line: WriteJSONLine, Project: WriteProjectJSON},
	{Name: "tmux", About: "one line with tmux colours, for status-right", Render: WriteTmux},
	{Name: "waybar", About: "the JSON waybar's custom module reads", Render: WriteWaybar, Line: WriteWaybar},
}

// LookupFormat finds the format called name.
func LookupFormat(name string) (Format, bool) {
	for _, f := range Formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// FormatNames lists the formats' names, or with keep only those it keeps,
// in the order of Formats, as a person writes a list: "text, json, tmux or
// waybar", "json or waybar".
func FormatNames(keep func(Format) bool) string {
	var names []string
	for _, f := range Formats {
		if keep == nil || keep(f) {
			names = append(names, f.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Streams reports whether f can be streamed line by line (--watch).
func Streams(f Format) bool { return f.Line != nil }

// HasProject reports whether f renders `hud status --project`.
func HasProject(f Format) bool { return f.Project != nil }

// FormatHelp is the formats' part of --help: one line each.
func FormatHelp() string {
	var b strings.Builder
	b.WriteString("Formats:\n")
	for _, f := range Formats {
		fmt.Fprintf(&b, "  %-8s %s\n", f.Name, f.About)
	}
	return b.String()
}
