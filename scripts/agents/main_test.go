package agents

import (
	"bufio"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/tmux"
	"github.com/capacitor-hud/hud/scripts/agents/standin/chat"
	"github.com/capacitor-hud/hud/scripts/agents/standin/gemini"
	"github.com/capacitor-hud/hud/scripts/agents/standin/responses"
)

const (
	envCache  = "HUD_AGENTS_CACHE"       // scripts/e2e/.cache, where run.sh installs the CLIs
	envBin    = "HUD_AGENTS_BIN"         // directory holding hud and hud-hook
	envSocket = "HUD_AGENTS_TMUX_SOCKET" // tmux -L name, so run.sh's trap can kill the server
	envRecord = "HUD_AGENTS_RECORD"      // save every hook payload here
	envKeep   = "HUD_AGENTS_KEEP"        // "1": keep every scenario's temp HOME
	apiKey    = "sk-agents-e2e-standin"
)

// suite is what every scenario shares: the binaries, the CLIs, the
// stand-in and the tmux server.
type suite struct {
	hud, hook string
	// versions maps an agent to its release (scripts/e2e/agent-versions);
	// cache is where run.sh installed it.
	versions map[string]string
	cache    string
	api      *responses.Server
	apiURL   string
	// chatURL serves the Chat Completions API (Copilot), geminiURL the
	// Gemini API; both log into apiLog too.
	chatURL, geminiURL string
	apiLog             *lineLog
	tmux               tmux.Server
	record             string
	keep               bool
}

var (
	theSuite   *suite
	skipReason string
)

func TestMain(m *testing.M) {
	s, why, err := setUp()
	if err != nil {
		fmt.Fprintf(os.Stderr, "agents-e2e: %v\n", err)
		os.Exit(1)
	}
	skipReason = why
	theSuite = s
	code := m.Run()
	if s != nil {
		s.tmux.Kill()
	}
	os.Exit(code)
}

func setUp() (*suite, string, error) {
	cache := os.Getenv(envCache)
	if cache == "" {
		return nil, envCache + " is not set: the agents' end-to-end tests run through `make agents-e2e` (scripts/agents/run.sh), which installs the CLIs", nil
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		return nil, "", errors.New("tmux is not installed (apt-get install tmux)")
	}
	bin := os.Getenv(envBin)
	s := &suite{
		hud:    filepath.Join(bin, "hud"),
		hook:   filepath.Join(bin, "hud-hook"),
		cache:  cache,
		record: os.Getenv(envRecord),
		keep:   os.Getenv(envKeep) == "1",
		apiLog: &lineLog{},
	}
	for _, p := range []string{s.hud, s.hook} {
		if _, err := os.Stat(p); err != nil {
			return nil, "", fmt.Errorf("%v (run `make build` first, or `make agents-e2e`)", err)
		}
	}
	var err error
	if s.versions, err = readVersions(filepath.Join("..", "e2e", "agent-versions")); err != nil {
		return nil, "", err
	}
	s.api = &responses.Server{Logf: s.apiLog.Logf, Slow: 30 * time.Second}
	srv := httptest.NewServer(s.api)
	s.apiURL = srv.URL
	s.chatURL = httptest.NewServer(chat.New(s.apiLog.Logf)).URL
	s.geminiURL = httptest.NewServer(gemini.New(s.apiLog.Logf)).URL
	socket := os.Getenv(envSocket)
	if socket == "" {
		socket = fmt.Sprintf("hud-agents-%d", os.Getpid())
	}
	s.tmux = tmux.Server{Socket: socket, Session: "agents"}
	if err := s.tmux.Start(); err != nil {
		srv.Close()
		return nil, "", fmt.Errorf("starting tmux: %w", err)
	}
	return s, "", nil
}

// readVersions reads scripts/e2e/agent-versions: agent → version.
func readVersions(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s: %q: want <agent> <npm package> <version>", path, sc.Text())
		}
		out[fields[0]] = fields[2]
	}
	return out, sc.Err()
}

// needSuite skips a test run outside run.sh, saying why.
func needSuite(t *testing.T) *suite {
	t.Helper()
	if skipReason != "" {
		t.Skip("agents-e2e skipped: " + skipReason)
	}
	return theSuite
}

// executable finds agent's CLI in the cache by glob (the npm packages put
// the native binary in a per-platform package); a CLI missing is a
// failure under CI, where .ci/run installs it, and a skip elsewhere.
func (s *suite) executable(t *testing.T, agent, glob string) (path, version string) {
	t.Helper()
	version = s.versions[agent]
	if version == "" {
		t.Fatalf("scripts/e2e/agent-versions names no %s release", agent)
	}
	matches, _ := filepath.Glob(filepath.Join(s.cache, agent+"-"+version, glob))
	if len(matches) == 0 {
		msg := fmt.Sprintf("%s %s is not installed in %s (scripts/agents/run.sh --install)", agent, version, s.cache)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return matches[0], version
}

// lineLog collects the stand-in's log lines, printed when a test fails.
type lineLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *lineLog) Logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, time.Now().Format("15:04:05.000 ")+fmt.Sprintf(format, args...))
}

// since returns the lines logged from mark on, and the new mark.
func (l *lineLog) since(mark int) ([]string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	mark = min(mark, len(l.lines))
	return append([]string(nil), l.lines[mark:]...), len(l.lines)
}
