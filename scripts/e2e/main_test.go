package e2e

import (
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

	"github.com/capacitor-hud/hud/scripts/e2e/standin"
)

// The environment run.sh hands the suite.
const (
	envClaude = "HUD_E2E_CLAUDE"      // the Claude Code executable (required)
	envBin    = "HUD_E2E_BIN"         // directory holding hud and hud-hook (default: ../../bin)
	envSocket = "HUD_E2E_TMUX_SOCKET" // tmux -L name, so run.sh's trap can kill the server
	envReport = "HUD_E2E_REPORT"      // write the latency table here as Markdown
	envKeep   = "HUD_E2E_KEEP"        // "1": keep every scenario's temp HOME; "0": not even a failed one's
	envAPILog = "HUD_E2E_VERBOSE_API" // "1": print the stand-in's log as it goes
	envDump   = "HUD_E2E_DUMP"        // save every request body to the stand-in in this directory
	envRecord = "HUD_E2E_RECORD"      // save every hook payload and Claude's session files in this directory
	apiKey    = "sk-ant-e2e-standin-0123456789abcdefghijklmnop"
)

// suite is what every scenario shares: one stand-in API, one tmux server.
type suite struct {
	claude   string
	version  string // the CLI's release, "2.1.330"
	hud      string
	hook     string
	apiURL   string
	api      *standin.Server
	closeAPI func()
	apiLog   *lineLog
	tmux     tmuxServer
	keep     bool
	record   string // HUD_E2E_RECORD
	latency  latencyTable
	skipped  sync.Map // scenario name → why it was skipped on this client

	hooksOnce sync.Once
	hooksBy   string // how the hooks were wired, for the summary

	preflightOnce sync.Once
	preflightErr  string
}

var (
	theSuite   *suite
	skipReason string
)

func TestMain(m *testing.M) {
	os.Exit(runSuite(m))
}

func runSuite(m *testing.M) int {
	s, why, err := setUp()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		return 1
	}
	if why != "" {
		skipReason = why
		return m.Run()
	}
	theSuite = s
	defer s.tearDown()
	loadBefore := loadAverage()
	code := m.Run()
	s.printSummary(os.Stdout, loadBefore)
	if path := os.Getenv(envReport); path != "" {
		if err := os.WriteFile(path, []byte(s.latency.markdown()), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: writing the latency report: %v\n", err)
			return 1
		}
	}
	return code
}

// setUp returns a reason to skip when the suite was not started by run.sh,
// and an error when it was but something it needs is missing.
func setUp() (*suite, string, error) {
	claude := os.Getenv(envClaude)
	if claude == "" {
		return nil, envClaude + " is not set: the end-to-end tests run through `make e2e` (scripts/e2e/run.sh), which installs the Claude Code CLI", nil
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		return nil, "", errors.New("tmux is not installed (apt-get install tmux)")
	}
	bin := os.Getenv(envBin)
	if bin == "" {
		bin = filepath.Join("..", "..", "bin")
	}
	bin, err := filepath.Abs(bin)
	if err != nil {
		return nil, "", err
	}
	s := &suite{
		claude: claude,
		hud:    filepath.Join(bin, "hud"),
		hook:   filepath.Join(bin, "hud-hook"),
		keep:   os.Getenv(envKeep) == "1",
	}
	for _, p := range []string{s.claude, s.hud, s.hook} {
		if _, err := os.Stat(p); err != nil {
			return nil, "", fmt.Errorf("%v (run `make build` first, or `make e2e`)", err)
		}
	}
	if s.version, err = claudeVersion(s.claude); err != nil {
		return nil, "", err
	}
	if s.record = os.Getenv(envRecord); s.record != "" {
		if s.record, err = filepath.Abs(s.record); err != nil {
			return nil, "", err
		}
	}

	s.apiLog = &lineLog{echo: os.Getenv(envAPILog) == "1"}
	s.api = standin.New(s.apiLog.Logf)
	// Long enough to see "compacting" between two polls, short enough to
	// keep the suite quick.
	s.api.CompactDelay = 1500 * time.Millisecond
	s.api.DumpDir = os.Getenv(envDump)
	// httptest listens on 127.0.0.1 only.
	srv := httptest.NewServer(s.api)
	s.apiURL = srv.URL
	s.closeAPI = srv.Close

	socket := os.Getenv(envSocket)
	if socket == "" {
		socket = fmt.Sprintf("hud-e2e-%d", os.Getpid())
	}
	s.tmux = tmuxServer{socket: socket}
	if err := s.tmux.start(); err != nil {
		srv.Close()
		return nil, "", fmt.Errorf("starting tmux: %w", err)
	}
	return s, "", nil
}

func (s *suite) tearDown() {
	s.tmux.kill()
	s.closeAPI()
}

// needSuite skips a test when the suite is not set up.
func needSuite(t *testing.T) *suite {
	t.Helper()
	if theSuite == nil {
		t.Skip("e2e skipped: " + skipReason)
	}
	return theSuite
}

func (s *suite) printSummary(w *os.File, loadBefore string) {
	fmt.Fprintf(w, "\ne2e: Claude Code %s at %s\n", s.version, s.claude)
	fmt.Fprintf(w, "e2e: hooks wired by %s\n", s.hooksBy)
	s.skipped.Range(func(name, why any) bool {
		fmt.Fprintf(w, "e2e: SKIPPED %s: %s\n", name, why)
		return true
	})
	if s.record != "" {
		fmt.Fprintf(w, "e2e: hook payloads recorded in %s (the recording adds a few ms to every hook)\n", s.record)
	}
	fmt.Fprintf(w, "e2e: load average before the run %s, after %s (on a busy machine the waits grow)\n", loadBefore, loadAverage())
	fmt.Fprintf(w, "e2e: latency from each keystroke (or event) to the state in `hud status --json`:\n\n")
	fmt.Fprint(w, s.latency.text())
}

// lineLog keeps the stand-in's log lines for failure reports.
type lineLog struct {
	mu    sync.Mutex
	lines []string
	echo  bool
}

func (l *lineLog) Logf(format string, args ...any) {
	line := time.Now().Format("15:04:05.000 ") + fmt.Sprintf(format, args...)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
	if l.echo {
		fmt.Fprintln(os.Stderr, line)
	}
}

func (l *lineLog) tail(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.lines
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
