package packet

import (
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// A path whose delay grows by more than the timer's margin at once makes the timer fire on
// data that is late, not lost: the first ACK after the timeout is for a packet sent before
// it (RFC 3522's Eifel test). An outage loses what is in flight: the ACK after the timeout
// is for its retransmission, and no timeout is spurious.
func TestEifelFindsSpuriousTimeouts(t *testing.T) {
	cases := []struct {
		name         string
		events       []model.TimedEvent
		wantSpurious bool
	}{
		{"delay 20 ms to 600 ms", []model.TimedEvent{{AtS: 10, Kind: model.EventDelayChange, Link: "l", DelayS: 0.6}}, true},
		{"outage 10–12 s", []model.TimedEvent{{AtS: 10, Kind: model.EventLinkDown, Link: "l"}, {AtS: 12, Kind: model.EventLinkUp, Link: "l"}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := oneLink(t, model.Link{CapacityBps: 10e6, DelayS: 0.02, BufferPkts: 100}, model.Flow{Algorithm: "reno"}, 30)
			s.Events = c.events
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			_, r := mustRun(t, s, Settings{})
			f := r.Flows[0]
			t.Logf("%d loss events, %d timeouts, %d spurious", f.LossEvents, f.Timeouts, f.Spurious)
			if f.Timeouts == 0 {
				t.Fatalf("no timeout: the event should fire the timer")
			}
			if c.wantSpurious && f.Spurious == 0 {
				t.Errorf("%d timeouts, none spurious: the delayed data's ACK follows the timeout", f.Timeouts)
			}
			if !c.wantSpurious && f.Spurious != 0 {
				t.Errorf("%d of %d timeouts spurious: an outage loses what is in flight", f.Spurious, f.Timeouts)
			}
			if f.Spurious > f.Timeouts {
				t.Errorf("%d spurious of %d timeouts", f.Spurious, f.Timeouts)
			}
		})
	}
}
