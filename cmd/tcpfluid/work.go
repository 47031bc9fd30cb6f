package main

import (
	"fmt"
	"math"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/meanfield"
	"github.com/tcpfluid/tcpfluid/model"
)

// Work bounds. Every command estimates its work from its inputs before it starts and
// refuses, with a usage error naming the estimate and the bound, work beyond the bounds
// below; each has a --max-* flag to raise it. The estimates are upper bounds of what the
// engines do, so that nothing runs for hours or exhausts memory before anything says no.
const (
	// defaultMaxSamples bounds the rows of a trace: the engines hold the whole trace in
	// memory until the run ends (about 400 bytes a row, with the run's own state), so
	// 2·10^6 rows are about 0.8 GB.
	defaultMaxSamples = 2_000_000
	// defaultMaxRounds bounds the round trips the fluid engine integrates, summed over
	// flows: a dumbbell integrates about 10^6 flow round trips a second (far more when its
	// flows form classes), the parking lot about 10^5, so 10^7 are seconds to minutes.
	defaultMaxRounds = 10_000_000
	// defaultMaxPackets bounds the packets the packet engine moves, counted once per link
	// they cross: about 10^6 a second, so 2·10^8 are a few minutes (the engine itself stops
	// at 10^9 events).
	defaultMaxPackets = 200_000_000
	// defaultMaxCycles bounds the loss cycles (sawtooth periods) response integrates over
	// all its points: about 10^4 a second.
	defaultMaxCycles = 10_000_000
)

func maxSamplesFlag() cli.Flag {
	return intFlag("max-samples", fmt.Sprint(defaultMaxSamples), 1, math.MaxInt64,
		"refuse a trace of more rows than this (each sample time has a row per flow and per link; the engines keep the trace in memory, about 400 bytes a row)")
}

func maxRoundsFlag() cli.Flag {
	return intFlag("max-rounds", fmt.Sprint(defaultMaxRounds), 1, math.MaxInt64,
		"refuse a fluid run of more round trips than this, summed over flows (duration / RTT of each flow's path)")
}

func maxPacketsFlag() cli.Flag {
	return intFlag("max-packets", fmt.Sprint(defaultMaxPackets), 1, math.MaxInt64,
		"refuse a packet-engine run of more packet transmissions than this (every link's capacity × the time it can be busy, or loss events / p for a response point; about 10^6 a second)")
}

// scenarioWork is what one run of a validated scenario costs.
type scenarioWork struct {
	rowsPerSample float64 // trace rows per sample time: one per flow (subflow) and link
	rounds        float64 // Σ over flows' paths of active time / round-trip time
	flowRounds    []float64
	packets       float64 // Σ over links of the packets it can carry while a flow crosses it
}

// estimateScenario bounds the work of running sc (validated): a flow's round trips are
// its active time over its path's round trip (at least one packet time of its narrowest
// link); a link carries at most its capacity, and at most what the flows crossing it can
// send (each up to its narrowest link and its receiver window per round trip).
func estimateScenario(sc *model.Scenario) scenarioWork {
	var w scenarioWork
	w.rowsPerSample = float64(len(sc.Links))
	w.flowRounds = make([]float64, len(sc.Flows))
	linkBits := make([]float64, len(sc.Links)) // what the flows could offer each link
	for i := range sc.Flows {
		f := &sc.Flows[i]
		stop := sc.DurationS
		if f.StopS > 0 && f.StopS < stop {
			stop = f.StopS
		}
		active := math.Max(0, stop-f.StartS)
		for _, name := range f.PathNames() {
			w.rowsPerSample++
			p := sc.PathIndex(name)
			if p < 0 {
				continue
			}
			links := sc.PathLinks(p)
			capBps := math.Inf(1)
			for _, l := range links {
				if l >= 0 {
					capBps = math.Min(capBps, sc.Links[l].CapacityBps)
				}
			}
			rtt := math.Max(sc.PathRTTS(p), 8*f.MSSBytes/capBps)
			w.rounds += active / rtt
			w.flowRounds[i] += active / rtt
			rate := math.Min(capBps, 8*math.Max(f.RwndBytes, f.MSSBytes)/rtt)
			if f.SizeBytes > 0 {
				rate = math.Min(rate, 8*f.SizeBytes/math.Max(active, rtt))
			}
			for _, l := range links {
				if l >= 0 {
					linkBits[l] += rate * active
				}
			}
		}
	}
	for i := range sc.CBR {
		c := &sc.CBR[i]
		stop := sc.DurationS
		if c.StopS > 0 && c.StopS < stop {
			stop = c.StopS
		}
		if p := sc.PathIndex(c.Path); p >= 0 {
			for _, l := range sc.PathLinks(p) {
				if l >= 0 {
					linkBits[l] += c.RateBps * math.Max(0, stop-c.StartS)
				}
			}
		}
	}
	mss := model.DefaultMSSBytes
	for i := range sc.Flows {
		mss = math.Min(mss, sc.Flows[i].MSSBytes)
	}
	for l, bits := range linkBits {
		w.packets += math.Min(bits, sc.Links[l].CapacityBps*sc.DurationS) / (8 * mss)
	}
	return w
}

