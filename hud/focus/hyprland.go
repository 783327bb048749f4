package focus

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Hyprland talks to Hyprland over its request socket (.socket.sock): one
// request per connection, answered and closed. "j/clients" lists every
// window with its process, "j/activewindow" names the focused one ("{}"
// when none), and "dispatch focuswindow address:0x…" focuses one,
// switching to its workspace; it answers "ok".
type Hyprland struct {
	// Socket is the request socket's path (HyprlandSocket).
	Socket string
	// UID is the user the socket must belong to: a dispatch can run a
	// program (exec).
	UID int
}

func (Hyprland) Name() string { return "hyprland" }

// HyprlandSocket is where the instance $HYPRLAND_INSTANCE_SIGNATURE keeps
// its request socket: under $XDG_RUNTIME_DIR/hypr, where Hyprland 0.40
// and later put it, or /tmp/hypr, where earlier releases did.
func HyprlandSocket(getenv func(string) string) string {
	sig := getenv("HYPRLAND_INSTANCE_SIGNATURE")
	if !filepath.IsLocal(sig) || strings.ContainsRune(sig, '/') {
		return "" // a signature is one name; OwnSocket refuses ""
	}
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		path := filepath.Join(dir, "hypr", sig, ".socket.sock")
		if _, err := os.Lstat(path); err == nil {
			return path
		}
	}
	return filepath.Join("/tmp/hypr", sig, ".socket.sock")
}

// maxHyprReply bounds what is read of one answer.
const maxHyprReply = 16 << 20

// hyprClient is the part of a client (window) read here.
type hyprClient struct {
	Address string `json:"address"`
	PID     int    `json:"pid"`
	Mapped  *bool  `json:"mapped"`
}

// Activate focuses the window of the first of pids that owns one.
func (h Hyprland) Activate(ctx context.Context, pids []int) error {
	out, err := h.request(ctx, "j/clients")
	if err != nil {
		return err
	}
	var clients []hyprClient
	if err := json.Unmarshal(out, &clients); err != nil {
		return fmt.Errorf("reading Hyprland's clients: %w", err)
	}
	addr, ok := hyprWindowOf(clients, pids)
	if !ok {
		return fmt.Errorf("%w (asked Hyprland about processes %v)", ErrNoWindow, pids)
	}
	out, err = h.request(ctx, "dispatch focuswindow address:"+addr)
	if err != nil {
		return err
	}
	if answer := string(bytes.TrimSpace(out)); answer != "ok" {
		return fmt.Errorf("Hyprland refused to focus the window: %q", answer)
	}
	return nil
}

// Focused returns the process whose window has the focus.
func (h Hyprland) Focused(ctx context.Context) (int, error) {
	out, err := h.request(ctx, "j/activewindow")
	if err != nil {
		return 0, err
	}
	var w hyprClient
	if err := json.Unmarshal(out, &w); err != nil {
		return 0, fmt.Errorf("reading Hyprland's active window: %w", err)
	}
	return max(w.PID, 0), nil
}

// hyprWindowOf picks the mapped window of the first of pids that owns
// one. Its address goes into a dispatch line, so it must be one: 0x and
// hex digits, nothing that could end the dispatch or start another.
func hyprWindowOf(clients []hyprClient, pids []int) (string, bool) {
	best, addr := -1, ""
	for _, c := range clients {
		if c.PID <= 0 || (c.Mapped != nil && !*c.Mapped) || !isHexAddress(c.Address) {
			continue
		}
		i := slices.Index(pids, c.PID)
		if i >= 0 && (best < 0 || i < best) {
			best, addr = i, c.Address
		}
	}
	return addr, best >= 0
}

func isHexAddress(s string) bool {
	hex, ok := strings.CutPrefix(s, "0x")
	if !ok || hex == "" || len(hex) > 16 {
		return false
	}
	return strings.Trim(hex, "0123456789abcdefABCDEF") == ""
}

// request sends one request and reads the answer to the end, within ctx.
func (h Hyprland) request(ctx context.Context, req string) ([]byte, error) {
	c, err := dialCompositor(ctx, "Hyprland", h.Socket, h.UID)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if _, err := io.WriteString(c, req); err != nil {
		return nil, socketErr(ctx, "asking Hyprland", err)
	}
	out, err := io.ReadAll(io.LimitReader(c, maxHyprReply+1))
	if err != nil {
		return nil, socketErr(ctx, "reading Hyprland's answer", err)
	}
	if len(out) > maxHyprReply {
		return nil, fmt.Errorf("an answer over %d bytes", maxHyprReply)
	}
	return out, nil
}
