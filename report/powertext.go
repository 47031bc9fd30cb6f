package report

import (
	"math"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// powerText is the text handler of logarithmic tick labels: it draws
// "10^{-7}" as 10 with a raised, smaller −7, and any other text as
// text.Plain does. (gonum/plot's LaTeX handler has no superscripts, and the
// Liberation fonts lack the Unicode superscript digits 0 and 9 and the
// superscript minus.)
type powerText struct{ text.Plain }

// Superscripts are drawn at supScale of the font size, their baseline
// raised by supRise of it.
const (
	supScale = 0.72
	supRise  = 0.42
)

// splitPower splits "B^{E}" into B and E, writing a leading '-' of E as the
// minus sign U+2212.
func splitPower(txt string) (base, exp string, ok bool) {
	base, rest, ok := strings.Cut(txt, "^{")
	if !ok || !strings.HasSuffix(rest, "}") || strings.Contains(txt, "\n") {
		return txt, "", false
	}
	exp = strings.TrimSuffix(rest, "}")
	if strings.HasPrefix(exp, "-") {
		exp = "\u2212" + exp[1:]
	}
	return base, exp, true
}

func supFont(f font.Font) font.Font {
	f.Size = vg.Length(float64(f.Size) * supScale)
	return f
}

func (h powerText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	base, exp, ok := splitPower(txt)
	if !ok {
		return h.Plain.Box(txt, fnt)
	}
	w, ht, d := h.Plain.Box(base, fnt)
	sw, sh, _ := h.Plain.Box(exp, supFont(fnt))
	return w + sw, vg.Length(math.Max(float64(ht), float64(sh+fnt.Size*supRise))), d
}

func (h powerText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	base, exp, ok := splitPower(txt)
	if !ok || sty.Rotation != 0 {
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	face := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	sup := h.Fonts.Lookup(supFont(sty.Font), supFont(sty.Font).Size)
	w, _, _ := h.Box(txt, sty.Font)
	// As text.Plain places one line: pt is moved by the alignment of the
	// whole box, the baseline one font size above its bottom less the ascent.
	ht := sty.Height(txt)
	y := pt.Y + ht*vg.Length(sty.YAlign) - face.Extents().Ascent + sty.Font.Size
	x := pt.X + vg.Length(sty.XAlign)*w
	c.SetColor(sty.Color)
	c.FillString(face, vg.Point{X: x, Y: y}, base)
	c.FillString(sup, vg.Point{X: x + face.Width(base), Y: y + sty.Font.Size*supRise}, exp)
}
