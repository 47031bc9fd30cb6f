package meanfield

import (
	"fmt"
	"math"
	"math/cmplx"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Linearisation is the mean-field field linearised about its equilibrium: with
// δ the deviations of the dynamic components (the windows, and the queues and RED averages
// of the links that carry a queue),
//
//	δy'(t) = A0·δy(t) + Σ_i A_i·δy(t − R_i),
//
// R_i class i's equilibrium RTT. The look-back time's own dependence on the queue drops
// out at first order, since the equilibrium is constant. The matrices are central
// differences of the field itself, so every law and topology linearises the same way.
type Linearisation struct {
	N     int          // dynamic components
	Index []int        // their indices in the state vector
	Names []string     // "W[class]", "q[link]", "x[link]"
	A0    *mat.Dense   // N×N
	A     []*mat.Dense // per class, N×N
	R     []float64    // per class, s

	// loop: the single RED link whose marking the classes read, for Margins.
	loopLink string
	loopCol  int // dynamic index of its average, −1 for none
}

// linearise computes the linearisation at eq (a smooth equilibrium of s's network).
func (s *system) linearise(eq *Equilibrium) (*Linearisation, error) {
	if !eq.Smooth {
		return nil, fmt.Errorf("%w: no linearisation: %s", ErrNetwork, eq.Note)
	}
	for i := range s.active {
		s.active[i] = true
	}
	lin := &Linearisation{loopCol: -1}
	for i := range s.m {
		lin.Index = append(lin.Index, i)
		lin.Names = append(lin.Names, "W["+eq.Classes[i].Name+"]")
	}
	red := 0
	for l, le := range eq.Links {
		if le.Regime == RegimeIdle {
			continue // the queue stays empty: no dynamics of its own, no marking
		}
		lin.Index = append(lin.Index, s.q[l])
		lin.Names = append(lin.Names, "q["+le.Name+"]")
		if xi := s.x[l]; xi >= 0 {
			lin.Index = append(lin.Index, xi)
			lin.Names = append(lin.Names, "x["+le.Name+"]")
			if le.Regime == RegimeRED {
				red++
				lin.loopCol, lin.loopLink = len(lin.Index)-1, le.Name
			}
		}
	}
	if red != 1 {
		lin.loopCol, lin.loopLink = -1, ""
	}
	n := len(lin.Index)
	lin.N = n
	y := slices.Clone(eq.y)
	// A fixed lag ignores the look-back time; t = 1e9 s keeps every look-back after the
	// classes' (zero) starts.
	f := func(dst []float64, lg lagger) { s.field(dst, y, 1e9, lg) }
	fp, fm := make([]float64, s.dim), make([]float64, s.dim)
	step := func(k int) float64 { return 1e-6 * max(math.Abs(eq.y[k]), 1) }
	base := fixedLag{base: eq.y, i: -1}
	lin.A0 = mat.NewDense(n, n, nil)
	for c, k := range lin.Index {
		h := step(k)
		y[k] = eq.y[k] + h
		f(fp, base)
		y[k] = eq.y[k] - h
		f(fm, base)
		y[k] = eq.y[k]
		for r, kr := range lin.Index {
			lin.A0.Set(r, c, (fp[kr]-fm[kr])/(2*h))
		}
	}
	for i := range s.m {
		a := mat.NewDense(n, n, nil)
		for c, k := range lin.Index {
			h := step(k)
			f(fp, fixedLag{base: eq.y, i: i, k: k, d: h})
			f(fm, fixedLag{base: eq.y, i: i, k: k, d: -h})
			for r, kr := range lin.Index {
				a.Set(r, c, (fp[kr]-fm[kr])/(2*h))
			}
		}
		lin.A = append(lin.A, a)
		lin.R = append(lin.R, eq.Classes[i].RTTS)
	}
	for _, v := range append(lin.A0.RawMatrix().Data, func() []float64 {
		var all []float64
		for _, a := range lin.A {
			all = append(all, a.RawMatrix().Data...)
		}
		return all
	}()...) {
		if !finite(v) {
			return nil, fmt.Errorf("%w: the linearisation has a non-finite entry", ErrSolve)
		}
	}
	return lin, nil
}

// fixedLag serves the equilibrium as every look-back, with class i's component k
// moved by d.
type fixedLag struct {
	base []float64
	i, k int
	d    float64
}

func (f fixedLag) derivs(i, k int, t float64, dst []float64) {
	for j := range dst {
		dst[j] = 0
	}
	dst[0] = f.lag(i, k, t)
}

func (f fixedLag) lag(i, k int, _ float64) float64 {
	if i == f.i && k == f.k {
		return f.base[k] + f.d
	}
	return f.base[k]
}

// Char writes the characteristic matrix Δ(s) = sI − A0 − Σ A_i e^{−sR_i} into m.
func (lin *Linearisation) char(m *cmat, s complex128) {
	n := lin.N
	for r := range n {
		for c := range n {
			v := complex(-lin.A0.At(r, c), 0)
			if r == c {
				v += s
			}
			m.set(r, c, v)
		}
	}
	for i, a := range lin.A {
		e := cmplx.Exp(-s * complex(lin.R[i], 0))
		for r := range n {
			for c := range n {
				if v := a.At(r, c); v != 0 {
					m.a[r*n+c] -= complex(v, 0) * e
				}
			}
		}
	}
}

// Det is det Δ(s), the characteristic quasi-polynomial; its zeros are the roots.
func (lin *Linearisation) Det(s complex128) complex128 {
	m := newCmat(lin.N)
	lin.char(m, s)
	if !m.factor() {
		return 0
	}
	return m.det()
}

// newton refines a root of det Δ by Newton's method on log det Δ, whose derivative is
// tr(Δ⁻¹Δ'), Δ' = I + Σ R_i A_i e^{−sR_i} (Jacobi's formula). It reports whether the
// iteration converged.
func (lin *Linearisation) newton(s complex128) (complex128, bool) {
	n := lin.N
	m := newCmat(n)
	col := make([]complex128, n)
	for range 60 {
		lin.char(m, s)
		if !m.factor() {
			return s, true // exactly singular: s is a root
		}
		tr := complex(0, 0)
		for c := range n {
			// Column c of Δ'(s).
			for r := range n {
				col[r] = 0
			}
			col[c] = 1
			for i, a := range lin.A {
				e := complex(lin.R[i], 0) * cmplx.Exp(-s*complex(lin.R[i], 0))
				for r := range n {
					if v := a.At(r, c); v != 0 {
						col[r] += complex(v, 0) * e
					}
				}
			}
			m.solve(col)
			tr += col[c]
		}
		if tr == 0 {
			return s, false
		}
		d := 1 / tr
		s -= d
		if cmplx.IsNaN(s) || cmplx.IsInf(s) {
			return s, false
		}
		if cmplx.Abs(d) <= 1e-13*max(1, cmplx.Abs(s)) {
			return s, true
		}
	}
	return s, false
}

// spectralNodes is the Chebyshev degree of the pseudospectral discretisation: enough to
// place the rightmost roots (|s|·max R of order one) in Newton's basin; Newton then
// refines them on det Δ itself.
const spectralNodes = 32

// Roots returns the rightmost characteristic roots with Im ≥ 0, rightmost first: the
// eigenvalues of a Chebyshev pseudospectral discretisation of the delay equation's
// infinitesimal generator on [−max R, 0] (Breda, Maset and Vermiglio 2005), each refined
// by Newton's method on det Δ. count bounds how many.
func (lin *Linearisation) Roots(count int) ([]complex128, error) {
	n, N := lin.N, spectralNodes
	rmax := slices.Max(lin.R)
	// Chebyshev points x_j = cos(jπ/N) on [−1, 1]; θ = rmax·(x − 1)/2 ∈ [−rmax, 0].
	x := make([]float64, N+1)
	for j := range x {
		x[j] = math.Cos(float64(j) * math.Pi / float64(N))
	}
	// Differentiation matrix (Trefethen, Spectral Methods in MATLAB, cheb), in θ.
	cw := func(j int) float64 {
		c := 1.0
		if j == 0 || j == N {
			c = 2
		}
		if j%2 == 1 {
			c = -c
		}
		return c
	}
	D := make([]float64, (N+1)*(N+1))
	for i := range N + 1 {
		sum := 0.0
		for j := range N + 1 {
			if i != j {
				D[i*(N+1)+j] = cw(i) / cw(j) / (x[i] - x[j])
				sum += D[i*(N+1)+j]
			}
		}
		D[i*(N+1)+i] = -sum
	}
	scale := 2 / rmax
	// Barycentric weights of the Chebyshev points of the second kind.
	bw := func(j int) float64 {
		w := 1.0
		if j%2 == 1 {
			w = -1
		}
		if j == 0 || j == N {
			w /= 2
		}
		return w
	}
	lagrange := func(theta float64) []float64 {
		xt := 1 + 2*theta/rmax
		l := make([]float64, N+1)
		for j := range x {
			if xt == x[j] {
				l[j] = 1
				return l
			}
		}
		sum := 0.0
		for j := range x {
			l[j] = bw(j) / (xt - x[j])
			sum += l[j]
		}
		for j := range l {
			l[j] /= sum
		}
		return l
	}
	size := n * (N + 1)
	G := mat.NewDense(size, size, nil)
	// Block row 0: δy'(0) = A0 δy(0) + Σ A_i δy(−R_i).
	for r := range n {
		for c := range n {
			G.Set(r, c, lin.A0.At(r, c))
		}
	}
	for i, a := range lin.A {
		l := lagrange(-lin.R[i])
		for j, lj := range l {
			if lj == 0 {
				continue
			}
			for r := range n {
				for c := range n {
					if v := a.At(r, c); v != 0 {
						G.Set(r, j*n+c, G.At(r, j*n+c)+v*lj)
					}
				}
			}
		}
	}
	// Block rows 1…N: the derivative in θ.
	for i := 1; i <= N; i++ {
		for j := range N + 1 {
			d := scale * D[i*(N+1)+j]
			for r := range n {
				G.Set(i*n+r, j*n+r, d)
			}
		}
	}
	var eig mat.Eigen
	if !eig.Factorize(G, mat.EigenNone) {
		return nil, fmt.Errorf("%w: the eigenvalue decomposition of the discretised delay equation failed", ErrSolve)
	}
	vals := eig.Values(nil)
	slices.SortFunc(vals, func(a, b complex128) int {
		switch {
		case real(a) > real(b):
			return -1
		case real(a) < real(b):
			return 1
		}
		return 0
	})
	var out []complex128
	for _, v := range vals {
		if imag(v) < 0 {
			continue
		}
		r, ok := lin.newton(v)
		if !ok || cmplx.Abs(r-v) > 0.1*max(1, cmplx.Abs(v)) {
			r = v // keep the discretisation's estimate
		}
		if math.Abs(imag(r)) < 1e-12*max(1, cmplx.Abs(r)) {
			r = complex(real(r), 0)
		}
		r = complex(real(r), math.Abs(imag(r)))
		if slices.ContainsFunc(out, func(o complex128) bool { return cmplx.Abs(o-r) <= 1e-8*max(1, cmplx.Abs(r)) }) {
			continue
		}
		out = append(out, r)
		if len(out) >= 2*count {
			break
		}
	}
	slices.SortFunc(out, func(a, b complex128) int {
		switch {
		case real(a) > real(b):
			return -1
		case real(a) < real(b):
			return 1
		}
		return 0
	})
	if len(out) > count {
		out = out[:count]
	}
	return out, nil
}

// Loop is the loop gain L(s) broken at the marking of the single RED link whose average
// lies in its linear range: the classes read δp = L_red·δx(t − R_i), and L(s) is minus
// the transfer from that reading back to δx, so that 1 + L(s) = det Δ(s)/det Δ_o(s) with
// Δ_o the characteristic matrix of the open loop. ok is false for networks with no such
// single link.
func (lin *Linearisation) Loop(s complex128) (complex128, bool) {
	c := lin.loopCol
	if c < 0 {
		return 0, false
	}
	n := lin.N
	m := newCmat(n)
	lin.char(m, s)
	beta := make([]complex128, n)
	for i, a := range lin.A {
		e := cmplx.Exp(-s * complex(lin.R[i], 0))
		for r := range n {
			if v := a.At(r, c); v != 0 {
				beta[r] += complex(v, 0) * e
				m.a[r*n+c] += complex(v, 0) * e // Δ_o: the marking channel removed
			}
		}
	}
	if !m.factor() {
		return 0, false
	}
	m.solve(beta)
	return -beta[c], true
}
