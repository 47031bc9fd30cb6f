package model

// Seed 002: route-change-aware TCP in a wireless mesh network (Lee & Moon).

// seed002Mesh is seed 002's wireless-mesh experiment as three independent copies of one
// path, so that Reno, NewReno and the route-change-aware proposal see the same events.
func seed002Mesh() *Scenario {
	s := &Scenario{
		Name: "seed002-mesh",
		Description: "Seed 002's mesh experiment: a 15 Mb/s, 10 ms path of 512-byte packets for 120 s; " +
			"the nodes start to move at 40 s (here: the delay grows to 15 ms at 40 s and 20 ms at 55 s, " +
			"with route breaks of 0.5 s at 50 s and 60 s), the client is disconnected from 70 s to " +
			"90 s and reconnects over a 10 ms route. Three copies of the path carry Reno, NewReno and " +
			"the proposal (NewReno with route_aware: it keeps its state through the outage and " +
			"resumes at min(window before, ssthresh)). Buffers are ns-2's default 50 packets; the " +
			"paper's IEEE 802.11 MAC is not modelled.",
		DurationS: 120,
	}
	for _, v := range []struct {
		name, algo string
		aware      bool
	}{{"reno", "reno", false}, {"newreno", "newreno", false}, {"route-aware", "newreno", true}} {
		link := v.name + "-mesh"
		s.Links = append(s.Links, Link{Name: link, CapacityBps: 15e6, DelayS: 0.010, BufferPkts: 50})
		s.Paths = append(s.Paths, Path{Name: v.name, Links: []string{link}})
		s.Flows = append(s.Flows, Flow{Name: v.name, Algorithm: v.algo, Path: v.name, MSSBytes: 512,
			WindowScaling: true, RouteAware: v.aware})
		for _, e := range []TimedEvent{
			{AtS: 40, Kind: EventDelayChange, DelayS: 0.015},
			{AtS: 50, Kind: EventLinkDown},
			{AtS: 50.5, Kind: EventLinkUp},
			{AtS: 55, Kind: EventDelayChange, DelayS: 0.020},
			{AtS: 60, Kind: EventLinkDown},
			{AtS: 60.5, Kind: EventLinkUp},
			{AtS: 70, Kind: EventLinkDown},
			{AtS: 90, Kind: EventLinkUp, DelayS: 0.010},
		} {
			e.Link = link
			s.Events = append(s.Events, e)
		}
	}
	return s
}
