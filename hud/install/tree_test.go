package install

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

// TestUnchangedTreeIsByteIdentical parses and re-renders files without
// editing them: every byte must come back, whatever the spacing.
func TestUnchangedTreeIsByteIdentical(t *testing.T) {
	inputs := []string{
		"{}", "{}\n", "  {\"a\" :1 }  \n", "[1, 2]", `"x"`,
		"{\n\t\"a\": [1,2,\n 3],  \"b\": {\"c\": \"\\u00e9\\n\"}\n}\n",
		"{\"n\": 1.50e+3, \"t\": true, \"f\": false, \"z\": null}",
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "install", "*", "*.json"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		if len(bytes.TrimSpace([]byte(in))) == 0 {
			continue
		}
		doc, err := parseDocument([]byte(in))
		if err != nil {
			t.Fatalf("parse %q: %v", in, err)
		}
		if got := string(doc.bytes()); got != in {
			t.Errorf("re-rendered\n%q\nas\n%q", in, got)
		}
	}
}

func TestDetectStyle(t *testing.T) {
	tests := []struct {
		in   string
		want style
	}{
		{"{\n  \"a\": 1\n}", style{indent: "  ", space: true}},
		{"{\n    \"a\": 1\n}", style{indent: "    ", space: true}},
		{"{\n\t\"a\":1\n}", style{indent: "\t"}},
		{"{\"a\":1}", style{}},
		{"{\"a\": 1}", style{space: true}},
		{"{}", defaultStyle},
		{"{\r\n  \"a\": 1\r\n}", style{indent: "  ", space: true, crlf: true}},
	}
	for _, tt := range tests {
		doc, err := parseDocument([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if doc.style != tt.want {
			t.Errorf("style of %q = %+v; want %+v", tt.in, doc.style, tt.want)
		}
	}
}

func TestShellQuoteRunsThroughSh(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, p := range []string{
		"/usr/local/bin/hud-hook", "/home/ann/My Tools/hud-hook", "/opt/it's/hud-hook",
		`/opt/$HOME/"q"/hud-hook`, "/opt/a;b&c|d/hud-hook", "/opt/ü/hud-hook", "/opt/*/hud-hook",
	} {
		q := ShellQuote(p)
		out, err := exec.Command(sh, "-c", "printf '%s' "+q).Output()
		if err != nil || string(out) != p {
			t.Errorf("sh read %q as %q (%v); want %q", q, out, err, p)
		}
		if w, ok := firstWord(q + " --flag"); !ok || w != p {
			t.Errorf("firstWord(%q) = %q, %v; want %q", q, w, ok, p)
		}
	}
	if q := ShellQuote("/usr/bin/hud-hook"); q != "/usr/bin/hud-hook" {
		t.Errorf("a plain path was quoted: %s", q)
	}
}

func TestFirstWord(t *testing.T) {
	tests := []struct {
		cmd, want string
		ok        bool
	}{
		{"hud-hook", "hud-hook", true},
		{"  /a/hud-hook arg", "/a/hud-hook", true},
		{`"/a b/hud-hook"`, "/a b/hud-hook", true},
		{`/a\ b/hud-hook`, "/a b/hud-hook", true},
		{`"/a/\"x\"/hud-hook"`, `/a/"x"/hud-hook`, true},
		{"/a/hud-hook;echo", "/a/hud-hook", true},
		{"'unterminated", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := firstWord(tt.cmd)
		if got != tt.want || ok != tt.ok {
			t.Errorf("firstWord(%q) = %q, %v; want %q, %v", tt.cmd, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzInstallUninstall installs into any JSON object and checks the
// promises: install is idempotent, the person's keys keep their order and
// values, and uninstall gives back the original meaning (empty event
// arrays and hooks objects aside).
func FuzzInstallUninstall(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "install", "*", "settings.json"))
	for _, file := range files {
		b, _ := os.ReadFile(file)
		f.Add(b)
	}
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x/hud-hook"}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := parseDocument(data)
		if err != nil || doc.root.kind != kindObject {
			return
		}
		if !bytes.Equal(doc.bytes(), data) {
			t.Fatalf("unchanged tree re-rendered differently")
		}
		changed, err := addHooks(doc.root, hookevents.Wired(hookevents.Version{}), "/opt/hud-hook", DefaultTimeout)
		if err != nil {
			return // a shape install refuses
		}
		once := doc.bytes()
		if !json.Valid(once) {
			t.Fatalf("install produced invalid JSON:\n%s", once)
		}
		doc2, err := parseDocument(once)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := addHooks(doc2.root, hookevents.Wired(hookevents.Version{}), "/opt/hud-hook", DefaultTimeout); again || !bytes.Equal(doc2.bytes(), once) {
			t.Fatalf("second install changed the file (first changed: %v)", changed)
		}
		removeHooks(doc2.root)
		var before, after any
		json.Unmarshal(data, &before)
		json.Unmarshal(doc2.bytes(), &after)
		if !reflect.DeepEqual(withoutOurs(before), withoutOurs(after)) {
			t.Fatalf("uninstall changed the meaning:\n%s\n→\n%s", data, doc2.bytes())
		}
	})
}

// withoutOurs is v (decoded settings) with hud-hook handlers removed and
// what that left empty dropped, the meaning a settings file has for
// anything but the HUD.
func withoutOurs(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	hooks, ok := m["hooks"].(map[string]any)
	if !ok {
		return m
	}
	out := map[string]any{}
	for k, val := range m {
		out[k] = val
	}
	cleaned := map[string]any{}
	for event, groups := range hooks {
		arr, ok := groups.([]any)
		if !ok {
			cleaned[event] = groups
			continue
		}
		var kept []any
		for _, g := range arr {
			gm, ok := g.(map[string]any)
			hs, ok2 := gm["hooks"].([]any)
			if !ok || !ok2 {
				kept = append(kept, g)
				continue
			}
			var keptH []any
			for _, h := range hs {
				if hm, ok := h.(map[string]any); ok {
					if c, ok := hm["command"].(string); ok {
						if w, ok := firstWord(c); ok && filepath.Base(w) == HookName {
							continue
						}
					}
				}
				keptH = append(keptH, h)
			}
			if len(keptH) == 0 && len(hs) > 0 {
				continue
			}
			g2 := map[string]any{}
			for k, v := range gm {
				g2[k] = v
			}
			g2["hooks"] = keptH
			if keptH == nil {
				g2["hooks"] = []any{}
			}
			kept = append(kept, g2)
		}
		if len(kept) > 0 {
			cleaned[event] = kept
		}
	}
	if len(cleaned) > 0 {
		out["hooks"] = cleaned
	} else {
		delete(out, "hooks")
	}
	return out
}
