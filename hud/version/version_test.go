package version

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestGet(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name            string
		version, commit string
		bi              *debug.BuildInfo
		want            string
	}{
		{
			name: "nothing known",
			want: "hud dev (go1.26.0 " + platform + ")",
			bi:   &debug.BuildInfo{GoVersion: "go1.26.0"},
		},
		{
			name:    "set by the release build",
			version: "1.2.0", commit: "2b0395e1c4a7ffd0e6c1a4f3f1e0f5d1a2b3c4d5",
			bi: &debug.BuildInfo{GoVersion: "go1.26.0", Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "ffffffffffffffffffffffffffffffffffffffff"},
				{Key: "vcs.modified", Value: "true"},
			}},
			want: "hud 1.2.0 (commit 2b0395e1c4a7, go1.26.0 " + platform + ")",
		},
		{
			name:    "a leading v is dropped",
			version: "v1.2.0",
			bi:      &debug.BuildInfo{GoVersion: "go1.26.0"},
			want:    "hud 1.2.0 (go1.26.0 " + platform + ")",
		},
		{
			name: "go install ...@v1.3.0",
			bi:   &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.3.0"}},
			want: "hud 1.3.0 (go1.26.0 " + platform + ")",
		},
		{
			name: "go build in a checkout with changes",
			bi: &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "abcdef0123456789"},
				{Key: "vcs.modified", Value: "true"},
			}},
			want: "hud dev (commit abcdef012345+changes, go1.26.0 " + platform + ")",
		},
		{
			name: "no build info at all",
			want: "hud dev (" + runtime.Version() + " " + platform + ")",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := get(tt.version, tt.commit, tt.bi).String(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
