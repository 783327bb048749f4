// Package version says which hud this is: the release and the commit it
// was built from, set by the release build (make build, make dist) with
//
//	-ldflags "-X github.com/capacitor-hud/hud/hud/version.Version=1.2.0
//	          -X github.com/capacitor-hud/hud/hud/version.Commit=<sha>"
//
// A binary built another way (go install ...@v1.2.0, go build in a
// checkout) falls back to what the Go toolchain recorded in it. The package
// imports only the standard library, so the hook links it for free.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by the linker; empty when the build did not set them.
var (
	Version string
	Commit  string
)

// Info is what a binary knows about its own build.
type Info struct {
	// Version is the release ("1.2.0"), or "dev" when nobody said.
	Version string
	// Commit is the full commit id, "" when unknown; Modified is set when
	// the Go toolchain recorded uncommitted changes in the work tree.
	Commit   string
	Modified bool
	// Go is the toolchain version, Platform GOOS/GOARCH.
	Go, Platform string
}

// Get returns this binary's Info.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return get(Version, Commit, bi)
}

// get prefers what the linker set and fills the rest from the build info
// the toolchain embeds: the module version for `go install ...@v1.2.0`,
// the vcs.* settings for a build in a checkout (without -buildvcs=false).
func get(version, commit string, bi *debug.BuildInfo) Info {
	info := Info{
		Version:  strings.TrimPrefix(version, "v"),
		Commit:   commit,
		Go:       runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if bi != nil {
		if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = strings.TrimPrefix(bi.Main.Version, "v")
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if info.Commit == "" {
					info.Commit = s.Value
				}
			case "vcs.modified":
				info.Modified = info.Modified || (s.Value == "true" && commit == "")
			}
		}
		if bi.GoVersion != "" {
			info.Go = bi.GoVersion
		}
	}
	if info.Version == "" {
		info.Version = "dev"
	}
	return info
}

// String is the one line `hud --version` prints, for a bug report:
//
//	hud 1.2.0 (commit 2b0395e1c4a7, go1.26.8 linux/amd64)
func (i Info) String() string { return i.Line("hud") }

// Line is String for the program called name.
func (i Info) Line(name string) string {
	var b strings.Builder
	b.WriteString(name + " " + i.Version + " (")
	if i.Commit != "" {
		c := i.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		b.WriteString("commit " + c)
		if i.Modified {
			b.WriteString("+changes")
		}
		b.WriteString(", ")
	}
	b.WriteString(i.Go + " " + i.Platform + ")")
	return b.String()
}
