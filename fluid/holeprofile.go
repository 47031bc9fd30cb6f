package fluid

import "math"

// Where a go-back-N rebuild's holes lie. The sender resends from its first unacknowledged
// packet, the window's first hole: what it sent before that was acknowledged. And its
// rounds grow by 1 + h with h the holes' density where it is resending, not their mean
// over the span: a window lost in a slow start that brakes as its queue fills (COLO's
// concave part, seed000-colo-gamma) has every other packet lost at its front and a fifth
// at its end (the packet engine's span at its timeout, by tenths: 0.48, 0.46, 0.44, 0.42,
// 0.40, 0.39, 0.37, 0.36, 0.35, 0.19), and the packet sender's rebuild grows 1.45 times a
// round trip from windows of 100 to 1000 (faster before), where the mean, 0.39, gave 1.40
// and reached ssthresh 0.35 s late. Its window grows geometrically, so its rounds are
// spread evenly over the logarithm of how far into the span's holes it is, and most of them
// fall near the front: the rebuild's growth is the mean of ln(1 + h) over stretches
// log-spaced in the holes' count (window). A drop-tail overflow in congestion avoidance
// loses the window's last packets: the span is that tail, with the density the overflow
// gave it.

// dropPoint is a subflow's sent and dropped counts (cntSent, cntDropped, all members) at
// the end of an accepted step.
type dropPoint struct{ sent, dropped float64 }

// holeProfile is a subflow's dropped count against its sent count since its latest loss
// event, at the ends of the solver's steps (a stretch without drops keeps its two ends).
type holeProfile struct{ pts []dropPoint }

// maxProfilePoints bounds a profile between loss events; the oldest half goes beyond it.
const maxProfilePoints = 4096

// holeBins is how many log-spaced stretches of the span read the density (window).
const holeBins = 16

// record appends the counts at a step's end.
func (p *holeProfile) record(sent, dropped float64) {
	n := len(p.pts)
	switch {
	case n > 0 && p.pts[n-1].sent >= sent:
		p.pts[n-1].dropped = max(p.pts[n-1].dropped, dropped) // a jump: nothing sent since
		return
	case n > 1 && p.pts[n-1].dropped == dropped && p.pts[n-2].dropped == dropped:
		p.pts[n-1].sent = sent
		return
	case n >= maxProfilePoints:
		p.pts = p.pts[:copy(p.pts, p.pts[n/2:])]
	}
	p.pts = append(p.pts, dropPoint{sent, dropped})
}

// restart forgets all but the latest point: a loss event begins the next window.
func (p *holeProfile) restart() {
	if n := len(p.pts); n > 1 {
		p.pts[0] = p.pts[n-1]
		p.pts = p.pts[:1]
	}
}

// at is the dropped count at the sent count x, on the profile's chords.
func (p *holeProfile) at(x float64) float64 {
	pts := p.pts
	switch {
	case len(pts) == 0:
		return 0
	case x <= pts[0].sent:
		return pts[0].dropped
	case x >= pts[len(pts)-1].sent:
		return pts[len(pts)-1].dropped
	}
	i := 1
	for pts[i].sent < x {
		i++
	}
	a, b := pts[i-1], pts[i]
	return a.dropped + (b.dropped-a.dropped)*(x-a.sent)/(b.sent-a.sent)
}

// sentAt is the sent count at which the dropped count first reaches d, on the profile's
// chords.
func (p *holeProfile) sentAt(d float64) float64 {
	pts := p.pts
	if len(pts) == 0 || d <= pts[0].dropped {
		return 0
	}
	i := 1
	for i < len(pts)-1 && pts[i].dropped < d {
		i++
	}
	a, b := pts[i-1], pts[i]
	if b.dropped <= a.dropped {
		return b.sent
	}
	return a.sent + (b.sent-a.sent)*min((d-a.dropped)/(b.dropped-a.dropped), 1)
}

// window reads the window of w packets a member (mult members) that ended at the sent
// count sent: the span a go-back-N resends, from its first hole to its end, in packets a
// member (w when the profile holds fewer than two holes in it), and the rebuild's growth
// over what the span's mean density gives: ln(1 + h) averaged over holeBins stretches
// log-spaced in the holes' count (each stretch's density its holes over the packets
// between them), against ln(1 + mean h); 1 for holes spread evenly. A stretch without
// holes between two lies in one bin, where the ACK of the hole before it jumps it in a
// round.
func (p *holeProfile) window(w, mult, sent float64) (span, shape float64) {
	lo := sent - w*mult
	base := p.at(lo)
	holes := (p.at(sent) - base) / mult
	if holes < 2 {
		return w, 1
	}
	from := max(lo, p.sentAt(base+1e-9*mult))
	span = max((sent-from)/mult, 1)
	mean := math.Log1p(min(holes/span, 1))
	if mean <= 0 {
		return span, 1
	}
	sum := 0.0
	j0, x0 := 1.0, p.sentAt(base+mult) // the first whole hole
	for k := 1; k <= holeBins; k++ {
		j1 := math.Pow(holes, float64(k)/holeBins)
		x1 := p.sentAt(base + j1*mult)
		h := 1.0
		if x1 > x0 {
			h = min((j1-j0)*mult/(x1-x0), 1)
		}
		sum += math.Log1p(h)
		j0, x0 = j1, x1
	}
	return span, sum / holeBins / mean
}
