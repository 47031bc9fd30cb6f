// Package meanfield is tcpfluid's mean-field form: the delay-differential equations of
// Misra, Gong and Towsley ("Fluid-based analysis of a network of AQM routers supporting
// TCP flows", SIGCOMM 2000) for classes of identical flows, for every window law that is
// a function of the window, with their equilibrium and the linear stability analysis of
// Hollot, Misra, Towsley and Gong (INFOCOM 2001) generalised.
//
// # The equations
//
// A Network has links l (capacity C_l packets/s, buffer B_l, optional RED, random loss
// r_l) and classes i of N_i flows (law, propagation RTT T_i, path). The state is one
// window W_i per class, one queue q_l per link and, for RED links, the averaged queue
// x_l. With τ_i(t) = T_i + Σ_{l∈i} q_l(t)/C_l and a delayed quantity's look-back t − τ_i(t),
//
//	dW_i/dt = a_i(W_i)/τ_i − d_i(W_i) · W_i(t−τ_i)/τ_i(t−τ_i) · p_i(t−τ_i)
//	dq_l/dt = Σ_{i∋l} N_i·W_i/τ_i − C_l               (held at 0 and at B_l)
//	dx_l/dt = K_l·(q_l − x_l),  K_l = −C_l·ln(1 − w_l)
//	p_i     = 1 − Π_{l∈i} (1 − r_l)(1 − red_l(x_l))(1 − o_l)
//
// where a(W) is the law's increase per RTT (model.WindowRule.PerRTT), d(W) =
// (W − max(g(W), model.MinLossWindow))⁺ the window a loss removes, g(W) the window it
// leaves (model.WindowRule.Congestion), red the RED profile of model.RED (gentle off),
// and o_l = 1 − C_l/λ_l the fraction of arrivals λ_l a full buffer drops. For Reno,
// a = 1 and d = W/2, which is MGT's dW/dt = 1/τ − W·W(t−τ)·p(t−τ)/(2τ(t−τ)). Flow counts
// only multiply: 10⁶ flows cost what one class costs.
//
// As in MGT, every link of a path sees the source's rate W/τ (upstream queues do not
// reshape it; at equilibrium arrivals equal departures, so the fixed point is exact), the
// losses of the whole path are read at the one look-back t − τ, there is no slow start and
// no timeout, and classes start with their InitialCwndPkts. A periodic loss of a scenario
// is a random loss of the same rate.
//
// # Laws
//
// LawOf builds a Law from a registered algorithm. The generic construction needs the two
// numbers of a memoryless window rule, which an algorithm hands out as model.MeanFielder:
// every model.WindowLaw that declares itself Memoryless (Reno, NewReno, Scalable,
// HighSpeed, and any law written with the kit whose PerRTT and Congestion depend on the
// window and the observation only). Laws with memory are refused with ErrNoMeanField:
// CUBIC's window is a function of the time since the last loss, not of the window, so a
// population's mean window has no law of its own (likewise BIC's W_max, H-TCP's time since
// the loss, COLO's adaptive decrease); Tahoe restarts slow start; Vegas and Compound are
// delay-driven or two-state; the multi-path laws couple subflows. The mean-field
// equilibrium of AIMD(a, b) is W = √(a/((1 − b)·p)): Reno's √(2/p), not the sawtooth's
// √(1.5/p) — the mean-field form averages the loss over the population rather than over
// one flow's cycle.
//
// # Integration
//
// Simulate integrates on ode's Dormand–Prince with its delay History, the step limited to
// the smallest propagation RTT so that every look-back falls in stored steps. A RED
// average much faster than the RTT (K·T ≥ 100) would make the explicit solver take K·t/3
// steps; Simulate then reads it as the exact convolution of the stored queue,
// x = q − q′/K + q″/K² (ode.History.Derivatives), whose truncation is of order
// (1/(K·T))³. Results carry no NaN or infinity; runs stop at Settings.MaxSteps and on the
// context's cancellation. RunScenario runs a model.Scenario this way and reports a
// model.Result (Form "meanfield"): FromScenario groups the scenario's flows into classes
// in one pass, flows that differ in nothing but their names forming one class, so that
// 10⁶ flows in three classes run as three (about a second, BenchmarkRunScenario).
//
// A run does not depend on how the same flows are grouped: each link's arrivals Σ N_i·r_i
// are summed in double-double, exact whatever the grouping, and with a fixed step
// (Settings.StepS) one class of n flows and n classes of one take the same steps and give
// every flow the same figures to rounding. The adaptive step does not have this property:
// its error norm is a mean over the state's components, which counts classes, not flows.
//
// # Stability
//
// Analyze linearises the field about its equilibrium by central differences of the field
// itself (so every law and topology linearises alike): δy'(t) = A0·δy(t) + Σ_i A_i·δy(t − R_i).
// Its characteristic roots, the zeros of det(sI − A0 − Σ A_i e^{−sR_i}), come from a
// Chebyshev pseudospectral discretisation of the delay equation's generator, refined by
// Newton's method on the determinant; the rightmost one gives the verdict (stable,
// oscillating: a Hopf bifurcation into a limit cycle, or unstable) and the decay rate and
// period. With one RED bottleneck in its linear range, the loop broken at RED's marking
// gives the gain crossover, phase margin, delay margin (phase margin/ω_c: the extra loop
// delay tolerated) and gain margin.
//
// For Reno over one RED link HMTG is HMTG's loop,
//
//	L(s) = L_red·K/(s + K) · (C²/2N)/((s + 2N/(R0²C))(s + 1/R0)) · e^{−sR0},
//
// which drops −(N/(R0²C))·s·(1 − e^{−sR0}) from the exact loop's plant, a relative error
// below 1/W0. Critical and CriticalHMTG bisect for the stability boundary along the
// propagation RTT or the flow count, the equilibrium moving with it; FindCritical needs
// no bracket. In the tests the boundary of the delay equation itself (bisected by runs)
// matches the exact linearisation's to 0.01% and HMTG's to 0.35% on HMTG's example.
package meanfield
