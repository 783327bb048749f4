package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/lockholder"
)

// lockRuns is how many Claude exits the lock figure times: each costs a
// process, a holder and a few milliseconds of waiting.
const lockRuns = 20

// lockIdleWindow is how long the holder's CPU time and wake-ups are
// counted while it waits.
const lockIdleWindow = 5 * time.Second

// lockTimes are the timings of the lock figure, each beside its baseline.
type lockTimes struct {
	removal, waitRemove []time.Duration // exit → lock gone; in-process
	ensureNew, spawn    []time.Duration // Ensure making a lock; the spawn alone
	ensureHeld, list    []time.Duration // Ensure on a held lock; a ReadDir
	sweep, sweepList    []time.Duration // Sweep over live locks; a ReadDir
}

// benchLock measures the lock holder: how soon a lock goes after its Claude
// process exits, against the same work done in-process; what Ensure and
// Sweep cost the hook; and what the holder costs while it waits (resident
// memory, CPU time, wake-ups) against an idle Go program.
// It reads /proc, so it runs on Linux only.
func benchLock(b *bench) error {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return errors.New("the lock figure reads /proc: Linux only")
	}
	hook, err := b.build("./cmd/hud-hook")
	if err != nil {
		return err
	}
	idle, err := b.idleProgram()
	if err != nil {
		return err
	}
	l := paths.Layout{Home: filepath.Join(b.dir, "lock-home")}
	project := filepath.Join(b.dir, "lock-proj")
	if err := os.MkdirAll(project, 0o700); err != nil {
		return err
	}
	project = paths.Normalize(project)

	var t lockTimes
	for range lockRuns {
		d, err := killWaitRemove(l, project)
		if err != nil {
			return err
		}
		t.waitRemove = append(t.waitRemove, d)
		if err := t.oneExit(l, project, hook, nil); err != nil {
			return err
		}
	}
	if err := t.timeSweep(b.n, l, project); err != nil {
		return err
	}

	fmt.Printf("lock: %d Claude exits (kill -9 of a stand-in), each lock held by bin/hud-hook %s\n\n", lockRuns, lockholder.HoldMode)
	fmt.Printf("| %-40s | %9s | %9s | %-30s | %9s | %9s | %9s |\n", "figure", "p50", "p95", "baseline", "p50", "p95", "ratio p50")
	fmt.Printf("|%s|%s|%s|%s|%s|%s|%s|\n", dashes(42), dashes(11), dashes(11), dashes(32), dashes(11), dashes(11), dashes(11))
	lockRow("exit → lock removed (target < 50 ms)", t.removal, "in-process Wait + RemoveAll", t.waitRemove)
	lockRow("Ensure, new lock (mkdir, meta, spawn)", t.ensureNew, "starting the holder alone", t.spawn)
	lockRow("Ensure, lock already held", t.ensureHeld, "listing the directory", t.list)
	lockRow(fmt.Sprintf("Sweep, %d live locks", sweepLocks), t.sweep, "listing the directory", t.sweepList)
	fmt.Println()
	// One more lock, its holder watched at rest before its Claude exits.
	return t.oneExit(l, project, hook, func(holder int) error { return printAtRest(holder, idle) })
}

// oneExit has Ensure lock a stand-in Claude process, times that, then
// kills the stand-in and times until its holder removed the lock. watch,
// if not nil, runs while the holder waits.
func (t *lockTimes) oneExit(l paths.Layout, project, hook string, watch func(holder int) error) error {
	claude := exec.Command("sleep", "3600")
	if err := claude.Start(); err != nil {
		return err
	}
	defer func() { claude.Process.Kill(); claude.Wait() }()
	proc, err := proc.Inspect(claude.Process.Pid)
	if err != nil {
		return err
	}
	start := time.Now()
	if err := lockholder.Ensure(l, proc, project, "bench", hook); err != nil {
		return err
	}
	t.ensureNew = append(t.ensureNew, time.Since(start))
	d, err := spawnOnly(hook)
	if err != nil {
		return err
	}
	t.spawn = append(t.spawn, d)
	for range 10 {
		start := time.Now()
		if err := lockholder.Ensure(l, proc, project, "bench", hook); err != nil {
			return err
		}
		t.ensureHeld = append(t.ensureHeld, time.Since(start))
		start = time.Now()
		if _, err := os.ReadDir(l.LockDir()); err != nil {
			return err
		}
		t.list = append(t.list, time.Since(start))
	}
	dir := filepath.Join(l.LockDir(), paths.LockName(project, proc.PID))
	holder, err := waitHolderArmed(dir)
	if err != nil {
		return err
	}
	if watch != nil {
		if err := watch(holder); err != nil {
			return err
		}
	}
	start = time.Now()
	if err := claude.Process.Kill(); err != nil {
		return err
	}
	if err := waitGone(dir, time.Second); err != nil {
		return err
	}
	t.removal = append(t.removal, time.Since(start))
	// The holder is our child (we ran Ensure): reap it.
	var ws syscall.WaitStatus
	syscall.Wait4(holder, &ws, 0, nil)
	return nil
}

