package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// trayIdleWindow is how long the idle tray's CPU time is taken over.
const trayIdleWindow = 60 * time.Second

// trayIdleSessions is how many live sessions the idle tray shows.
const trayIdleSessions = 10

// benchTray measures bin/hud as the panel sees it, on a private D-Bus
// session bus (no X, no tray host: the properties change and their signals
// go out all the same):
//   - the latency from the hook's exit to the tray's first D-Bus signal
//     (PropertiesChanged, NewIcon, NewToolTip…) for a state change, against
//     a D-Bus round trip to the same tray (Properties.Get), the floor of
//     any observation over the bus;
//   - its CPU time and resident memory over trayIdleWindow with
//     trayIdleSessions live sessions, against a second tray with none,
//     measured over the same window.
func benchTray(b *bench) error {
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		fmt.Printf("tray: skipped, no dbus-daemon (apt-get install dbus)\n\n")
		return nil
	}
	r, err := newTrayRig(b)
	if err != nil {
		return err
	}
	defer r.close()
	hud, hook, claude, bus, conn := r.hud, r.hook, r.claude, r.bus, r.conn

	busy, err := startTray(b, bus.address, conn, hud, "busy")
	if err != nil {
		return err
	}
	defer busy.stop()
	quiet, err := startTray(b, bus.address, conn, hud, "quiet")
	if err != nil {
		return err
	}
	defer quiet.stop()

	if err := trayLatency(b, conn, busy, hook, claude); err != nil {
		return err
	}
	return trayIdle(b, busy, quiet, hook, claude)
}

// trayLatency prints the latency table.
func trayLatency(b *bench, conn *dbus.Conn, tray *trayProcess, hook, claude string) error {
	signals := make(chan *dbus.Signal, 256)
	match := dbus.WithMatchSender(tray.bus)
	if err := conn.AddMatchSignal(match); err != nil {
		return err
	}
	conn.Signal(signals)
	defer func() {
		conn.RemoveSignal(signals)
		_ = conn.RemoveMatchSignal(match)
	}()

	s, err := startTrayClaude(b, tray.home, hook, claude, "latency")
	if err != nil {
		return err
	}
	defer s.exit()
	if _, err := s.send("05-SessionStart-startup"); err != nil {
		return err
	}
	time.Sleep(100 * time.Millisecond)
	var latency, fromStart, roundTrip []time.Duration
	item := conn.Object(tray.bus, "/StatusNotifierItem")
	for i := range b.n {
		// Turns alternate between working and ready: each event changes
		// what the tray shows.
		event := "06-UserPromptSubmit"
		if i%2 == 1 {
			event = "11-Stop"
		}
		drainSignals(signals)
		exited, started, err := s.sendTimed(event)
		if err != nil {
			return err
		}
		select {
		case <-signals:
			// Read after the stand-in's reply, so this is an upper bound.
			// The tray often reacts to the store's rename while the hook
			// is still finishing (debug log, follow-ups): then the signal
			// waits in the channel and the figure is the read's delay.
			latency = append(latency, time.Since(exited))
			fromStart = append(fromStart, time.Since(started))
		case <-time.After(2 * time.Second):
			return fmt.Errorf("tray: no D-Bus signal within 2 s of %s", event)
		}
		start := time.Now()
		if _, err := item.GetProperty("org.kde.StatusNotifierItem.ToolTip"); err != nil {
			return fmt.Errorf("tray: reading ToolTip: %w", err)
		}
		roundTrip = append(roundTrip, time.Since(start))
		time.Sleep(20 * time.Millisecond) // let the watcher's debounce settle
	}
	l, f, r := summarize(latency), summarize(fromStart), summarize(roundTrip)
	fmt.Printf("tray: from the hook's exit to the tray's D-Bus signal, %d state changes\n", b.n)
	fmt.Println("| measure                      |       p50 |       p95 |")
	fmt.Println("|------------------------------|-----------|-----------|")
	fmt.Printf("| hook exit → tray signal      | %9s | %9s |\n", ms(l.p50), ms(l.p95))
	fmt.Printf("| hook start → tray signal     | %9s | %9s |\n", ms(f.p50), ms(f.p95))
	fmt.Printf("| D-Bus round trip (baseline)  | %9s | %9s |\n", ms(r.p50), ms(r.p95))
	fmt.Printf("| ratio                        | %8.2f× | %8.2f× |\n\n", trayRatio(l.p50, r.p50), trayRatio(l.p95, r.p95))
	return nil
}

// trayIdle prints the idle table.
func trayIdle(b *bench, busy, quiet *trayProcess, hook, claude string) error {
	for i := range trayIdleSessions {
		s, err := startTrayClaude(b, busy.home, hook, claude, fmt.Sprintf("idle%02d", i))
		if err != nil {
			return err
		}
		defer s.exit()
		events := []string{"05-SessionStart-startup"}
		if i%3 == 0 {
			events = append(events, "06-UserPromptSubmit") // some work, most wait for the person
		}
		for _, e := range events {
			if _, err := s.send(e); err != nil {
				return err
			}
		}
	}
	time.Sleep(time.Second) // the last change drawn
	cpu0, err := trayCPUTime(busy.cmd.Process.Pid)
	if err != nil {
		return err
	}
	quiet0, err := trayCPUTime(quiet.cmd.Process.Pid)
	if err != nil {
		return err
	}
	time.Sleep(trayIdleWindow)
	cpu1, err := trayCPUTime(busy.cmd.Process.Pid)
	if err != nil {
		return err
	}
	quiet1, err := trayCPUTime(quiet.cmd.Process.Pid)
	if err != nil {
		return err
	}
	rss, err := trayRSS(busy.cmd.Process.Pid)
	if err != nil {
		return err
	}
	quietRSS, err := trayRSS(quiet.cmd.Process.Pid)
	if err != nil {
		return err
	}
	fmt.Printf("tray: idle for %v, %d live sessions vs none (baseline, same window)\n", trayIdleWindow, trayIdleSessions)
	fmt.Println("| measure          | 10 sessions | no session |  ratio |")
	fmt.Println("|------------------|-------------|------------|--------|")
	fmt.Printf("| CPU time         | %11s | %10s | %5.2f× |\n", ms(cpu1-cpu0), ms(quiet1-quiet0), trayRatio(cpu1-cpu0, quiet1-quiet0))
	fmt.Printf("| resident memory  | %8.1f MB | %7.1f MB | %5.2f× |\n\n", megabytes(rss), megabytes(quietRSS), float64(rss)/float64(quietRSS))
	return nil
}

