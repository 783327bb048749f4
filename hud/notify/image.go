package notify

import (
	"bytes"
	"image"
	"image/draw"
	_ "image/png" // the icons are PNGs
)

// ImageData is the notification spec's "image-data" hint: raw RGBA rows,
// not premultiplied. The library's HintImageDataRGBA (and so beeep) sends
// an image.RGBA's premultiplied pixels, which darken an icon's soft edges.
type ImageData struct {
	Width, Height, Rowstride int32
	HasAlpha                 bool
	BitsPerSample, Channels  int32
	Data                     []byte
}

// ImageDataOf decodes a PNG for the image-data hint; nil when it cannot.
func ImageDataOf(png []byte) *ImageData {
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		return nil
	}
	b := img.Bounds()
	rgba := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	return &ImageData{Width: int32(b.Dx()), Height: int32(b.Dy()), Rowstride: int32(rgba.Stride),
		HasAlpha: true, BitsPerSample: 8, Channels: 4, Data: rgba.Pix}
}
