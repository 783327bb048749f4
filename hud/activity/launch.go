package activity

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/lockholder"
)

// A Launch is how to start the worker for one job: the executable (the
// hook binary), the job, and what of the hook's environment the worker
// gets. The hook either hands it to the lock holder of its Claude process
// (Encode, DecodeLaunch), which starts the worker, or starts the worker
// itself; both start it with Start.
type Launch struct {
	Exe string
	Job Job
	// Path is the hook's PATH, for the worker to find git; ConfigHome its
	// XDG_CONFIG_HOME ("" when unset), where git finds the person's global
	// configuration (their safe.directory entries) besides the home.
	Path, ConfigHome string
}

// NewLaunch is the launch of exe for job with the hook's environment.
func NewLaunch(exe string, job Job, getenv func(string) string) Launch {
	return Launch{Exe: exe, Job: job, Path: getenv("PATH"), ConfigHome: getenv("XDG_CONFIG_HOME")}
}

// Spawn starts the worker for job without waiting for it. When lockDir,
// the lock directory of the hook's Claude process, has a holder that takes
// jobs, the job goes to it in one datagram and the holder starts the
// worker: the hook does not wait for a fork and exec. Otherwise (no
// holder, an older hud's, lockDir "") the hook starts the worker itself,
// so a job is never lost. logf hears why a hand-over failed when that was
// not to be expected.
func Spawn(exe string, job Job, lockDir string, logf func(string, ...any)) error {
	l := NewLaunch(exe, job, os.Getenv)
	if lockDir != "" {
		err := l.handTo(lockDir)
		if err == nil {
			return nil
		}
		if !errors.Is(err, lockholder.ErrNoInbox) && logf != nil {
			logf("activity worker: %v; starting it here", err)
		}
	}
	return l.Start()
}

// handTo sends the launch to the lock holder of lockDir.
func (l Launch) handTo(lockDir string) error {
	msg, err := l.Encode()
	if err != nil {
		return err
	}
	return lockholder.SendJob(lockDir, msg)
}

// Start starts the worker here, fully detached (proc.StartDetached:
// its own session, stdio on /dev/null, no inherited descriptors, which
// would hold Claude Code up for as long as git runs), with PATH, the home
// it works for and XDG_CONFIG_HOME as its whole environment.
func (l Launch) Start() error {
	env := []string{"PATH=" + l.Path, "HOME=" + l.Job.Home}
	if l.ConfigHome != "" {
		env = append(env, "XDG_CONFIG_HOME="+l.ConfigHome)
	}
	pid, err := proc.StartDetached(l.Exe, l.Job.Args(), env)
	if err != nil {
		return fmt.Errorf("starting activity worker: %w", err)
	}
	// The worker is background work that nobody waits for, started as
	// the hook ends (Stop): at a lower priority its start-up and its git
	// calls leave the CPUs to the hook's last steps, Claude and the
	// person's terminal. Its git children inherit the priority.
	_ = unix.Setpriority(unix.PRIO_PROCESS, pid, workerNice)
	return nil
}

// workerNice is the worker's nice value, the background priority.
const workerNice = 10

// HolderJobs is the lock holder's job handler: it starts the worker for
// each launch a hook handed over, and tells the debug log of the job's
// home when that fails (the hook that sent it has exited). Anything that
// is not a launch is dropped: the holder must go on holding its lock.
func HolderJobs(newLog Logger) func(job []byte) {
	return func(job []byte) {
		l, err := DecodeLaunch(job)
		if err != nil {
			return
		}
		if err := l.Start(); err != nil {
			logf, flush := newLog(l.Job.Home, l.Job.SessionID)
			logf("lock holder: %v", err)
			flush()
		}
	}
}

// launchHeader starts an encoded launch: its kind and its version. A
// change to the encoding changes both this and the holder's socket name
// (lockholder), so that no holder is sent a launch it cannot read.
const launchHeader = "hud-activity-launch 1"

// Encode renders the launch as the lock holder reads it
// (encodeLines): the header, then one line each for the
// executable, home, session, kind, reason, PATH and XDG_CONFIG_HOME. A
// launch that does not fit (a newline in a path) is an error: the hook
// then starts the worker itself.
func (l Launch) Encode() ([]byte, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	return encodeLines(launchHeader, l.Exe, l.Job.Home, l.Job.SessionID, l.Job.Kind, l.Job.Reason, l.Path, l.ConfigHome)
}

// launchFields is how many fields an encoded launch has after its header.
const launchFields = 7

// DecodeLaunch reads a launch written by Encode, and nothing else: any
// other header or version, a missing or extra line, a line not ended, a
// field Encode would not write.
func DecodeLaunch(b []byte) (Launch, error) {
	f, err := decodeLines(b, launchHeader, launchFields)
	if err != nil {
		return Launch{}, err
	}
	l := Launch{
		Exe:        f[0],
		Job:        Job{Home: f[1], SessionID: f[2], Kind: f[3], Reason: f[4]},
		Path:       f[5],
		ConfigHome: f[6],
	}
	if err := l.check(); err != nil {
		return Launch{}, err
	}
	return l, nil
}

// check holds a launch to what the worker can be started with.
func (l Launch) check() error {
	switch {
	case !filepath.IsAbs(l.Exe):
		return fmt.Errorf("launch: executable %.80q is not an absolute path", l.Exe)
	case !filepath.IsAbs(l.Job.Home):
		return fmt.Errorf("launch: home %.80q is not an absolute path", l.Job.Home)
	case l.Job.SessionID == "":
		return errors.New("launch: no session")
	}
	switch l.Job.Kind {
	case JobScan, JobCheckpoint, JobHandoff:
	default:
		return fmt.Errorf("launch: unknown job %.40q", l.Job.Kind)
	}
	return nil
}
