package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/internal/fieldfile"
)

// versionsFile names the Claude Code releases the suite runs against, in
// one place for run.sh, .ci/run, these tests and the docs.
const versionsFile = "claude-code-versions"

// clientVersions reads versionsFile: "oldest" and "newest" to a release.
func clientVersions() (map[string]string, error) {
	records, err := fieldfile.Read(versionsFile, 2, "oldest|newest X.Y.Z")
	if err != nil {
		return nil, err
	}
	named := map[string]string{}
	for _, r := range records {
		if parseVersion(r[1]) == nil {
			return nil, fmt.Errorf("%s: %q is not a release number", versionsFile, r[1])
		}
		named[r[0]] = r[1]
	}
	if named["oldest"] == "" || named["newest"] == "" {
		return nil, fmt.Errorf("%s names no oldest or no newest release", versionsFile)
	}
	return named, nil
}

// parseVersion splits "2.1.330" into its numbers; nil when it is not one.
func parseVersion(v string) []int {
	parts := strings.Split(v, ".")
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil
		}
		nums[i] = n
	}
	return nums
}

// versionLess reports whether release a is older than b.
func versionLess(a, b string) bool {
	x, y := parseVersion(a), parseVersion(b)
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return len(x) < len(y)
}

// claudeVersion asks the CLI its release: "2.1.330 (Claude Code)".
func claudeVersion(claude string) (string, error) {
	out, err := exec.Command(claude, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", claude, err)
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 || parseVersion(fields[0]) == nil {
		return "", fmt.Errorf("%s --version printed %q, want a release number", claude, out)
	}
	return fields[0], nil
}

// needClient skips a scenario on a client older than min, saying why in
// the test's output and in the run's summary: a scenario about a feature
// the oldest supported client lacks runs on the newer ones only.
func needClient(t *testing.T, min, why string) {
	t.Helper()
	s := needSuite(t)
	if !versionLess(s.version, min) {
		return
	}
	reason := fmt.Sprintf("needs Claude Code %s or newer (%s); this run's is %s", min, why, s.version)
	s.skipped.Store(t.Name(), reason)
	t.Skip(reason)
}

func TestVersionsFile(t *testing.T) {
	named, err := clientVersions()
	if err != nil {
		t.Fatal(err)
	}
	if !versionLess(named["oldest"], named["newest"]) {
		t.Errorf("%s: oldest %s is not older than newest %s", versionsFile, named["oldest"], named["newest"])
	}
	// The newest release's payloads are recorded and replayed
	// (hud/hook's TestRecordedReplay): moving to a newer one means
	// recording them again.
	dir := "../../testdata/hook/claude-code-" + named["newest"]
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("the newest tested release has no recorded payloads: %v (record them: testdata/hook/README.md)", err)
	}
}

func TestVersionLess(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"2.1.197", "2.1.330", true},
		{"2.1.330", "2.1.197", false},
		{"2.1.330", "2.1.330", false},
		{"2.1.99", "2.1.100", true},
		{"2.1", "2.1.0", true},
		{"3.0.0", "2.9.9", false},
	} {
		if got := versionLess(tt.a, tt.b); got != tt.want {
			t.Errorf("versionLess(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
