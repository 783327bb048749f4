package safegit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// ErrNotRepo is returned for a directory outside any git work tree, and
// for a repository git refuses to look at (owned by another user and not
// listed in the person's safe.directory).
var ErrNotRepo = errors.New("not a git repository")

// MaxOutput bounds what one git call may print; past it the call fails
// rather than fill memory (a repository with a million untracked files).
const MaxOutput = 8 << 20

// fixed are the overrides every call carries. Each names a setting that
// makes a read-only command run a program, or reach out of the machine:
var fixed = [][2]string{
	{"core.fsmonitor", "false"},    // a command run by every status
	{"core.hooksPath", os.DevNull}, // no hook of the repository's
	{"core.pager", "cat"},          // no pager (there is no tty either)
	{"pager.log", "false"},
	{"pager.status", "false"},
	{"diff.external", ""},          // an external diff program
	{"log.showSignature", "false"}, // log would run gpg.program…
	{"gpg.program", "false"},       // …or its ssh and x509 variants
	{"gpg.ssh.program", "false"},
	{"gpg.x509.program", "false"},
	{"protocol.allow", "never"}, // no transport: a partial clone's lazy fetch
	{"core.sshCommand", "false"},
	{"credential.helper", ""},
	{"core.askPass", ""},
	{"status.submoduleSummary", "false"},
	{"safe.bareRepository", "explicit"}, // a bare repository planted in a work tree
}

// commandKey reports config names whose value is a command a driver runs:
// filter.<driver>.clean|smudge|process (status runs clean on a racily
// clean file), diff.<driver>.textconv|command, merge.<driver>.driver. The
// driver names are the repository's to choose, so they are listed first
// and each is overridden with an empty value, which git reads as "no
// command".
func commandKey(name string) bool {
	section, rest, ok := strings.Cut(name, ".")
	if !ok {
		return false
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return false
	}
	key := rest[i+1:]
	switch section {
	case "filter":
		return key == "clean" || key == "smudge" || key == "process"
	case "diff":
		return key == "textconv" || key == "command"
	case "merge":
		return key == "driver"
	}
	return false
}

// maxDriverKeys bounds the overrides taken from a repository's config; a
// config with more command keys than this is refused rather than passed
// along as an environment of unbounded size.
const maxDriverKeys = 256

// Run runs `git -C dir args...` hardened, and returns its standard
// output. ctx bounds it (a huge repository, a stuck file system).
func Run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	names, err := run(ctx, dir, nil, "config", "--null", "--name-only", "--list")
	if err != nil {
		return nil, err
	}
	var drivers []string
	for name := range strings.SplitSeq(string(names), "\x00") {
		if name = strings.TrimSpace(name); !commandKey(name) {
			continue
		}
		// -c splits at the first '=': a driver named with one could not
		// be overridden, so the repository is not looked at.
		if strings.ContainsRune(name, '=') {
			return nil, fmt.Errorf("git %s: the repository's config names a command under %q, which cannot be overridden", args[0], name)
		}
		drivers = append(drivers, name)
	}
	if len(drivers) > maxDriverKeys {
		return nil, fmt.Errorf("git %s: the repository's config names %d filter or diff commands", args[0], len(drivers))
	}
	return run(ctx, dir, drivers, args...)
}

// run runs git with the overrides as -c options (which every git version
// takes, and which reach the git processes it starts), in a fixed
// environment.
func run(ctx context.Context, dir string, drivers []string, args ...string) ([]byte, error) {
	full := []string{"--no-pager", "--no-optional-locks"}
	for _, kv := range fixed {
		full = append(full, "-c", kv[0]+"="+kv[1])
	}
	for _, k := range drivers {
		full = append(full, "-c", k+"=")
	}
	full = append(append(full, "-C", dir), args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = environ()
	cmd.Dir = os.TempDir() // never the project: git's own lookups start at -C
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = MaxOutput, 64<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if stdout.over {
		return nil, fmt.Errorf("git %s: output over %d bytes", args[0], MaxOutput)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "not a git repository") || strings.Contains(msg, "dubious ownership") {
			return nil, ErrNotRepo
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", args[0], ctx.Err())
		}
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, msg)
	}
	return stdout.Bytes(), nil
}

// passed are the variables git may take from hud's environment: where to
// find git and the person's global config. Everything else (GIT_DIR,
// GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND, a GIT_CONFIG_* of Claude's) stays
// behind.
var passed = []string{"PATH", "HOME", "XDG_CONFIG_HOME", "TMPDIR"}

// environ is git's whole environment: the passed variables, a plain
// locale, no prompts, no lazy fetch, no optional locks.
func environ() []string {
	env := []string{"LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1", "GIT_OPTIONAL_LOCKS=0"}
	for _, k := range passed {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// limitedBuffer keeps at most max bytes and notes that more came.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
