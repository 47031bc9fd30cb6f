"""The public functions: one per CLI command.

Every function takes keyword arguments only and maps them to the command's flags with
:func:`tcpfluid.to_flags` (``points=3`` → ``--points 3``, ``algo=['reno', 'cubic']`` →
``--algo reno,cubic``, ``param={'colo.gamma': 2}`` → ``--param colo.gamma=2``, ``True`` →
a bare flag, ``None`` → the CLI's default). The parameters named in each signature are
the main flags; any other keyword is passed on as a flag the same way, so flags the CLI
gains later work at once.

Units: quantities are strings with units (``'100ms'``, ``'1Gbps'``, ``'1460B'``,
``'1bdp'``), or plain numbers in the CLI's base units — seconds, bit/s, bytes, packets
(buffers) — or ``datetime.timedelta`` for durations.

Each returns a :class:`~tcpfluid.Result` with the parsed JSON in ``.json`` and the tables
as DataFrames. A rejected argument raises :class:`~tcpfluid.UsageError`, a failed run
:class:`~tcpfluid.RunError`, both carrying the CLI's error line and exit code.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

from ._binary import find_binary
from ._cli import error_for, error_line, invoke, Output
from ._errors import ValidationError
from ._results import (
    AlgosResult,
    ConvergeResult,
    FairnessResult,
    ResponseResult,
    RunResult,
    SweepResult,
    ValidateResult,
    ReferenceResult,
)

__all__ = [
    "response",
    "run",
    "sweep",
    "converge",
    "fairness",
    "validate",
    "algos",
    "call",
    "version",
]

Quantity = Union[str, float, int]
Names = Union[str, Sequence[str]]
Params = Mapping[str, Any]


def _flags(named: Dict[str, Any], extra: Mapping[str, Any]) -> Dict[str, Any]:
    flags = dict(named)
    flags.update(extra)
    return flags


def call(command: Union[str, Sequence[str]], *args: Any, **flags: Any) -> Any:
    """Runs any command with ``--format json`` and returns its parsed JSON (a dict).

    ``command`` is a command name or a list of them (``'sweep merge'`` or ``['sweep',
    'merge']``); ``args`` are positional arguments (after the flags), ``flags`` keyword
    arguments mapped as everywhere. Example: ``call('sweep merge', 's0.json', 's1.json')``.
    """
    return invoke(command, flags, [str(a) for a in args]).data


def version() -> str:
    """The CLI's version line, e.g. ``'tcpfluid 0.1.0-dev'``."""
    argv = [find_binary(), "version"]
    proc = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise error_for(Output(None, argv, proc.returncode, proc.stdout, proc.stderr))
    return proc.stdout.strip()


def algos(**flags: Any) -> AlgosResult:
    """The algorithms with their parameters, defaults, units, ranges and sources.

    Tables: ``params`` (algorithm, param, value, default, unit, min, max, source, doc) and
    ``algorithms`` (name, description).
    """
    out = invoke("algos", flags)
    return AlgosResult(out.data, out.argv, out.returncode, out.stderr)


def response(
    *,
    algo: Optional[Names] = None,
    loss_model: Optional[str] = None,
    p_min: Optional[Quantity] = None,
    p_max: Optional[Quantity] = None,
    points: Optional[int] = None,
    rtt: Optional[Quantity] = None,
    mss: Optional[Quantity] = None,
    warmup_losses: Optional[int] = None,
    seed: Optional[int] = None,
    param: Optional[Params] = None,
    workers: Optional[int] = None,
    **flags: Any,
) -> ResponseResult:
    """Response functions: mean window against loss rate, and their c/p^d fits.

    Args:
        algo: algorithms, e.g. ``['reno', 'cubic']`` (default: the classic set).
        loss_model: ``'periodic'`` (default) or ``'random'``.
        p_min, p_max: the smallest and largest loss rate per packet (default 1e-7, 1e-2).
        points: log-spaced loss rates (default 11).
        rtt: round-trip time, ``'100ms'`` or seconds (default 100 ms).
        mss: packet size, ``'1460B'`` or bytes (default 1460 B).
        warmup_losses: loss events discarded before measuring (default: automatic, until
            the loss cycles show no trend).
        seed: seed of the random loss (default 1).
        param: algorithm parameters, ``{'cubic.beta': 0.7}``.
        workers: points run at once (default: all cores).

    Returns:
        :class:`ResponseResult`: ``points`` (algorithm, p, mean_cwnd_pkts [packets],
        ci95_pkts, throughput_bps [bit/s], loss_events, warmup_losses, simulated_s [s]) and ``fits``
        (algorithm, c, d, r2, reference_c, reference_d, reference_source, friendliness_*,
        rtt_exponent_e, ...).
    """
    named = dict(
        algo=algo,
        loss_model=loss_model,
        p_min=p_min,
        p_max=p_max,
        points=points,
        rtt=rtt,
        mss=mss,
        warmup_losses=warmup_losses,
        seed=seed,
        param=param,
        workers=workers,
    )
    out = invoke("response", _flags(named, flags))
    return ResponseResult(out.data, out.argv, out.returncode, out.stderr)


