// Package scengen makes small random scenarios for the engines' fuzz targets: one to three
// links in a chain, up to three flows of the registered algorithms that have both faces (a
// test's event-only law is left out; a multi-path algorithm
// over the chain and its last link), optional CBR, loss, RED, an AQM (CoDel, FQ-CoDel, PIE),
// link events including a delay change to zero, route-aware senders, delayed ACKs and the
// algorithms' implementation variants.
package scengen

import (
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// Scenario builds the scenario the fuzz arguments describe; it may not validate.
func Scenario(seed uint64, nLinks, nFlows uint8, capKbps uint16, lossKind, knobs uint8) *model.Scenario {
	algos := bothFaces()
	n := 1 + int(nLinks)%3
	s := &model.Scenario{Name: "fuzz", DurationS: 2 + float64(knobs%8)}
	path := model.Path{Name: "p"}
	for i := range n {
		l := model.Link{
			CapacityBps: 1e4 + float64(capKbps)*1e3*float64(i+1),
			DelayS:      0.001 * float64(1+int(knobs>>uint(i))%50),
			BufferPkts:  float64(1 + int(knobs)%40),
		}
		if i == 0 {
			switch lossKind % 4 {
			case 1:
				l.Loss, l.LossP = model.LossRandom, 0.001+float64(knobs)/300
			case 2:
				l.Loss, l.LossP = model.LossPeriodic, 0.001+float64(knobs)/300
			case 3:
				l.Queue = model.QueueRED
			}
		}
		l.Name = string(rune('a' + i))
		s.Links = append(s.Links, l)
		path.Links = append(path.Links, l.Name)
	}
	// Bits 41–42 of the seed put an AQM on the chain's last link: none, CoDel, FQ-CoDel or PIE.
	if aqm := seed >> 41 & 3; aqm > 0 && s.Links[n-1].Queue == "" {
		s.Links[n-1].Queue = []model.QueueKind{"", model.QueueCoDel, model.QueueFQCoDel, model.QueuePIE}[aqm]
	}
	s.Paths = []model.Path{path, {Name: "q", Links: []string{s.Links[n-1].Name}}}
	for i := range 1 + int(nFlows)%3 {
		fl := model.Flow{
			Algorithm: algos[(int(seed)+i)%len(algos)],
			Path:      "p",
			StartS:    float64(i) * 0.3,
			MSSBytes:  float64(100 + int(knobs)*5),
		}
		if knobs&1 == 1 {
			fl.SizeBytes = float64(1 + int(capKbps)*10)
		}
		if knobs&2 == 2 {
			fl.WindowScaling = true
		}
		a, err := model.New(fl.Algorithm)
		if err == nil && model.IsMultipath(a) {
			fl.Path, fl.Paths = "", []string{"p", "q"}
		}
		// Bits 43–44 of the seed run an implementation's variant (linux, ns3, …) of the
		// algorithm where it has them: the laws the reference comparisons use.
		if va, ok := a.(model.Varianter); ok && seed>>43&3 > 0 {
			if vs := va.Variants(); len(vs) > 0 {
				fl.Algorithm += "@" + vs[int(seed>>43&3-1)%len(vs)].Name
			}
		}
		fl.RouteAware = knobs&128 == 128
		fl.DelayedAck = knobs&16 == 16
		s.Flows = append(s.Flows, fl)
	}
	if seed>>40&1 == 1 { // a dumbbell: the flows alike, each behind an access link of its own
		for i := range s.Flows {
			f := &s.Flows[i]
			if len(f.Paths) > 0 {
				continue
			}
			acc := model.Link{Name: fmt.Sprintf("acc%d", i), CapacityBps: 2 * s.Links[0].CapacityBps, DelayS: 0.002, BufferPkts: 20}
			s.Links = append(s.Links, acc)
			s.Paths = append(s.Paths, model.Path{Name: fmt.Sprintf("p%d", i), Links: append([]string{acc.Name}, path.Links...)})
			f.Path, f.StartS, f.Algorithm = fmt.Sprintf("p%d", i), 0, s.Flows[0].Algorithm
		}
	}
	if knobs&4 == 4 {
		s.CBR = []model.CBR{{Path: "p", RateBps: 1e4 * float64(1+knobs%16), StartS: 0.5}}
	}
	if knobs&8 == 8 {
		s.Events = []model.TimedEvent{
			{AtS: 0.7, Kind: model.EventLinkDown, Link: "a"},
			{AtS: 1.1, Kind: model.EventLinkUp, Link: "a", DelayS: 0.02},
			{AtS: 1.5, Kind: model.EventDelayChange, Link: "a", DelayS: 0},
		}
	}
	return s
}

// bothFaces lists the registered algorithms with a fluid and an event face.
func bothFaces() []string {
	var names []string
	for _, name := range model.Algorithms() {
		a, err := model.New(name)
		if err != nil {
			continue
		}
		cfg := model.FlowConfig{InitialCwnd: 1, MaxCwnd: math.Inf(1)}
		if a.NewFluid(cfg) != nil && a.NewEvent(cfg) != nil {
			names = append(names, name)
		}
	}
	return names
}