// sweepLocks is how many live locks Sweep finds in the sessions
// directory when it is timed: many sessions at once.
const sweepLocks = 20

// timeSweep times Sweep (the hook runs it on SessionStart) over
// sweepLocks live locks, none stale, against listing the same directory.
func (t *lockTimes) timeSweep(n int, l paths.Layout, project string) error {
	self, err := proc.Inspect(os.Getpid())
	if err != nil {
		return err
	}
	for i := range sweepLocks {
		// Locks of this process, each named for another project.
		path := fmt.Sprintf("%s-%d", project, i)
		dir := filepath.Join(l.LockDir(), paths.LockName(path, self.PID))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		meta := fmt.Sprintf(`{"pid":%d,"path":%q,"created":%d,"proc_started":%d}`, self.PID, path, self.Started, self.Started)
		if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(meta), 0o600); err != nil {
			return err
		}
	}
	defer func() {
		entries, _ := os.ReadDir(l.LockDir())
		for _, e := range entries {
			os.RemoveAll(filepath.Join(l.LockDir(), e.Name()))
		}
	}()
	for range n {
		start := time.Now()
		removed, err := lockholder.Sweep(l)
		if err != nil || removed != 0 {
			return fmt.Errorf("Sweep removed %d live locks: %v", removed, err)
		}
		t.sweep = append(t.sweep, time.Since(start))
		start = time.Now()
		if _, err := os.ReadDir(l.LockDir()); err != nil {
			return err
		}
		t.sweepList = append(t.sweepList, time.Since(start))
	}
	return nil
}

// lockRow prints one row of timings beside its baseline.
func lockRow(name string, times []time.Duration, baseName string, baseTimes []time.Duration) {
	s, base := summarize(times), summarize(baseTimes)
	fmt.Printf("| %-40s | %9s | %9s | %-30s | %9s | %9s | %8.2f× |\n", name, ms(s.p50), ms(s.p95), baseName, ms(base.p50), ms(base.p95),
		float64(s.p50)/float64(base.p50))
}

// printAtRest samples the holder's resident memory, CPU time and
// wake-ups over lockIdleWindow, next to an idle Go program's (the floor:
// the Go runtime blocked forever, doing nothing), and prints them.
func printAtRest(holder int, idleProgram string) error {
	idle := exec.Command(idleProgram)
	if err := idle.Start(); err != nil {
		return err
	}
	defer func() { idle.Process.Kill(); idle.Wait() }()
	time.Sleep(100 * time.Millisecond) // let it settle
	var u [2][2]procUsage              // [before, after][holder, idle]
	for i := range u {
		if i == 1 {
			time.Sleep(lockIdleWindow)
		}
		for j, pid := range []int{holder, idle.Process.Pid} {
			var err error
			if u[i][j], err = readUsage(pid); err != nil {
				return err
			}
		}
	}
	b, a := u[0], u[1]
	fmt.Printf("lock holder at rest, over %v (the floor: an idle Go program blocked in time.Sleep):\n\n", lockIdleWindow)
	fmt.Printf("| %-28s | %12s | %12s |\n", "", "holder", "idle Go")
	fmt.Printf("|%s|%s|%s|\n", dashes(30), dashes(14), dashes(14))
	fmt.Printf("| %-28s | %8d KiB | %8d KiB |\n", "resident memory (VmRSS)", a[0].rssKiB, a[1].rssKiB)
	fmt.Printf("| %-28s | %8d KiB | %8d KiB |\n", "of it private (RssAnon)", a[0].anonKiB, a[1].anonKiB)
	fmt.Printf("| %-28s | %9d ms | %9d ms |\n", "CPU time (utime+stime)", a[0].cpuMS-b[0].cpuMS, a[1].cpuMS-b[1].cpuMS)
	fmt.Printf("| %-28s | %12d | %12d |\n", "wake-ups (context switches)", a[0].switches-b[0].switches, a[1].switches-b[1].switches)
	fmt.Printf("| %-28s | %12d | %12d |\n\n", "threads", a[0].threads, a[1].threads)
	return nil
}