// samples is the rows of a trace every sampleS over durationS.
func (w scenarioWork) samples(durationS, sampleS float64) float64 {
	if sampleS <= 0 {
		return 0
	}
	return (math.Floor(durationS/sampleS) + 1) * w.rowsPerSample
}

// beyond is the usage error of work need beyond the bound of flag: what it is, how it was
// estimated, and what to change.
func beyond(c *cli.Context, what string, need float64, flag, fix string) error {
	limit := float64(intOf(c, flag))
	if need <= limit {
		return nil
	}
	return usagef("%s: about %.3g %s, beyond --%s %s; %s, or raise --%s", c.Command.Name, need, what, flag, strconv.FormatFloat(limit, 'f', -1, 64), fix, flag)
}

// checkScenarioWork refuses a run of sc in engine whose trace (every sampleS; 0: none),
// round trips or packets are beyond the command's bounds. form is the fluid form of a run
// (identical flows then count once), "" for validate's per-flow bound.
func checkScenarioWork(c *cli.Context, sc *model.Scenario, engine, form string, sampleS float64) error {
	w := estimateScenario(sc)
	if sampleS > 0 {
		if err := beyond(c, fmt.Sprintf("trace rows (%s / %s sampling, %g rows a sample)", model.FormatDuration(sc.DurationS),
			model.FormatDuration(sampleS), w.rowsPerSample), w.samples(sc.DurationS, sampleS), "max-samples", "sample less often (--sample) or run shorter (--duration)"); err != nil {
			return err
		}
	}
	switch {
	case engine == "fluid" && form == fluid.FormMeanField:
		// Identical flows are one class of the mean-field form, which costs what one flow costs.
		r, err := meanfield.Rounds(sc)
		if err != nil {
			return settingsError(err)
		}
		return beyond(c, fmt.Sprintf("round trips of the mean-field form (%s over %s, counted per class)", plural(len(sc.Flows), "flow"),
			model.FormatDuration(sc.DurationS)), r, "max-rounds", "run shorter (--duration)")
	case engine == "fluid" && form != "":
		// Identical flows run as one class (fluid.Classes): a class costs one flow's rounds.
		rounds, classes := 0.0, 0
		for i, first := range fluid.Classes(sc, foldOf(c)) {
			if first == i {
				rounds += w.flowRounds[i]
				classes++
			}
		}
		what := plural(len(sc.Flows), "flow")
		if classes < len(sc.Flows) {
			what += fmt.Sprintf(" in %d classes", classes)
		}
		return beyond(c, fmt.Sprintf("round trips of the fluid engine (%s over %s)", what, model.FormatDuration(sc.DurationS)),
			rounds, "max-rounds", "run shorter (--duration)")
	case engine == "fluid":
		return beyond(c, fmt.Sprintf("round trips of the fluid engine (%s over %s)", plural(len(sc.Flows), "flow"), model.FormatDuration(sc.DurationS)),
			w.rounds, "max-rounds", "run shorter (--duration)")
	case engine == "packet":
		return beyond(c, fmt.Sprintf("packet transmissions of the packet engine (%s)", model.FormatDuration(sc.DurationS)),
			w.packets, "max-packets", "run shorter (--duration)")
	}
	return nil
}

// plural writes "1 flow", "3 flows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
