package desktop

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// TestReadmeScreenshots plays the desktop the README shows and saves its
// two pictures, cropped, for run.sh to copy into docs/ (make screenshot):
// readme-notification.png, the panel with the notification of a
// permission dialog, its answers as buttons; readme-menu.png, the menu
// opened with the mouse. Every figure in them comes from the real hooks,
// `hud statusline` and `hud status` over a stand-in ssh, as a person's
// agents would produce them: Claude Code and Codex sessions in four
// projects, one on another machine, a work session and the break
// reminders' defaults.
//
// It runs only for make screenshot (HUD_SCREENSHOTS=1): opening the menu
// takes a mouse click (xdotool), and the pictures are its point.
func TestReadmeScreenshots(t *testing.T) {
	r := requireDesktop(t)
	if os.Getenv("HUD_SCREENSHOTS") != "1" {
		t.Skip("the README's pictures: make screenshot")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("the README's menu is opened with a click: install xdotool")
	}
	d := setUpReadmeDesk(t, r)

	web := d.playWeb()
	d.playDocs()
	d.playDevbox()
	d.sessionStart(web.Dir, "fix the login form")
	d.statusLine(web.ID)
	// The tray reads the status line's figures when the store changes next.
	d.play(web, "07-PreToolUse", map[string]any{"tool_input": map[string]any{"command": "npx vitest run src/LoginForm.test.tsx"}})
	// A minute on, the menu's ages read as a person's would, and the
	// work session has counted some work.
	time.Sleep(65 * time.Second)
	waitFor(t, d.item, "every session in the menu", func(s seen) bool {
		return s.icon == "working/3" && hasAnyLabelPart(s, "ctx 87%") && hasAnyLabelPart(s, "1m of work") &&
			hasAnyLabelPart(s, "devbox · ml") && hasAnyLabelPart(s, "docs (Codex)")
	})
	d.note("the context warning", "context 87 %")
	d.bubbles.closeAll(t)
	clean := grabScreen(t, r, "clean")

	api := d.start(d.claude, d.claudeHook, d.home, "api", "11111111-aaaa-4aaa-8aaa-00000000000a")
	d.play(api, "05-SessionStart-startup", nil)
	d.play(api, "06-UserPromptSubmit", map[string]any{"prompt": "run the test suite"})
	d.play(api, "07-PreToolUse", npmTest)
	asked := d.playAsync(api, "08-PermissionRequest", map[string]any{
		"tool_input":             npmTest["tool_input"],
		"permission_suggestions": []any{map[string]any{"type": "addRules", "behavior": "allow", "destination": "localSettings", "rules": []any{map[string]any{"toolName": "Bash", "ruleContent": "npm test *"}}}},
	})
	waitFor(t, d.item, "api waits, its answers in the menu", func(s seen) bool {
		return s.icon == "waiting/4" && hasLabels(s, detailIndent+"↳ Yes, and don't ask again for: npm test *", "Answer Claude's dialogs here: on")
	})
	d.note("the dialog's", "api needs you")
	time.Sleep(time.Second) // the bubble slides in
	notified := grabScreen(t, r, "notified")
	saveCrop(t, notified, changedBelowPanel(t, clean, notified), filepath.Join(r.out, "readme-notification.png"))

	d.bubbles.closeAll(t)
	closed := grabScreen(t, r, "closed")
	icon := panelIcon(t, closed)
	xdotool(t, "mousemove", fmt.Sprint(icon.X), fmt.Sprint(icon.Y), "click", "1")
	time.Sleep(time.Second) // the menu draws
	menu := grabScreen(t, r, "menu-open")
	xdotool(t, "key", "Escape")
	saveCrop(t, menu, changedBelowPanel(t, closed, menu), filepath.Join(r.out, "readme-menu.png"))

	clickLabel(t, d.item, detailIndent+"↳ Yes")
	expectDecision(t, asked, `"behavior":"allow"`)
	quit(t, d.item, d.hud)
}

// npmTest is the command api's dialog asks about.
var npmTest = map[string]any{"tool_input": map[string]any{"command": "npm test", "description": "Run the test suite"}}

