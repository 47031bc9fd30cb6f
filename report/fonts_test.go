package report

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fontTestFigure has text at every edge: a long title, long axis labels, a
// legend of long names that ends up right of the plot or under it, and
// superscripted log ticks.
func fontTestFigure() Figure {
	f := Figure{ID: "fonts", Title: "A long title that spans most of the width of the figure, Wg",
		XLabel: "loss rate p (per packet), a long axis label", YLabel: "mean congestion window (packets)", LogX: true, LogY: true}
	for k := range 9 {
		s := Series{Name: strings.Repeat("long series name ", 2) + string(rune('A'+k))}
		for i := range 50 {
			p := 1e-7 * float64(i+1) * 2e3
			s.X, s.Y = append(s.X, p), append(s.Y, float64(k+1)*1e2/float64(i+1))
		}
		f.Series = append(f.Series, s)
	}
	return f
}

// SVG and PDF figures carry no text and name no font: every glyph is an
// outline, so they look the same on a machine without Liberation (or any)
// fonts. In headless Chromium, an SVG renders to the same pixels with the
// system's fonts and with none at all, and nothing of it, text included,
// falls outside its frame.
func TestVectorFiguresNeedNoFont(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("TCPFLUID_TEST_KEEP"); d != "" {
		dir = d // to look at the figures
	}
	figs := append(samplePage().Sections[0].Figures, samplePage().Sections[1].Figures...)
	figs = append(figs, fontTestFigure())
	for _, f := range figs {
		for _, ext := range []string{"svg", "pdf"} {
			path := filepath.Join(dir, f.ID+"."+ext)
			if err := WriteFigure(path, f); err != nil {
				t.Fatal(err)
			}
			b := readFile(t, path)
			// (fpdf writes an empty /Font resource dictionary; a font would
			// need a /BaseFont.)
			for _, bad := range []string{"<text", "font-family", "/BaseFont", "/FontDescriptor"} {
				if bytes.Contains(b, []byte(bad)) {
					t.Errorf("%s.%s contains %s: its text depends on the reader's fonts", f.ID, ext, bad)
				}
			}
			if !bytes.Contains(b, []byte("<path")) && ext == "svg" {
				t.Errorf("%s.svg has no paths", f.ID)
			}
		}
	}

	browser := findBrowser(t)
	// A fontconfig that finds no font at all.
	empty := t.TempDir()
	conf := filepath.Join(empty, "fonts.conf")
	if err := os.WriteFile(conf, []byte(`<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>`+
		filepath.Join(empty, "none")+`</dir><cachedir>`+filepath.Join(empty, "cache")+`</cachedir></fontconfig>`), 0o644); err != nil {
		t.Fatal(err)
	}
	noFonts := append(os.Environ(), "FONTCONFIG_FILE="+conf)
	svgTag := regexp.MustCompile(`<svg `)
	const margin, widthPx, heightPx = 40, 576, 384 // 6×4 in at 96 px per inch
	for _, id := range []string{"response", "fonts"} {
		t.Run(id, func(t *testing.T) {
			svg := string(readFile(t, filepath.Join(dir, id+".svg")))
			svg = svg[strings.Index(svg, "<svg"):]
			// Inline and with overflow visible, so that anything drawn outside
			// the frame would show in the margin around it.
			svg = svgTag.ReplaceAllLiteralString(svg, `<svg style="overflow:visible;display:block" `)
			page := filepath.Join(dir, id+".html")
			html := `<!DOCTYPE html><html><body style="margin:0;background:#fff"><div style="position:absolute;left:40px;top:40px">` + svg + `</div></body></html>`
			if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
				t.Fatal(err)
			}
			shot := func(env []string, name string) image.Image {
				out := filepath.Join(dir, id+"-"+name+".png")
				headless(t, browser, env, "file://"+page, "--hide-scrollbars", "--force-device-scale-factor=1",
					"--window-size=700,500", "--screenshot="+out)
				img, err := png.Decode(bytes.NewReader(readFile(t, out)))
				if err != nil {
					t.Fatal(err)
				}
				return img
			}
			with, without := shot(nil, "fonts"), shot(noFonts, "nofonts")
			b := with.Bounds()
			inked, outside, differ := 0, 0, 0
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					r1, g1, b1, _ := with.At(x, y).RGBA()
					r2, g2, b2, _ := without.At(x, y).RGBA()
					if r1 != r2 || g1 != g2 || b1 != b2 {
						differ++
					}
					if r2&g2&b2 < 0xf000 { // not white
						inked++
						if x < margin || x >= margin+widthPx || y < margin || y >= margin+heightPx {
							outside++
						}
					}
				}
			}
			if inked < 2000 {
				t.Errorf("%s.svg without fonts: only %d inked pixels; want the figure drawn", id, inked)
			}
			if differ > 0 {
				t.Errorf("%s.svg renders %d pixels differently with and without fonts; want none", id, differ)
			}
			if outside > 0 {
				t.Errorf("%s.svg without fonts: %d inked pixels outside its %d×%d frame", id, outside, widthPx, heightPx)
			}
		})
	}
}
