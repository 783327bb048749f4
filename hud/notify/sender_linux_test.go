package notify

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/internal/bustest"
)

// testPNG is an icon: a PNG of 2×2 pixels.
var testPNG = func() string {
	var b bytes.Buffer
	png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 2, 2)))
	return b.String()
}()

// connect opens a connection of the test's to its private bus.
func connect(t *testing.T) *dbus.Conn {
	t.Helper()
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// received is one Notify call as the daemon got it.
type received struct {
	app, icon, summary, body string
	actions                  []string
	hints                    map[string]dbus.Variant
	timeout                  int32
}

// fakeDaemon owns the notification daemon's name on a private bus and
// records what it is asked to show.
type fakeDaemon struct {
	got chan received
	// before runs in Notify before it answers.
	before func()
	// silent, when set, makes every method wait for it to close: a daemon
	// stopped, or a program that owns the name and never answers.
	silent chan struct{}
}

func (d *fakeDaemon) Notify(app string, replaces uint32, icon, summary, body string, actions []string,
	hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	if d.silent != nil {
		<-d.silent
		return 0, nil
	}
	if d.before != nil {
		d.before()
	}
	d.got <- received{app, icon, summary, body, actions, hints, timeout}
	return 1, nil
}

func (d *fakeDaemon) GetCapabilities() ([]string, *dbus.Error) {
	if d.silent != nil {
		<-d.silent
	}
	return []string{"body", "body-markup"}, nil
}

// startDaemon exports d under the daemon's name on the private bus.
func startDaemon(t *testing.T, d *fakeDaemon) {
	t.Helper()
	conn := connect(t)
	if d.silent != nil {
		// Runs first (cleanups run last registered first): the calls
		// still waiting are let go before the bus goes.
		t.Cleanup(func() { close(d.silent) })
	}
	if err := conn.Export(d, DaemonPath, DaemonIface); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName(DaemonName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("owning %s: %v %v", DaemonName, reply, err)
	}
}

// emitMalformed has conn emit n ActionInvoked and NotificationClosed
// signals whose arguments are not the spec's, as any program of the
// person's may (`gdbus emit ... ActionInvoked "'x'" 7`), and returns once
// the bus has passed them on: a call to the bus made after them is
// answered after it has routed them.
func emitMalformed(t *testing.T, conn *dbus.Conn, n int) {
	bodies := [][]any{
		{"x", int32(7)}, // gdbus's: the id a string, the key a number
		{},
		{uint32(7)},
		{uint32(7), uint32(8)},
	}
	for i := range n {
		name := ".ActionInvoked"
		if i%10 == 9 {
			name = ".NotificationClosed"
		}
		if err := conn.Emit(DaemonPath, DaemonIface+name, bodies[i%len(bodies)]...); err != nil {
			t.Error(err)
			return
		}
	}
	var id string
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetId", 0).Store(&id); err != nil {
		t.Error(err)
	}
}

