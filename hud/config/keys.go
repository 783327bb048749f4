package config

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// kind is how a setting's value is written in the file.
type kind int

const (
	kindBool kind = iota
	kindDuration
	kindQuietHours
	kindURL
	kindPercent
	// kindChoice is a string that must be one of the setting's choices.
	kindChoice
	// kindText is one line of text: an address, a file's path.
	kindText
)

// setting is one key of the file. The list below is the single source of
// truth: Load, the template and the tests all walk it, so a key cannot be
// read without being documented, or documented without being read.
type setting struct {
	table, key string
	kind       kind
	// zeroOK allows a zero duration (it means "off" for that key).
	zeroOK bool
	// choices are the values a kindChoice setting accepts, as written.
	choices []string
	// why is the one line the template prints above the key.
	why string
	// field points into a Config at the value this setting fills.
	field func(*Config) any
}

// name is "table.key", the way problems name a setting.
func (s setting) name() string { return s.table + "." + s.key }

// tables lists the tables in template order, each with the comment the
// template prints above it.
var tables = []struct{ name, about string }{
	{"notifications", "Desktop notifications about your Claude sessions."},
	{"tray", "The icon in the menu bar or system tray."},
	{"breaks", "Break reminders (Vibe Check). Durations are Go durations: \"90s\", \"20m\", \"1h30m\".\n# VIBE_CHECK_* environment variables (in seconds) override this table."},
	{"work_session", "Timed work sessions (hud session start \"<task>\")."},
	{"activity", "Checkpoints of what each session worked on."},
	{"answer", "Answering Claude's permission dialogs and questions from the tray (hud answer on|off)."},
	{"history", "The wait ledger: what each session did and how long it waited on you (hud history, hud away)."},
	{"serve", "The page in a browser or on a phone (hud serve; pair a device with hud serve --pair). See docs/web.md."},
}

