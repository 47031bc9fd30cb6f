package fluid

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/ode"
)

// link is one link of the scenario: what the scenario fixes, the state events change, and
// the network quantities of the last evaluation.
type link struct {
	linkSpec
	linkState
	linkEval
}

type linkSpec struct {
	name      string
	capBps    float64 // bytes/s when up: all copies' (fold.go)
	copies    float64 // the identical private links this one stands for (fold.go), ≥ 1
	bufBytes  float64
	refBytes  float64 // packet size used to report the queue in packets
	loss      model.LossModel
	lossP     float64
	red       bool
	redParams model.RED
	fq        bool      // FQ-CoDel's flow queues (fq.go)
	off       int       // offset of the link's variables in the state vector (layout.go)
	streams   []*stream // every source's packets at this link (streams.go)
	// train is the flow whose round steps queue here through its train, trainStep its
	// law (trainqueue.go); nil for none.
	train     *subflow
	trainStep model.RoundStepper
}

// admits is the fraction of what reaches link l that its random or periodic loss lets in.
func (l *link) admits() float64 {
	if l.loss == model.LossRandom || l.loss == model.LossPeriodic {
		return 1 - l.lossP
	}
	return 1
}

// packetTime is the time one copy of the link takes to send b bytes, s (0 when it has
// no capacity).
func (l *link) packetTime(b float64) float64 {
	if l.capBps <= 0 {
		return 0
	}
	return b * l.copies / l.capBps
}

// slowestLink is the link of subflow f's path where its packet takes longest (the first
// of equal ones), -1 when none has a capacity.
func (s *system) slowestLink(f *subflow) int {
	slowest, at := 0.0, -1
	for _, li := range f.links {
		if t := s.links[li].packetTime(f.wire); t > slowest {
			slowest, at = t, li
		}
	}
	return at
}

// slowestPacketS is the time subflow f's packet takes at the slowest link of its path, s.
func (s *system) slowestPacketS(f *subflow) float64 {
	if li := s.slowestLink(f); li >= 0 {
		return s.links[li].packetTime(f.wire)
	}
	return 0
}

type linkState struct {
	up     bool
	delayS float64 // one-way propagation delay, s
	mode   int     // queueEmpty, queueBusy or queueFull
	// fifo is the admissions' history of a link that serves several streams first in,
	// first out (fifo.go); nil otherwise.
	fifo *fifoHistory
	// past is the queue the senders' RTT samples read (queuepast.go); unused at FQ links.
	past queuePast
	// moments integrate the queue and its square (queuesd.go).
	moments queueMoments
	// trainBytes is the queue the train keeps (trainqueue.go), bytes.
	trainBytes float64
}

type linkEval struct {
	arrive float64 // bytes/s
	// pacedArrive is what the paced streams bring of it (slotrace.go), bytes/s.
	pacedArrive float64
	depart      float64 // bytes/s
	lossPkt     float64 // RED drop probability at the current average
	// FQ links (fq.go): the fair rate of a constrained queue, bytes/s (+Inf when none is);
	// scratch for the unconstrained queues' order.
	fair  float64
	order []int32
	phi   []float64 // scratch: the streams' shares of a FIFO link's departures
	open  []bool    // scratch: the FIFO link's streams that can take more (serveFIFO)
}

// subflow is one single-path flow, or one subflow of a multi-path flow; the subflows of
// a flow share one law whose state block starts at off (subflow k's window at off+k).
type subflow struct {
	subflowSpec
	subflowState
	subflowEval
}

