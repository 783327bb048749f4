package assets

import (
	"bytes"
	"image"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestEveryIconDecodes(t *testing.T) {
	for _, name := range IconNames {
		for count := 0; count <= MaxBadge+3; count++ {
			for _, template := range []bool{false, true} {
				b, err := Icon(name, count, template)
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatalf("%s: %v", IconPath(name, count, template), err)
				}
				if got := img.Bounds(); got != image.Rect(0, 0, 32, 32) {
					t.Errorf("%s: bounds %v, want 32×32", IconPath(name, count, template), got)
				}
				if template {
					checkTemplate(t, IconPath(name, count, template), img)
				}
			}
		}
	}
}

// checkTemplate fails unless every pixel is black (or fully transparent):
// macOS tints template images by their alpha alone.
func checkTemplate(t *testing.T, path string, img image.Image) {
	t.Helper()
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			if a != 0 && (r|g|bl) != 0 {
				t.Fatalf("%s: pixel (%d,%d) is not black", path, x, y)
			}
		}
	}
}

// The states must differ in shape, not only in colour: compare the alpha
// masks of the colour icons pairwise.
func TestIconsDifferInShape(t *testing.T) {
	masks := map[string][]uint8{}
	for _, name := range IconNames {
		b, err := Icon(name, 1, true)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var mask []uint8
		for y := 0; y < 32; y++ {
			for x := 0; x < 32; x++ {
				_, _, _, a := img.At(x, y).RGBA()
				mask = append(mask, uint8(a>>15)) // opaque or not
			}
		}
		masks[name] = mask
	}
	for i, a := range IconNames {
		for _, b := range IconNames[i+1:] {
			diff := 0
			for p := range masks[a] {
				if masks[a][p] != masks[b][p] {
					diff++
				}
			}
			if diff < 100 {
				t.Errorf("%s and %s differ in only %d of 1024 pixels' coverage", a, b, diff)
			}
		}
	}
}

func TestUnknownIcon(t *testing.T) {
	if _, err := Icon("sparkly", 1, false); err == nil {
		t.Fatal("Icon of an unknown name: no error")
	}
}

// The embedded PNGs must be what the generator draws now: an edit to
// gen/ without `go generate ./assets` fails here.
func TestGeneratedIconsAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := t.TempDir()
	cmd := exec.Command("go", "run", "./gen", "-out", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./gen: %v\n%s", err, msg)
	}
	n := 0
	err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, path)
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := icons.ReadFile("png/" + filepath.ToSlash(rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("png/%s differs from what gen draws: run go generate ./assets", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	embedded, _ := fs.Glob(icons, "png/*/*.png")
	if n != len(embedded) {
		t.Errorf("gen draws %d icons, %d are embedded", n, len(embedded))
	}
}