// TestSendSurvivesMalformedSignals: malformed ActionInvoked signals from
// another program, before a notification and while it is on its way (the
// daemon answers only after the bus routed them), do not stop the sender,
// and every notification reaches the daemon. A sender that subscribes to
// the daemon's signals through github.com/esiqveland/notify (beeep's)
// panics on the first of them.
func TestSendSurvivesMalformedSignals(t *testing.T) {
	bustest.Use(t)
	attacker := connect(t)
	d := &fakeDaemon{got: make(chan received, 8), before: func() { emitMalformed(t, attacker, 100) }}
	startDaemon(t, d)
	emitMalformed(t, attacker, 100)

	desktop, err := NewDesktop([]byte(testPNG), false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		desktop.SetSound(i%2 == 1)
		if err := desktop.Send(Notification{Kind: KindWaiting, Project: "api", Title: "api needs you", Body: "Bash: npm test"}); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		select {
		case got := <-d.got:
			if got.app != "hud" || got.summary != "api needs you" || got.body != "Bash: npm test" {
				t.Errorf("send %d reached the daemon as %+v", i, got)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("send %d never reached the daemon", i)
		}
	}
	emitMalformed(t, attacker, 100)
	// A handler that panics does so in a goroutine of its own, which ends
	// the test binary: give it the time to.
	time.Sleep(200 * time.Millisecond)
}

// TestSendNote: the notification as the daemon gets it: hud's name, the
// icon's pixels, a bubble of 5 s, no buttons; with the sound on, the
// daemon's bell and critical urgency; an icon given as a path goes as the
// app icon.
func TestSendNote(t *testing.T) {
	bustest.Use(t)
	d := &fakeDaemon{got: make(chan received, 2)}
	startDaemon(t, d)
	desktop, err := NewDesktop([]byte(testPNG), false)
	if err != nil {
		t.Fatal(err)
	}
	next := func() received {
		t.Helper()
		select {
		case got := <-d.got:
			return got
		case <-time.After(5 * time.Second):
			t.Fatal("no notification reached the daemon")
			return received{}
		}
	}
	if err := desktop.Send(Notification{Kind: KindDone, Title: "api is done", Body: "a <b>bold</b> claim"}); err != nil {
		t.Fatal(err)
	}
	got := next()
	if got.app != "hud" || got.icon != "" || got.body != "a &lt;b&gt;bold&lt;/b&gt; claim" || got.timeout != 5000 || len(got.actions) != 0 {
		t.Errorf("sent %+v", got)
	}
	if u, _ := got.hints["urgency"].Value().(byte); u != 1 {
		t.Errorf("urgency %v, want normal (1)", got.hints["urgency"])
	}
	if _, ok := got.hints["sound-name"]; ok {
		t.Errorf("a sound without the sound on: %v", got.hints["sound-name"])
	}
	// (width, height, rowstride, has alpha, bits per sample, channels,
	// the pixels)
	if img, _ := got.hints["image-data"].Value().([]any); len(img) != 7 || img[0] != int32(2) || img[2] != int32(8) || img[3] != true {
		t.Errorf("image-data %v", got.hints["image-data"])
	}

	path := t.TempDir() + "/hud.png"
	if err := os.WriteFile(path, []byte(testPNG), 0o600); err != nil {
		t.Fatal(err)
	}
	desktop, _ = NewDesktop(path, true)
	if err := desktop.Send(Notification{Kind: KindWaiting, Title: "api needs you"}); err != nil {
		t.Fatal(err)
	}
	got = next()
	if got.icon != path {
		t.Errorf("app icon %q, want %q", got.icon, path)
	}
	if u, _ := got.hints["urgency"].Value().(byte); u != 2 {
		t.Errorf("urgency %v with the sound on, want critical (2)", got.hints["urgency"])
	}
	if s, _ := got.hints["sound-name"].Value().(string); s != "bell" {
		t.Errorf("sound-name %v, want bell", got.hints["sound-name"])
	}
}

// TestSendSilentDaemon: a daemon that owns the name and never answers
// costs one send its deadline and an error, never longer.
func TestSendSilentDaemon(t *testing.T) {
	bustest.Use(t)
	startDaemon(t, &fakeDaemon{silent: make(chan struct{})})
	desktop, err := NewDesktop([]byte(testPNG), false)
	if err != nil {
		t.Fatal(err)
	}
	const timeout = 300 * time.Millisecond
	desktop.timeout = timeout
	for i := range 2 {
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- desktop.Send(Notification{Kind: KindWaiting, Project: "api", Title: "api needs you"}) }()
		select {
		case err := <-done:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("send %d: %v, want the deadline's error", i, err)
			}
			if took := time.Since(start); took < timeout {
				t.Errorf("send %d failed after %v, before its deadline", i, took)
			}
		case <-time.After(timeout + 5*time.Second):
			t.Fatalf("send %d still waits for the daemon %v after its deadline", i, 5*time.Second)
		}
	}
}

// TestSendNoBus: no session bus: an error, at once.
func TestSendNoBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+t.TempDir()+"/none")
	desktop, _ := NewDesktop([]byte(testPNG), false)
	if err := desktop.Send(Notification{Kind: KindWaiting, Title: "x"}); err == nil {
		t.Error("sent without a bus")
	}
}
