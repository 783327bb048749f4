//go:build !linux

package app

import (
	"errors"

	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
)

// DialogNotes has no notifications with buttons outside Linux: the menu
// answers.
type DialogNotes struct{}

// NewDialogNotes always fails here: the menu answers.
func NewDialogNotes(func(id, choice string) error, func(notify.Notification) string, func(string, ...any)) (*DialogNotes, error) {
	return nil, errors.New("notifications with buttons are a Linux desktop feature")
}

// Close does nothing.
func (*DialogNotes) Close() {}

// Show does nothing.
func (*DialogNotes) Show([]view.Session) {}