// procUsage is what /proc says a process has used.
type procUsage struct {
	rssKiB   int64
	anonKiB  int64 // not shared with other holders (RssFile is the binary)
	cpuMS    int64 // utime+stime, in 10 ms clock ticks
	switches int64 // voluntary and involuntary, all threads
	threads  int
}

func readUsage(pid int) (procUsage, error) {
	var u procUsage
	base := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(base + "/stat")
	if err != nil {
		return u, err
	}
	// Fields after the command name: state is field 3, utime 14, stime 15.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(fields) < 13 {
		return u, fmt.Errorf("short %s/stat", base)
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	u.cpuMS = (utime + stime) * 10 // USER_HZ is 100
	u.rssKiB = statusField(base+"/status", "VmRSS:")
	u.anonKiB = statusField(base+"/status", "RssAnon:")
	tasks, err := os.ReadDir(base + "/task")
	if err != nil {
		return u, err
	}
	u.threads = len(tasks)
	for _, t := range tasks {
		status := base + "/task/" + t.Name() + "/status"
		u.switches += statusField(status, "voluntary_ctxt_switches:") + statusField(status, "nonvoluntary_ctxt_switches:")
	}
	return u, nil
}

// statusField reads one number from a /proc status file.
func statusField(path, key string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, key); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return 0
}

// spawnOnly times starting the hook binary the way Ensure starts a holder
// (detached, /dev/null, own session), and nothing else: it is given no
// arguments to hold, so it exits at once, and is reaped untimed.
func spawnOnly(hook string) (time.Duration, error) {
	devNull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer devNull.Close()
	start := time.Now()
	p, err := os.StartProcess(hook, []string{hook, lockholder.HoldMode}, &os.ProcAttr{
		Dir:   "/",
		Env:   []string{},
		Files: []*os.File{devNull, devNull, devNull},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	p.Wait()
	return d, nil
}

// killWaitRemove is the baseline of a lock's removal: the same work done
// in-process, with nothing to start or wake. It kills a stand-in, waits
// for it (os.Process.Wait, a pidfd wait on Linux) and removes a lock like
// the holder's, timed from the kill.
func killWaitRemove(l paths.Layout, project string) (time.Duration, error) {
	cmd := exec.Command("sleep", "3600")
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	dir := filepath.Join(l.LockDir(), paths.LockName(project+"-baseline", cmd.Process.Pid))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	for _, name := range []string{"pid", "meta.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(`{"pid":1}`), 0o600); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	if err := cmd.Process.Kill(); err != nil {
		return 0, err
	}
	cmd.Wait()
	err := os.RemoveAll(dir)
	return time.Since(start), err
}

// waitHolderArmed finds the holder of dir, by its command line, and waits
// until one of its threads sleeps in poll(2): its exit watch is armed.
func waitHolderArmed(dir string) (int, error) {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			argv := strings.Split(string(b), "\x00")
			if len(argv) < 3 || argv[1] != lockholder.HoldMode || argv[2] != dir {
				continue
			}
			tasks, _ := os.ReadDir("/proc/" + e.Name() + "/task")
			for _, t := range tasks {
				b, _ := os.ReadFile("/proc/" + e.Name() + "/task/" + t.Name() + "/wchan")
				// The symbol may carry a suffix (.constprop.0).
				if w := string(b); strings.HasPrefix(w, "do_sys_poll") || strings.HasPrefix(w, "poll_schedule_timeout") {
					return strconv.Atoi(e.Name())
				}
			}
		}
	}
	return 0, fmt.Errorf("no holder waiting for %s", dir)
}

// waitGone waits for path to disappear, looking every 50 µs. It sleeps in
// select(2) itself: Go's timers wake with millisecond granularity on Linux,
// and spinning would take a CPU from the holder being measured.
func waitGone(path string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)

	for {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s still there %v after its process exited", path, timeout)
		}
		unix.Select(0, nil, nil, nil, &unix.Timeval{Usec: 50})
	}
}

// idleProgram builds a Go program that sleeps forever, the way the
// measured binaries are built: the floor for a waiting Go process.
func (b *bench) idleProgram() (string, error) {
	return b.program("idle", "package main\n\nimport \"time\"\n\nfunc main() { time.Sleep(1 << 62) }\n")
}
