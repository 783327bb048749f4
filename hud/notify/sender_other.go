//go:build !linux

package notify

import "github.com/gen2brain/beeep"

func init() { beeep.AppName = appName } // beeep's default is "DefaultAppName"

// show sends through beeep; Alert adds the system's alert sound.
func (d *Desktop) show(title, body string) error {
	send := beeep.Notify
	if d.sound {
		send = beeep.Alert
	}
	return send(title, body, d.icon)
}
