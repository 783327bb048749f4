package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/diff"
	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const testHook = "/opt/hud/bin/hud-hook"

var fixedNow = func() time.Time { return time.Unix(1790000000, 0) }

// copyFixture puts testdata/install/<name>/settings.json into a temp dir
// and returns its path there.
func copyFixture(t *testing.T, name string) (path string, orig []byte) {
	t.Helper()
	orig, err := os.ReadFile(filepath.Join("testdata", "install", name, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, orig
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", "install", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what was produced:\n%s", file, diff.Diff(file, want, "got", got))
	}
}

// decode parses JSON for comparisons of meaning.
func decode(t *testing.T, b []byte) any {
	t.Helper()
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return v
}

// TestInstallUninstallFixtures installs into every fixture, compares with
// its golden file, checks that a second install changes no byte, and that
// uninstall gives back the original (bytes where the golden
// uninstalled.json is absent, else that file).
func TestInstallUninstallFixtures(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("testdata", "install"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		name := d.Name()
		t.Run(name, func(t *testing.T) {
			path, orig := copyFixture(t, name)
			opts := Options{SettingsPath: path, HookPath: testHook, Now: fixedNow}
			res, err := Install(opts)
			if err != nil {
				t.Fatalf("install: %v", err)
			}
			if !res.Changed {
				t.Fatal("install changed nothing")
			}
			installed, _ := os.ReadFile(path)
			golden(t, filepath.Join(name, "installed.json"), installed)

			st, err := Inspect(path)
			if err != nil || !st.Installed || len(st.MissingEvents) > 0 || st.HookPath != testHook {
				t.Errorf("Inspect after install = %+v, %v", st, err)
			}
			if len(bytes.TrimSpace(orig)) > 0 {
				backup, err := os.ReadFile(res.Backup)
				if err != nil || !bytes.Equal(backup, orig) {
					t.Errorf("backup %q does not hold the original: %v", res.Backup, err)
				}
			}

			again, err := Install(opts)
			if err != nil || again.Changed || again.Backup != "" {
				t.Fatalf("second install = %+v, %v; want no change", again, err)
			}
			if b, _ := os.ReadFile(path); !bytes.Equal(b, installed) {
				t.Fatal("second install changed the file")
			}

			if _, err := Uninstall(opts); err != nil {
				t.Fatalf("uninstall: %v", err)
			}
			restored, err := os.ReadFile(path)
			if len(bytes.TrimSpace(orig)) == 0 {
				// Nothing but our hooks was in it: the file goes, which
				// Claude Code reads as no settings, like the empty file.
				if !os.IsNotExist(err) {
					t.Errorf("uninstall left %q (%v); want the file removed", restored, err)
				}
				return
			}
			want := orig
			if w, err := os.ReadFile(filepath.Join("testdata", "install", name, "uninstalled.json")); err == nil {
				want = w
			}
			if !bytes.Equal(restored, want) {
				t.Errorf("uninstall did not restore the file:\n%s", diff.Diff("want", want, "got", restored))
			}
			if st, _ := Inspect(path); len(st.Events) > 0 {
				t.Errorf("hooks left after uninstall: %v", st.Events)
			}
		})
	}
}

func TestInstallCreatesMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new dir", ".claude", "settings.json")
	res, err := Install(Options{SettingsPath: path, HookPath: testHook})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || !res.Changed || res.Backup != "" {
		t.Errorf("result = %+v; want created, changed, no backup", res)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v; want 0600 for a new file", fi.Mode().Perm())
	}
	res, err = Uninstall(Options{SettingsPath: path})
	if err != nil {
		t.Fatal(err)
	}
	// As it was: no file.
	if _, err := os.Stat(path); !os.IsNotExist(err) || !res.Removed {
		t.Errorf("after uninstall: %v, removed %v; want the file gone", err, res.Removed)
	}
}

func TestUninstallWithoutFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	res, err := Uninstall(Options{SettingsPath: path})
	if err != nil || res.Changed {
		t.Fatalf("uninstall of a missing file = %+v, %v; want nothing done", res, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Error("uninstall created a file")
	}
}

