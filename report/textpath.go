package report

import (
	"errors"
	"fmt"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	plotfont "gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// outlinedText is a vg.Canvas that draws text as the outlines of its
// glyphs, filled, instead of as text in a named font. SVG and PDF figures
// are drawn through it, so they look the same on every machine whether or
// not it has the font (Liberation, gonum/plot's default) and need no
// embedded font file; this is what matplotlib does by default
// (svg.fonttype = "path"). The glyphs come from the font that gonum/plot
// measured the text with, placed with the same advances and kerning, so
// the layout is the one gonum/plot computed.
type outlinedText struct {
	vg.Canvas
	buf sfnt.Buffer
}

// FillString fills the outlines of str's glyphs in the current colour, with
// the baseline of the first glyph starting at pt.
func (c *outlinedText) FillString(f plotfont.Face, pt vg.Point, str string) {
	if f.Font.Size == 0 || f.Face == nil {
		return
	}
	sf := f.Face // *sfnt.Font
	// With ppem equal to the units per em, sfnt's 26.6 results are in font
	// units, as gonum/plot's Face.Width uses them.
	ppem := fixed.Int26_6(sf.UnitsPerEm())
	scale := f.Font.Size.Points() / float64(sf.UnitsPerEm())
	at := func(p fixed.Point26_6, penX float64) vg.Point {
		return vg.Point{X: pt.X + vg.Points((penX+float64(p.X))*scale), Y: pt.Y - vg.Points(float64(p.Y)*scale)}
	}
	pen := 0.0
	var prev sfnt.GlyphIndex
	for i, r := range str {
		idx, err := sf.GlyphIndex(&c.buf, r)
		if err != nil {
			panic(fmt.Errorf("report: glyph of %q: %w", r, err))
		}
		if i > 0 {
			kern, err := sf.Kern(&c.buf, prev, idx, ppem, font.HintingNone)
			switch {
			case err == nil:
				pen += float64(kern)
			case !errors.Is(err, sfnt.ErrNotFound):
				panic(fmt.Errorf("report: kerning: %w", err))
			}
		}
		segs, err := sf.LoadGlyph(&c.buf, idx, ppem, nil)
		if err != nil {
			panic(fmt.Errorf("report: outline of %q: %w", r, err))
		}
		var path vg.Path
		open := false
		for _, s := range segs {
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				if open {
					path.Close()
				}
				path.Move(at(s.Args[0], pen))
				open = true
			case sfnt.SegmentOpLineTo:
				path.Line(at(s.Args[0], pen))
			case sfnt.SegmentOpQuadTo:
				path.QuadTo(at(s.Args[0], pen), at(s.Args[1], pen))
			case sfnt.SegmentOpCubeTo:
				path.CubeTo(at(s.Args[0], pen), at(s.Args[1], pen), at(s.Args[2], pen))
			}
		}
		if open {
			path.Close()
			c.Fill(path)
		}
		adv, err := sf.GlyphAdvance(&c.buf, idx, ppem, font.HintingNone)
		if err != nil {
			panic(fmt.Errorf("report: advance of %q: %w", r, err))
		}
		pen += float64(adv)
		prev = idx
	}
}
