package desktop

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// panelHeight is the panel's size in testdata/xfce4-panel.xml: what is
// below it is the screen the menu and the notifications open on.
const panelHeight = 36

// cropMargin is the screen kept around what changed, so a picture shows
// the edge of the menu or bubble and not only its inside.
const cropMargin = 12

// grabScreen is the whole screen at this moment, as a person sees it,
// also kept in the test's output as screen-name.png for a look when
// something goes wrong.
func grabScreen(t *testing.T, r rig, name string) image.Image {
	t.Helper()
	path := screenshot(t, r, "screen-"+name+".png")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// panelIcon is the middle of the tray's icon: the one coloured thing in
// the panel, which is grey (dark mode) with a white clock.
func panelIcon(t *testing.T, img image.Image) image.Point {
	t.Helper()
	var box image.Rectangle
	b := img.Bounds()
	for y := b.Min.Y; y < b.Min.Y+panelHeight; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if colourful(img, x, y) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if box.Empty() {
		t.Fatal("no tray icon in the panel")
	}
	return image.Pt((box.Min.X+box.Max.X)/2, (box.Min.Y+box.Max.Y)/2)
}

// colourful reports whether the pixel is clearly not a grey.
func colourful(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	hi, lo := max(r, g, b), min(r, g, b)
	return hi-lo > 0x6000
}

// changedBelowPanel is the picture to keep of what appeared between before
// and after (a menu, a notification): from the panel's top to below what
// changed under it, from left of it to the screen's right edge, where the
// tray and the clock are.
func changedBelowPanel(t *testing.T, before, after image.Image) image.Rectangle {
	t.Helper()
	var box image.Rectangle
	b := after.Bounds()
	for y := b.Min.Y + panelHeight; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if before.At(x, y) != after.At(x, y) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if box.Empty() {
		t.Fatal("nothing appeared on the screen")
	}
	return image.Rect(box.Min.X-cropMargin, b.Min.Y, b.Max.X, box.Max.Y+cropMargin).Intersect(b)
}

// saveCrop writes the part rect of img to path as a PNG.
func saveCrop(t *testing.T, img image.Image, rect image.Rectangle, path string) {
	t.Helper()
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		t.Fatalf("a %T cannot be cropped", img)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, sub.SubImage(rect)); err != nil {
		f.Close()
		t.Fatalf("%s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("picture: %s (%dx%d)", filepath.Base(path), rect.Dx(), rect.Dy())
}

// xdotool moves and clicks the mouse, or types, as a person does.
func xdotool(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
		t.Fatalf("xdotool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// bubbles are the ids of the notifications the daemon has shown, read off
// its replies to Notify.
type bubbles struct {
	mu    sync.Mutex
	calls map[string]bool // sender and serial of each Notify call
	ids   []uint32
}

// watchBubbles records the id of every notification shown from now on.
func watchBubbles(t *testing.T) *bubbles {
	t.Helper()
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	rules := []string{"type='method_call',interface='org.freedesktop.Notifications',member='Notify'", "type='method_return'"}
	if err := conn.BusObject().Call("org.freedesktop.DBus.Monitoring.BecomeMonitor", 0, rules, uint32(0)).Err; err != nil {
		t.Fatalf("becoming a bus monitor: %v", err)
	}
	msgs := make(chan *dbus.Message, 64)
	conn.Eavesdrop(msgs)
	b := &bubbles{calls: map[string]bool{}}
	go func() {
		for m := range msgs {
			b.see(m)
		}
	}()
	return b
}

func (b *bubbles) see(m *dbus.Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch m.Type {
	case dbus.TypeMethodCall:
		sender, _ := m.Headers[dbus.FieldSender].Value().(string)
		b.calls[fmt.Sprint(sender, m.Serial())] = true
	case dbus.TypeMethodReply:
		dest, _ := m.Headers[dbus.FieldDestination].Value().(string)
		serial, _ := m.Headers[dbus.FieldReplySerial].Value().(uint32)
		if len(m.Body) == 1 && b.calls[fmt.Sprint(dest, serial)] {
			if id, ok := m.Body[0].(uint32); ok {
				b.ids = append(b.ids, id)
			}
		}
	}
}

// closeAll closes every bubble shown, as a click on each would, and waits
// until they have gone.
func (b *bubbles) closeAll(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	ids := b.ids
	b.ids = nil
	b.mu.Unlock()
	daemon := sessionBus(t).Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	for _, id := range ids {
		// A bubble that expired is gone already: the daemon answers its id
		// with an error, and there is nothing left to close.
		daemon.Call("org.freedesktop.Notifications.CloseNotification", 0, id)
	}
	time.Sleep(time.Second) // the bubbles fade out
}
