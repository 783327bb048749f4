// Command gen draws the tray icons into assets/png (run by `go generate
// ./assets`). Each aggregate state has its own shape as well as its own
// colour, so the icons are told apart without colour vision, and every
// coloured shape sits on a dark outline so it reads on light and dark
// panels alike. Colours are from the Okabe–Ito palette, chosen to stay
// distinct under the common colour-vision deficiencies.
//
// Shapes are signed distance functions (negative inside) sampled 4×4 times
// per pixel, which gives smooth edges with nothing but the standard library.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"
)

// size is the icon's edge in pixels: sharp at 16 pt on a Retina menu bar,
// and what StatusNotifierItem hosts scale down from.
const size = 32

// maxBadge is the highest count drawn as a number; more shows as "9+".
const maxBadge = 9

func main() {
	out := flag.String("out", "png", "directory to write the icons into")
	flag.Parse()
	if err := generate(*out); err != nil {
		log.Fatal(err)
	}
}

func generate(out string) error {
	for _, variant := range []string{"color", "template"} {
		dir := filepath.Join(out, variant)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		template := variant == "template"
		for _, st := range states {
			for count := 1; count <= maxBadge+1; count++ {
				name := st.name + ".png"
				switch {
				case count == maxBadge+1:
					name = st.name + "-9plus.png"
				case count > 1:
					name = fmt.Sprintf("%s-%d.png", st.name, count)
				}
				img := render(iconLayers(st, count, template))
				var buf bytes.Buffer
				if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// shape is a signed distance function: negative inside, in pixels.
type shape func(x, y float64) float64

// layer paints (or, with erase, clears) the inside of a shape.
type layer struct {
	s     shape
	c     color.NRGBA
	erase bool
}

var (
	outline = color.NRGBA{0x1a, 0x1a, 0x1a, 0xff}
	white   = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	black   = color.NRGBA{0, 0, 0, 0xff}
)

// stateIcon is one aggregate state's look: a body, and marks cut into it.
type stateIcon struct {
	name string
	fill color.NRGBA
	body shape
	// marks are drawn over the body in the outline colour (colour icons)
	// or cut out of it (template icons).
	marks []shape
}

var states = []stateIcon{
	{ // needs you: a warning triangle with "!"
		name: "waiting", fill: color.NRGBA{0xe6, 0x9f, 0x00, 0xff},
		body: rounded(polygon([][2]float64{{16, 2.5}, {30, 28}, {2, 28}}), 1.2),
		marks: []shape{
			capsule(16, 11, 16, 19, 1.9),
			circle(16, 23.6, 2.1),
		},
	},
	{ // busy: a circular arrow, open at the top right
		name: "working", fill: color.NRGBA{0x56, 0xb4, 0xe9, 0xff},
		body: union(
			arc(16, 16.5, 10.5, 2.8, -0.05*math.Pi, 1.5*math.Pi),
			polygon([][2]float64{{15, 0.5}, {23, 6}, {15, 11.5}}),
		),
	},
	{ // squeezing the context: an hourglass
		name: "compacting", fill: color.NRGBA{0xcc, 0x79, 0xa7, 0xff},
		body: union(
			rounded(polygon([][2]float64{{6, 4}, {26, 4}, {16, 16.5}}), 1),
			rounded(polygon([][2]float64{{16, 15.5}, {26, 28}, {6, 28}}), 1),
			box(16, 3.5, 12, 2),
			box(16, 28.5, 12, 2),
		),
	},
	{ // done, your turn: a disc with a check mark
		name: "ready", fill: color.NRGBA{0x00, 0x9e, 0x73, 0xff},
		body: circle(16, 16, 13.5),
		marks: []shape{
			capsule(9, 16.5, 14, 21.5, 2.2),
			capsule(14, 21.5, 23, 11, 2.2),
		},
	},
	{ // nothing running: an empty ring
		name: "idle", fill: color.NRGBA{0xa8, 0xa8, 0xa8, 0xff},
		body: ring(16, 16, 11, 2.2),
	},
	{ // cannot tell (hooks missing, state not trustworthy): a diamond with "?"
		name: "unsure", fill: color.NRGBA{0xf0, 0xe4, 0x42, 0xff},
		body: rounded(polygon([][2]float64{{16, 1.5}, {30.5, 16}, {16, 30.5}, {1.5, 16}}), 1.5),
		marks: []shape{
			arc(16, 12.5, 4.3, 1.6, math.Pi, 2.5*math.Pi),
			capsule(16, 16.8, 16, 19, 1.6),
			circle(16, 23.2, 1.9),
		},
	},
}

// iconLayers lays out one icon: the state's shape and, for count > 1, a
// badge with the count in the bottom right corner.
func iconLayers(st stateIcon, count int, template bool) []layer {
	var ls []layer
	if template {
		// macOS template: black and alpha only; the system tints it.
		ls = append(ls, layer{s: st.body, c: black})
		for _, m := range st.marks {
			ls = append(ls, layer{s: m, erase: true})
		}
	} else {
		ls = append(ls, layer{s: grow(st.body, 1.4), c: outline}, layer{s: st.body, c: st.fill})
		for _, m := range st.marks {
			ls = append(ls, layer{s: m, c: outline})
		}
	}
	if count <= 1 {
		return ls
	}
	label := fmt.Sprint(count)
	if count > maxBadge {
		label = "9+"
	}
	// A one-digit badge is a disc; "9+" a pill reaching further left.
	left := 24.8
	if len(label) > 1 {
		left = 19.8
	}
	badge := rounded(boxCorners(left, 24.8, 24.8, 24.8), 7)
	textColor := outline
	ls = append(ls, layer{s: grow(badge, 1.6), erase: true})
	if template {
		ls = append(ls, layer{s: badge, c: black})
	} else {
		ls = append(ls, layer{s: grow(badge, 1.1), c: outline}, layer{s: badge, c: white})
	}
	glyphs := text(label, (left+24.8)/2, 24.8)
	if template {
		ls = append(ls, layer{s: glyphs, erase: true})
	} else {
		ls = append(ls, layer{s: glyphs, c: textColor})
	}
	return ls
}

// render samples the layers 4×4 times per pixel.
func render(ls []layer) *image.NRGBA {
	const ss = 4
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64 // premultiplied sums
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x := float64(px) + (float64(sx)+0.5)/ss
					y := float64(py) + (float64(sy)+0.5)/ss
					cr, cg, cb, ca := 0.0, 0.0, 0.0, 0.0
					for _, l := range ls {
						if l.s(x, y) > 0 {
							continue
						}
						if l.erase {
							cr, cg, cb, ca = 0, 0, 0, 0
							continue
						}
						cr, cg, cb, ca = float64(l.c.R), float64(l.c.G), float64(l.c.B), 1
					}
					r, g, b, a = r+cr*ca, g+cg*ca, b+cb*ca, a+ca
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{
				R: uint8(math.Round(r / a)), G: uint8(math.Round(g / a)), B: uint8(math.Round(b / a)),
				A: uint8(math.Round(255 * a / (ss * ss))),
			})
		}
	}
	return img
}
