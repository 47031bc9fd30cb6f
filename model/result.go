package model

import "math"

// Result is what one run of a scenario produced, in either engine. JSON names are the
// CLI's output contract (docs/cli.md, `run --format json`).
type Result struct {
	Scenario  string   `json:"scenario"`
	Engine    string   `json:"engine"` // "fluid" or "packet"
	Form      string   `json:"form,omitempty"`
	DropRule  DropRule `json:"drop_rule,omitempty"`
	Seed      uint64   `json:"seed"`
	DurationS float64  `json:"duration_s"`
	// FoldDelay is the relative width of the bins in which the fluid engine folded flows
	// whose private links' delays differ into one class (fluid.FoldDelayOf); 0 when it
	// folded none so.
	FoldDelay float64      `json:"fold_delay,omitempty"`
	Flows     []FlowResult `json:"flows"`
	Links     []LinkResult `json:"links"`
	// Trace holds samples every SampleS seconds when requested.
	Trace []Sample `json:"-"`
	// Crossings are the located first crossings of FluidSettings.Watch levels.
	Crossings []Crossing `json:"crossings,omitempty"`
	// Losses records every loss event when FluidSettings.RecordLosses is set.
	Losses []LossRecord `json:"-"`
}

// Crossing is the first time a flow's window reached a watched level.
type Crossing struct {
	Flow        int     `json:"flow"`
	CwndPkts    float64 `json:"cwnd_pkts"`
	TS          float64 `json:"t_s"`
	SinceStartS float64 `json:"since_start_s"`
}

// LossRecord is one loss event with the flow's running totals just before it.
type LossRecord struct {
	Flow          int
	TS            float64 // s
	CwndPkts      float64 // window just before the loss, packets
	CwndTimePktS  float64 // ∫ cwnd dt since the flow started, packet·s
	DeliveredPkts float64 // packets delivered since the flow started
}

// FlowResult summarises one flow over its active time.
type FlowResult struct {
	Flow              int     `json:"flow"`
	Subflow           int     `json:"subflow"` // multi-path flows have one row per subflow
	Name              string  `json:"name"`
	Algorithm         string  `json:"algorithm"`
	Path              string  `json:"path"`
	MeanThroughputBps float64 `json:"mean_throughput_bps"` // every delivered byte × 8 / active time
	MeanCwndPkts      float64 `json:"mean_cwnd_pkts"`      // time average over the active time
	LossEvents        int     `json:"loss_events"`         // window reductions (fluid: located loss events)
	Timeouts          int     `json:"timeouts"`
	// Spurious counts the timeouts whose first ACK of new data was for a packet sent before
	// them, not for the retransmission (RFC 3522's Eifel detection): the timer fired while
	// an ACK of earlier data was on its way. The packet engine's only; 0 in the fluid.
	Spurious        int      `json:"spurious_timeouts"`
	SentPkts        float64  `json:"sent_pkts"`      // data packets sent, retransmissions included
	DeliveredPkts   float64  `json:"delivered_pkts"` // data packets arriving at the receiver, retransmitted copies included
	DroppedPkts     float64  `json:"dropped_pkts"`
	GoodputBps      float64  `json:"goodput_bps"`       // unique data bytes delivered × 8 / active time
	CompletionTimeS *float64 `json:"completion_time_s"` // nil for long-lived flows
	ActiveS         float64  `json:"active_s"`
}

// LinkResult summarises one link.
type LinkResult struct {
	Link          string  `json:"link"`
	MeanQueuePkts float64 `json:"mean_queue_pkts"`
	// QueueSDPkts is the queue's standard deviation over time, packets: how far it strays
	// from its mean. Packets that arrive in trains give a larger one than a fluid's rates.
	QueueSDPkts float64 `json:"queue_sd_pkts"`
	Utilisation float64 `json:"utilisation"` // departures / capacity over the run
	// DroppedPkts counts the packets the link's queue dropped: a full buffer, RED, a link
	// down. Losses of the link's random or periodic loss process count for the flow only.
	DroppedPkts float64 `json:"dropped_pkts"`
}

// TimeSD is the standard deviation over time of a quantity whose time averages are mean
// and meanSquare (of its square); rounding cannot make it NaN.
func TimeSD(mean, meanSquare float64) float64 { return math.Sqrt(max(meanSquare-mean*mean, 0)) }

// Sample is one row of a time series: one flow (Flow >= 0) or one link (Flow = -1, Link set).
type Sample struct {
	TS        float64 `json:"t_s"`
	Flow      int     `json:"flow"`
	Subflow   int     `json:"subflow"`
	Link      string  `json:"link,omitempty"`
	CwndPkts  float64 `json:"cwnd_pkts"`
	Ssthresh  float64 `json:"ssthresh_pkts"`
	RateBps   float64 `json:"rate_bps"`
	RTTS      float64 `json:"rtt_s"`
	QueuePkts float64 `json:"queue_pkts"`
	// DeliveredPkts is the flow's cumulative delivered packets (flow rows).
	DeliveredPkts float64 `json:"delivered_pkts"`
}
