package packet

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// CoDel (RFC 8289; the state machine of Linux include/net/codel_impl.h and ns-3
// CoDelQueueDisc), applied when a packet is about to be serialized. A packet whose sojourn
// time is below target, or that leaves at most one packet behind it (Linux: a backlog of
// at most one MTU), resets the clock; once the sojourn time has stayed at or above target
// for an interval, CoDel enters its dropping state and drops (or, with ECN, marks) the
// head, the next time interval/√count later, count growing by one per drop, until a packet
// leaves below target. Re-entering soon after leaving (within 16 intervals) resumes from
// the count the last episode added. The control law uses 1/√count exactly, where Linux
// and ns-3 iterate Newton's method in fixed point.
type codel struct {
	target, interval float64 // s
	count, lastCount int
	dropping         bool
	aboveSet         bool
	firstAbove       float64 // s: when the sojourn time has been above target for an interval
	dropNext         float64 // s
}

func newCoDel(p model.CoDel) *codel { return &codel{target: p.TargetS, interval: p.IntervalS} }

// shouldDrop is RFC 8289's ok-to-drop test for head packet p at time now, with others
// packets waiting behind it.
func (c *codel) shouldDrop(p *pkt, now float64, others int) bool {
	if now-p.enqAt < c.target || others <= 1 {
		c.aboveSet = false
		return false
	}
	if !c.aboveSet {
		c.aboveSet, c.firstAbove = true, now+c.interval
		return false
	}
	return now > c.firstAbove
}

// controlLaw is the time of the next drop after one at t.
func (c *codel) controlLaw(t float64) float64 { return t + c.interval/math.Sqrt(float64(c.count)) }

// dequeue applies CoDel to the head of q at time now. total is the packets waiting in the
// discipline, the head included; drop drops q's head; mark marks it CE and reports whether
// it could. It reports whether q still has a packet to send.
func (c *codel) dequeue(now float64, q *ring, total func() int, drop func(), mark func() bool) bool {
	if q.len() == 0 {
		c.dropping = false
		return false
	}
	ok := c.shouldDrop(q.front(), now, total()-1)
	switch {
	case c.dropping && !ok:
		c.dropping = false
	case c.dropping:
		for c.dropping && now >= c.dropNext {
			c.count++
			if mark() {
				c.dropNext = c.controlLaw(c.dropNext)
				return true
			}
			drop()
			if q.len() == 0 {
				c.aboveSet, c.dropping = false, false
				return false
			}
			if !c.shouldDrop(q.front(), now, total()-1) {
				c.dropping = false
			} else {
				c.dropNext = c.controlLaw(c.dropNext)
			}
		}
	case ok:
		if !mark() {
			drop()
			if q.len() == 0 {
				c.aboveSet = false
			} else {
				c.shouldDrop(q.front(), now, total()-1)
			}
		}
		c.dropping = true
		if delta := c.count - c.lastCount; delta > 1 && now-c.dropNext < 16*c.interval {
			c.count = delta
		} else {
			c.count = 1
		}
		c.lastCount = c.count
		c.dropNext = c.controlLaw(now)
	}
	return q.len() > 0
}
