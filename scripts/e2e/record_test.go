package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Recording (HUD_E2E_RECORD=DIR): every hook payload of a scenario, and
// what Claude Code had written to ~/.claude/sessions/<pid>.json when that
// hook ran, saved in DIR in the order the hooks ran, as
// NNN-Event[-detail].json and NNN-Event[-detail].claude-session.json,
// with the rig's paths rewritten to /home/dev/... and the machine's id
// (part of Claude's pidDomain) to zeros. Numbers go on from the
// highest already in DIR, so a run of several scenarios records them one
// after the other. hud/hook's TestRecordedReplay replays the recordings
// in testdata/hook/claude-code-*/*/.

// recorder writes the hook the rig wires in while recording: a script
// named hud-hook (the name `hud install` looks for) that saves its stdin
// and Claude's session files in the rig's spool, then execs the real hook
// on the saved payload. Exec keeps the process tree Claude → sh → hook
// the real hook relies on to find its Claude process.
func (r *rig) recorder() string {
	r.t.Helper()
	spool := filepath.Join(r.root, "recording")
	bin := filepath.Join(r.root, "recorder")
	for _, d := range []string{spool, bin} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			r.t.Fatal(err)
		}
	}
	// Claude's files are in the sessions/ of the config dir the hook's
	// Claude runs with (CLAUDE_CONFIG_DIR, else ~/.claude).
	claudeDir := filepath.Join(r.home, ".claude")
	script := fmt.Sprintf(`#!/bin/sh
# hud-hook, recording: keep the payload and Claude's session files as they
# are now, then become the real hook.
n=$(date +%%s%%N)-$$
cat > %[1]s/"$n".payload
cat "${CLAUDE_CONFIG_DIR:-%[2]s}"/sessions/*.json > %[1]s/"$n".claude-session 2>/dev/null
exec %[3]s < %[1]s/"$n".payload
`, shellQuote(spool), claudeDir, shellQuote(r.s.hook))
	path := filepath.Join(bin, "hud-hook")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		r.t.Fatal(err)
	}
	r.spool = spool
	return path
}

// saveRecording moves the spool into the recording directory. It runs
// when every Claude process of the scenario has ended, so no hook still
// writes.
func (r *rig) saveRecording() error {
	entries, err := os.ReadDir(r.spool)
	if err != nil {
		return err
	}
	type hookRun struct {
		at   int64
		base string
	}
	var runs []hookRun
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".payload")
		if !ok {
			continue
		}
		ns, _, _ := strings.Cut(base, "-")
		at, err := strconv.ParseInt(ns, 10, 64)
		if err != nil {
			return fmt.Errorf("spool file %s: %w", e.Name(), err)
		}
		runs = append(runs, hookRun{at, base})
	}
	slices.SortStableFunc(runs, func(a, b hookRun) int { return int(a.at - b.at) })
	if err := os.MkdirAll(r.s.record, 0o755); err != nil {
		return err
	}
	first, err := nextRecordNumber(r.s.record)
	if err != nil {
		return err
	}
	n := first
	for _, run := range runs {
		payload, err := os.ReadFile(filepath.Join(r.spool, run.base+".payload"))
		if err != nil {
			return err
		}
		name := fmt.Sprintf("%03d-%s", n, recordName(payload))
		if err := os.WriteFile(filepath.Join(r.s.record, name+".json"), indented(r.anonymize(payload)), 0o644); err != nil {
			return err
		}
		session, _ := os.ReadFile(filepath.Join(r.spool, run.base+".claude-session"))
		if len(bytes.TrimSpace(session)) > 0 {
			if err := os.WriteFile(filepath.Join(r.s.record, name+".claude-session.json"), r.anonymize(session), 0o644); err != nil {
				return err
			}
		}
		n++
	}
	if n > first {
		r.t.Logf("recorded %03d–%03d (%d hook runs) in %s", first, n-1, n-first, r.s.record)
	}
	return nil
}

var recordNumber = regexp.MustCompile(`^(\d+)-`)

// nextRecordNumber is one more than the highest number in dir.
func nextRecordNumber(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	next := 1
	for _, e := range entries {
		if m := recordNumber.FindStringSubmatch(e.Name()); m != nil {
			n, _ := strconv.Atoi(m[1])
			next = max(next, n+1)
		}
	}
	return next, nil
}

// recordName is Event[-detail] for a payload: the detail is what tells
// two payloads of one event apart (SessionStart's source, SessionEnd's
// reason, a Notification's type, a compaction's trigger).
func recordName(payload []byte) string {
	var ev struct {
		Event            string `json:"hook_event_name"`
		Source           string `json:"source"`
		Reason           string `json:"reason"`
		NotificationType string `json:"notification_type"`
		Trigger          string `json:"trigger"`
	}
	if json.Unmarshal(payload, &ev) != nil || ev.Event == "" {
		return "unknown"
	}
	name := ev.Event
	for _, detail := range []string{ev.Source, ev.Reason, ev.NotificationType, ev.Trigger} {
		if detail != "" {
			name += "-" + detail
			break
		}
	}
	return safeName.ReplaceAllString(name, "_")
}

var safeName = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// anonymize rewrites the rig's paths to those of a person called dev:
// HOME is /home/dev and the projects are in it. Claude names a project's
// transcript directory after its path with "/" made "-".
func (r *rig) anonymize(b []byte) []byte {
	s := string(b)
	s = strings.ReplaceAll(s, r.home, "/home/dev")
	s = strings.ReplaceAll(s, r.root, "/home/dev")
	s = strings.ReplaceAll(s, strings.ReplaceAll(r.root, "/", "-"), "-home-dev")
	if id, err := os.ReadFile("/etc/machine-id"); err == nil && len(bytes.TrimSpace(id)) > 0 {
		id = bytes.TrimSpace(id)
		s = strings.ReplaceAll(s, string(id), strings.Repeat("0", len(id)))
	}
	return []byte(s)
}

// indented is a JSON payload indented for reading (as it came, if it is
// not JSON).
func indented(b []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(b), "", "  "); err != nil {
		return b
	}
	out.WriteByte('\n')
	return out.Bytes()
}