// subflowSpec is what the scenario and the settings fix.
type subflowSpec struct {
	// mult is how many identical scenario flows this subflow stands for (a class, grouped
	// by newSystem: same algorithm, parameters, path and start, and nothing random on the
	// path, so their trajectories coincide); members are their scenario indices. Rates,
	// queue contents and counters are the class's; the window and the law are one member's.
	mult       float64
	members    []int
	idx        int  // engine index: position in system.flows
	flow       int  // the scenario's flow index
	sub        int  // subflow index within the flow
	first      int  // engine index of the flow's subflow 0
	nSub       int  // subflows of the flow
	subObs     int  // index into system.subObs for multi-path flows
	routeAware bool // seed 002's route-change-aware sender
	// recovery is how the sender repairs losses (model.RecoveryStyle), which decides when
	// several holes in one window cost it a timeout (timesOut).
	recovery model.Recovery
	guards   uint8 // bit k: guard slot k can fire for this subflow (guards.go)
	name     string
	algo     string
	path     string
	links    []int // link indices in path order
	// minRTT is the shortest round trip, s: one packet's transmission at every link of the
	// path (txS) and model.MinClockRTT, even where the links have no delay.
	minRTT float64
	// txS and ackTxS are its packet's and its ACK's transmissions summed over the links of
	// its path, s (storeforward.go).
	txS, ackTxS float64
	law         model.FluidLaw
	mss         float64 // payload bytes per packet
	wire        float64 // bytes per packet on the wire: payload and header
	rwnd        float64 // packets
	start, stop float64 // s
	sizePkt     float64 // 0: long-lived
	off, nLaw   int     // offset and length of the law's variables (shared by subflows)
	cnt         int     // offset of the subflow's counters
	periodic    bool    // a link of its path has periodic loss
	randomLoss  bool    // a link of its path has random loss
	watch       float64 // watched window level, packets; -1 when none
	rng         *rand.Rand
	// rtxRng draws whether a loss in a RecoveryPRR recovery hits a retransmission
	// (simrecovery.go); nil for the other recoveries and forms.
	rtxRng *rand.Rand
	// dropRng draws the random drop rule's drops (drawDrop), apart from the random
	// losses' streams; nil under the other rules. dropAhead is its draw after dropDraw, so
	// that a polled drop can be foreseen (polldrops.go).
	dropRng   *rand.Rand
	dropAhead float64
}

// subflowState is the discrete state events change.
type subflowState struct {
	propRTT float64 // s; changes with link delay events
	active  bool
	done    bool
	// silentUntil: a timed-out sender sends nothing until then, s.
	silentUntil float64
	// clocked: its ACK clock runs, since a burst sent its window into an empty pipe at
	// burstBps bytes/s (all members), which ends at burstUntil, s (ackclock.go).
	clocked              bool
	burstUntil, burstBps float64
	// sentAtLoss is its count of packets sent at its latest loss event.
	sentAtLoss float64
	// timeoutDue: the retransmission timer of a recovery that times out fires at
	// silentUntil.
	timeoutDue bool
	// A sender whose path failed retransmits when its timer expires, at backoffAt, and
	// backs the timer off by doubling backoffS (RFC 6298 §5.5) until a retransmission gets
	// through.
	backoffAt, backoffS float64
	wBefore             float64 // a route-aware sender's window when its path failed
	randomThreshold     float64 // the expected losses (p × packets) to the next random loss; see drawRandomLoss
	recoverUntil        float64 // losses before this time belong to the current recovery
	recoverFrom         float64 // when the current recovery began, s
	recoverRTT          float64 // the round trip when it began, s: a NewReno partial ACK's pace (holesAtTimeout)
	recoverPoint        float64 // until when a loss found is of data sent before the recovery began, s
	lossWindow          float64 // packets a member: the window the latest loss event found outstanding
	ackedAtLoss         float64 // the acknowledged count (cntAcked) then
	holes               float64 // packets lost in the window the current recovery repairs
	sr                  simRec  // the window of a simulator's recovery (simrecovery.go)
	droppedAtEvent      float64 // the dropped count (cntDropped) at the latest loss event
	gbn                 goBackN // the go-back-N rebuild after a timeout (gobackn.go)
	copies              float64 // packets its go-back-N rebuilds resent to a receiver that held them, all members
	watchHit            bool
	reactAt             float64   // pending drop-tail reaction time, +Inf when none
	found               foundLoss // the drops that reaction finds (found.go)
	// dropsDeaf: under the proportional rule, the drop guard is off since a drop was heard
	// or a recovery began (deafToDrops); rearmDrops turns it back on where that ends,
	// before the guard reads the drops counted meanwhile. The other rules ignore it.
	dropsDeaf bool
	// hearsInRecovery: in the counted form under the proportional rules, a full queue's
	// drop of a packet sent after the recovery began is a loss of the next window, which
	// the sender finds once the recovery has ended (hearDrop).
	hearsInRecovery bool
	// dropDraw: under the proportional rules, the drops per member of its class at which
	// the flow's next one falls (drawDrop), counted from dropBase (cntOverflow's value at
	// the last drop where the count was not reset there: polldrops.go).
	dropBase  float64
	dropDraw  float64
	recheckAt float64 // synchronized rule: look again when the recovery ends
	// overflowHeard: the pending reaction is the synchronized rule's, to a full queue;
	// escapeRng draws whether it lost a packet there (escape.go), nil where it always does.
	overflowHeard bool
	escapeRng     *rand.Rand
	rtx           rtxRound // synchronized rule: the recovery's lost retransmissions (lostrtx.go)
	lossEvents    int
	timeouts      int
	spurious      int        // of them, before a late burst (lateack.go) or a late retransmission (roundtimer.go)
	lateRtx       bool       // the timeout due fires before its fast retransmission returns (roundtimer.go)
	lateFired     bool       // that timer has fired and waits for the bursts to come in time again
	lateAt        float64    // when it last fired for a late burst, s
	riseAvg       float64    // its RTT's rise over a round trip, averaged over one, s (lateack.go)
	at            *ackTimer  // the packet-granular timer on a slow path (acktimer.go), or nil
	rt            roundTimer // the timer of a sender timing a packet a round trip (roundtimer.go)
	completion    float64    // s since start, NaN until done
	ackPast       ackPast    // its acknowledged rate over the last return lag (ackpast.go)
	endT          float64
}