def run(
    *,
    scenario: Optional[Union[str, os.PathLike]] = None,
    builtin: Optional[str] = None,
    algo: Optional[str] = None,
    param: Optional[Params] = None,
    engine: Optional[str] = None,
    duration: Optional[Quantity] = None,
    drop_rule: Optional[str] = None,
    seed: Optional[int] = None,
    trace: Union[bool, str, os.PathLike, None] = None,
    sample: Optional[Quantity] = None,
    **flags: Any,
) -> RunResult:
    """Runs one scenario: a summary of every flow and link, and optionally the time series.

    Args:
        scenario: a scenario YAML file (see testdata/scenarios/example.yaml), or
        builtin: a built-in scenario, e.g. ``'seed004-lfn'``.
        algo: set every TCP flow's algorithm.
        param: algorithm parameters for the flows of that algorithm, ``{'colo.gamma': 2}``.
        engine: ``'fluid'`` (default) or ``'packet'``.
        duration: override the scenario's duration, ``'30s'`` or seconds.
        drop_rule: ``'synchronized'``, ``'proportional'`` or ``'random'`` (proportional, drawn from the seed).
        seed: seed of every random draw (default 1).
        trace: ``True`` to read the time series into ``.trace`` (through a temporary
            file), or a path to write it to as CSV as well.
        sample: trace interval, ``'0.1s'`` or seconds (default: duration/1000).
        Other flags pass through: ``sack=True``, ``jitter='1ms'``, ``delayed_ack=True``,
        ``initial_ssthresh=0`` [packets], ``fold_delay=0.05`` (fluid: fold flows whose
        access delays lie within 5% of one another, an approximation; ``0``: exact copies
        only; not given, 200 classes or more that 2% would halve fold at 2%, which
        ``.json['fold_delay']`` reports),
        ``reactions='exact'`` (fluid: every flow's reaction to a drop, and every drop of
        the proportional rules, at its own solver stop; ``'merged'``: reactions within a
        quarter of their flows' ACK spacing share one, and drops are found after the
        steps that hold them; ``'auto'``, the default: merged from 50 classes of flows on).

    Returns:
        :class:`RunResult`: ``flows`` (goodput_bps [bit/s], mean_cwnd_pkts,
        completion_time_s [s], ...), ``links`` (mean_queue_pkts, queue_sd_pkts, utilisation,
        dropped_pkts) and ``trace`` (None without ``trace=``).
    """
    named = dict(
        scenario=scenario,
        builtin=builtin,
        algo=algo,
        param=param,
        engine=engine,
        duration=duration,
        drop_rule=drop_rule,
        seed=seed,
        sample=sample,
    )
    tmpdir = None
    if trace is True:
        tmpdir = tempfile.mkdtemp(prefix="tcpfluid-trace-")
        trace_path: Optional[str] = os.path.join(tmpdir, "trace.csv")
    elif trace is False or trace is None:
        trace_path = None
    else:
        trace_path = os.fspath(trace)
    named["trace"] = trace_path
    try:
        out = invoke("run", _flags(named, flags))
        csv = None
        if trace_path is not None:
            with open(trace_path, encoding="utf-8") as f:
                csv = f.read()
    finally:
        if tmpdir is not None:
            shutil.rmtree(tmpdir, ignore_errors=True)
    return RunResult(out.data, out.argv, out.returncode, out.stderr, trace_csv=csv)


