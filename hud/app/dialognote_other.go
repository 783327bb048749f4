//go:build !linux

package app

import (
	"errors"
	"time"

	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
)

// DialogNotes has no notifications with buttons outside Linux: the menu
// answers.
type DialogNotes struct{}

// NewDialogNotes always fails here: the menu answers.
func NewDialogNotes(time.Duration, func(id, choice string) error, func(notify.Notification) string, func(string, ...any)) (*DialogNotes, error) {
	return nil, errors.New("notifications with buttons are a Linux desktop feature")
}

// Close does nothing.
func (*DialogNotes) Close() {}

// Done is closed: there is nothing to close.
func (*DialogNotes) Done() <-chan struct{} { return notesClosed }

var notesClosed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Show does nothing.
func (*DialogNotes) Show([]view.Session) {}
