package response

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tcpfluid/tcpfluid/model"
)

// A point's run is a sequence of loss cycles: cycle i runs from loss event i to loss
// event i+1, holds A_i = ∫W dt (packet·s) and lasts T_i (s). The mean window over cycles
// [i0, i1) is the renewal-reward ratio R = ΣA/ΣT. Its standard error is the delta method's,
// sd(Σz)/ΣT with z_i = A_i − R·T_i; successive cycles of one flow are not independent
// (each starts from the window the last one ended at), so Var(Σz) sums the z's
// autocovariances with Bartlett weights up to lag ⌈√n⌉ (Newey and West, 1987): Scalable's
// windows at loss stay correlated for tens of cycles, and n^(1/3) lags, the rate that is
// optimal for short memory, understate its spread over seeds by a fifth (cycles_test.go).

// cycleMean is the mean window of a run of cycles and its uncertainty, packets.
type cycleMean struct {
	mean float64 // R
	se   float64 // standard error of R
	half float64 // half width of the 95% confidence interval (Student's t, n − 1 dof)
}

// meanOver is the mean window over cycles [i0, i1) of the loss records ls (i1 − i0 >= 2).
func meanOver(ls []model.LossRecord, i0, i1 int) cycleMean {
	n := i1 - i0
	area := ls[i1].CwndTimePktS - ls[i0].CwndTimePktS
	span := ls[i1].TS - ls[i0].TS
	if !(span > 0) {
		return cycleMean{}
	}
	r := area / span
	z := make([]float64, n) // each cycle's area less r times its length
	for j := range z {
		a, b := &ls[i0+j], &ls[i0+j+1]
		z[j] = (b.CwndTimePktS - a.CwndTimePktS) - r*(b.TS-a.TS)
	}
	lags := int(math.Ceil(math.Sqrt(float64(n))))
	v := 0.0
	for k := 0; k <= lags && k < n; k++ {
		g := floats.Dot(z[k:], z[:n-k])
		if k == 0 {
			v += g
		} else {
			v += 2 * (1 - float64(k)/float64(lags+1)) * g
		}
	}
	se := math.Sqrt(max(v, 0)) / span
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
	return cycleMean{mean: r, se: se, half: t * se}
}

// drifts reports whether the two halves of cycles [i0, i1) differ by more than tol of their
// mean and, under random loss, by more than chance allows (three standard errors of their
// difference: the test is repeated as the run grows, and each false alarm costs half the
// cycles measured): the run has not yet reached the regime it will stay in. Periodic loss
// is deterministic: any difference is the transient.
func drifts(ls []model.LossRecord, i0, i1 int, tol float64, random bool) bool {
	mid := (i0 + i1) / 2
	a, b := meanOver(ls, i0, mid), meanOver(ls, mid, i1)
	d := math.Abs(a.mean - b.mean)
	return d > tol*(a.mean+b.mean)/2 && (!random || d > 3*math.Hypot(a.se, b.se))
}

// stopper decides, loss by loss, when a point's run has seen enough (fluid.Settings
// LossStop): it measures cycles [start, start+n). With an automatic warm-up, a measured
// run whose halves drift (drifts) drops its first half into the warm-up and measures at
// least as many cycles as it has discarded, so that a slow transient (CUBIC's, without fast
// convergence, decays as 1/√n) cannot hide in a short window; a periodic point then stops,
// and a random one grows n as its interval says it needs (nextN) until the interval is
// within TargetRelCI or n reaches MaxLosses. A fixed warm-up (Settings.WarmupLosses) skips the trend test.
type stopper struct {
	s        *Settings
	periodic bool
	auto     bool
	start, n int
}

// Automatic warm-ups discard at least minWarmup loss events and at most maxWarmup. The
// floor is not only slow start's overshoot: CUBIC with fast convergence at p = 1e-4 holds a
// regime for its first 85 cycles that it then leaves for one 10% lower, which no test on
// the first cycles can foresee.
const (
	minWarmup = 100
	maxWarmup = 10_000
)

func newStopper(s *Settings) *stopper {
	st := &stopper{s: s, periodic: s.LossModel == "periodic", auto: s.WarmupLosses == 0, start: s.WarmupLosses, n: s.MinLosses}
	if st.auto {
		st.start = minWarmup
	}
	return st
}

// maxEvents bounds the loss events a point's run can need.
func (st *stopper) maxEvents() int {
	if st.auto {
		return maxWarmup + max(maxWarmup, st.s.MaxLosses) + 1
	}
	return st.start + st.s.MaxLosses + 1
}

// nextN is how many cycles a random point measures next: the half width shrinks as 1/√n,
// so the n at which it would meet the target, with a fifth more for the estimate's own
// noise, at least a quarter more than now and at most four times as many.
func (st *stopper) nextN(m cycleMean) int {
	r := m.half / (st.s.TargetRelCI * m.mean)
	want := 1.2 * r * r * float64(st.n)
	if !(want < float64(4*st.n)) { // also a zero mean: r is +Inf
		return 4 * st.n
	}
	return max(int(math.Ceil(want)), st.n+st.n/4)
}

func (st *stopper) enough(ls []model.LossRecord) bool {
	for len(ls) > st.start+st.n {
		if st.auto && st.start+st.n/2 <= maxWarmup && drifts(ls, st.start, st.start+st.n, st.s.TargetRelCI/8, !st.periodic) {
			st.start += st.n / 2
			st.n = max(st.n, st.start)
			continue
		}
		if st.periodic || st.n >= st.s.MaxLosses {
			return true
		}
		m := meanOver(ls, st.start, st.start+st.n)
		if m.half <= st.s.TargetRelCI*m.mean {
			return true
		}
		st.n = min(st.nextN(m), st.s.MaxLosses)
	}
	return false
}
