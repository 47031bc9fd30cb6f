package seeds

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/validate"
)

func init() {
	validate.RegisterHeadline("seed001-mptcp", validate.Headline{
		About: "each MPTCP subflow's share of its path's capacity (the flow's throughput on each path) within 0.1, and the time " +
			"to download 10 GB at the flow's mean goodput, 8e10 bit / Σ subflow goodput (seed 001: LIA 95 + 20 Mb/s, VLIA 397 + 25, " +
			"3.67 times faster)",
		Metrics: seed001Metrics,
		SACK:    true,
		SACKWhy: "seed 001's testbed runs Linux (Ubuntu 14.04, kernel 3.13: SACK and FACK on)",
	})
}

// TenGigabytes is seed 001's file, bytes (10 Gbyte, decimal).
const TenGigabytes = 10e9

// seed001Metrics: every multi-path flow's share of each path's capacity (its subflow's
// goodput over the path's slowest link, the paper's "10–20% of path 1" and "80%"), within
// validate.TolHeadline as an absolute difference of shares (scale 1), and its 10 GB download time,
// within validate.TolHeadline relative. A share, not the subflow's goodput relative to itself: the
// subflow on path 2 takes about a tenth of a path it shares with a Reno flow, and its
// window there grows at a rate proportional to itself (W₂/(τ₂·W₁) per second under LIA),
// so it settles where the loss events it draws just balance that growth: a few loss events
// more or fewer in 1000 s move it by a quarter (VLIA: 10.7 Mb/s fluid, 14.1 packet, 0.034
// of the path), while what the paper reports, the shares and the total, hardly move.
func seed001Metrics(sc *model.Scenario, fl, pk *model.Result) []validate.Metric {
	var ms []validate.Metric
	for i := range sc.Flows {
		if len(sc.Flows[i].PathNames()) < 2 {
			continue
		}
		var fTotal, pTotal float64
		for r := range fl.Flows {
			if fl.Flows[r].Flow != i {
				continue
			}
			capacity := pathCapacity(sc, fl.Flows[r].Path)
			m := tolShare.Judge("path_share", fl.Flows[r].GoodputBps/capacity, pk.Flows[r].GoodputBps/capacity)
			m.SetRow(sc, fl.Flows[r])
			ms = append(ms, m)
			fTotal += fl.Flows[r].GoodputBps
			pTotal += pk.Flows[r].GoodputBps
		}
		download := func(bps float64) float64 {
			if bps > 0 {
				return TenGigabytes * 8 / bps
			}
			return 0
		}
		m := validate.TolHeadline.Judge("download_10GB_s", download(fTotal), download(pTotal))
		k := i
		m.Flow = &k
		ms = append(ms, m)
	}
	return ms
}

// tolShare bounds a path share, a fraction of the path's capacity: the paper gives shares
// as ranges a tenth of the path wide (LIA 10–20% of path 1) and read off its figures.
var tolShare = validate.Tolerance{Kind: validate.Absolute, Bound: 0.10,
	Reason: "seed 001 gives shares as ranges a tenth of the path wide (LIA: 10–20% of path 1), read off its figures"}

// pathCapacity is the capacity of a path's slowest link, bit/s.
func pathCapacity(sc *model.Scenario, path string) float64 {
	c := math.Inf(1)
	for _, l := range sc.Paths[sc.PathIndex(path)].Links {
		c = math.Min(c, sc.Links[sc.LinkIndex(l)].CapacityBps)
	}
	return c
}
