package proc

import "testing"

func TestRunsScript(t *testing.T) {
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"}, true},
		{[]string{"node", "--no-warnings", "/opt/codex/bin/codex"}, true},
		{[]string{"node", "/home/u/.npm/_npx/1/node_modules/codex/dist/cli.js"}, true},
		{[]string{"node", "/srv/app/server.js", "codex"}, false},
		{[]string{"bun"}, false},
		{nil, false},
	}
	for _, c := range cases {
		if got := runsScript(c.args, "codex"); got != c.want {
			t.Errorf("runsScript(%q, codex) = %v, want %v", c.args, got, c.want)
		}
	}
}

func TestIsExecutable(t *testing.T) {
	is := IsExecutable("codex")
	if !is(Process{PID: -1, Comm: "codex"}) {
		t.Error("the codex binary is not codex")
	}
	if is(Process{PID: -1, Comm: "codex-helper"}) || is(Process{PID: -1, Comm: "claude"}) {
		t.Error("another executable passed for codex")
	}
}