var keys = []setting{
	{table: "notifications", key: "permission", kind: kindBool,
		why:   "Notify at once when a session starts waiting for you (a permission request, a question).",
		field: func(c *Config) any { return &c.Notifications.Permission }},
	{table: "notifications", key: "still_waiting_after", kind: kindDuration, zeroOK: true,
		why:   "Remind you once when a session is still waiting after this long; \"0s\" turns the reminder off.",
		field: func(c *Config) any { return &c.Notifications.StillWaitingAfter }},
	{table: "notifications", key: "done", kind: kindBool,
		why:   "Notify when Claude finishes a long turn, so you can look away while it works.",
		field: func(c *Config) any { return &c.Notifications.Done }},
	{table: "notifications", key: "done_after_turn", kind: kindDuration, zeroOK: true,
		why:   "A turn counts as long from this duration on; shorter ones end while you are still watching.",
		field: func(c *Config) any { return &c.Notifications.DoneAfterTurn }},
	{table: "notifications", key: "sound", kind: kindBool,
		why:   "Play the system's sound with each notification.",
		field: func(c *Config) any { return &c.Notifications.Sound }},
	{table: "notifications", key: "waiting_sound", kind: kindBool,
		why:   "Play your sound theme's \"message-new-instant\" when a session starts waiting for you (and with its reminder).",
		field: func(c *Config) any { return &c.Notifications.WaitingSound }},
	{table: "notifications", key: "done_sound", kind: kindBool,
		why:   "Play your sound theme's \"complete\" when a long turn is done.",
		field: func(c *Config) any { return &c.Notifications.DoneSound }},
	{table: "notifications", key: "push_url", kind: kindURL,
		why:   "An ntfy topic URL or any webhook: one POST when a session has waited push_after while you were away from the keyboard as long. Keep this file private (0600): the URL may hold a token.",
		field: func(c *Config) any { return &c.Notifications.PushURL }},
	{table: "notifications", key: "push_after", kind: kindDuration,
		why:   "How long a session waits, and you are away, before the push.",
		field: func(c *Config) any { return &c.Notifications.PushAfter }},
	{table: "notifications", key: "push_detail", kind: kindChoice, choices: []string{PushSession, PushSubject},
		why:   "What the push says: \"session\" only which session waits and for what kind of dialog (\"permission for Bash\", \"a question\"); \"subject\" also what it is about (the command, the file, the question), which then leaves your machine.",
		field: func(c *Config) any { return &c.Notifications.PushDetail }},
	{table: "notifications", key: "context_at", kind: kindPercent, zeroOK: true,
		why:   "Warn once when a session's context window is this full (percent), before Claude compacts it; 0 turns it off.",
		field: func(c *Config) any { return &c.Notifications.ContextAt }},
	{table: "notifications", key: "usage_at", kind: kindPercent, zeroOK: true,
		why:   "Warn once when an account has used this much (percent) of its 5-hour or weekly limit; 0 turns it off.",
		field: func(c *Config) any { return &c.Notifications.UsageAt }},

	{table: "tray", key: "show_title", kind: kindBool,
		why:   "Show a short text next to the icon (\"2 working · 1 waiting\"); only macOS menu bars display it.",
		field: func(c *Config) any { return &c.Tray.ShowTitle }},

	{table: "breaks", key: "enabled", kind: kindBool,
		why:   "Remind you to take breaks while you work with Claude.",
		field: func(c *Config) any { return &c.Breaks.Enabled }},
	{table: "breaks", key: "micro_interval", kind: kindDuration,
		why:   "A micro break (look away, rest your eyes and wrists) after this much time.",
		field: func(c *Config) any { return &c.Breaks.MicroInterval }},
	{table: "breaks", key: "micro_duration", kind: kindDuration,
		why:   "A pause this long before your next prompt counts as having taken the micro break.",
		field: func(c *Config) any { return &c.Breaks.MicroDuration }},
	{table: "breaks", key: "hydration_interval", kind: kindDuration,
		why:   "A reminder to drink water after this much time.",
		field: func(c *Config) any { return &c.Breaks.HydrationInterval }},
	{table: "breaks", key: "hydration_duration", kind: kindDuration,
		why:   "A pause this long counts as having had a drink.",
		field: func(c *Config) any { return &c.Breaks.HydrationDuration }},
	{table: "breaks", key: "full_interval", kind: kindDuration,
		why:   "A full break (stand up, stretch, walk) after this much time.",
		field: func(c *Config) any { return &c.Breaks.FullInterval }},
	{table: "breaks", key: "full_duration", kind: kindDuration,
		why:   "A pause this long counts as a full break and resets every timer.",
		field: func(c *Config) any { return &c.Breaks.FullDuration }},
	{table: "breaks", key: "gap_threshold", kind: kindDuration,
		why:   "A pause this long between Claude's answer and your next prompt is a break you took on your own.",
		field: func(c *Config) any { return &c.Breaks.GapThreshold }},
	{table: "breaks", key: "stale_threshold", kind: kindDuration,
		why:   "After this long without activity the timers start afresh (a new working session).",
		field: func(c *Config) any { return &c.Breaks.StaleThreshold }},
	{table: "breaks", key: "dedup_window", kind: kindDuration, zeroOK: true,
		why:   "Never two reminders closer than this, even from two processes.",
		field: func(c *Config) any { return &c.Breaks.DedupWindow }},
	{table: "breaks", key: "early_delivery_window", kind: kindDuration, zeroOK: true,
		why:   "A reminder due within this window comes now if Claude is busy, while you would only watch; \"0s\" turns that off.",
		field: func(c *Config) any { return &c.Breaks.EarlyDeliveryWindow }},
	{table: "breaks", key: "quiet_hours", kind: kindQuietHours,
		why:   "No reminders in this daily window, e.g. \"22:00-08:00\"; empty means none.",
		field: func(c *Config) any { return &c.Breaks.QuietHours }},
	{table: "breaks", key: "hook_delivery", kind: kindBool,
		why:   "When the tray is not running, let the hook put a due reminder into Claude's context on your next prompt.",
		field: func(c *Config) any { return &c.Breaks.HookDelivery }},

	{table: "work_session", key: "remind_at", kind: kindDuration,
		why:   "A gentle reminder after this much working time.",
		field: func(c *Config) any { return &c.WorkSession.RemindAt }},
	{table: "work_session", key: "warn_at", kind: kindDuration,
		why:   "A warning after this much working time.",
		field: func(c *Config) any { return &c.WorkSession.WarnAt }},
	{table: "work_session", key: "timeout_at", kind: kindDuration,
		why:   "The session is paused (timed out) after this much working time.",
		field: func(c *Config) any { return &c.WorkSession.TimeoutAt }},
	{table: "work_session", key: "idle_gap", kind: kindDuration,
		why:   "Gaps between events shorter than this count as work; longer ones become an automatic idle pause.",
		field: func(c *Config) any { return &c.WorkSession.IdleGap }},
	{table: "work_session", key: "task_pause_after", kind: kindDuration,
		why:   "A subagent (Task) running longer than this becomes an automatic pause.",
		field: func(c *Config) any { return &c.WorkSession.TaskPauseAfter }},
	{table: "work_session", key: "strict", kind: kindBool,
		why:   "Block prompts while a work session is timed out, until you resume it.",
		field: func(c *Config) any { return &c.WorkSession.Strict }},

	{table: "activity", key: "checkpoint_every", kind: kindDuration, zeroOK: true,
		why:   "Write a checkpoint of what a session works on at most this often; \"0s\" turns periodic checkpoints off.",
		field: func(c *Config) any { return &c.Activity.CheckpointEvery }},
	{table: "activity", key: "restore_on_compact", kind: kindBool,
		why:   "After Claude compacts its context, give it back the last checkpoint.",
		field: func(c *Config) any { return &c.Activity.RestoreOnCompact }},

	{table: "answer", key: "enabled", kind: kindBool,
		why:   "Offer each permission dialog and question to the tray, to answer from the menu or a notification.",
		field: func(c *Config) any { return &c.Answer.Enabled }},
	{table: "answer", key: "wait", kind: kindDuration,
		why:   "How long the hook waits for the tray's answer (at most \"5m\"); the terminal's dialog stays usable meanwhile.",
		field: func(c *Config) any { return &c.Answer.Wait }},

	{table: "history", key: "keep", kind: kindDuration,
		why:   "How long the ledger keeps what happened (\"30d\": thirty days); older days are deleted.",
		field: func(c *Config) any { return &c.History.Keep }},
	{table: "history", key: "away_after", kind: kindDuration, zeroOK: true,
		why:   "Coming back after this long away from the keyboard, one notification sums up what happened meanwhile; \"0s\" turns it off.",
		field: func(c *Config) any { return &c.History.AwayAfter }},

	{table: "serve", key: "enabled", kind: kindBool,
		why:   "Serve the page from the tray (restart the tray after a change).",
		field: func(c *Config) any { return &c.Serve.Enabled }},
	{table: "serve", key: "listen", kind: kindText,
		why:   "The address to listen on; anything but the loopback needs cert and key (or plaintext_beyond_loopback).",
		field: func(c *Config) any { return &c.Serve.Listen }},
	{table: "serve", key: "url", kind: kindURL,
		why:   "The page's address as your phone opens it, when a proxy serves it (tailscale serve, an ssh tunnel); pairing links and the away push use it.",
		field: func(c *Config) any { return &c.Serve.URL }},
	{table: "serve", key: "cert", kind: kindText,
		why:   "A TLS certificate file (PEM), with key: the page is served over HTTPS.",
		field: func(c *Config) any { return &c.Serve.Cert }},
	{table: "serve", key: "key", kind: kindText,
		why:   "The certificate's private key file (PEM).",
		field: func(c *Config) any { return &c.Serve.Key }},
	{table: "serve", key: "plaintext_beyond_loopback", kind: kindBool,
		why:   "Allow listening beyond the loopback without TLS: your device's cookie and every answer then cross the network readable.",
		field: func(c *Config) any { return &c.Serve.PlaintextBeyondLoopback }},
}