def sweep(
    *,
    scenario: Optional[Union[str, os.PathLike]] = None,
    builtin: Optional[str] = None,
    algo: Optional[str] = None,
    param: Optional[Params] = None,
    metric: Optional[Names] = None,
    duration: Optional[Quantity] = None,
    drop_rule: Optional[str] = None,
    bottleneck: Optional[str] = None,
    engine: Optional[str] = None,
    seed: Optional[int] = None,
    workers: Optional[int] = None,
    shard: Union[str, Tuple[int, int], None] = None,
    shards: Optional[int] = None,
    out: Optional[Union[str, os.PathLike]] = None,
    **flags: Any,
) -> SweepResult:
    """A parameter grid over any algorithm or scenario parameter: one row per point.

    Args:
        scenario, builtin: the base scenario (default: the built-in seed000-dumbbell).
        algo: set every TCP flow's algorithm.
        param: the grid, ``{name: grid}``: a grid is ``'min:max:count'`` (linear),
            ``'min:max:count:log'``, or a list of values (``['50ms', '100ms']``). Names are
            algorithm parameters (``'colo.gamma'``) or buffer [BDP], rtt, p, capacity,
            flows, duration. The first varies slowest.
        metric: metrics (default all): throughput_bps, goodput_bps, utilisation,
            mean_cwnd_pkts, loss_events, loss_rate, dropped_pkts, mean_queue_pkts, jain,
            completion_time_s.
        duration: override the scenario's duration.
        bottleneck: the link that buffer, p and capacity change (default: lowest capacity).
        engine: ``'fluid'`` (default) or ``'packet'``.
        seed: seed of the sweep (each point derives its own).
        workers: points run at once (default: all cores).
        shard: run shard ``'k/n'`` or ``(k, n)`` only. Without it the CLI takes the shard
            from a Slurm array task or a Kubernetes Indexed Job when the environment
            names one; ``shard='0/1'`` runs every point whatever the environment.
        shards: the number of shards for an index from the environment.
        out: also write a chart and the data of the sweep to this directory.

    Returns:
        :class:`SweepResult`: ``table`` (point, the parameters, the metrics; NaN where a
        metric has no value), ``axes``, ``metrics``, ``spec``.
    """
    if isinstance(shard, tuple):
        shard = f"{shard[0]}/{shard[1]}"
    named = dict(
        scenario=scenario,
        builtin=builtin,
        algo=algo,
        param=param,
        metric=metric,
        duration=duration,
        drop_rule=drop_rule,
        bottleneck=bottleneck,
        engine=engine,
        seed=seed,
        workers=workers,
        shard=shard,
        shards=shards,
        out=out,
    )
    res = invoke("sweep", _flags(named, flags))
    return SweepResult(res.data, res.argv, res.returncode, res.stderr)


def converge(
    *,
    algo: Optional[Names] = None,
    bandwidth: Optional[Union[Quantity, Sequence[Quantity]]] = None,
    rtt: Optional[Quantity] = None,
    mss: Optional[Union[Quantity, Sequence[Quantity]]] = None,
    slow_start: Optional[bool] = None,
    param: Optional[Params] = None,
    workers: Optional[int] = None,
    **flags: Any,
) -> ConvergeResult:
    """Time to fill a link from W = 1 and to recover after a loss at W = BDP.

    Args:
        algo: algorithms (default: the classic set).
        bandwidth: link rates, ``['1Gbps', '10Gbps']`` (default) or bit/s.
        rtt: round-trip time, ``'100ms'`` (default) or seconds.
        mss: packet sizes, ``['1000B', '1500B']`` (default) or bytes.
        slow_start: also the fill time with slow start from the initial window.
        param: algorithm parameters, ``{'colo.gamma': 2}``.
        workers: points run at once (default: all cores).

    Returns:
        :class:`ConvergeResult`: ``table`` (algorithm, bandwidth_bps, rtt_s, mss_bytes,
        bdp_pkts, fill_time_s [s], recovery_time_s [s], the closed forms and their
        relative differences, NaN where there is none).
    """
    named = dict(
        algo=algo,
        bandwidth=bandwidth,
        rtt=rtt,
        mss=mss,
        slow_start=slow_start,
        param=param,
        workers=workers,
    )
    out = invoke("converge", _flags(named, flags))
    return ConvergeResult(out.data, out.argv, out.returncode, out.stderr)


