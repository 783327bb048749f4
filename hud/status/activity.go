package status

import (
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/paths"
)

// LoadActivity fills each session's Activity from what the hook recorded
// (view.LoadActivity) and returns v.
func (v *View) LoadActivity(l paths.Layout) *View {
	view.LoadActivity(v.Sessions, l)
	return v
}
