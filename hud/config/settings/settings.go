package settings

import (
	"fmt"
	"time"
)

// Config is the whole settings file. The zero value is not useful: start
// from [Default] (Load does).
type Config struct {
	Notifications Notifications
	Tray          Tray
	Breaks        Breaks
	WorkSession   WorkSession
	Activity      Activity
	Answer        Answer
	History       History
	Serve         Serve
}

// Notifications is the [notifications] table: desktop notifications about
// Claude sessions.
type Notifications struct {
	// Permission notifies at once when a session starts waiting for the
	// person (a permission request, a question).
	Permission bool
	// StillWaitingAfter sends ONE reminder when a session still waits this
	// long. Zero turns the reminder off.
	StillWaitingAfter time.Duration
	// Done notifies when a turn that ran at least DoneAfterTurn ends.
	Done          bool
	DoneAfterTurn time.Duration
	// Sound plays the system's notification sound with each notification.
	Sound bool
	// WaitingSound and DoneSound play the sound theme's "waiting for you"
	// and "done" sounds with those notifications (hud/attention.Sounds).
	WaitingSound bool
	DoneSound    bool
	// PushURL is an ntfy topic or any webhook that gets one POST per wait
	// when a session has waited PushAfter and the person has been away
	// from the keyboard as long; "" sends none. It may hold a token: it
	// is left out of the hook's copy of the settings, which never needs it.
	PushURL   string `json:"-"`
	PushAfter time.Duration
	// PushDetail is what the push says of a wait: PushSession (the
	// default) the session's name and the kind of wait alone,
	// PushSubject also what the dialog is about (the command, the path,
	// the question). The push leaves the machine, maybe for a public
	// server, and a command may hold a secret: the subject goes only when
	// the person chose it.
	PushDetail string
	// ContextAt warns once when a session's context window is this full,
	// before Claude compacts it; UsageAt once when an account has used
	// this much of its 5-hour or weekly limit. Zero turns each off.
	ContextAt Percent
	UsageAt   Percent
}

// The values of notifications.push_detail (Notifications.PushDetail).
const (
	PushSession = "session"
	PushSubject = "subject"
)

// Percent is a share from 1 to 100; 0 means off.
type Percent int

// Tray is the [tray] table.
type Tray struct {
	// ShowTitle shows a short text next to the icon ("2 working · 1
	// waiting"). Only macOS menu bars display it; Linux hosts ignore it.
	ShowTitle bool
}

// Breaks is the [breaks] table: Vibe Check's reminders.
type Breaks struct {
	Enabled bool

	MicroInterval     time.Duration
	MicroDuration     time.Duration
	HydrationInterval time.Duration
	HydrationDuration time.Duration
	FullInterval      time.Duration
	FullDuration      time.Duration

	// GapThreshold: a pause between answer and prompt at least this long
	// counts as a spontaneous break (all timers reset).
	GapThreshold time.Duration
	// StaleThreshold: idle at least this long starts a fresh state.
	StaleThreshold time.Duration
	// DedupWindow: no two reminders closer than this, across processes.
	DedupWindow time.Duration
	// EarlyDeliveryWindow: a reminder due within this window is delivered
	// now when Claude is working.
	EarlyDeliveryWindow time.Duration
	// QuietHours holds reminders inside a daily window; zero means none.
	QuietHours QuietHours
	// HookDelivery lets the hook put a due reminder into Claude's context
	// on UserPromptSubmit when the tray is not running (Vibe Check's way).
	HookDelivery bool
}

// WorkSession is the [work_session] table: the timed work session (`hud session`).
type WorkSession struct {
	RemindAt  time.Duration // gentle reminder at this much working time
	WarnAt    time.Duration // warning
	TimeoutAt time.Duration // timeout: the session is paused
	// IdleGap: a gap between events longer than this is an AUTO_IDLE pause
	// instead of working time.
	IdleGap time.Duration
	// TaskPauseAfter: a Task/subagent run longer than this becomes an
	// AUTO_TASK pause.
	TaskPauseAfter time.Duration
	// Strict makes the hook block prompts while the session is timed out.
	Strict bool
}

