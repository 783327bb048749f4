package history

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/ledger"
)

// svgOf draws h and reads the whole document back as XML: its elements'
// names and its text.
func svgOf(t *testing.T, h ledger.History) (doc string, elements map[string]int, chardata string) {
	t.Helper()
	var b strings.Builder
	if err := SVG(&b, h, now); err != nil {
		t.Fatal(err)
	}
	elements = map[string]int{}
	var text strings.Builder
	d := xml.NewDecoder(strings.NewReader(b.String()))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, b.String())
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			elements[tok.Name.Local]++
			for _, a := range tok.Attr {
				if a.Name.Local == "href" || strings.HasPrefix(a.Value, "url(") {
					t.Errorf("a link to elsewhere: %v", a)
				}
			}
		case xml.CharData:
			text.Write(tok)
		}
	}
	return b.String(), elements, text.String()
}

func TestSVG(t *testing.T) {
	doc, el, text := svgOf(t, sample())
	// Two sessions and the absences: three lanes; every span a rect, the
	// stripes and the legend too.
	if !strings.Contains(doc, `width="1000" height="210"`) {
		t.Errorf("size: %s", strings.SplitN(doc, "\n", 3)[1])
	}
	for _, want := range []string{"Sat 28 Nov, 09:00–12:00", "api · auth refactor", "docs (Codex)", "you, away",
		"Working 2h 44m · waiting on you 16m · 2 waits · answered in 2m (median), 14m (p90), longest 14m for Bash: rm -rf build",
		"waited 14m for Bash: rm -rf build, answered from the tray", "working 09:00–09:30 (30m)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q", want)
		}
	}
	if el["path"] != 2 || el["script"] > 0 || el["style"] > 0 || el["image"] > 0 {
		t.Errorf("elements: %v", el)
	}
	if n := strings.Count(doc, `fill="#2f9e44"`); n != 6 { // five bars and the legend's
		t.Errorf("%d working rects, want 6", n)
	}
}

// Names and subjects are escaped: a tag in one is text, not markup.
func TestSVGEscapes(t *testing.T) {
	h := sample()
	h.Timelines[0].Name = `<script>alert("x")</script>`
	h.Timelines[0].Waits[1].For = `a & b <img src=x onerror=alert(1)>`
	h.Total.LongestFor = "]]></text><script>alert(2)</script>"
	doc, el, text := svgOf(t, h)
	if el["script"] > 0 || el["img"] > 0 {
		t.Errorf("markup got through: %v\n%s", el, doc)
	}
	for _, want := range []string{`<script>alert("x")`, "a & b <img src=x", "</text><script>alert(2)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q", want)
		}
	}
}

func TestSVGEmpty(t *testing.T) {
	_, _, text := svgOf(t, ledger.History{From: now.Add(-8 * time.Hour), To: now})
	if !strings.Contains(text, "No sessions recorded in the last 8h.") {
		t.Errorf("text %q", text)
	}
}
