package autostart

import (
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		os.WriteFile(file, got, 0o644)
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s:\ngot:\n%s\nwant:\n%s", file, got, want)
	}
}

func TestRenderLaunchAgent(t *testing.T) {
	golden(t, "launchagent.plist", RenderLaunchAgent("/Users/ann/.local/bin/hud", "/Users/ann"))
	// A path with XML specials stays well-formed and round-trips.
	exe := `/Users/ann/Tools & <Co>/hud`
	b := RenderLaunchAgent(exe, "/Users/ann")
	var doc struct {
		Dict struct {
			Strings []string `xml:"string"`
			Array   struct {
				Strings []string `xml:"string"`
			} `xml:"array"`
		} `xml:"dict"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b)
	}
	if got := doc.Dict.Array.Strings; len(got) != 1 || got[0] != exe {
		t.Errorf("ProgramArguments = %q; want [%q]", got, exe)
	}
	if doc.Dict.Strings[0] != Label {
		t.Errorf("Label = %q", doc.Dict.Strings[0])
	}
}

func TestRenderDesktop(t *testing.T) {
	golden(t, "hud.desktop", RenderDesktop("/home/ann/.local/bin/hud"))
	tests := []struct{ exe, exec string }{
		{"/usr/bin/hud", "/usr/bin/hud"},
		{"/home/ann/my tools/hud", `"/home/ann/my tools/hud"`},
		{`/opt/a"b/hud`, `"/opt/a\\"b/hud"`},
		{`/opt/$x/hud`, `"/opt/\\$x/hud"`},
		{`/opt/back\slash/hud`, `"/opt/back\\\\slash/hud"`},
		{"/opt/100%/hud", "/opt/100%%/hud"},
	}
	for _, tt := range tests {
		b := string(RenderDesktop(tt.exe))
		if !strings.Contains(b, "\nExec="+tt.exec+"\n") {
			t.Errorf("RenderDesktop(%q) has no Exec=%s:\n%s", tt.exe, tt.exec, b)
		}
	}
}

func TestDesktopPath(t *testing.T) {
	if got := DesktopPath("/home/ann", ""); got != "/home/ann/.config/autostart/hud.desktop" {
		t.Errorf("default = %s", got)
	}
	if got := DesktopPath("/home/ann", "/cfg"); got != "/cfg/autostart/hud.desktop" {
		t.Errorf("XDG_CONFIG_HOME = %s", got)
	}
	if got := DesktopPath("/home/ann", "relative"); got != "/home/ann/.config/autostart/hud.desktop" {
		t.Errorf("relative XDG_CONFIG_HOME must be ignored, got %s", got)
	}
	if got := LaunchAgentPath("/Users/ann"); got != "/Users/ann/Library/LaunchAgents/"+Label+".plist" {
		t.Errorf("LaunchAgentPath = %s", got)
	}
}

func TestEnableDisableStatus(t *testing.T) {
	home := t.TempDir()
	for _, target := range []Target{
		{Kind: "desktop", Path: DesktopPath(home, ""), Render: RenderDesktop},
		{Kind: "plist", Path: LaunchAgentPath(home), Render: func(exe string) []byte { return RenderLaunchAgent(exe, home) }},
	} {
		t.Run(target.Kind, func(t *testing.T) {
			if st, err := target.Status("/bin/hud"); err != nil || st.Enabled {
				t.Fatalf("before: %+v, %v", st, err)
			}
			if changed, err := target.Enable("/bin/hud"); err != nil || !changed {
				t.Fatalf("Enable = %v, %v", changed, err)
			}
			if changed, err := target.Enable("/bin/hud"); err != nil || changed {
				t.Fatalf("second Enable = %v, %v; want no change", changed, err)
			}
			fi, err := os.Stat(target.Path)
			if err != nil || fi.Mode().Perm() != 0o644 {
				t.Fatalf("file: %v, %v", fi, err)
			}
			if st, _ := target.Status("/bin/hud"); !st.Enabled || !st.Current {
				t.Errorf("Status = %+v; want enabled, current", st)
			}
			if st, _ := target.Status("/elsewhere/hud"); !st.Enabled || st.Current {
				t.Errorf("Status for another exe = %+v; want enabled, not current", st)
			}
			if _, err := target.Enable("relative/hud"); err == nil {
				t.Error("Enable accepted a relative path")
			}
			if changed, err := target.Disable(); err != nil || !changed {
				t.Fatalf("Disable = %v, %v", changed, err)
			}
			if changed, err := target.Disable(); err != nil || changed {
				t.Fatalf("second Disable = %v, %v", changed, err)
			}
		})
	}
}