// Activity is the [activity] table: checkpoints.
type Activity struct {
	// CheckpointEvery writes a checkpoint at most this often; zero turns
	// periodic checkpoints off.
	CheckpointEvery time.Duration
	// RestoreOnCompact feeds the last checkpoint back to Claude after a
	// compaction.
	RestoreOnCompact bool
}

// Answer is the [answer] table: answering Claude's permission dialogs and
// questions from the tray (`hud answer`).
type Answer struct {
	// Enabled lets the hook offer each dialog to a running tray. Off, the
	// hook never waits.
	Enabled bool
	// Wait bounds how long the hook waits for the tray's answer; the
	// terminal's dialog stays usable meanwhile.
	Wait time.Duration
}

// History is the [history] table: the wait ledger (hud/ledger).
type History struct {
	// Keep is how long the ledger is kept.
	Keep time.Duration
	// AwayAfter is how long the person must be away for a summary when
	// they come back; zero turns it off.
	AwayAfter time.Duration
}

// Serve is the [serve] table: the page (hud/web).
type Serve struct {
	Enabled bool
	// Listen is the address; URL the page's as a phone opens it.
	Listen, URL string
	// Cert and Key are the TLS pair's files.
	Cert, Key string
	// PlaintextBeyondLoopback allows a non-loopback address without TLS.
	PlaintextBeyondLoopback bool
}

// MaxAnswerWait is the longest wait the hook accepts: hud install wires the
// PermissionRequest handler with a timeout above it.
const MaxAnswerWait = 5 * time.Minute

// Default returns the settings used when the file says nothing.
func Default() Config {
	return Config{
		Notifications: Notifications{
			Permission:        true,
			StillWaitingAfter: 2 * time.Minute,
			Done:              true,
			DoneAfterTurn:     30 * time.Second,
			Sound:             false,
			WaitingSound:      false,
			DoneSound:         false,
			PushURL:           "",
			PushAfter:         3 * time.Minute,
			PushDetail:        PushSession,
			ContextAt:         85,
			UsageAt:           90,
		},
		Tray: Tray{ShowTitle: true},
		Breaks: Breaks{
			Enabled:             true,
			MicroInterval:       20 * time.Minute,
			MicroDuration:       60 * time.Second,
			HydrationInterval:   30 * time.Minute,
			HydrationDuration:   120 * time.Second,
			FullInterval:        50 * time.Minute,
			FullDuration:        300 * time.Second,
			GapThreshold:        15 * time.Minute,
			StaleThreshold:      60 * time.Minute,
			DedupWindow:         30 * time.Second,
			EarlyDeliveryWindow: 5 * time.Minute,
			HookDelivery:        false,
		},
		WorkSession: WorkSession{
			RemindAt:       40 * time.Minute,
			WarnAt:         60 * time.Minute,
			TimeoutAt:      90 * time.Minute,
			IdleGap:        5 * time.Minute,
			TaskPauseAfter: 10 * time.Minute,
			Strict:         false,
		},
		Activity: Activity{
			CheckpointEvery:  15 * time.Minute,
			RestoreOnCompact: false,
		},
		Answer:  Answer{Enabled: false, Wait: time.Minute},
		History: History{Keep: 30 * 24 * time.Hour, AwayAfter: 10 * time.Minute},
		Serve:   Serve{Listen: "127.0.0.1:7878"},
	}
}

// Problem is something wrong with the settings that did not stop the HUD:
// the affected setting (or the whole file) fell back to its default. Show
// it to the person once; it is never fatal.
type Problem struct {
	// Path is the settings file, or "" when the problem is in an
	// environment variable.
	Path string
	// Line is the 1-based line in Path, or 0 when not known.
	Line int
	// Key is "table.key" (or the environment variable); "" when the whole
	// file is affected.
	Key     string
	Message string
}

// String formats the problem the way compilers do: "path:line: key: message".
func (p Problem) String() string {
	where := p.Path
	switch {
	case where == "":
		where = "environment"
	case p.Line > 0:
		where = fmt.Sprintf("%s:%d", where, p.Line)
	}
	if p.Key != "" {
		return fmt.Sprintf("%s: %s: %s", where, p.Key, p.Message)
	}
	return fmt.Sprintf("%s: %s", where, p.Message)
}
