package lockholder

import (
	"time"

	"github.com/capacitor-hud/hud/internal/proc"
)

// pollInterval is the fallback's period; with it a lock outlives its
// process by up to this long.
const pollInterval = time.Second

// pollWatch is the fallback lockWatch for systems that cannot notify an
// exit: it looks once a second.
type pollWatch struct {
	pid     int
	started int64
	dir     string
	fd      int
}

func newPollWatch(pid int, started int64, dir string, fd int) *pollWatch {
	return &pollWatch{pid: pid, started: started, dir: dir, fd: fd}
}

func (w *pollWatch) wait() (lockEvent, error) {
	for {
		if !proc.Alive(w.pid, w.started) {
			return claudeExited, nil
		}
		if !sameFile(w.dir, w.fd) {
			return lockGone, nil
		}
		time.Sleep(pollInterval)
	}
}

func (w *pollWatch) close() {}
