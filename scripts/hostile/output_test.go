package hostile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/hud/config"
)

// evil is text an attacker controls (a commit subject, a todo, a file
// name, a prompt): it retitles the terminal, writes the clipboard,
// clears the screen, rings, and reorders what follows.
const evil = "\x1b]0;pwned\x07\x1b]52;c;ZWNobyBoaQ==\x1b\\\x1b[2J\a evil \u202etxt.exe\r\nsecond line"

// jsonString is s as a JSON string literal.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestControlCharactersNeverShown: attacker text reaches hud activity,
// the restore note handed to Claude, hud status and hud doctor; none of
// them prints a control character (a newline between lines aside).
func TestControlCharactersNeverShown(t *testing.T) {
	w := newWorld(t)
	w.git(w.project, "init", "-q", "-b", "main")
	w.git(w.project, "commit", "-q", "--allow-empty", "-m", "first")
	w.write(filepath.Join(w.home, ".config", "hud", "config.toml"), "[activity]\nrestore_on_compact = true\n", 0o600)
	// As the tray does when the file changes: the hook reads hud's copy.
	config.Load(filepath.Join(w.home, ".config", "hud", "config.toml"), nil)
	w.start()
	w.git(w.project, "commit", "-q", "--allow-empty", "-m", evil)
	todo := `,"tool_name":"TodoWrite","tool_input":{"todos":[{"content":` + jsonString(evil) + `,"status":"pending","activeForm":"x"}]}`
	w.hook(w.event(sid, "PostToolUse", todo))
	file := `,"tool_name":"Write","tool_input":{"file_path":` + jsonString(filepath.Join(w.project, "a"+evil)) + `,"content":"x"},"tool_response":{"type":"create"}`
	w.hook(w.event(sid, "PostToolUse", file))
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":`+jsonString(evil)))
	w.worker(sid, "handoff")

	check := func(what string, r result) {
		t.Helper()
		w.bounded(what, r)
		if hasControl(r.stdout) || hasControl(r.stderr) || strings.ContainsRune(r.stdout, '\u202e') {
			t.Errorf("%s printed control characters:\n%q", what, r.stdout+r.stderr)
		}
	}
	act := w.run("", nil, bin.hud, "activity", w.project)
	if !strings.Contains(act.stdout, "evil") {
		t.Errorf("hud activity does not show the commit and todo: %s%s", act.stdout, act.stderr)
	}
	check("hud activity", act)

	// The one output the hook gives, to Claude: the restore note.
	note := w.run(w.event(sid, "SessionStart", `,"source":"compact"`), nil, bin.hook)
	if !strings.Contains(note.stdout, "Context restored") || !strings.Contains(note.stdout, "evil") {
		t.Errorf("restore note: %q", note.stdout)
	}
	if strings.Contains(note.stdout, "\nsecond line") {
		t.Errorf("attacker text started a line of its own in the note: %q", note.stdout)
	}
	check("the restore note", note)

	// A record edited by hand (or by a writer hud does not know) with raw
	// escapes: hud status cleans what it shows.
	path := filepath.Join(w.home, ".capacitor", "sessions.json")
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"p"`))
	var store map[string]any
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &store); err != nil {
		t.Fatal(err)
	}
	rec := store["sessions"].(map[string]any)[sid].(map[string]any)
	rec["working_on"] = evil
	// The hook's parent here is measure, gone by now: without a pid the
	// record counts while it is fresh, as before Claude's lock exists.
	delete(rec, "pid")
	delete(rec, "proc_started")
	b, _ = json.Marshal(store)
	os.WriteFile(path, b, 0o600)
	st := w.run("", nil, bin.hud, "status")
	if !strings.Contains(st.stdout, "evil") {
		t.Errorf("hud status does not show the session: %q", st.stdout)
	}
	check("hud status", st)

	// A work session a repository ships (made here by hud session start
	// with the attacker's task), shown by hud session status.
	if r := w.run("", nil, bin.hud, "session", "start", evil); r.code != 0 {
		t.Fatalf("hud session start: %s", r.stderr)
	}
	check("hud session status", w.run("", nil, bin.hud, "session", "status"))

	// The debug log's last entry, quoted by doctor.
	f, _ := os.OpenFile(filepath.Join(w.home, ".claude", "hud-hook-debug.log"), os.O_APPEND|os.O_WRONLY, 0o600)
	f.WriteString("2026-11-23T10:00:00.000Z - error: " + strings.ReplaceAll(evil, "\n", "") + "\n")
	f.Close()
	check("hud doctor", w.run("", nil, bin.hud, "doctor"))
}

// TestHostileSettings: settings.json that is a FIFO, a link to
// /dev/zero, huge, or odd but valid JSON. hud install and hud doctor
// finish within their bound, say what is wrong, and change nothing they
// refuse.
func TestHostileSettings(t *testing.T) {
	cases := []struct {
		name    string
		make    func(w *world, path string)
		refused string // what the error says; "" when the install succeeds
	}{
		{"fifo", func(w *world, path string) { unix.Mkfifo(path, 0o600) }, "a FIFO, not a regular file"},
		{"dev zero", func(w *world, path string) { os.Symlink("/dev/zero", path) }, "a device, not a regular file"},
		{"huge", func(w *world, path string) {
			w.write(path, `{"x":"`+strings.Repeat("a", 2<<20)+`"}`, 0o600)
		}, "too big for a settings file"},
		{"duplicate keys", func(w *world, path string) { w.write(path, `{"hooks":{},"hooks":{}}`, 0o600) }, "appears twice"},
		{"deep nesting", func(w *world, path string) {
			w.write(path, `{"x":`+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+`}`, 0o600)
		}, "exceeded max depth"},
		{"huge number", func(w *world, path string) { w.write(path, `{"x": 1.0e+400}`, 0o600) }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			path := filepath.Join(w.home, ".claude", "settings.json")
			os.MkdirAll(filepath.Dir(path), 0o700)
			c.make(w, path)
			w.mark()
			r := w.run("", nil, bin.hud, "install", "--hook", bin.hook)
			w.bounded("hud install", r)
			switch {
			case c.refused != "" && (r.code == 0 || !strings.Contains(r.stderr, c.refused)):
				t.Errorf("hud install: exit %d, stderr %q; want a refusal saying %q", r.code, r.stderr, c.refused)
			case c.refused != "":
				w.checkWritesExcept(path) // refused: not even the settings change
			case r.code != 0:
				t.Errorf("hud install: exit %d, stderr %q", r.code, r.stderr)
			}
			w.bounded("hud doctor", w.run("", nil, bin.hud, "doctor"))
		})
	}
	t.Run("huge number kept", func(t *testing.T) {
		w := newWorld(t)
		path := filepath.Join(w.home, ".claude", "settings.json")
		w.write(path, `{"x": 1.0e+400}`, 0o600)
		if r := w.run("", nil, bin.hud, "install", "--hook", bin.hook); r.code != 0 {
			t.Fatalf("install: %s", r.stderr)
		}
		if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"x": 1.0e+400`) {
			t.Errorf("the number was not kept as written:\n%.200s", b)
		}
	})
}