// expected says how the setting's value is written, for problems.
func (s setting) expected() string {
	switch s.kind {
	case kindBool:
		return "true or false"
	case kindDuration:
		return `a duration in quotes, like "20m" or "30d"`
	case kindURL:
		return `an http or https URL in quotes, or ""`
	case kindPercent:
		return "a whole number from 0 to 100"
	case kindChoice:
		return choiceList(s.choices)
	case kindText:
		return "one line of text in quotes"
	}
	return `a time range in quotes, like "22:00-08:00", or ""`
}

// choiceList names the choices as they are written: "a" or "b", "a", "b"
// or "c".
func choiceList(choices []string) string {
	quoted := make([]string, len(choices))
	for i, c := range choices {
		quoted[i] = strconv.Quote(c)
	}
	if len(quoted) < 2 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

// formatValue writes a setting's value of c as TOML.
func (s setting) formatValue(c *Config) string {
	switch v := s.field(c).(type) {
	case *bool:
		return strconv.FormatBool(*v)
	case *time.Duration:
		return strconv.Quote(formatDuration(*v))
	case *QuietHours:
		return strconv.Quote(v.String())
	case *string:
		return strconv.Quote(*v)
	case *Percent:
		return strconv.Itoa(int(*v))
	}
	panic(fmt.Sprintf("config: setting %s has no formatter", s.name()))
}

// formatDuration writes d the short way people write it: "20m", not
// time.Duration's "20m0s".
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Template is the text of a new settings file: every key with its default
// value and one line of why. It parses to exactly [Default].
func Template() string { return template() }

// template renders the template once; Load compares every file with it.
var template = sync.OnceValue(renderTemplate)

func renderTemplate() string {
	def := Default()
	var b strings.Builder
	b.WriteString("# Settings of hud, the Claude Code HUD.\n")
	b.WriteString("# Every key is shown with its default value. Edit a value to change it,\n")
	b.WriteString("# delete a line to go back to the default. A mistake here never stops hud:\n")
	b.WriteString("# it says which line is wrong and uses the default for that key.\n")
	for _, t := range tables {
		fmt.Fprintf(&b, "\n# %s\n[%s]\n", t.about, t.name)
		for _, s := range keys {
			if s.table != t.name {
				continue
			}
			value := s.formatValue(&def)
			fmt.Fprintf(&b, "# %s\n%s = %s\n", s.why, s.key, value)
		}
	}
	return b.String()
}