func TestInvalidJSONIsRefused(t *testing.T) {
	tests := []struct {
		name, text string
		line, col  int
		msg        string
	}{
		{"line comment", "{\n  // my settings\n  \"model\": \"opus\"\n}\n", 2, 3, "comments are not allowed"},
		{"block comment", "{\"a\": 1, /* x */ \"b\": 2}", 1, 10, "comments are not allowed"},
		{"trailing comma in object", "{\n  \"a\": 1,\n}\n", 3, 1, "trailing comma before }"},
		{"trailing comma in array", "{\"a\": [1, 2, ]}", 1, 14, "trailing comma before ]"},
		{"cut short", "{\"a\": [1, 2", 1, 12, "unexpected end of file"},
		{"two values", "{} {}", 1, 5, "unexpected text after"},
		{"byte order mark", "\xef\xbb\xbf{}", 1, 1, "byte order mark"},
		{"a key twice", "{\n  \"hooks\": {\n    \"Stop\": [],\n    \"Stop\": []\n  }\n}\n", 4, 5, `the key "Stop" appears twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "settings.json")
			os.WriteFile(path, []byte(tt.text), 0o644)
			for _, run := range []func(Options) (Result, error){Install, Uninstall} {
				_, err := run(Options{SettingsPath: path, HookPath: testHook})
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("err = %v; want a SyntaxError", err)
				}
				if se.Line != tt.line || se.Col != tt.col || !strings.Contains(se.Msg, tt.msg) || se.Hint == "" {
					t.Errorf("got %d:%d %q (hint %q); want %d:%d %q", se.Line, se.Col, se.Msg, se.Hint, tt.line, tt.col, tt.msg)
				}
				if !strings.HasPrefix(err.Error(), path+":") {
					t.Errorf("error %q does not name the file", err)
				}
			}
			if b, _ := os.ReadFile(path); string(b) != tt.text {
				t.Error("the file was changed")
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("files left beside it: %v", entries)
			}
		})
	}
}

func TestWrongShapeIsRefused(t *testing.T) {
	for _, text := range []string{`[]`, `{"hooks": []}`, `{"hooks": {"Stop": {}}}`} {
		path := filepath.Join(t.TempDir(), "settings.json")
		os.WriteFile(path, []byte(text), 0o644)
		if _, err := Install(Options{SettingsPath: path, HookPath: testHook}); err == nil {
			t.Errorf("install into %s succeeded", text)
		}
		if b, _ := os.ReadFile(path); string(b) != text {
			t.Errorf("%s was changed", text)
		}
	}
}

// TestSpecialFilesAreRefused: a settings.json that is a FIFO (which would
// block the read forever), a device or too big is refused at once, with a
// hint, and left alone.
func TestSpecialFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	device := filepath.Join(dir, "zero.json")
	os.Symlink("/dev/zero", device)
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, []byte(`{"x":"`+strings.Repeat("a", 2<<20)+`"}`), 0o600)
	for path, want := range map[string]string{fifo: "a FIFO", device: "a device", big: "too big"} {
		start := time.Now()
		_, err := Install(Options{SettingsPath: path, HookPath: testHook})
		if err == nil || !strings.Contains(err.Error(), want) || HintOf(err) == "" {
			t.Errorf("%s: err = %v (hint %q); want %q with a hint", filepath.Base(path), err, HintOf(err), want)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: took %v", filepath.Base(path), took)
		}
	}
}

// TestHugeNumberKept: 1.0e+400 is valid JSON though no float64 holds it;
// the file is edited around it, the number kept as written.
func TestHugeNumberKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"x": 1.0e+400, "y": [1e999]}`), 0o600)
	if _, err := Install(Options{SettingsPath: path, HookPath: testHook}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"x": 1.0e+400`) || !strings.Contains(string(b), `"y": [1e999]`) {
		t.Errorf("the numbers were not kept:\n%.200s", b)
	}
	if _, err := Uninstall(Options{SettingsPath: path}); err != nil {
		t.Fatal(err)
	}
}

func TestReadOnlyFileIsRefused(t *testing.T) {
	path, orig := copyFixture(t, "claude-default")
	os.Chmod(path, 0o444)
	_, err := Install(Options{SettingsPath: path, HookPath: testHook})
	if err == nil || !strings.Contains(err.Error(), "read-only") || HintOf(err) == "" {
		t.Fatalf("err = %v (hint %q); want a read-only error with a hint", err, HintOf(err))
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
		t.Error("the file was changed")
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("files left beside it: %v", entries)
	}
}

func TestKeepsModeAndFollowsSymlink(t *testing.T) {
	path, _ := copyFixture(t, "claude-default")
	os.Chmod(path, 0o640)
	link := filepath.Join(t.TempDir(), "settings.json")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	res, err := Install(Options{SettingsPath: link, HookPath: testHook})
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != path {
		t.Errorf("edited %s; want the link's target %s", res.Path, path)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v; want 0640 kept", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(res.Backup); fi == nil || fi.Mode().Perm() != 0o640 {
		t.Error("backup missing or with another mode")
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	path, orig := copyFixture(t, "own-hooks")
	res, err := Install(Options{SettingsPath: path, HookPath: testHook, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || !strings.Contains(res.Diff, "+            \"command\": \""+testHook+"\",") {
		t.Errorf("dry run diff:\n%s", res.Diff)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
		t.Error("dry run changed the file")
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("dry run left files: %v", entries)
	}
}

// checkUnifiedDiff checks that d is one file's unified diff with the
// given names in its header and only hunk, context, removed, added and
// missing-newline lines after it, and returns those lines.
func checkUnifiedDiff(t *testing.T, d, oldName, newName string) []string {
	t.Helper()
	header := "diff " + oldName + " " + newName + "\n--- " + oldName + "\n+++ " + newName + "\n"
	body, ok := strings.CutPrefix(d, header)
	if !ok || !strings.HasPrefix(body, "@@ -") {
		t.Errorf("diff does not start with %q and a hunk:\n%s", header, d)
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	for _, line := range lines {
		if !strings.HasPrefix(line, "@@ ") && (line == "" || !strings.ContainsRune(" -+\\", rune(line[0]))) {
			t.Errorf("line %q is not part of a unified diff:\n%s", line, d)
		}
	}
	return lines
}

// onlyLines reports whether every changed line in a diff body starts
// with sign.
func onlyLines(body []string, sign byte) bool {
	for _, line := range body {
		if line != "" && (line[0] == '-' || line[0] == '+') && line[0] != sign {
			return false
		}
	}
	return true
}

// TestDryRunDiff checks the diff a dry run shows: a unified diff headed
// by the file's path (or /dev/null for an absent side) with a "-" line
// for what goes and a "+" line for what comes, which patch applies to
// give the file install writes; and no diff when nothing would change.
func TestDryRunDiff(t *testing.T) {
	t.Run("edit", func(t *testing.T) {
		for _, name := range []string{"claude-default", "compact"} {
			path, orig := copyFixture(t, name)
			opts := Options{SettingsPath: path, HookPath: testHook, Now: fixedNow}
			dry := opts
			dry.DryRun = true
			res, err := Install(dry)
			if err != nil || !res.Changed {
				t.Fatalf("%s: dry run = %+v, %v", name, res, err)
			}
			checkUnifiedDiff(t, res.Diff, path, path)
			if _, err := Install(opts); err != nil {
				t.Fatal(err)
			}
			installed, _ := os.ReadFile(path)
			if patch, err := exec.LookPath("patch"); err == nil {
				dir := t.TempDir()
				origFile, diffFile, out := filepath.Join(dir, "orig"), filepath.Join(dir, "diff"), filepath.Join(dir, "out")
				must(t, os.WriteFile(origFile, orig, 0o644))
				must(t, os.WriteFile(diffFile, []byte(res.Diff), 0o644))
				if msg, err := exec.Command(patch, "-s", "-o", out, origFile, diffFile).CombinedOutput(); err != nil {
					t.Errorf("%s: patch: %v\n%s\n%s", name, err, msg, res.Diff)
				} else if b, _ := os.ReadFile(out); !bytes.Equal(b, installed) {
					t.Errorf("%s: the diff applied gives another file:\n%s", name, diff.Diff("installed", installed, "patched", b))
				}
			}
			if name == "claude-default" {
				for _, line := range []string{
					"\n-  \"alwaysThinkingEnabled\": true\n",
					"\n+  \"alwaysThinkingEnabled\": true,\n",
					"\n+            \"command\": \"" + testHook + "\",\n",
				} {
					if !strings.Contains(res.Diff, line) {
						t.Errorf("diff lacks %q:\n%s", line[1:], res.Diff)
					}
				}
			} else if !strings.Contains(res.Diff, "\n\\ No newline at end of file\n") {
				t.Errorf("diff of a file without a final newline does not say so:\n%s", res.Diff)
			}

			dry.DryRun = true
			if again, err := Install(dry); err != nil || again.Changed || again.Diff != "" {
				t.Errorf("%s: dry run after install = %+v, %v; want no change and no diff", name, again, err)
			}
		}
	})

	t.Run("create and remove", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "settings.json")
		res, err := Install(Options{SettingsPath: path, HookPath: testHook, DryRun: true})
		if err != nil || !res.Created {
			t.Fatalf("dry run = %+v, %v", res, err)
		}
		body := checkUnifiedDiff(t, res.Diff, "/dev/null", path)
		if len(body) == 0 || !strings.HasPrefix(body[0], "@@ -0,0 +1,") || !onlyLines(body, '+') {
			t.Errorf("diff of a new file is not all added lines:\n%s", res.Diff)
		}

		if _, err := Install(Options{SettingsPath: path, HookPath: testHook}); err != nil {
			t.Fatal(err)
		}
		res, err = Uninstall(Options{SettingsPath: path, DryRun: true})
		if err != nil || !res.Removed {
			t.Fatalf("dry run of uninstall = %+v, %v", res, err)
		}
		body = checkUnifiedDiff(t, res.Diff, path, "/dev/null")
		if len(body) == 0 || !strings.HasSuffix(body[0], " +0,0 @@") || !onlyLines(body, '-') {
			t.Errorf("diff of a removed file is not all removed lines:\n%s", res.Diff)
		}
	})
}

func TestPathWithSpaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "My Settings")
	hook := filepath.Join(t.TempDir(), "Ann's tools", "bin", "hud-hook")
	os.MkdirAll(filepath.Dir(hook), 0o755)
	os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o755)
	path := filepath.Join(dir, "settings.json")
	if _, err := Install(Options{SettingsPath: path, HookPath: hook}); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	cmd := s.Hooks["Stop"][0].Hooks[0].Command
	if want := ShellQuote(hook); cmd != want || !strings.HasPrefix(cmd, "'") {
		t.Errorf("command = %q; want %q", cmd, want)
	}
	st, err := Inspect(path)
	if err != nil || !st.Installed || st.HookPath != hook || !st.HookExecutable {
		t.Errorf("Inspect = %+v, %v", st, err)
	}
}

func TestInspectNoticesMissingBinary(t *testing.T) {
	path, _ := copyFixture(t, "old-path")
	st, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Installed || st.HookExecutable || len(st.Events) != 2 || len(st.HookPaths) != 2 {
		t.Errorf("Inspect = %+v", st)
	}
	if !strings.Contains(st.Problem(), "missing") {
		t.Errorf("Problem() = %q", st.Problem())
	}
	if st, _ := Inspect(filepath.Join(t.TempDir(), "none.json")); st.Exists || st.Problem() != "Hooks not installed" {
		t.Errorf("Inspect(missing) = %+v", st)
	}
}

func TestInspectDisableAllHooks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"disableAllHooks": true}`), 0o644)
	if st, err := Inspect(path); err != nil || !st.DisableAllHooks {
		t.Errorf("Inspect = %+v, %v", st, err)
	}
}

