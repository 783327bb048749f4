package resolver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

func TestLayoutConfig(t *testing.T) {
	l := paths.Layout{Home: "/home/ann"}
	tests := []struct {
		config       string
		lockDir      string
		userSettings string
	}{
		{"", "/home/ann/.claude/sessions", "/home/ann/.claude/settings.json"},
		{"/home/ann/.claude", "/home/ann/.claude/sessions", "/home/ann/.claude/settings.json"},
		{"/home/ann/.claude-work", "/home/ann/.claude-work/sessions", "/home/ann/.claude-work/settings.json"},
	}
	for _, tt := range tests {
		c := l.WithConfig(tt.config)
		if got := c.LockDir(); got != tt.lockDir {
			t.Errorf("WithConfig(%q).LockDir() = %q, want %q", tt.config, got, tt.lockDir)
		}
		if got := c.UserSettingsPath(); got != tt.userSettings {
			t.Errorf("WithConfig(%q).UserSettingsPath() = %q, want %q", tt.config, got, tt.userSettings)
		}
		// The HUD's own files stay in ~/.claude whatever the config dir.
		if got := c.DebugLogPath(); got != "/home/ann/.claude/hud-hook-debug.log" {
			t.Errorf("WithConfig(%q).DebugLogPath() = %q", tt.config, got)
		}
	}
	if c := l.WithConfig("/home/ann/.claude"); c.Config != "" {
		t.Errorf("the default dir is named %q, want \"\"", c.Config)
	}
}

func TestConfigDirFromEnv(t *testing.T) {
	home := t.TempDir()
	l := paths.Layout{Home: home}
	tests := []struct{ value, want string }{
		{"", ""},
		{filepath.Join(home, ".claude"), ""},
		{filepath.Join(home, ".claude") + "/", ""},
		{filepath.Join(home, ".claude-work"), filepath.Join(home, ".claude-work")},
		{filepath.Join(home, "x", "..", ".claude-work") + "/", filepath.Join(home, ".claude-work")},
	}
	for _, tt := range tests {
		if got := ConfigDirFromEnv(l, tt.value); got != tt.want {
			t.Errorf("ConfigDirFromEnv(%q) = %q, want %q", tt.value, got, tt.want)
		}
	}
}

