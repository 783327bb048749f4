package terminal

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// Terminal is where a session's Claude runs, as the hook learns it from
// the environment it inherits from Claude: what the tray needs to bring
// that exact terminal (pane, tab, window) forward on a click. Every field
// is optional and each holds only a value of its expected shape (Checked):
// the tray passes them to other programs as arguments, so anything that
// could read as an option or a second argument is dropped, never passed.
type Terminal struct {
	// TmuxPane is $TMUX_PANE ("%3"); TmuxSocket the server's socket, the
	// first field of $TMUX, so a server started with -L or -S is found.
	TmuxPane   string
	TmuxSocket string
	// TermProgram is $TERM_PROGRAM ("iTerm.app", "Apple_Terminal",
	// "WezTerm", "tmux"), for the person reading the store. (macOS
	// Terminal and iTerm2 tabs are found by Claude's tty, which a tmux
	// client's tty stands in for; iTerm2's session id would name the tab
	// tmux was started in.)
	TermProgram string
	// KittyWindow is $KITTY_WINDOW_ID and KittyListenOn the socket kitty
	// listens on for remote control ($KITTY_LISTEN_ON, "unix:/tmp/kitty-12");
	// kitty cannot be reached from outside without it, so the window is
	// kept only with it.
	KittyWindow   string
	KittyListenOn string
	// WeztermPane is $WEZTERM_PANE; WeztermSocket is $WEZTERM_UNIX_SOCKET,
	// the GUI instance the pane belongs to.
	WeztermPane   string
	WeztermSocket string
	// WindowID is $WINDOWID, the X11 window of the terminal (xterm, urxvt,
	// kitty, alacritty set it): it picks the window when the terminal's
	// process owns several.
	WindowID string
}

// FromEnv reads the terminal's variables from getenv and keeps
// those of the right shape. Lookups only: it runs on the hook's path.
func FromEnv(getenv func(string) string) Terminal {
	socket, _, _ := strings.Cut(getenv("TMUX"), ",")
	return Terminal{
		TmuxPane:      getenv("TMUX_PANE"),
		TmuxSocket:    socket,
		TermProgram:   getenv("TERM_PROGRAM"),
		KittyWindow:   getenv("KITTY_WINDOW_ID"),
		KittyListenOn: getenv("KITTY_LISTEN_ON"),
		WeztermPane:   getenv("WEZTERM_PANE"),
		WeztermSocket: getenv("WEZTERM_UNIX_SOCKET"),
		WindowID:      getenv("WINDOWID"),
	}.Checked()
}

// Checked returns t with every field that is not of its expected shape
// emptied (and a kitty window without its socket). The hook checks what it
// records, and the tray checks again what it reads: the store is a file
// anyone with the person's rights could have written.
func (t Terminal) Checked() Terminal {
	keep := func(s *string, ok func(string) bool) {
		if !ok(*s) {
			*s = ""
		}
	}
	keep(&t.TmuxPane, IsTmuxPane)
	keep(&t.TmuxSocket, IsSocketPath)
	keep(&t.TermProgram, isTermProgram)
	keep(&t.KittyWindow, isID)
	keep(&t.KittyListenOn, isKittyAddress)
	if t.KittyWindow == "" || t.KittyListenOn == "" {
		t.KittyWindow, t.KittyListenOn = "", ""
	}
	keep(&t.WeztermPane, isID)
	keep(&t.WeztermSocket, IsSocketPath)
	keep(&t.WindowID, func(s string) bool { return isID(s) && s != "0" })
	return t
}

// The checks below are written out rather than as regular expressions:
// the hook runs them on every event, and links no regexp package.

// IsTmuxPane reports whether s is a tmux pane id, as in $TMUX_PANE: "%"
// and a number.
func IsTmuxPane(s string) bool {
	n, ok := strings.CutPrefix(s, "%")
	return ok && len(n) <= 9 && isDigits(n)
}

// isTermProgram accepts a program's name ("iTerm.app", "Apple_Terminal",
// "WezTerm"): letters, digits and ._+- , not starting with a sign.
func isTermProgram(s string) bool {
	return len(s) <= 64 && s != "" && s[0] != '-' && s[0] != '+' && s[0] != '.' && isName(strings.ReplaceAll(s, "+", ""))
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// isName accepts letters, digits and . _ - only.
func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return s != ""
}

// isID reports whether s is a decimal number that fits in 32 bits, with
// no sign and no leading zero: the ids terminals hand out.
func isID(s string) bool {
	n, err := strconv.ParseUint(s, 10, 32)
	return err == nil && strconv.FormatUint(n, 10) == s
}

// IsSocketPath reports whether p can be a Unix socket's path: absolute,
// already clean, short enough for sockaddr_un, and free of control
// characters.
func IsSocketPath(p string) bool {
	if len(p) == 0 || len(p) > 107 || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return false
	}
	return !strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// isKittyAddress accepts the Unix-socket forms of kitty's --listen-on
// ("unix:/path", "unix:@abstract"); its TCP form is left out, as a port
// anyone on the machine could open is not where hud sends commands.
func isKittyAddress(s string) bool {
	rest, ok := strings.CutPrefix(s, "unix:")
	if !ok {
		return false
	}
	if name, ok := strings.CutPrefix(rest, "@"); ok {
		return len(name) <= 100 && isName(name)
	}
	return IsSocketPath(rest)
}

// Fields lists t's members in a record of the store, each left out when
// empty.
func (t *Terminal) Fields() []jsonfields.Field {
	return []jsonfields.Field{
		jsonfields.String("tmux_pane", &t.TmuxPane).OmitEmpty(),
		jsonfields.String("tmux_socket", &t.TmuxSocket).OmitEmpty(),
		jsonfields.String("term_program", &t.TermProgram).OmitEmpty(),
		jsonfields.String("kitty_window_id", &t.KittyWindow).OmitEmpty(),
		jsonfields.String("kitty_listen_on", &t.KittyListenOn).OmitEmpty(),
		jsonfields.String("wezterm_pane", &t.WeztermPane).OmitEmpty(),
		jsonfields.String("wezterm_socket", &t.WeztermSocket).OmitEmpty(),
		jsonfields.String("window_id", &t.WindowID).OmitEmpty(),
	}
}
