package focus

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbus/dbus/v5"
)

// kwinScreenShot is KWin's screenshot interface, offered over D-Bus only
// to the programs a desktop file lets use it (trustTheTests).
const kwinScreenShot = "org.kde.KWin.ScreenShot2"

// shot saves KWin's picture of its screen under testdata/out: KWin writes
// the raw image into a pipe it is handed and answers its size and format
// (QImage's ARGB32, premultiplied or not: the screen is opaque).
func (k *kwinDesk) shot(t *testing.T, name string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(r); data <- b }()
	var meta map[string]dbus.Variant
	err = k.conn.Object("org.kde.KWin", "/org/kde/KWin/ScreenShot2").Call(kwinScreenShot+".CaptureActiveScreen", 0,
		map[string]dbus.Variant{}, dbus.UnixFD(w.Fd())).Store(&meta)
	w.Close()
	if err != nil {
		t.Errorf("KWin's screenshot: %v", err)
		return
	}
	raw := <-data
	width, _ := meta["width"].Value().(uint32)
	height, _ := meta["height"].Value().(uint32)
	stride, _ := meta["stride"].Value().(uint32)
	if width == 0 || height == 0 || int(stride)*int(height) > len(raw) {
		t.Errorf("KWin's screenshot: %d bytes for %v", len(raw), meta)
		return
	}
	img := image.NewNRGBA(image.Rect(0, 0, int(width), int(height)))
	for y := range int(height) {
		for x := range int(width) {
			p := binary.LittleEndian.Uint32(raw[y*int(stride)+4*x:])
			img.SetNRGBA(x, y, color.NRGBA{uint8(p >> 16), uint8(p >> 8), uint8(p), 0xff})
		}
	}
	f, err := os.Create(filepath.Join("..", "..", "testdata", "out", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Error(err)
	}
}