func TestFollowedConfigDirs(t *testing.T) {
	// A record's directory is followed when it is the person's; these are
	// made in a home of the test's own.
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".claude-b", "shared"} {
		if err := os.Mkdir(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(home, "shared"), 0o777)
	named := strings.NewReplacer("/home/ann", home)
	st := store.New()
	st.Sessions["a"] = &store.Record{SessionID: "a", ConfigDir: home + "/.claude-b"}
	st.Sessions["b"] = &store.Record{SessionID: "b", ConfigDir: home + "/.claude-work"}
	st.Sessions["c"] = &store.Record{SessionID: "c"}
	st.Sessions["d"] = &store.Record{SessionID: "d", ConfigDir: "relative/dir"} // hand-edited: ignored
	st.Sessions["e"] = &store.Record{SessionID: "e", ConfigDir: home + "/missing"}
	st.Sessions["f"] = &store.Record{SessionID: "f", ConfigDir: home + "/shared"} // anybody's: ignored
	tests := []struct {
		name   string
		config string
		list   []string
		st     *store.Store
		want   []string
	}{
		{"default only", "", nil, nil, []string{"/home/ann/.claude"}},
		{"wired", "", []string{"/home/ann/.claude-work", "/home/ann/.claude"}, nil,
			[]string{"/home/ann/.claude", "/home/ann/.claude-work"}},
		{"records add theirs, once", "", []string{"/home/ann/.claude-work"}, st,
			[]string{"/home/ann/.claude", "/home/ann/.claude-work", "/home/ann/.claude-b"}},
		{"the reader's own first", "/home/ann/.claude-b", nil, nil,
			[]string{"/home/ann/.claude-b", "/home/ann/.claude"}},
		// CLAUDE_CONFIG_DIR and a wired directory that anybody can write
		// to are not the person's: left out, whoever names them.
		{"the reader's own, anybody's", "/home/ann/shared", nil, nil, []string{"/home/ann/.claude"}},
		{"wired, anybody's", "", []string{"/home/ann/shared", "/home/ann/.claude-b"}, nil,
			[]string{"/home/ann/.claude", "/home/ann/.claude-b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := paths.Layout{Home: home, Config: named.Replace(tt.config)}
			var list []string
			for _, d := range tt.list {
				list = append(list, named.Replace(d))
			}
			want := make([]string, len(tt.want))
			for i, d := range tt.want {
				want[i] = named.Replace(d)
			}
			got := FollowedConfigDirs(l, ConfigDirList{ConfigDirs: list}, tt.st)
			if !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestLoadConfigDirList(t *testing.T) {
	tests := []struct {
		name    string
		content string // "-" for no file
		want    []string
		err     string
	}{
		{"missing", "-", nil, ""},
		{"list", `{"config_dirs":["/a/.claude-work","/b/"]}`, []string{"/a/.claude-work", "/b"}, ""},
		{"relative entries dropped", `{"config_dirs":["rel","/abs"]}`, []string{"/abs"}, ""},
		{"not JSON", `{"config_dirs":`, nil, "config-dirs.json"},
		{"too big", `{"config_dirs":["` + strings.Repeat("x", maxConfigDirList) + `"]}`, nil, "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := paths.Layout{Home: t.TempDir()}
			if tt.content != "-" {
				writeFile(t, l.ConfigDirsPath(), tt.content)
			}
			got, err := LoadConfigDirList(l)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one mentioning %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.ConfigDirs, tt.want) {
				t.Errorf("got %q, want %q", got.ConfigDirs, tt.want)
			}
		})
	}
}

func TestConfigDirListRoundTrip(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	b, err := ConfigDirList{}.Encode()
	if err != nil || string(b) != "{\n  \"config_dirs\": []\n}\n" {
		t.Fatalf("empty list encodes as %q, %v", b, err)
	}
	b, _ = ConfigDirList{ConfigDirs: []string{"/w"}}.Encode()
	writeFile(t, l.ConfigDirsPath(), string(b))
	if got, err := LoadConfigDirList(l); err != nil || !slices.Equal(got.ConfigDirs, []string{"/w"}) {
		t.Errorf("round trip: %q, %v", got.ConfigDirs, err)
	}
}

// Two Claudes with different config dirs: each dir's locks and Claude's
// own files are read, the wired one through config-dirs.json and one
// wired elsewhere through the record that names it.
func TestLoadSnapshotConfigDirs(t *testing.T) {
	home := t.TempDir()
	l := paths.Layout{Home: home}
	work := filepath.Join(home, ".claude-work")
	other := filepath.Join(home, "elsewhere")
	writeFile(t, l.ConfigDirsPath(), fmt.Sprintf(`{"config_dirs":[%q]}`, work))
	writeFile(t, l.StorePath(), fmt.Sprintf(`{"version":3,"sessions":{"s3":{"session_id":"s3","state":"ready","cwd":"/r","updated_at":"2026-01-21T10:30:00.123Z","state_changed_at":"2026-01-21T10:30:00.123Z","config_dir":%q}}}`, other))
	for i, dir := range []string{"", work, other} {
		c := l.WithConfig(dir)
		pid := 100 + i
		writeLock(t, c, "/p", pid, fmt.Sprint("s", i+1))
		writeFile(t, filepath.Join(c.LockDir(), fmt.Sprintf("%d.json", pid)),
			fmt.Sprintf(`{"pid":%d,"sessionId":"s%d","status":"idle","name":"n%d","nameSource":"user"}`, pid, i+1, i+1))
	}
	snap, err := LoadSnapshot(l, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantDirs := []string{filepath.Join(home, ".claude", "sessions"), filepath.Join(work, "sessions"), filepath.Join(other, "sessions")}
	if !slices.Equal(snap.LockDirs, wantDirs) {
		t.Errorf("LockDirs = %q, want %q", snap.LockDirs, wantDirs)
	}
	var pids, claude []int
	for _, lk := range snap.Locks {
		pids = append(pids, lk.PID)
	}
	for _, c := range snap.Claude {
		claude = append(claude, c.PID)
	}
	if !slices.Equal(pids, []int{100, 101, 102}) || !slices.Equal(claude, []int{100, 101, 102}) {
		t.Errorf("locks of %v and Claude files of %v, want 100..102 each", pids, claude)
	}

	// A config-dirs.json that does not parse costs only what it named.
	writeFile(t, l.ConfigDirsPath(), "{")
	snap, err = LoadSnapshot(l, nil, nil)
	if err != nil || len(snap.Locks) != 2 {
		t.Errorf("with a broken list: %d locks, %v; want 2 (default and the record's)", len(snap.Locks), err)
	}
}

func TestDisplayName(t *testing.T) {
	tests := []struct {
		name, source, want string
	}{
		{"auth refactor", "user", "auth refactor"},
		{"api-07", "derived", ""},
		{"Plan: cache layer", "auto", "Plan: cache layer"},
		{"auth-refactor-blue-fox", "collision", "auth-refactor-blue-fox"},
		{"SLOW:20 background hello", "", "SLOW:20 background hello"},
		{"", "", ""},
	}
	for _, tt := range tests {
		c := ClaudeSession{Name: tt.name, NameSource: tt.source}
		if got := c.DisplayName(); got != tt.want {
			t.Errorf("DisplayName(%q, %q) = %q, want %q", tt.name, tt.source, got, tt.want)
		}
	}
}

func TestSessionName(t *testing.T) {
	tests := []struct {
		name      string
		claude    *ClaudeSession
		workingOn string
		want      string
	}{
		{"no file (older releases)", nil, "", ""},
		{"renamed", &ClaudeSession{Name: "auth refactor", NameSource: "user"}, "fix it", "auth refactor"},
		{"made up from the directory", &ClaudeSession{Name: "api-07", NameSource: "derived"}, "", ""},
		{"background: named after its prompt", &ClaudeSession{Name: "SLOW:20 hello"}, "SLOW:20 hello\nmore", ""},
		{"background, renamed", &ClaudeSession{Name: "nightly"}, "SLOW:20 hello", "nightly"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Session{Claude: tt.claude, Record: &store.Record{WorkingOn: tt.workingOn}}
			if got := s.Name(); got != tt.want {
				t.Errorf("Name() = %q, want %q", got, tt.want)
			}
		})
	}
	if got := WithName("api", "auth refactor"); got != "api · auth refactor" {
		t.Errorf("WithName = %q", got)
	}
	if got := WithName("api", ""); got != "api" {
		t.Errorf("WithName without a name = %q", got)
	}
}

// Claude Code 2.1.330's own session files, as recorded: a name made up
// from the directory is not shown, one set by /rename is.
func TestDisplayNameRecorded(t *testing.T) {
	dir := "../testdata/hook/claude-code-2.1.330/config-dir/"
	for file, want := range map[string]string{
		"003-UserPromptSubmit.claude-session.json": "",
		"007-UserPromptSubmit.claude-session.json": "nightly build",
	} {
		b, err := os.ReadFile(dir + file)
		if err != nil {
			t.Fatal(err)
		}
		var c ClaudeSession
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if c.Name == "" || c.DisplayName() != want {
			t.Errorf("%s: name %q (%s) shows as %q, want %q", file, c.Name, c.NameSource, c.DisplayName(), want)
		}
	}
}
