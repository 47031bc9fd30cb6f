package fluid

import (
	"context"
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/meanfield"
	"github.com/tcpfluid/tcpfluid/model"
)

// Settings configures the fluid engine. The zero value is usable.
type Settings struct {
	// Seed drives every random draw (random-loss thresholds, the proportional drop rule).
	Seed uint64
	// SampleS is the trace interval in seconds; 0 records no trace.
	SampleS float64
	// RelTol and AbsTol are the Dormand–Prince tolerances; defaults 1e-6 and 1e-6
	// (packets and bytes are O(1) or larger, so 1e-6 absolute is far below a packet).
	RelTol, AbsTol float64
	// MaxSteps bounds the accepted solver steps; default 50,000,000.
	MaxSteps int
	// Watch lists window levels whose first upward crossing is located and reported in
	// Result.Crossings (the fill and recovery times of the converge analysis).
	Watch []Watch
	// StopAtWatch ends the run at the first crossing of every watch.
	StopAtWatch bool
	// InjectLoss applies a loss event (the jump of a fast retransmit) to a flow at its start:
	// a run that starts "just after a loss".
	InjectLoss []int
	// StopAfterLosses ends the run when flow 0 has had this many loss events; 0: no limit.
	StopAfterLosses int
	// RecordLosses records every loss event in Result.Losses.
	RecordLosses bool
	// LossStop, with RecordLosses, is asked at every loss event of flow 0, with the loss
	// records so far, whether the run has seen enough; true ends it there. A measurement
	// that needs more loss events thus goes on with the run it has instead of starting
	// over (package response).
	LossStop func(losses []model.LossRecord) bool
	// Form is FormHybrid (default), FormHybridRecovery or FormMeanField.
	Form string
	// SACK: the senders repair every hole of a window in one round trip (RFC 6675), as the
	// packet engine's SACK senders do, so several losses in one window never cost them a
	// timeout (timesOut).
	SACK bool
	// Exact lets a flow alone on a free path move from loss to loss along its law's
	// closed-form flow (model.ExactFlow) instead of the solver's steps (exact.go); the
	// numbers agree with the stepped run's to the solver's tolerance.
	Exact bool
	// FoldDelay, when positive, folds flows that differ only in private links whose delays
	// lie in one bin of a logarithmic grid this wide (relative: 0.02 is 2%) into one class
	// too, on links of the members' mean delay (fold.go): an approximation that moves each
	// flow's propagation delay by less than this fraction and makes a dumbbell of distinct
	// round-trip times cost its bins. 0 (the default) leaves it to Folding; at most 0.5.
	FoldDelay float64
	// Folding is whether flows of nearly equal private links' delays fold without
	// FoldDelay (autofold.go): FoldingAuto (the default) folds them at AutoFoldDelay in
	// runs of AutoFoldClasses classes or more that it would at least halve; FoldingCopies
	// folds exact copies only.
	Folding Folding
	// Reactions is how the drop-tail reactions of different flows meet the solver
	// (merge.go): ReactionsAuto (the default) merges them in runs of MergeClasses classes or
	// more and stops at each below; ReactionsExact stops at each at its own time;
	// ReactionsMerged lets a reaction, and a recovery's look at whether its queue is still
	// full, wait a quarter of its flow's ACK spacing to share a stop with other flows',
	// and finds the proportional rules' drops after the steps that hold them instead of
	// stopping at each (polldrops.go).
	Reactions Reactions
	// SendJitterS is a random wait, uniform on [0, SendJitterS] s, before each send of the
	// senders that replicate ns-2.35 TCP/Linux (its overhead_; the linux variants'
	// recoveries, model.RecoveryLinux and RecoveryLinuxMinCwnd). Their module is called
	// only for ACKs that find the window full, so the ACKs that return while a send waits
	// add nothing, and the counted form counts the rest (sendjitter.go). Default 0: the
	// scenario's send_jitter (model.Scenario.SendJitterS), as the packet engine's.
	SendJitterS float64
}

// Watch is a window level of one flow, in packets.
type Watch struct {
	Flow     int
	CwndPkts float64
}

