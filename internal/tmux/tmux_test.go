package tmux

import (
	"slices"
	"testing"
)

// The agents' terminals are a person's: no variable saying "CI job"
// reaches them, everything else does.
func TestPersonEnv(t *testing.T) {
	in := []string{"HOME=/h", "CI=true", "PATH=/bin", "GITHUB_ACTIONS=true", "CIRCLE=1", "CONTINUOUS_INTEGRATION=1"}
	want := []string{"HOME=/h", "PATH=/bin", "CIRCLE=1"}
	if got := personEnv(in); !slices.Equal(got, want) {
		t.Errorf("personEnv = %q, want %q", got, want)
	}
	if in[1] != "CI=true" {
		t.Error("personEnv changed its input")
	}
}