// subflowEval is the network as the subflow sees it at the last evaluation.
type subflowEval struct {
	rtt     float64 // round-trip time now, s
	rttSeen float64 // the round-trip time the sender's latest sample reports, s
	// timerRTT is the round trip the retransmission timer reads, s: the queues of a round
	// trip ago to first order, which a queue that has just filled reads as full and a
	// draining one as fuller than now — above the latest sample where the queue moves, as
	// RFC 6298's SRTT + 4·RTTVAR is (rto).
	timerRTT float64
	rate     float64  // bytes/s sent
	ackRef   float64  // bytes/s: the ACK rate W/RTT the laws are written at (wire bytes, the RTT they observe)
	sendW    float64  // packets: the window the sender fills, min(W, rwnd); 0 while it is silent
	streams  []stream // its packets at each link of its path, in path order
	deliver  float64  // bytes/s leaving the path's last link
	acked    float64  // bytes/s of it acknowledged: less what the links' loss processes and RED take
	// ackedLag is acked a return lag ago (ackLag): the ACKs reaching the sender now.
	ackedLag float64
}

type cbrSource struct {
	links       []int
	rate        float64 // bytes/s while on
	start, stop float64
	sending     float64  // bytes/s now: rate between start and stop, else 0
	streams     []stream // its packets at each link of its path, in path order
}

// system is one scenario assembled into a hybrid system.
type system struct {
	sc       *model.Scenario
	pathBDPs func(flow int) []float64 // model.Scenario.FlowPathBDPs of the unfolded scenario
	set      Settings
	form     form
	links    []link
	order    []int   // links in upstream-to-downstream order
	fq       bool    // a link has FQ-CoDel's flow queues (fq.go)
	fifo     []int   // the links that serve several streams first in, first out (fifo.go)
	pastKeep float64 // s: how far back the senders' RTT samples read the queues (queuepast.go)
	// trainLinks are the links where a flow's round steps queue (trainqueue.go).
	trainLinks []int
	// stepEnd: the network is evaluated at the end of an accepted step, where a jump of an
	// ACK clock due there has not yet happened (ackclock.go).
	stepEnd  bool
	flows    []subflow
	cbr      []cbrSource
	dim      int
	trace    []model.Sample
	nextSmp  float64
	scratch  *mat.VecDense
	lawSaved []float64 // a law's state before an exact cycle that may not be taken (exact.go)
	// cache of the network quantities for the last evaluated (t, y)
	cacheT      float64
	cacheY      *mat.VecDense
	cacheGen    int
	gen         int
	subObs      [][]model.SubflowObservation // per multi-path flow, reused by every observation
	restart     []int                        // guards Restart re-evaluates: [flow, every link guard]
	touched     []int                        // flows whose state dueReactions changed
	restartOf   []int                        // guards jumpFlows restarts: the touched flows' and every link's
	drv         *ode.Driver
	x           *extension // ECN, AQMs and paced laws (ext.go); nil when the scenario has none
	merge       bool       // drop-tail reactions share solver stops (merge.go)
	polled      bool       // the proportional rules' drops are found after each step (polldrops.go)
	lateAcks    bool       // some flow keeps ns-2 TCP/Linux's timer (lateack.go)
	roundTimers bool       // some flow keeps a roundTimer (roundtimer.go)
	heard       bool       // a polled drop changed a flow's mode in the last step
	end         float64    // s; the scenario's duration unless a stop condition ended the run
	crossings   []model.Crossing
	losses      []model.LossRecord
}
