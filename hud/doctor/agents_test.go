package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/agent/codex"
	"github.com/capacitor-hud/hud/hud/install"
)

// TestCheckAgents: an agent hud is not installed for is not mentioned;
// Codex installed but not trusted fails with what to do; trusted, it
// passes; its daemon setting taken out again fails.
func TestCheckAgents(t *testing.T) {
	env := newEnv(t)
	if got := checkAgents(env); len(got) != 0 {
		t.Fatalf("nothing installed: %+v", got)
	}
	hook := filepath.Join(env.Layout.Home, "bin", "hud-hook")
	write(t, hook, "#!/bin/sh\n", 0o755)
	ae := install.Env{Home: env.Layout.Home}
	if _, err := (codex.Codex{}).Setup().Install(ae, install.Options{HookPath: hook}); err != nil {
		t.Fatal(err)
	}
	got := checkAgents(env)
	if len(got) != 1 || got[0].Severity != Fail || !strings.Contains(got[0].Message, "has not trusted hud's hooks on SessionStart") ||
		!strings.Contains(got[0].Fix, "trust") {
		t.Fatalf("untrusted: %+v", got)
	}

	// Trust every hook as Codex records it.
	codex := filepath.Join(env.Layout.Home, ".codex")
	config := readFile(t, filepath.Join(codex, "config.toml"))
	for i, ev := range []string{"session_start", "user_prompt_submit", "pre_tool_use", "permission_request", "post_tool_use",
		"pre_compact", "post_compact", "subagent_start", "subagent_stop", "stop", "interrupt", "session_end"} {
		config += "\n[hooks.state.\"" + filepath.Join(codex, "hooks.json") + ":" + ev + ":0:0\"]\ntrusted_hash = \"sha256:" + strings.Repeat("0", i+1) + "\"\n"
	}
	write(t, filepath.Join(codex, "config.toml"), config, 0o600)
	got = checkAgents(env)
	if len(got) != 1 || got[0].Severity != OK || got[0].Message != "Codex: installed" {
		t.Fatalf("trusted: %+v", got)
	}

	write(t, filepath.Join(codex, "config.toml"), strings.ReplaceAll(config, "daemon_auto_start = false", "daemon_auto_start = true"), 0o600)
	got = checkAgents(env)
	if len(got) != 1 || got[0].Severity != Fail || !strings.Contains(got[0].Message, "daemon_auto_start") {
		t.Fatalf("daemon on: %+v", got)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
