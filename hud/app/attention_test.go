package app

import (
	"context"
	"fmt"
	"net"
	"testing"
	"testing/synctest"
	"time"

	"github.com/capacitor-hud/hud/hud/attention"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/hud/watch"
	"github.com/capacitor-hud/hud/internal/store"
)

// The Gate before the desktop sender follows an edit of the settings like
// the sender did: the sender's own sound, and the sound-theme sounds.
func TestReloadedSettingsReachTheGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := config.Default()
		sender := &soundSender{}
		var played []string
		gate := &attention.Gate{Next: sender, Sounds: attention.NewSounds(cfg.Notifications,
			func(_ context.Context, name string) error { played = append(played, name); return nil })}
		n := NewNotifications(notify.NewTracker(cfg.Notifications), gate, t.Logf)
		defer n.Close()
		h := start(t, Options{Notifier: n, Config: func() config.Config { return cfg }}, &world{})
		defer h.stop(t)
		synctest.Wait()
		if !sender.set || sender.on != cfg.Notifications.Sound {
			t.Fatalf("at start: sound set %v on %v", sender.set, sender.on)
		}
		if err := gate.Send(notify.Notification{Kind: notify.KindWaiting}); err != nil || len(played) != 0 {
			t.Fatalf("a sound with waiting_sound off: %q %v", played, err)
		}

		cfg.Notifications.Sound = !cfg.Notifications.Sound
		cfg.Notifications.WaitingSound = true
		h.changes <- watch.Change{Config: true}
		synctest.Wait()
		if sender.on != cfg.Notifications.Sound {
			t.Errorf("sound after reload: %v, want %v", sender.on, cfg.Notifications.Sound)
		}
		if err := gate.Send(notify.Notification{Kind: notify.KindWaiting}); err != nil || len(played) != 1 {
			t.Errorf("after turning waiting_sound on: played %q, %v", played, err)
		}
	})
}

// BenchmarkNotificationsUpdate is the loop's part of the notifications
// with ten sessions, two of them waiting, without an away push and with
// one to a URL that refuses connections (its posts failing and retried
// meanwhile): the push must cost the loop nothing it can notice.
func BenchmarkNotificationsUpdate(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/topic"
	ln.Close()
	now := time.Now()
	var sessions []view.Session
	for i := range 10 {
		s := view.Session{Key: fmt.Sprintf("s%d", i), State: store.StateWorking, Since: now.Add(-time.Hour), ProjectDir: "/p/api"}
		if i < 2 {
			s.State = store.StateWaiting
		}
		sessions = append(sessions, s)
	}
	for _, url := range []string{"", refused} {
		name := "no push"
		if url != "" {
			name = "push refused"
		}
		b.Run(name, func(b *testing.B) {
			cfg := config.Default().Notifications
			cfg.PushURL, cfg.PushAfter = url, time.Millisecond
			n := NewNotifications(notify.NewTracker(cfg), &notify.Recorder{}, func(string, ...any) {})
			n.Push = attention.NewPush(cfg, func(context.Context) (time.Duration, error) { return time.Hour, nil },
				attention.PostNtfy, time.Now, func(string, ...any) {})
			n.Push.RetryAfter = time.Millisecond
			defer n.Close()
			n.Update(now, sessions)
			time.Sleep(20 * time.Millisecond) // the posts are failing and retried by now
			b.ResetTimer()
			for range b.N {
				n.Update(time.Now(), sessions)
			}
		})
	}
}
