package breaks

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/capacitor-hud/hud/lockholder"

	"github.com/capacitor-hud/hud/internal/paths"
)

// A PromptJob is a prompt for the timers to record, handed by the hook
// that saw it to the lock holder of its Claude process (lockholder.SendJob),
// which records it a moment later with [PromptJob.Run]. Claude waits for
// every prompt's hook; the holder is already running, asleep, and the
// update (a lock, a read, a replace) costs the hook more than the datagram.
// The tray's [PlanAt] knows a prompt may not be recorded yet
// ([Sessions.LatestPrompt]).
type PromptJob struct {
	Home string
	At   time.Time
	// Settings are the thresholds the hook read; the holder has neither
	// the person's environment nor a reason to read the settings again.
	// Only those [OnPrompt] uses travel.
	Settings Settings
}

// promptJobHeader starts an encoded PromptJob: its kind and version. A
// change to the encoding changes both this and the holder's socket name
// (lockholder), so that no holder is sent a job it cannot read.
const promptJobHeader = "hud-breaks-prompt 1"

// IsPromptJob reports whether job is an encoded PromptJob (of any
// validity), so that a holder taking several kinds of job can tell.
func IsPromptJob(job []byte) bool { return lockholder.HasHeader(job, promptJobHeader) }

// Encode renders the job as the holder reads it (lockholder.EncodeLines):
// the home, then the prompt's time and the thresholds in nanoseconds. A
// job that does not fit (a newline in the home) is an error: the hook then
// records the prompt itself.
func (j PromptJob) Encode() ([]byte, error) {
	if err := j.check(); err != nil {
		return nil, err
	}
	fields := []string{j.Home}
	for _, n := range j.numbers() {
		fields = append(fields, strconv.FormatInt(int64(n), 10))
	}
	return lockholder.EncodeLines(promptJobHeader, fields...)
}

// promptJobNumbers is how many numbers follow the home.
const promptJobNumbers = 6

// numbers are the job's time and thresholds, in their order on the wire.
func (j PromptJob) numbers() [promptJobNumbers]time.Duration {
	set := j.Settings
	return [...]time.Duration{
		time.Duration(j.At.UnixNano()),
		set.Duration[Micro], set.Duration[Hydration], set.Duration[Full],
		set.GapThreshold, set.StaleThreshold,
	}
}

// DecodePromptJob reads a job written by Encode, and nothing else: any
// other header or version, a missing or extra line, a line not ended, a
// number that is not one, a field Encode would not write.
func DecodePromptJob(b []byte) (PromptJob, error) {
	var n [promptJobNumbers]time.Duration
	f, err := lockholder.DecodeLines(b, promptJobHeader, 1+len(n))
	if err != nil {
		return PromptJob{}, err
	}
	for i := range n {
		v, err := strconv.ParseInt(f[1+i], 10, 64)
		if err != nil || v < 0 {
			return PromptJob{}, fmt.Errorf("decoding prompt job: field %d: %.30q is not a count of nanoseconds", 2+i, f[1+i])
		}
		n[i] = time.Duration(v)
	}
	j := PromptJob{
		Home: f[0],
		At:   time.Unix(0, int64(n[0])),
		Settings: Settings{
			Duration:       [3]time.Duration{Micro: n[1], Hydration: n[2], Full: n[3]},
			GapThreshold:   n[4],
			StaleThreshold: n[5],
		},
	}
	if err := j.check(); err != nil {
		return PromptJob{}, err
	}
	return j, nil
}

// check holds a job to what Run can use.
func (j PromptJob) check() error {
	switch {
	case !filepath.IsAbs(j.Home):
		return fmt.Errorf("prompt job: home %.80q is not an absolute path", j.Home)
	case j.At.UnixNano() <= 0:
		return errors.New("prompt job: no time")
	}
	return nil
}

// Run records the prompt as the hook would have (Scheduler.PromptSent,
// without delivering a reminder: the hook hands over only prompts whose
// reminders the tray shows).
func (j PromptJob) Run(logf func(string, ...any)) error {
	_, _, err := NewScheduler(paths.Layout{Home: j.Home}, j.Settings, logf).PromptSent(j.At, false)
	return err
}
