package packet

// fifo is a first-in first-out queue on a ring that doubles when full, so that a
// long-lived queue stops allocating once it has its working size.
type fifo[T any] struct {
	q       []T
	head, n int
}

func (q *fifo[T]) reset(capacity int) { q.q, q.head, q.n = make([]T, capacity), 0, 0 }

func (q *fifo[T]) front() T { return q.q[q.head] }

func (q *fifo[T]) pop() T {
	x := q.q[q.head]
	q.head = (q.head + 1) % len(q.q)
	q.n--
	return x
}

func (q *fifo[T]) push(x T) {
	if q.n == len(q.q) {
		grown := make([]T, 2*len(q.q))
		for i := range q.n {
			grown[i] = q.q[(q.head+i)%len(q.q)]
		}
		q.q, q.head = grown, 0
	}
	q.q[(q.head+q.n)%len(q.q)] = x
	q.n++
}
