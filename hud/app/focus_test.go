package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/present"
)

func TestFocus(t *testing.T) {
	tests := []struct {
		name    string
		focus   present.Focus
		tmuxErr error
		ran     []string
		opened  []string
		wantErr string
	}{
		{
			name:  "tmux pane",
			focus: present.Focus{TmuxPane: "%3", Dir: "/home/dev/api"},
			ran:   []string{"tmux select-window -t %3", "tmux select-pane -t %3"},
		},
		{
			name:    "pane gone: the folder instead",
			focus:   present.Focus{TmuxPane: "%3", Dir: "/home/dev/api"},
			tmuxErr: errors.New("can't find pane: %3"),
			ran:     []string{"tmux select-window -t %3"},
			opened:  []string{"/home/dev/api"},
		},
		{
			name:   "no tmux",
			focus:  present.Focus{Dir: "/home/dev/api"},
			opened: []string{"/home/dev/api"},
		},
		{
			name:   "a pane id that could read as an option is never passed",
			focus:  present.Focus{TmuxPane: "-t;kill-server", Dir: "/home/dev/api"},
			opened: []string{"/home/dev/api"},
		},
		{
			name:    "nothing to bring forward",
			focus:   present.Focus{},
			wantErr: "no folder",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ran, opened []string
			fo := Focuser{
				Run: func(_ context.Context, name string, args ...string) error {
					ran = append(ran, name+" "+strings.Join(args, " "))
					return tt.tmuxErr
				},
				Open: func(p string) error { opened = append(opened, p); return nil },
			}
			err := fo.Focus(tt.focus)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
			if strings.Join(ran, "|") != strings.Join(tt.ran, "|") || strings.Join(opened, "|") != strings.Join(tt.opened, "|") {
				t.Errorf("ran %q, opened %q; want %q, %q", ran, opened, tt.ran, tt.opened)
			}
		})
	}
}
