package validate

import (
	"context"
	"fmt"
	"runtime"

	"github.com/tcpfluid/tcpfluid/internal/settings"
	"github.com/tcpfluid/tcpfluid/model"
)

// Seeds runs Scenario at each of the seeds (in parallel) and judges each metric's mean
// over them with the tolerance that judged it at one seed; a metric not judged at the
// first seed is not judged. Each judged metric's CI95 is the half width of the 95%
// interval of its per-seed signed error (fluid − packet, relative to the packet value
// where the error is relative), from their spread: where drop-tail phase decides which
// overflow costs a flow a timeout (the parking lot's long flow), one seed's verdict is
// chance and the means are what the engines agree on. The notes sum the timeouts over the
// seeds; the report's Fluid and Packet are the first seed's results, and Seed is the first
// seed.
func Seeds(ctx context.Context, sc *model.Scenario, seeds []uint64) (*Report, error) {
	if len(seeds) == 0 {
		return nil, fmt.Errorf("%w: validate over no seeds", model.ErrScenario)
	}
	runs := make([]*Report, len(seeds))
	err := settings.Parallel(ctx, runtime.GOMAXPROCS(0), len(seeds), func(ctx context.Context, k int) error {
		v, err := Scenario(ctx, sc, seeds[k])
		if err != nil {
			return fmt.Errorf("seed %d: %w", seeds[k], err)
		}
		runs[k] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(seeds) == 1 {
		return runs[0], nil
	}
	first := runs[0]
	v := &Report{Scenario: first.Scenario, Form: first.Form, DropRule: first.DropRule, Seed: seeds[0], Seeds: seeds, OK: true,
		Headline: first.Headline, SACK: first.SACK, sackWhy: first.sackWhy, JitterS: first.JitterS, jitterNote: first.jitterNote, Groups: first.Groups,
		Fluid: first.Fluid, Packet: first.Packet}
	fls, pks := make([]*model.Result, len(runs)), make([]*model.Result, len(runs))
	for k, r := range runs {
		if len(r.Metrics) != len(first.Metrics) {
			return nil, fmt.Errorf("%w: seed %d gives %d metrics, seed %d %d", model.ErrEngine, seeds[k], len(r.Metrics), seeds[0], len(first.Metrics))
		}
		fls[k], pks[k] = r.Fluid, r.Packet
	}
	for i, m0 := range first.Metrics {
		m, err := meanOver(runs, i)
		if err != nil {
			return nil, err
		}
		m.Flow, m.Subflow, m.Flows, m.Link, m.Headline = m0.Flow, m0.Subflow, m0.Flows, m0.Link, m0.Headline
		v.add(m)
	}
	v.notes(first.Headline != "", fls, pks)
	if samePacketRuns(pks) {
		v.Notes = append(v.Notes, fmt.Sprintf("the packet engine drew nothing at random here (no jitter, no random loss or drop rule): "+
			"its %d seeds gave one run, so no ci95 measures its spread and a drop-tail phase effect stays one outcome "+
			"(--drop-rule proportional gives the packet senders jitter)", len(pks)))
	}
	return v, nil
}

// samePacketRuns reports whether every packet run gave the first one's flows to the bit:
// the scenario drew nothing from the seed.
func samePacketRuns(pks []*model.Result) bool {
	for _, r := range pks[1:] {
		if len(r.Flows) != len(pks[0].Flows) {
			return false
		}
		for i, f := range r.Flows {
			if g := pks[0].Flows[i]; f.SentPkts != g.SentPkts || f.DeliveredPkts != g.DeliveredPkts || f.MeanCwndPkts != g.MeanCwndPkts {
				return false
			}
		}
	}
	return true
}

// meanOver is metric i's mean over the runs, judged as the first run judged it.
func meanOver(runs []*Report, i int) (Metric, error) {
	m0 := runs[0].Metrics[i]
	var fSum, pSum float64
	errs := make([]float64, len(runs))
	for k, r := range runs {
		m := r.Metrics[i]
		if m.Metric != m0.Metric || m.Link != m0.Link || !sameInt(m.Flow, m0.Flow) || !sameInt(m.Subflow, m0.Subflow) {
			return Metric{}, fmt.Errorf("%w: metric %d is %s at seed %d's run, %s at the first", model.ErrEngine, i, m.Metric, r.Seed, m0.Metric)
		}
		fSum += m.Fluid
		pSum += m.Packet
		errs[k] = m.Fluid - m.Packet
		if m0.Kind == Relative {
			errs[k] = signedRelative(m.Fluid, m.Packet, m0.tol.Scale)
		}
	}
	n := float64(len(runs))
	if !m0.Judged || m0.tol.Kind == "" {
		return NotJudged(m0.Metric, fSum/n, pSum/n, m0.Reason), nil
	}
	m := m0.tol.Judge(m0.Metric, fSum/n, pSum/n)
	if m.Kind != Sign {
		m.setCI95(ci95(errs))
	}
	return m, nil
}

// signedRelative is (a − b)/max(|b|, scale), or 0 when that is 0.
func signedRelative(a, b, scale float64) float64 {
	d := relative(a, b, scale)
	if a < b {
		return -d
	}
	return d
}

func sameInt(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
