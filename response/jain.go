package response

// Jain is Jain's fairness index (Σx)²/(n·Σx²) of non-negative allocations: 1 when all are
// equal, 1/n when one takes everything. It is 1 for no allocations or all zero.
func Jain(x []float64) float64 {
	var sum, sq float64
	for _, v := range x {
		sum += v
		sq += v * v
	}
	if sq == 0 {
		return 1
	}
	return sum * sum / (float64(len(x)) * sq)
}