// TestUninstallKeepsForeignHooks checks that a handler of ours that a
// person put in a group with their own loses only ours.
func TestUninstallKeepsForeignHooks(t *testing.T) {
	path, orig := copyFixture(t, "old-path")
	if _, err := Uninstall(Options{SettingsPath: path}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
		"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "my-audit-log"}},
	}}}}
	if !reflect.DeepEqual(decode(t, got), want) {
		t.Errorf("after uninstall:\n%s\nfrom:\n%s", got, orig)
	}
}

func TestBackupNeverOverwrites(t *testing.T) {
	path, _ := copyFixture(t, "tabs")
	first, err := Install(Options{SettingsPath: path, HookPath: testHook, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Uninstall(Options{SettingsPath: path, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if first.Backup == second.Backup || second.Backup == "" {
		t.Errorf("backups %q and %q", first.Backup, second.Backup)
	}
}

// TestConcurrentWriteIsNotUndone has "Claude Code" rewrite the file while
// install edits it: the edit must start over from the new content.
func TestConcurrentWriteIsNotUndone(t *testing.T) {
	path, _ := copyFixture(t, "claude-default")
	calls := 0
	res, err := edit(Options{SettingsPath: path}, func(root *node) (bool, error) {
		calls++
		if calls == 1 {
			os.WriteFile(path, []byte(`{"model": "opus", "written": "by claude meanwhile"}`), 0o644)
		}
		return addHooks(root, hookevents.Wired(hookevents.Version{}), testHook, DefaultTimeout)
	}, false)
	if err != nil || calls != 2 {
		t.Fatalf("edit = %+v, %v after %d attempts; want success on the second", res, err, calls)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "by claude meanwhile") || !strings.Contains(string(b), testHook) {
		t.Errorf("the concurrent write or the hooks are missing:\n%s", b)
	}
}

// TestInspectDialogTimeout: the PermissionRequest handler's timeout, which
// bounds the hook's wait for the tray's answer; an install made before
// answering existed has the short one, and `hud install` again gives it
// room.
func TestInspectDialogTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	old := `{"hooks":{"PermissionRequest":[{"matcher":"*","hooks":[{"type":"command","command":"/opt/hud-hook","timeout":5}]}]}}`
	os.WriteFile(path, []byte(old), 0o644)
	if st, err := Inspect(path); err != nil || st.DialogTimeout != 5 {
		t.Errorf("an old install: DialogTimeout %d, %v", st.DialogTimeout, err)
	}
	if _, err := Install(Options{SettingsPath: path, HookPath: "/opt/hud-hook"}); err != nil {
		t.Fatal(err)
	}
	if st, err := Inspect(path); err != nil || st.DialogTimeout != DialogTimeout {
		t.Errorf("after install: DialogTimeout %d, %v; want %d", st.DialogTimeout, err, DialogTimeout)
	}
}