def fairness(
    *,
    mode: Optional[str] = None,
    algo: Optional[Names] = None,
    flows: Optional[int] = None,
    start_gap: Optional[Quantity] = None,
    rtts: Optional[Union[Quantity, Sequence[Quantity]]] = None,
    against: Union[str, Tuple[str, int], None] = None,
    bottleneck: Optional[Quantity] = None,
    buffer: Optional[Quantity] = None,
    p: Optional[Quantity] = None,
    drop_rule: Optional[str] = None,
    form: Optional[str] = None,
    duration: Optional[Quantity] = None,
    measure_from: Optional[Quantity] = None,
    window: Optional[Quantity] = None,
    seed: Optional[int] = None,
    param: Optional[Params] = None,
    workers: Optional[int] = None,
    **flags: Any,
) -> FairnessResult:
    """Jain's index, RTT fairness and TCP friendliness on seed 000's dumbbell.

    Args:
        mode: ``'same'`` (default; N flows of one algorithm, staggered starts), ``'rtt'``
            (one flow per RTT) or ``'friendliness'`` (the algorithm against ``against``).
        algo: algorithms, one run each (default reno).
        flows: same mode: number of flows (default 3).
        start_gap: same mode: time between flow starts (default 10 s).
        rtts: rtt mode: round-trip times, ``['50ms', '75ms', '100ms']`` (default).
        against: friendliness mode: ``'reno:4'`` (default) or ``('reno', 4)``.
        bottleneck: bottleneck rate (default 100 Mb/s); also ``bottleneck_delay``,
            ``access``, ``access_delay`` (default 100 ms, 200 Mb/s, 10 ms).
        buffer: bottleneck buffer in BDP multiples, ``'1bdp'`` (default).
        p: random loss rate on the bottleneck (default 0).
        drop_rule: ``'synchronized'`` (default), ``'proportional'`` or ``'random'``
            (proportional, drawn from the seed: the model of ns-2's jittered drop tail).
        form: the fluid engine's form, ``'hybrid'`` (default) or ``'hybrid-recovery'``
            (counted as a packet sender counts; with ``compare_ns2=True``, ``sack=True``
            and ``header='50B'`` the form judged against the stored ns-2 runs).
        duration: simulated time (default 1000 s).
        measure_from: start of the measurement (default: half the duration).
        window: window of the Jain series (default: duration/30).
        seed: seed of random draws (default 1).
        param: algorithm parameters.
        workers: runs at once (default: all cores).

    Returns:
        :class:`FairnessResult`: ``results`` (algorithm, flows, jain, utilisation,
        rtt_unfairness_exponent or algorithm_share by mode), ``shares`` (algorithm, flow,
        flow_algorithm, rtt_s, throughput_bps [bit/s], fraction) and ``jain_series``
        (algorithm, t_s [s], jain).
    """
    if isinstance(against, tuple):
        against = f"{against[0]}:{against[1]}"
    named = dict(
        mode=mode,
        algo=algo,
        flows=flows,
        start_gap=start_gap,
        rtts=rtts,
        against=against,
        bottleneck=bottleneck,
        buffer=buffer,
        p=p,
        drop_rule=drop_rule,
        form=form,
        duration=duration,
        measure_from=measure_from,
        window=window,
        seed=seed,
        param=param,
        workers=workers,
    )
    out = invoke("fairness", _flags(named, flags))
    return FairnessResult(out.data, out.argv, out.returncode, out.stderr)


