package autostart

// Default is the LaunchAgent in home.
func Default(home string, getenv func(string) string) Target {
	return Target{
		Kind:   "LaunchAgent",
		Path:   LaunchAgentPath(home),
		Render: func(exe string) []byte { return RenderLaunchAgent(exe, home) },
	}
}
