package main

import "math"

func circle(cx, cy, r float64) shape {
	return func(x, y float64) float64 { return math.Hypot(x-cx, y-cy) - r }
}

// ring is a circle's outline of half-thickness t.
func ring(cx, cy, r, t float64) shape {
	return func(x, y float64) float64 { return math.Abs(math.Hypot(x-cx, y-cy)-r) - t }
}

// arc is the part of a ring from angle a0 clockwise (y grows downwards) to
// a1, with round ends.
func arc(cx, cy, r, t, a0, a1 float64) shape {
	end0 := [2]float64{cx + r*math.Cos(a0), cy + r*math.Sin(a0)}
	end1 := [2]float64{cx + r*math.Cos(a1), cy + r*math.Sin(a1)}
	return func(x, y float64) float64 {
		a := math.Atan2(y-cy, x-cx)
		for a < a0 {
			a += 2 * math.Pi
		}
		if a <= a1 {
			return math.Abs(math.Hypot(x-cx, y-cy)-r) - t
		}
		return math.Min(math.Hypot(x-end0[0], y-end0[1]), math.Hypot(x-end1[0], y-end1[1])) - t
	}
}

// capsule is a segment from (ax, ay) to (bx, by) with radius r.
func capsule(ax, ay, bx, by, r float64) shape {
	return func(x, y float64) float64 { return segmentDistance(x, y, ax, ay, bx, by) - r }
}

func segmentDistance(x, y, ax, ay, bx, by float64) float64 {
	px, py, dx, dy := x-ax, y-ay, bx-ax, by-ay
	h := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		h = math.Max(0, math.Min(1, (px*dx+py*dy)/l))
	}
	return math.Hypot(px-dx*h, py-dy*h)
}

// box is an axis-aligned rectangle centred on (cx, cy).
func box(cx, cy, w, h float64) shape {
	return boxCorners(cx-w/2, cy-h/2, cx+w/2, cy+h/2)
}

func boxCorners(x0, y0, x1, y1 float64) shape {
	cx, cy, hw, hh := (x0+x1)/2, (y0+y1)/2, (x1-x0)/2, (y1-y0)/2
	return func(x, y float64) float64 {
		dx, dy := math.Abs(x-cx)-hw, math.Abs(y-cy)-hh
		outside := math.Hypot(math.Max(dx, 0), math.Max(dy, 0))
		return outside + math.Min(math.Max(dx, dy), 0)
	}
}

// polygon is a closed polygon given by its vertices.
func polygon(v [][2]float64) shape {
	return func(x, y float64) float64 {
		d := math.Inf(1)
		inside := false
		for i, j := 0, len(v)-1; i < len(v); j, i = i, i+1 {
			a, b := v[j], v[i]
			d = math.Min(d, segmentDistance(x, y, a[0], a[1], b[0], b[1]))
			if (b[1] > y) != (a[1] > y) && x < (a[0]-b[0])*(y-b[1])/(a[1]-b[1])+b[0] {
				inside = !inside
			}
		}
		if inside {
			return -d
		}
		return d
	}
}

// rounded grows s by r, rounding its corners.
func rounded(s shape, r float64) shape { return grow(s, r) }

// grow moves the edge of s outwards by d pixels.
func grow(s shape, d float64) shape {
	return func(x, y float64) float64 { return s(x, y) - d }
}

func union(ss ...shape) shape {
	return func(x, y float64) float64 {
		d := math.Inf(1)
		for _, s := range ss {
			d = math.Min(d, s(x, y))
		}
		return d
	}
}

// font is a 3×5 pixel font for the count badge.
var font = map[rune][5]string{
	'0': {"###", "#.#", "#.#", "#.#", "###"},
	'1': {".#.", "##.", ".#.", ".#.", "###"},
	'2': {"###", "..#", "###", "#..", "###"},
	'3': {"###", "..#", "###", "..#", "###"},
	'4': {"#.#", "#.#", "###", "..#", "..#"},
	'5': {"###", "#..", "###", "..#", "###"},
	'6': {"###", "#..", "###", "#.#", "###"},
	'7': {"###", "..#", ".#.", ".#.", ".#."},
	'8': {"###", "#.#", "###", "#.#", "###"},
	'9': {"###", "#.#", "###", "..#", "###"},
	'+': {"...", ".#.", "###", ".#.", "..."},
}

// text draws s in the pixel font, centred on (cx, cy).
func text(s string, cx, cy float64) shape {
	const px = 2.0 // one font pixel, in icon pixels
	const gap = 1  // font pixels between glyphs
	runes := []rune(s)
	width := float64(len(runes)*3+(len(runes)-1)*gap) * px
	x0, y0 := cx-width/2, cy-2.5*px
	var boxes []shape
	for i, r := range runes {
		gx := x0 + float64(i*(3+gap))*px
		for row, line := range font[r] {
			for col, c := range line {
				if c == '#' {
					bx, by := gx+float64(col)*px, y0+float64(row)*px
					boxes = append(boxes, boxCorners(bx, by, bx+px, by+px))
				}
			}
		}
	}
	return union(boxes...)
}