// playWeb: a Claude Code session fixing a form on a branch of its own,
// two of its five todos done, three files edited.
func (d *readmeDesk) playWeb() *standIn {
	d.gitRepo(filepath.Join(d.home, "src", "web"), "feature/login", "src/LoginForm.tsx")
	web := d.start(d.claude, d.claudeHook, d.home, "web", "22222222-bbbb-4bbb-8bbb-00000000000b")
	d.play(web, "05-SessionStart-startup", nil)
	d.play(web, "06-UserPromptSubmit", map[string]any{"prompt": "fix the login form: the error shows under the wrong field"})
	todos := []any{}
	for i, todo := range []string{"find where the error is placed", "move it under the password field", "add a test", "check the mobile layout", "update the changelog"} {
		status := "pending"
		switch {
		case i < 2:
			status = "completed"
		case i == 2:
			status = "in_progress"
		}
		todos = append(todos, map[string]any{"content": todo, "status": status, "activeForm": todo})
	}
	d.play(web, "10-PostToolUse", map[string]any{"tool_name": "TodoWrite", "tool_input": map[string]any{"todos": todos}, "tool_response": map[string]any{}})
	for _, f := range []string{"src/LoginForm.tsx", "src/FieldError.tsx", "src/LoginForm.test.tsx"} {
		path := filepath.Join(web.Dir, f)
		d.play(web, "10-PostToolUse", map[string]any{
			"tool_name":     "Edit",
			"tool_input":    map[string]any{"file_path": path, "old_string": "a", "new_string": "b"},
			"tool_response": map[string]any{"filePath": path},
		})
	}
	return web
}

// playDocs: a Codex session that answered its prompt and is ready.
func (d *readmeDesk) playDocs() {
	docs := d.start(d.codex, d.codexHook, d.home, "docs", "33333333-cccc-4ccc-8ccc-00000000000c")
	for _, ev := range []string{"01-SessionStart", "02-UserPromptSubmit", "03-Stop"} {
		d.playFile(docs, filepath.Join(codexEvents, ev+".json"), map[string]any{"prompt": "update the install guide for the new flags"})
	}
}

// playDevbox: a Claude Code session on the other machine, at work.
func (d *readmeDesk) playDevbox() {
	ml := d.start(d.claude, d.devboxHook, d.devbox, "ml", "44444444-dddd-4ddd-8ddd-00000000000d")
	d.play(ml, "05-SessionStart-startup", nil)
	d.play(ml, "06-UserPromptSubmit", map[string]any{"prompt": "retrain the tokenizer on the new corpus"})
	d.play(ml, "07-PreToolUse", map[string]any{"tool_input": map[string]any{"command": "python train.py --epochs 3"}})
}

// codexEvents are the payloads Codex handed hud-hook, recorded.
const codexEvents = "../../testdata/hook/codex-0.169.0/basic"

// sessionStart starts a timed work session in dir, as `hud session start`.
func (d *readmeDesk) sessionStart(dir, goal string) {
	d.t.Helper()
	cmd := exec.Command(d.r.hud, "session", "start", goal)
	cmd.Env, cmd.Dir = d.env, dir
	if out, err := cmd.CombinedOutput(); err != nil {
		d.t.Fatalf("hud session start: %v\n%s", err, out)
	}
}

// statusLine hands `hud statusline` what Claude Code gives its status
// line: 174,000 of 200,000 tokens in use, and the account's limits.
func (d *readmeDesk) statusLine(id string) {
	d.t.Helper()
	now := time.Now()
	in := fmt.Sprintf(`{"session_id":%q,"model":{"id":"claude-sonnet-4-5"},`+
		`"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":100,"cache_creation_input_tokens":200,"cache_read_input_tokens":173700}},`+
		`"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":%d},"seven_day":{"used_percentage":18,"resets_at":%d}}}`,
		id, now.Add(2*time.Hour+14*time.Minute).Unix(), now.Add(4*24*time.Hour+3*time.Hour).Unix())
	statusLine(d.t, d.r, d.env, in)
}

// note waits for a notification whose summary holds part.
func (d *readmeDesk) note(what, part string) sni.Notification {
	d.t.Helper()
	for deadline := time.After(5 * time.Second); ; {
		select {
		case n := <-d.notes:
			if strings.Contains(n.Summary, part) {
				d.t.Logf("%s notification: %q / %q, buttons %q", what, n.Summary, n.Body, n.Actions)
				return n
			}
		case <-deadline:
			d.t.Fatalf("no notification for %s (%q)", what, part)
		}
	}
}
