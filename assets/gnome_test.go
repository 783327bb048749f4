package assets

import (
	"encoding/json"
	"io/fs"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Each format of the extension holds its two files, a metadata.json for
// hud's uuid and its own GNOME Shell versions, and an extension.js of its
// own kind: 43 and 44 load init() from a script, 45 and later a default
// export from an ES module.
func TestGNOMEShellExtension(t *testing.T) {
	for _, c := range []struct {
		legacy   bool
		versions []string
		kind     string
	}{
		{true, []string{"43", "44"}, "function init() {"},
		{false, []string{"45", "46", "47", "48", "49"}, "export default class HudExtension extends Extension {"},
	} {
		files := GNOMEShellExtension(c.legacy)
		var meta struct {
			UUID     string   `json:"uuid"`
			Versions []string `json:"shell-version"`
		}
		b, err := fs.ReadFile(files, "metadata.json")
		if err != nil || json.Unmarshal(b, &meta) != nil {
			t.Fatalf("legacy %v: metadata.json: %v", c.legacy, err)
		}
		if meta.UUID != GNOMEExtensionUUID || !slices.Equal(meta.Versions, c.versions) {
			t.Errorf("legacy %v: metadata.json says %+v", c.legacy, meta)
		}
		src, err := fs.ReadFile(files, "extension.js")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), c.kind) {
			t.Errorf("legacy %v: extension.js has no %q", c.legacy, c.kind)
		}
		checkSyntax(t, string(src))
	}
}

// esmOnly are the lines an ES module has that a script cannot parse.
var esmOnly = regexp.MustCompile(`(?m)^import .*$|^export default `)

// checkSyntax has GJS, where installed, parse src (without running it:
// the shell's modules exist only inside the shell); a module's imports
// and export are cut first, leaving a script of the same syntax.
func checkSyntax(t *testing.T, src string) {
	t.Helper()
	gjs, err := exec.LookPath("gjs")
	if err != nil {
		t.Log("gjs is not installed: the syntax is not checked")
		return
	}
	script := esmOnly.ReplaceAllString(src, "")
	out, err := exec.Command(gjs, "-c", "new Function(ARGV[0]); print('parsed');", script).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "parsed") {
		t.Errorf("gjs does not parse extension.js: %v\n%s", err, out)
	}
}
