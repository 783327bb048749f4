//go:build !darwin

package autostart

// Default is the XDG autostart entry in home's config directory.
func Default(home string, getenv func(string) string) Target {
	return Target{
		Kind:   "XDG autostart entry",
		Path:   DesktopPath(home, getenv("XDG_CONFIG_HOME")),
		Render: RenderDesktop,
	}
}