// checkWritesExcept is checkWrites with nothing allowed to change in
// ~/.claude either (a refused install writes nothing).
func (w *world) checkWritesExcept(path string) {
	w.t.Helper()
	w.checkWrites()
	after := snapshot(filepath.Dir(path))
	for p, st := range after {
		if old, ok := w.before[p]; !ok || old != st {
			w.t.Errorf("a refused install wrote %s", p)
		}
	}
}

// TestHostileProjectName: a project directory named with escapes and a
// line break; every format of hud status shows it as plain text.
func TestHostileProjectName(t *testing.T) {
	w := newWorld(t)
	w.project = filepath.Join(w.root, "proj\x1b]0;pwned\x07\x1b[31m\nred")
	if err := os.Mkdir(w.project, 0o755); err != nil {
		t.Fatal(err)
	}
	w.hook(w.event(sid, "PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"`+strings.Repeat("\\u001b[2J", 3)+`ls"}`))
	// The hook's parent (measure) is gone: the record counts while fresh.
	path := filepath.Join(w.home, ".capacitor", "sessions.json")
	var store map[string]any
	b, _ := os.ReadFile(path)
	json.Unmarshal(b, &store)
	rec := store["sessions"].(map[string]any)[sid].(map[string]any)
	delete(rec, "pid")
	delete(rec, "proc_started")
	b, _ = json.Marshal(store)
	os.WriteFile(path, b, 0o600)
	for _, format := range []string{"text", "tmux", "waybar"} {
		r := w.run("", nil, bin.hud, "status", "--format", format)
		w.bounded("hud status "+format, r)
		if !strings.Contains(r.stdout, "red") {
			t.Errorf("%s: the session is not shown: %q", format, r.stdout)
		}
		if hasControl(r.stdout) || strings.Count(r.stdout, "\n") > 1 && format != "text" {
			t.Errorf("%s: %q", format, r.stdout)
		}
	}
}
