//go:build !linux

package attention

import (
	"context"
	"errors"
	"time"
)

// BusProperty: no freedesktop notification server here.
func BusProperty(context.Context, string, string) (any, error) {
	return nil, errors.New("no freedesktop notification server on this system")
}

// BusIdle: no session bus to ask here.
func BusIdle(context.Context) (time.Duration, error) {
	return 0, errors.New("no idle time without an X display on this system")
}

// MakoModes: no mako here.
func MakoModes(context.Context) ([]string, error) {
	return nil, errors.New("no mako on this system")
}
