package fluid

import (
	"math"
	"testing"
)

// profileOf records a profile of a window of n packets a member (mult members) sent from
// zero, in steps of ten packets, with density(x) the fraction lost at packet x of it.
func profileOf(n, mult float64, density func(x float64) float64) *holeProfile {
	p := &holeProfile{}
	dropped := 0.0
	p.record(0, 0)
	for x := 10.0; x <= n; x += 10 {
		dropped += 10 * density(x-5) * mult
		p.record(x*mult, dropped)
	}
	return p
}

// The span a go-back-N resends starts at the window's first hole, and its growth is the
// mean of ln(1 + h) over stretches log-spaced in the holes' count, against ln(1 + mean h):
// 1 where the holes lie evenly; above 1 where they crowd the span's front, as a slow start
// that brakes while its queue fills loses them (seed000-colo-gamma); a lone early hole
// costs a sixteenth of the stretches, its ACK jumping the gap after it in one round.
func TestHoleProfileWindow(t *testing.T) {
	even := func(float64) float64 { return 0.4 }
	front := func(x float64) float64 { return 0.48 - 0.29*x/1000 }
	for _, c := range []struct {
		name                   string
		mult                   float64
		prof                   *holeProfile
		span, shapeLo, shapeHi float64
		spanTol                float64
	}{
		{"even", 1, profileOf(1000, 1, even), 1000, 0.999, 1.001, 10},
		{"even class of 3", 3, profileOf(1000, 3, even), 1000, 0.999, 1.001, 10},
		// Densities 0.48 at the front to 0.19 at the end: growth between the mean's, 0.335,
		// and the front's, ln 1.48.
		{"front", 1, profileOf(1000, 1, front), 1000, 1.03, math.Log(1.48) / math.Log1p(0.335), 10},
		// Congestion avoidance's overflow: the last 100 packets lose half; the span is them.
		{"tail", 1, profileOf(1000, 1, func(x float64) float64 { return b2f(x > 900) / 2 }), 100, 0.999, 1.001, 10},
		// One hole at packet 10, then none to 600, then half: 1 + 200 holes over 1000
		// packets (mean 0.201); fifteen of sixteen stretches at h = 1/2.
		{"lone hole", 1, profileOf(1000, 1, func(x float64) float64 { return b2f(x < 10)/10 + b2f(x > 600)/2 }),
			1000, 15.0 / 16 * math.Log(1.5) / math.Log1p(0.201) * 0.95, 15.0 / 16 * math.Log(1.5) / math.Log1p(0.201) * 1.05, 10},
		{"one hole", 1, profileOf(1000, 1, func(x float64) float64 { return b2f(x < 10) / 10 }), 1000, 1, 1, 0},
		{"none", 1, &holeProfile{}, 1000, 1, 1, 0},
	} {
		span, shape := c.prof.window(1000, c.mult, 1000*c.mult)
		if math.Abs(span-c.span) > c.spanTol || !(shape >= c.shapeLo && shape <= c.shapeHi) {
			t.Errorf("%s: span %.1f packets, shape %.4f; want %.0f ± %.0f and %.4f–%.4f", c.name, span, shape, c.span, c.spanTol, c.shapeLo, c.shapeHi)
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// A profile keeps only the two ends of a stretch without drops, and at most
// maxProfilePoints points.
func TestHoleProfileRecordIsBounded(t *testing.T) {
	p := &holeProfile{}
	for x := 0.0; x < 1000; x++ {
		p.record(x, 0)
	}
	if len(p.pts) != 2 || p.pts[1].sent != 999 {
		t.Errorf("a stretch without drops kept %d points, want its 2 ends", len(p.pts))
	}
	for x := 1000.0; x < 1000+3*maxProfilePoints; x++ {
		p.record(x, x)
	}
	if len(p.pts) > maxProfilePoints {
		t.Errorf("%d points, want at most %d", len(p.pts), maxProfilePoints)
	}
	p.restart()
	if len(p.pts) != 1 || p.pts[0].sent != 999+3*maxProfilePoints {
		t.Errorf("restart kept %v, want the latest point", p.pts)
	}
}

// FuzzHoleProfile: any recorded counts give a span of at least a packet and at most the
// window, and a finite growth that is not negative.
func FuzzHoleProfile(f *testing.F) {
	f.Add([]byte{1, 0, 2, 1, 3, 3, 4, 3}, 3.0, 1.0)
	f.Add([]byte{10, 5, 10, 5, 200, 100}, 50.0, 2.0)
	f.Fuzz(func(t *testing.T, steps []byte, w, mult float64) {
		if !(w >= 1 && w <= 1e7 && mult >= 1 && mult <= 1e4) {
			return
		}
		p := &holeProfile{}
		sent, dropped := 0.0, 0.0
		for i := 0; i+1 < len(steps); i += 2 {
			sent += float64(steps[i])
			dropped += min(float64(steps[i+1]), float64(steps[i]))
			p.record(sent, dropped)
		}
		span, shape := p.window(w, mult, sent)
		if !(span >= 1 && span <= w) || math.IsNaN(shape) || math.IsInf(shape, 0) || shape < 0 {
			t.Fatalf("window(%v, %v, %v) over %v: span %v, shape %v", w, mult, sent, p.pts, span, shape)
		}
	})
}