def validate(
    *,
    scenario: Optional[Union[str, os.PathLike]] = None,
    builtin: Optional[str] = None,
    algo: Optional[str] = None,
    param: Optional[Params] = None,
    p: Optional[Quantity] = None,
    loss_model: Optional[str] = None,
    rtt: Optional[Quantity] = None,
    mss: Optional[Quantity] = None,
    warmup_losses: Optional[int] = None,
    losses: Optional[int] = None,
    table3: Optional[bool] = None,
    duration: Optional[Quantity] = None,
    drop_rule: Optional[str] = None,
    seed: Optional[int] = None,
    seeds: Optional[int] = None,
    check: bool = False,
    **flags: Any,
) -> ValidateResult:
    """The same scenario in the fluid and the packet engine, metric by metric.

    Give a scenario (``scenario=`` or ``builtin=``, ``algo=`` to set every flow's
    algorithm), a response point (``algo='reno', p=1e-4``, ``loss_model='random'``,
    ``rtt='100ms'``), or ``table3=True`` (seed 003's Table 3).

    Args:
        scenario, builtin: the scenario.
        algo: the point's algorithm, or every flow's.
        param: algorithm parameters.
        p: response point: loss rate per packet.
        loss_model: response point: ``'periodic'`` (default) or ``'random'``.
        rtt, mss: response point: round-trip time (default 100 ms) and packet size
            (default 1460 B).
        warmup_losses, losses: response point: loss events discarded and measured.
        table3: seed 003's experiment.
        duration, drop_rule: scenario overrides.
        seed: seed of every random draw, both engines (default 1).
        seeds: a scenario: judge each metric's mean over ``seeds`` seeds from ``seed`` on,
            ``ci95`` the interval of its per-seed error (where drop-tail phase decides a
            flow's timeouts one seed's verdict is chance).
        check: raise :class:`ValidationError` (with ``.result``) when a metric is out of
            tolerance. By default the result is returned with ``passed`` False (the CLI
            exits 1 after printing the comparison).

    Returns:
        :class:`ValidateResult`: ``metrics`` (metric, flow, link, fluid, packet, error_kind,
        error, tolerance, tolerance_reason, judged, ok, headline, ...), ``passed``, ``failed``; for
        ``table3`` the ``table3`` table.
    """
    named = dict(
        scenario=scenario,
        builtin=builtin,
        algo=algo,
        param=param,
        p=p,
        loss_model=loss_model,
        rtt=rtt,
        mss=mss,
        warmup_losses=warmup_losses,
        losses=losses,
        table3=table3,
        duration=duration,
        drop_rule=drop_rule,
        seed=seed,
        seeds=seeds,
    )
    out = invoke("validate", _flags(named, flags), json_on_failure=True)
    result = ValidateResult(out.data, out.argv, out.returncode, out.stderr)
    if check and not result.passed:
        raise ValidationError(
            error_line(out.stderr, out.returncode),
            out.returncode,
            out.argv,
            out.stdout,
            out.stderr,
            result=result,
        )
    return result


def reference(
    *,
    sim: Optional[str] = None,
    experiment: Optional[str] = None,
    algo: Optional[Names] = None,
    p: Optional[Union[Quantity, Sequence[Quantity]]] = None,
    bandwidth: Optional[Union[Quantity, Sequence[Quantity]]] = None,
    mode: Optional[str] = None,
    builtin: Optional[Names] = None,
    seeds: Optional[Union[int, Sequence[int]]] = None,
    tcpfluid_params: Optional[str] = None,
    engines: Optional[Names] = None,
    **flags: Any,
) -> ReferenceResult:
    """The same experiment in ns-2 (TCP/Linux) and ns-3 beside tcpfluid's engines.

    Needs the simulators for ``sim='ns2'``, ``'ns3'`` or ``'both'`` (the default):
    ``apt-get install ns2 libns3-dev g++``; without one the CLI exits 1 and this raises
    :class:`RunError`. ``sim='none'`` runs tcpfluid alone.

    Args:
        sim: ``'ns2'``, ``'ns3'``, ``'both'`` or ``'none'``.
        experiment: ``'response'`` (default), ``'converge'``, ``'fairness'`` or
            ``'scenario'`` (ns-3 only).
        algo: algorithms (default reno).
        p: response: loss rates per packet.
        bandwidth: converge: link rates, ``'1Gbps'`` or bit/s.
        mode: fairness: ``'same'``, ``'rtt'`` or ``'friendliness'``.
        builtin: scenario: one-link built-ins, ``'modern-dctcp-2'``.
        seeds: seeds, a list or N for 1..N (fairness: mean and spread over them).
        tcpfluid_params: tcpfluid's constants, ``'linux'`` (default), ``'ns3'`` (the default
            beside ns-3 alone) or ``'default'``.
        engines: tcpfluid's engines beside the simulators, ``['fluid', 'packet']``.
        Other flags of ``tcpfluid reference`` by name: ``rtt='100ms'``, ``duration='200s'``,
        ``against=('cubic', 1)`` …

    Returns:
        :class:`ReferenceResult`: ``rows`` (the compared quantity in every engine and
        simulator, and the relative errors), ``runs`` (each simulator run: version, module,
        seed, wall time, packets, losses, timeouts and its measurement), ``metrics`` for the
        scenario experiment.
    """
    named = dict(
        sim=sim,
        experiment=experiment,
        algo=algo,
        p=p,
        bandwidth=bandwidth,
        mode=mode,
        builtin=builtin,
        seeds=seeds,
        tcpfluid_params=tcpfluid_params,
        engines=engines,
    )
    out = invoke("reference", _flags(named, flags))
    return ReferenceResult(out.data, out.argv, out.returncode, out.stderr)
