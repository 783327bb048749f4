//go:build !linux

package attention

import (
	"context"
	"errors"
)

// BusProperty: no freedesktop notification server here.
func BusProperty(context.Context, string, string) (any, error) {
	return nil, errors.New("no freedesktop notification server on this system")
}
