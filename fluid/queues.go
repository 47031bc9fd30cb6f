package fluid

// link modes of the hybrid queue.
const (
	queueEmpty = iota // q = 0 and arrivals < capacity
	queueBusy         // 0 < q < buffer
	queueFull         // q = buffer and arrivals >= capacity: the excess is dropped
)

// Queue mode switches happen a hair past the boundary (modeSlack of the capacity, or
// queueSlackBytes of the queue), so that right after a switch every guard of the new
// mode is strictly negative: a guard at exactly zero after a jump is ambiguous to the
// solver (it cannot tell a crossing from a touch) and could be lost.
const (
	modeSlack       = 1e-9
	queueSlackBytes = 1e-6
)

// switchQueue applies the mode switch of link li's guard slot at time t.
func (s *system) switchQueue(li, slot int, t float64, y []float64) {
	l := &s.links[li]
	switch l.mode {
	case queueEmpty:
		l.mode = queueBusy
	case queueBusy:
		if slot == linkGuardA {
			l.mode = queueEmpty
			y[l.off+lvQueue] = 0
			l.settle(y)
			l.setContents(y, 0)
		} else if l.fq {
			s.fqOverflow(li, t, y) // FQ-CoDel drops a batch and stays busy
		} else {
			l.mode = queueFull
			y[l.off+lvQueue] = l.bufBytes
			l.setContents(y, l.bufBytes)
			if !s.sc.DropRule.Proportional() {
				s.overflowSynchronized(li, t, y)
			}
		}
	case queueFull:
		l.mode = queueBusy
	}
}

// jump restarts the solver from the (changed) current state after switching every queue
// whose guard a jump has carried to or past zero (a window cut can empty a queue, a flow
// start can fill one), upstream links first since they shape downstream arrivals.
func (s *system) jump(t float64) {
	y := s.drv.Y()
	yd := y.RawVector().Data
	s.watchJumped(t, yd)
	if s.x != nil {
		s.x.switchDue(s, t, y) // a paced law's mode switch the jump finds due (ext.go)
	}
	if s.lateAcks {
		s.gen++
		s.ensure(t, y)
		s.settleLateAcks(t, yd) // lateack.go
	}
	for pass := 0; pass <= 2*len(s.links); pass++ {
		s.gen++
		s.ensure(t, y)
		changed := false
		for _, li := range s.order {
			for slot := 0; slot < linkGuards; slot++ {
				if s.linkGuardValue(li, slot, yd) >= 0 || s.drainedAtOnce(li, slot, yd) {
					s.switchQueue(li, slot, t, yd)
					changed = true
					break
				}
			}
			if changed {
				break
			}
		}
		if !changed {
			break
		}
	}
	if s.x != nil {
		s.x.jumped(s, t, yd) // a jump may carry a marking or CoDel crossing past its guard
	}
	s.recordPast(t, yd)
	s.gen++
	s.drv.Jump(y)
	if s.form.counted || len(s.fifo) > 0 {
		s.ensure(t, s.drv.Y())
		s.recordAcks(t)
		if len(s.fifo) > 0 {
			s.recordFIFO(t, s.drv.Y().RawVector().Data, true)
		}
	}
}

// drainedAtOnce reports a busy queue that holds nothing and receives less than it sends: a
// queue that has just filled from empty when a jump took its arrivals away. Its emptying
// guard reads zero and, having just fired as the filling guard, would take its sign from
// a probe the draining has already carried past zero.
func (s *system) drainedAtOnce(li, slot int, yd []float64) bool {
	l := &s.links[li]
	return slot == linkGuardA && l.mode == queueBusy && yd[l.off+lvQueue] <= queueSlackBytes && l.arrive < l.capBps
}

// jumpFlows restarts the solver after jumps that changed only the state of the subflows
// listed (their windows and counters): every other subflow's guards read state that did
// not move, so only the listed ones and the links' guards are evaluated afresh — O(1) per
// reaction instead of O(flows), which the proportional drop rule's one reaction per flow
// and cycle needs. A queue that switches mode may move other subflows' state (settle), and
// the extension's guards read the whole network: then jump.
func (s *system) jumpFlows(t float64, flows []int) {
	if s.x != nil {
		s.jump(t)
		return
	}
	yd := s.drv.Y().RawVector().Data
	s.watchJumped(t, yd)
	s.gen++
	s.ensure(t, s.drv.Y())
	if s.lateAcks && s.settleLateAcks(t, yd) {
		s.jump(t) // another flow's timer fired too
		return
	}
	for _, li := range s.order {
		for slot := 0; slot < linkGuards; slot++ {
			if s.linkGuardValue(li, slot, yd) >= 0 || s.drainedAtOnce(li, slot, yd) {
				s.jump(t)
				return
			}
		}
	}
	// The network just evaluated is the state's: the guards read it as it is.
	s.restartOf = append(append(s.restartOf[:0], flows...), s.restart[1:]...)
	s.drv.Restart(s.restartOf...)
	s.recordAcks(t)
	if len(s.fifo) > 0 {
		s.recordFIFO(t, yd, true) // the network evaluated above is the state's
	}
}
