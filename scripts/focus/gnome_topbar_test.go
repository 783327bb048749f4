package focus

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// shot saves a screenshot under testdata/out, as GNOME Shell takes it
// (org.gnome.Shell.Screenshot, asked under GNOME Screenshot's name), and
// returns its path: the whole screen, or the area x, y, width, height.
// It shows no remote desktop session of typeKey's in the top bar, which
// would hide part of it: it waits until the bar stops showing a stopped
// one, and fails while one is open.
func (d *gnomeDesk) shot(t *testing.T, name string, area ...int32) string {
	t.Helper()
	if d.keys != nil {
		t.Fatal("a screenshot while the top bar shows typeKey's remote desktop session")
	}
	time.Sleep(time.Until(d.sharing))
	path, err := filepath.Abs(filepath.Join("..", "..", "testdata", "out", name))
	if err != nil {
		t.Fatal(err)
	}
	screenshot := d.checker.Object("org.gnome.Shell", "/org/gnome/Shell/Screenshot")
	var call *dbus.Call
	if len(area) == 4 {
		call = screenshot.Call("org.gnome.Shell.Screenshot.ScreenshotArea", 0, area[0], area[1], area[2], area[3], false, path)
	} else {
		call = screenshot.Call("org.gnome.Shell.Screenshot.Screenshot", 0, false, false, path)
	}
	var ok bool
	if err := call.Store(&ok, new(string)); err != nil || !ok {
		t.Fatalf("GNOME Shell's screenshot %s: %v %v", name, ok, err)
	}
	return path
}

// The fills of hud's icon (assets/gen): waiting (amber), ready (green).
var (
	iconWaiting = [3]uint32{0xe6, 0x9f, 0x00}
	iconReady   = [3]uint32{0x00, 0x9e, 0x73}
)

// shotTopBar saves GNOME's top bar under testdata/out and checks that it
// shows hud's icon, by the fill of its state in the bar's right half,
// where AppIndicator puts icons: waiting, the state the session is in, is
// waited for; the AppIndicator extension now and then misses an icon
// change and keeps showing the one before, ready, which is hud's icon
// too, and then the item itself must have the waiting one.
func (d *gnomeDesk) shotTopBar(t *testing.T, item *sni.Item, name string) {
	t.Helper()
	var path string
	var counts map[[3]uint32]int
	deadline := time.Now().Add(5 * time.Second)
	for {
		path = d.shot(t, name, 0, 0, 1280, 32)
		counts = fillsOfRightHalf(t, path, iconWaiting, iconReady)
		if counts[iconWaiting] >= 10 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	switch {
	case counts[iconWaiting] >= 10:
		t.Logf("the top bar shows hud's icon waiting: %s", path)
	case counts[iconReady] >= 10 && itemShows(t, item, iconWaiting):
		t.Logf("the top bar shows hud's icon as it was before; hud's item has the waiting one, which AppIndicator missed: %s", path)
	case counts[iconReady] >= 10:
		t.Errorf("hud's item does not show the waiting icon (%s)", path)
	default:
		t.Errorf("no icon of hud's in the top bar's right half: %s", path)
	}
}

// itemShows reports whether the item's own icon has pixels of fill.
func itemShows(t *testing.T, item *sni.Item, fill [3]uint32) bool {
	t.Helper()
	pixmaps, err := item.IconPixmap()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pixmaps {
		for i := 0; i+3 < len(p.Pix); i += 4 { // ARGB
			if p.Pix[i] > 0x80 && nearFill(uint32(p.Pix[i+1]), uint32(p.Pix[i+2]), uint32(p.Pix[i+3]), fill) {
				n++
			}
		}
	}
	return n >= 10
}

// fillsOfRightHalf counts, for each of fills, the pixels of the right
// half of the PNG at path that are near it.
func fillsOfRightHalf(t *testing.T, path string, fills ...[3]uint32) map[[3]uint32]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[[3]uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X + b.Dx()/2; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for _, c := range fills {
				if nearFill(r>>8, g>>8, bl>>8, c) {
					counts[c]++
				}
			}
		}
	}
	return counts
}

// nearFill says whether each channel of a colour is within 24 of fill's.
func nearFill(r, g, b uint32, fill [3]uint32) bool {
	near := func(v, want uint32) bool { return v+24 >= want && v <= want+24 }
	return near(r, fill[0]) && near(g, fill[1]) && near(b, fill[2])
}
