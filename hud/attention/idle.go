package attention

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/focus"
	"github.com/capacitor-hud/hud/internal/wayland"
)

// IdleSource is one place that tells how long the person has not touched
// the keyboard or the mouse.
type IdleSource struct {
	// Name says where, for doctor ("the X server").
	Name string
	Read func(context.Context) (time.Duration, error)
	// Detail, when set, adds to the name what only an answer tells (the
	// compositor's protocol).
	Detail func() string
}

// IdleSources are asked in turn; the first that answers tells.
type IdleSources []IdleSource

// DesktopIdle lists the sources of the idle time for the session getenv
// describes, in the order asked. On Wayland the compositor knows every
// input; Mutter (GNOME) offers no idle protocol before GNOME 48 but tells
// on the session bus; XWayland's X server sees only its own windows'
// input, so it is asked last there. In an X11 session the X server knows
// all. display overrides $DISPLAY; the compositor's watch lives as long
// as the returned sources.
func DesktopIdle(getenv func(string) string, display string) IdleSources {
	if display == "" {
		display = getenv("DISPLAY")
	}
	x := IdleSource{Name: "the X server (" + display + ")", Read: func(ctx context.Context) (time.Duration, error) {
		return focus.Idle(ctx, display)
	}}
	bus := IdleSource{Name: "the session bus", Read: BusIdle}
	path := wayland.SocketPath(getenv("WAYLAND_DISPLAY"), getenv("XDG_RUNTIME_DIR"))
	if path == "" {
		return IdleSources{x, bus}
	}
	w := &wayland.Source{Path: path}
	uid := os.Getuid()
	compositor := IdleSource{Name: "the compositor", Detail: w.Protocol, Read: func(ctx context.Context) (time.Duration, error) {
		// Only the person's own compositor says when they are away: the
		// path comes from the environment.
		if _, err := focus.OwnSocket(path, uid); err != nil {
			return 0, fmt.Errorf("not asking %s: %w", path, err)
		}
		return w.Idle(ctx)
	}}
	return IdleSources{compositor, bus, x}
}

// Idle returns the first source's answer. The error, when none answers,
// names them all.
func (s IdleSources) Idle(ctx context.Context) (time.Duration, error) {
	_, d, err := s.Which(ctx)
	return d, err
}

// Which is Idle, and says which source answered.
func (s IdleSources) Which(ctx context.Context) (string, time.Duration, error) {
	var errs []string
	for _, src := range s {
		d, err := src.Read(ctx)
		if err == nil {
			name := src.Name
			if src.Detail != nil && src.Detail() != "" {
				name += " (" + src.Detail() + ")"
			}
			return name, d, nil
		}
		if ctx.Err() != nil {
			return "", 0, fmt.Errorf("reading the idle time: %w", ctx.Err())
		}
		errs = append(errs, src.Name+": "+err.Error())
	}
	if len(errs) == 0 {
		return "", 0, errors.New("no source of the idle time")
	}
	return "", 0, errors.New(strings.Join(errs, "; "))
}