// jitterOf is the send jitter a run of sc with set uses, s: set's, else the scenario's
// send_jitter.
func (set Settings) jitterOf(sc *model.Scenario) float64 {
	if set.SendJitterS == 0 {
		return sc.SendJitterS
	}
	return set.SendJitterS
}

// Run integrates a validated scenario with the hybrid fluid engine: windows and queues
// follow ODEs between events; losses, mode switches, flow starts and link events are
// located by the solver and applied as jumps.
//
// FormMeanField runs the scenario's flows as classes of the mean-field form instead
// (package meanfield: delay-differential equations of each class's mean window).
func Run(ctx context.Context, sc *model.Scenario, set Settings) (*model.Result, error) {
	if set.Form == FormMeanField {
		if len(set.Watch) > 0 || set.StopAtWatch || len(set.InjectLoss) > 0 || set.StopAfterLosses > 0 || set.RecordLosses || set.LossStop != nil {
			return nil, fmt.Errorf("%w: form %s: watches, injected losses and loss records need located loss events; use form %s",
				model.ErrScenario, FormMeanField, FormHybrid)
		}
		return meanfield.RunScenario(ctx, sc, meanfield.ScenarioSettings{SampleS: set.SampleS, RelTol: set.RelTol, AbsTol: set.AbsTol, MaxSteps: set.MaxSteps})
	}
	set.SACK = set.SACK || sc.SACK
	set.SendJitterS = set.jitterOf(sc)
	if err := set.resolve(); err != nil {
		return nil, err
	}
	fo, width := autoFold(sc, set)
	set.FoldDelay = width
	sys, err := newSystem(sc, set, fo)
	if err != nil {
		return nil, err
	}
	res, err := sys.run(ctx)
	if err == nil && fo != nil {
		res.FoldDelay = set.FoldDelay
		fo.expand(res)
	}
	return res, err
}

// resolve fills in the defaults of set and checks it.
func (set *Settings) resolve() error {
	if set.RelTol == 0 {
		set.RelTol = 1e-6
	}
	if set.AbsTol == 0 {
		set.AbsTol = 1e-6
	}
	if set.MaxSteps == 0 {
		set.MaxSteps = 50_000_000
	}
	if set.Form == "" {
		set.Form = FormHybrid
	}
	if _, ok := forms[set.Form]; !ok {
		return fmt.Errorf("%w: form %q, want %s, %s or %s", model.ErrScenario, set.Form, FormHybrid, FormHybridRecovery, FormMeanField)
	}
	if set.SampleS < 0 || math.IsNaN(set.SampleS) {
		return fmt.Errorf("%w: sample interval %v s, want >= 0", model.ErrScenario, set.SampleS)
	}
	if set.LossStop != nil && !set.RecordLosses {
		return fmt.Errorf("%w: a loss stop needs the loss records (RecordLosses)", model.ErrScenario)
	}
	if set.Reactions < ReactionsAuto || set.Reactions > ReactionsMerged {
		return fmt.Errorf("%w: reactions %d, want ReactionsAuto, ReactionsExact or ReactionsMerged", model.ErrScenario, set.Reactions)
	}
	if !(set.FoldDelay >= 0 && set.FoldDelay <= 0.5) {
		return fmt.Errorf("%w: fold delay %v, want a fraction from 0 to 0.5", model.ErrScenario, set.FoldDelay)
	}
	if set.Folding < FoldingAuto || set.Folding > FoldingCopies {
		return fmt.Errorf("%w: folding %d, want FoldingAuto or FoldingCopies", model.ErrScenario, set.Folding)
	}
	if !(set.SendJitterS >= 0) || math.IsInf(set.SendJitterS, 0) {
		return fmt.Errorf("%w: send jitter %v s, want a finite value >= 0", model.ErrScenario, set.SendJitterS)
	}
	if set.StopAfterLosses < 0 {
		return fmt.Errorf("%w: stop after %d losses: want >= 0", model.ErrScenario, set.StopAfterLosses)
	}
	return nil
}