// trayRig is what the tray's figures share: the release binaries, the
// stand-in Claude, a private session bus and a connection to it.
type trayRig struct {
	hud, hook, claude string
	bus               *trayBus
	conn              *dbus.Conn
}

func newTrayRig(b *bench) (*trayRig, error) {
	r := &trayRig{}
	var err error
	for _, p := range []struct {
		path *string
		pkg  string
	}{{&r.hud, "./cmd/hud"}, {&r.hook, "./cmd/hud-hook"}, {&r.claude, "./scripts/desktop/claude"}} {
		if *p.path, err = b.build(p.pkg); err != nil {
			return nil, err
		}
	}
	if r.bus, err = startTrayBus(b.dir); err != nil {
		return nil, err
	}
	if r.conn, err = dbus.Connect(r.bus.address); err != nil {
		r.bus.stop()
		return nil, fmt.Errorf("connecting to the private bus: %w", err)
	}
	return r, nil
}

func (r *trayRig) close() {
	r.conn.Close()
	r.bus.stop()
}

// trayBus is a dbus-daemon of the benchmark's own.
type trayBus struct {
	cmd     *exec.Cmd
	address string
}

func startTrayBus(dir string) (*trayBus, error) {
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting dbus-daemon: %w", err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("reading the bus address: %w", err)
	}
	return &trayBus{cmd: cmd, address: strings.TrimSpace(line)}, nil
}

func (p *trayBus) stop() {
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

// trayProcess is a running bin/hud with a home of its own.
type trayProcess struct {
	cmd  *exec.Cmd
	home string
	bus  string // its unique bus name
}

func startTray(b *bench, address string, conn *dbus.Conn, hud, name string) (*trayProcess, error) {
	home := filepath.Join(b.dir, "tray-"+name)
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	cmd := exec.Command(hud)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "DBUS_SESSION_BUS_ADDRESS=" + address}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t := &trayProcess{cmd: cmd, home: home}
	// systray names itself org.kde.StatusNotifierItem-<pid>-1 once its
	// item is exported.
	name = fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", cmd.Process.Pid)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var owner string
		if err := conn.BusObject().Call("org.freedesktop.DBus.GetNameOwner", 0, name).Store(&owner); err == nil {
			t.bus = owner
			return t, nil
		}
		if time.Now().After(deadline) {
			t.stop()
			return nil, fmt.Errorf("tray: %s never appeared on the bus", name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (t *trayProcess) stop() {
	t.cmd.Process.Kill()
	t.cmd.Wait()
}

// trayClaude is a stand-in Claude process (scripts/desktop/claude).
type trayClaude struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Scanner
	dir, id string
	scratch string
}

func startTrayClaude(b *bench, home, hook, claude, name string) (*trayClaude, error) {
	dir := filepath.Join(home, "src", name)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o700); err != nil {
		return nil, err
	}
	s := &trayClaude{dir: dir, id: fmt.Sprintf("bench-%s-%d", name, time.Now().UnixNano()), scratch: filepath.Join(b.dir, "events-"+name)}
	if err := os.MkdirAll(s.scratch, 0o700); err != nil {
		return nil, err
	}
	s.cmd = exec.Command(claude)
	s.cmd.Dir = dir
	s.cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "HUD_HOOK_COMMAND=" + hook}
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.out = bufio.NewScanner(out)
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	return s, nil
}

// send runs the recorded event through the hook, rewritten for this
// session, and returns when the hook exited.
func (s *trayClaude) send(event string) (time.Time, error) {
	exited, _, err := s.sendTimed(event)
	return exited, err
}

// sendTimed is send, with the moment the hook was started as well.
func (s *trayClaude) sendTimed(event string) (exited, started time.Time, err error) {
	b, err := os.ReadFile(filepath.Join("scripts", "desktop", "testdata", "events", event+".json"))
	if err != nil {
		return exited, started, fmt.Errorf("reading event (run from the repository root): %w", err)
	}
	var ev map[string]any
	if err := json.Unmarshal(b, &ev); err != nil {
		return exited, started, err
	}
	ev["session_id"], ev["cwd"] = s.id, s.dir
	ev["transcript_path"] = filepath.Join(s.scratch, "transcript.jsonl")
	b, _ = json.Marshal(ev)
	path := filepath.Join(s.scratch, event+".json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return exited, started, err
	}
	fmt.Fprintln(s.in, path)
	if !s.out.Scan() {
		return exited, started, errors.New("the stand-in Claude died")
	}
	var exitNs, startNs int64
	if _, err := fmt.Sscanf(s.out.Text(), "ok %d %d", &exitNs, &startNs); err != nil {
		return exited, started, fmt.Errorf("stand-in: %s", s.out.Text())
	}
	return time.Unix(0, exitNs), time.Unix(0, startNs), nil
}

func (s *trayClaude) exit() {
	s.in.Close()
	s.cmd.Wait()
}

func drainSignals(ch chan *dbus.Signal) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}
