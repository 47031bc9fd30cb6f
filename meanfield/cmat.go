package meanfield

import (
	"math"
	"math/cmplx"
)

// cmat is a small dense complex matrix, row-major, with an LU factorisation of partial
// pivoting: the characteristic matrices here have a handful of rows.
type cmat struct {
	n   int
	a   []complex128
	piv []int
	neg bool // odd number of row swaps
}

func newCmat(n int) *cmat { return &cmat{n: n, a: make([]complex128, n*n), piv: make([]int, n)} }

func (m *cmat) at(i, j int) complex128     { return m.a[i*m.n+j] }
func (m *cmat) set(i, j int, v complex128) { m.a[i*m.n+j] = v }

// factor overwrites m with its LU factors; it reports false for a singular matrix.
func (m *cmat) factor() bool {
	n := m.n
	m.neg = false
	for k := range n {
		p, best := k, cmplx.Abs(m.a[k*n+k])
		for i := k + 1; i < n; i++ {
			if v := cmplx.Abs(m.a[i*n+k]); v > best {
				p, best = i, v
			}
		}
		m.piv[k] = p
		if best == 0 {
			return false
		}
		if p != k {
			m.neg = !m.neg
			for j := range n {
				m.a[k*n+j], m.a[p*n+j] = m.a[p*n+j], m.a[k*n+j]
			}
		}
		inv := 1 / m.a[k*n+k]
		for i := k + 1; i < n; i++ {
			f := m.a[i*n+k] * inv
			m.a[i*n+k] = f
			if f == 0 {
				continue
			}
			for j := k + 1; j < n; j++ {
				m.a[i*n+j] -= f * m.a[k*n+j]
			}
		}
	}
	return true
}

// det is the determinant of the factored matrix.
func (m *cmat) det() complex128 {
	d := complex(1, 0)
	for k := range m.n {
		d *= m.a[k*m.n+k]
	}
	if m.neg {
		d = -d
	}
	return d
}

// solve overwrites b with the solution of the factored system.
func (m *cmat) solve(b []complex128) {
	n := m.n
	for k := range n {
		if p := m.piv[k]; p != k {
			b[k], b[p] = b[p], b[k]
		}
	}
	for i := range n {
		for j := range i {
			b[i] -= m.a[i*n+j] * b[j]
		}
	}
	for i := n - 1; i >= 0; i-- {
		for j := i + 1; j < n; j++ {
			b[i] -= m.a[i*n+j] * b[j]
		}
		b[i] /= m.a[i*n+i]
	}
}

// wrapPi maps an angle into (−π, π].
func wrapPi(a float64) float64 {
	a = math.Mod(a, 2*math.Pi)
	switch {
	case a > math.Pi:
		a -= 2 * math.Pi
	case a <= -math.Pi:
		a += 2 * math.Pi
	}
	return a
}
