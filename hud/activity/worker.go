package activity

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// WorkerMode is the hidden argument that runs the hook binary as the
// activity worker: `hud-hook activity-worker --home H --session S --job J`.
const WorkerMode = "activity-worker"

// Jobs the worker does. Every job first looks at the repository (new
// commits go to the commit log, the branch to the session's activity).
const (
	// JobScan only looks at the repository (at SessionStart it sets the
	// baseline head, so only commits made during the session are logged).
	JobScan = "scan"
	// JobCheckpoint also writes the checkpoint (with --reason).
	JobCheckpoint = "checkpoint"
	// JobHandoff also writes the compaction handoff.
	JobHandoff = "handoff"
)

// Job is one piece of work for the detached worker.
type Job struct {
	Home      string
	SessionID string
	Kind      string
	Reason    string // for JobCheckpoint
}

// Args renders the job as the worker's command line (after the binary).
func (j Job) Args() []string {
	args := []string{WorkerMode, "--home", j.Home, "--session", j.SessionID, "--job", j.Kind}
	if j.Reason != "" {
		args = append(args, "--reason", j.Reason)
	}
	return args
}

// Logger makes the debug-log writer for a session of a home: logf adds a
// line, flush writes what was added.
type Logger func(home, session string) (logf func(string, ...any), flush func())

// workerTimeout bounds a whole worker run, whatever it waits on (the
// session's worker lock, git, a file system): a worker nobody waits for
// must not live on. A run takes well under a second; each git call is
// bounded by gitTimeout and the lock by workerLockTimeout. (A variable
// only so that a test can watch it fire.)
var workerTimeout = 90 * time.Second

// WorkerMain is the activity worker's entry point; it returns the exit
// status. Errors go to the debug log of the job's home (newLog): nobody
// reads the worker's stderr, and its environment's HOME is only what the
// hook passed.
func WorkerMain(args []string, now func() time.Time, newLog Logger) int {
	fs := flag.NewFlagSet(WorkerMode, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var job Job
	fs.StringVar(&job.Home, "home", "", "home directory")
	fs.StringVar(&job.SessionID, "session", "", "session id")
	fs.StringVar(&job.Kind, "job", JobScan, "scan, checkpoint or handoff")
	fs.StringVar(&job.Reason, "reason", ReasonAutomatic, "checkpoint reason")
	err := fs.Parse(args)
	logf, flush := newLog(job.Home, job.SessionID)
	defer flush()
	if err != nil || job.Home == "" || job.SessionID == "" {
		logf("activity worker: bad arguments %q", args)
		return 2
	}
	watchdog := time.AfterFunc(workerTimeout, func() {
		// A logger of its own: the run's may be in use right now.
		logf, flush := newLog(job.Home, job.SessionID)
		logf("activity worker %s: gave up after %v", job.Kind, workerTimeout)
		flush()
		os.Exit(1)
	})
	defer watchdog.Stop()
	if err := RunJob(job, now(), logf); err != nil {
		logf("activity worker %s: %v", job.Kind, err)
		return 1
	}
	return 0
}

// workerLockTimeout is how long a worker waits for another one of the same
// session (which runs git, bounded by gitTimeout per call).
const workerLockTimeout = 30 * time.Second

// RunJob does one job in the calling process.
func RunJob(job Job, now time.Time, logf func(string, ...any)) error {
	l := paths.Layout{Home: job.Home}
	tidyHome(l, now, logf)
	path, err := Path(l, job.SessionID)
	if err != nil {
		return err
	}
	// One worker per session at a time: two scans racing from the same old
	// head would log the same commits twice.
	unlock, err := safefile.Lock(path+".worker", workerLockTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	s, err := Load(l, job.SessionID)
	if err != nil {
		return err
	}
	if s == nil || s.ProjectDir == "" {
		return fmt.Errorf("no activity recorded for session %s", job.SessionID)
	}
	s.FillWorkingOn(l)
	facts, commits, err := scanRepo(l, s, now)
	if err != nil {
		logf("activity %s: %v", s.SessionID, err)
	}
	// Merge what the scan found under the session's lock: the hook may
	// have recorded more edits meanwhile.
	s, err = Update(l, job.SessionID, func(cur *Session) bool {
		if facts != nil {
			cur.Git = &GitState{Branch: facts.Branch, Head: facts.Head, Dirty: facts.HasUncommittedChanges}
		}
		if s.WorkingOn != "" {
			cur.WorkingOn = s.WorkingOn
		}
		cur.Commits += len(commits)
		if job.Kind == JobCheckpoint {
			cur.LastCheckpoint = now
		}
		return true
	})
	if err != nil {
		return err
	}
	switch job.Kind {
	case JobCheckpoint:
		var warnings []string
		if facts == nil {
			warnings = append(warnings, "git facts unavailable")
		}
		cp := BuildCheckpoint(s, job.Reason, now, facts, ReadPlan(s.ProjectDir), warnings)
		if err := WriteCheckpoint(cp, job.Home); err != nil {
			if errors.Is(err, ErrNotProject) {
				logf("activity %s: no checkpoint: %v", s.SessionID, err)
				return nil
			}
			return err
		}
	case JobHandoff:
		all, err := ReadJSONL[Commit](CommitLogPath(l))
		if err != nil {
			logf("activity %s: %v", s.SessionID, err)
		}
		mine := all[:0]
		for _, c := range all {
			if c.Session == s.SessionID {
				mine = append(mine, c)
			}
		}
		return WriteHandoff(l, BuildHandoff(s, facts, mine, now))
	}
	return nil
}

// scanRepo reads the repository's facts and logs commits made since the
// session last looked. facts is nil outside a repository.
func scanRepo(l paths.Layout, s *Session, now time.Time) (*GitFacts, []Commit, error) {
	facts, err := ReadGitFacts(s.ProjectDir)
	if errors.Is(err, ErrNotRepo) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var commits []Commit
	// The first look (s.Git nil) only sets the baseline; after it, HEAD
	// moving (from no commit at all, too) means new commits.
	if s.Git != nil && facts.Head != "" && s.Git.Head != facts.Head {
		commits, err = NewCommits(s.ProjectDir, s.Git.Head, now)
		if err != nil {
			return &facts, nil, err
		}
		for i := range commits {
			commits[i].Branch = facts.Branch
			commits[i].Session = s.SessionID
		}
		if len(commits) > 0 {
			if err := AppendJSONL(CommitLogPath(l), commits...); err != nil {
				return &facts, nil, err
			}
		}
	}
	return &facts, commits, nil
}
