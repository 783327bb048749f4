package breaks

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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

// promptJobLines is how many lines an encoded PromptJob has, header
// included: the home, the time and five thresholds, in nanoseconds.
const promptJobLines = 8

// IsPromptJob reports whether job is an encoded PromptJob (of any
// validity), so that a holder taking several kinds of job can tell.
func IsPromptJob(job []byte) bool {
	return bytes.HasPrefix(job, []byte(promptJobHeader+"\n"))
}

// Encode renders the job as the holder reads it, one field a line, every
// line ended by a newline. A job that does not fit (a newline in the home)
// is an error: the hook then records the prompt itself.
func (j PromptJob) Encode() ([]byte, error) {
	if err := j.check(); err != nil {
		return nil, err
	}
	set := j.Settings
	b := make([]byte, 0, 256)
	b = append(b, promptJobHeader+"\n"...)
	b = append(b, j.Home...)
	b = append(b, '\n')
	for _, n := range [...]time.Duration{
		time.Duration(j.At.UnixNano()),
		set.Duration[Micro], set.Duration[Hydration], set.Duration[Full],
		set.GapThreshold, set.StaleThreshold,
	} {
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, '\n')
	}
	return b, nil
}

// DecodePromptJob reads a job written by Encode, and nothing else: any
// other header or version, a missing or extra line, a line not ended, a
// number that is not one, a field Encode would not write.
func DecodePromptJob(b []byte) (PromptJob, error) {
	if !IsPromptJob(b) {
		return PromptJob{}, errors.New("decoding prompt job: not one")
	}
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) != promptJobLines+1 || lines[promptJobLines] != "" {
		return PromptJob{}, fmt.Errorf("decoding prompt job: %d lines, want %d", len(lines)-1, promptJobLines)
	}
	var n [promptJobLines - 2]time.Duration
	for i := range n {
		line := strings.TrimSuffix(lines[2+i], "\n")
		v, err := strconv.ParseInt(line, 10, 64)
		if err != nil || v < 0 {
			return PromptJob{}, fmt.Errorf("decoding prompt job: line %d: %.30q is not a count of nanoseconds", 3+i, line)
		}
		n[i] = time.Duration(v)
	}
	j := PromptJob{
		Home: strings.TrimSuffix(lines[1], "\n"),
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
	case !filepath.IsAbs(j.Home) || strings.ContainsAny(j.Home, "\x00\n"):
		return fmt.Errorf("prompt job: home %.80q is not an absolute path on one line", j.Home)
	case j.At.UnixNano() <= 0:
		return errors.New("prompt job: no time")
	}
	return nil
}

// Run records the prompt as the hook would have (Scheduler.PromptSent,
// without delivering a reminder: the hook hands over only prompts whose
// reminders the tray shows), unless the timers already have an answer
// that ended after it: another session's Stop, recorded by its own hook
// while this job waited. The pause before this prompt is then no longer
// there to measure, and the prompt moves nothing back; a pending break is
// judged at the next prompt.
func (j PromptJob) Run(logf func(string, ...any)) error {
	files := Files{Layout: paths.Layout{Home: j.Home}, Logf: logf}
	return files.UpdateState(j.At, func(t *Txn) error {
		if t.State.LastResponseEnd > SecondsOf(j.At) {
			return nil
		}
		OnPrompt(&t.State, j.At, j.Settings)
		return nil
	})
}
