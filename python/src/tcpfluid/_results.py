"""Result objects: the CLI's JSON, and DataFrames of it built on first access."""

from __future__ import annotations

import html
import shlex
from functools import cached_property
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

if TYPE_CHECKING:  # pandas is imported when a table is first built, not with the package
    import pandas as pd


def _tables() -> Any:
    try:
        from . import _frames
    except ImportError as err:
        raise ImportError(
            f"tcpfluid's tables need pandas ({err}): apt-get install python3-pandas, "
            "or pip install pandas"
        ) from err
    return _frames


def frame(*args: Any, **kwargs: Any) -> "pd.DataFrame":
    return _tables().frame(*args, **kwargs)


def children(*args: Any, **kwargs: Any) -> "pd.DataFrame":
    return _tables().children(*args, **kwargs)


def read_trace_csv(text: str) -> "pd.DataFrame":
    return _tables().read_trace_csv(text)


__all__ = [
    "Result",
    "ResponseResult",
    "RunResult",
    "SweepResult",
    "ConvergeResult",
    "FairnessResult",
    "ValidateResult",
    "AlgosResult",
    "ReferenceResult",
]


class Result:
    """What every function returns.

    - ``json``: the CLI's JSON output, parsed (``null`` is ``None``);
    - the tables, as DataFrame attributes named in ``tables``; ``df`` is the first;
    - ``meta``: the JSON's top-level scalar fields (settings such as ``seed``, ``form``);
    - ``argv``: the command line that ran; ``returncode``: its exit code.

    ``print(result)`` prints every table; in Jupyter a result displays as its tables.
    """

    tables: Tuple[str, ...] = ()

    def __init__(
        self,
        data: Dict[str, Any],
        argv: Optional[List[str]] = None,
        returncode: int = 0,
        stderr: str = "",
    ) -> None:
        self.json = data
        self.argv = list(argv or [])
        self.returncode = returncode
        self.stderr = stderr

    @property
    def df(self) -> "pd.DataFrame":
        """The main table."""
        return getattr(self, self.tables[0])

    @property
    def meta(self) -> Dict[str, Any]:
        """The top-level fields of the JSON that are not lists or objects."""
        return {k: v for k, v in self.json.items() if not isinstance(v, (list, dict))}

    def _frames(self) -> List[Tuple[str, "pd.DataFrame"]]:
        out = []
        for name in self.tables:
            value = getattr(self, name)
            if value is not None:
                out.append((name, value))
        return out

    def _title(self) -> str:
        cmd = " ".join(shlex.quote(a) for a in self.argv[1:])
        return f"{type(self).__name__}: tcpfluid {cmd}" if cmd else type(self).__name__

    def __str__(self) -> str:
        parts = [self._title()]
        for name, df in self._frames():
            parts.append(f"{name}:\n{df.to_string() if len(df) <= 60 else df}")
        return "\n\n".join(parts)

    def __repr__(self) -> str:
        shapes = ", ".join(f"{name}={df.shape[0]}x{df.shape[1]}" for name, df in self._frames())
        return f"<{self._title()} ({shapes})>"

    def _repr_html_(self) -> str:
        parts = [f"<p><b>{html.escape(self._title())}</b></p>"]
        for name, df in self._frames():
            parts.append(f"<p><code>.{html.escape(name)}</code></p>{df._repr_html_()}")
        return "\n".join(parts)


class ResponseResult(Result):
    """``response()``: ``points`` (a row per algorithm and loss rate) and ``fits``.

    fits has a row per algorithm.
    points: algorithm, p, mean_cwnd_pkts, ci95_pkts, throughput_bps, loss_events,
    warmup_losses, simulated_s.
    fits: algorithm, c, d, r2, fit_p_max, fit_points, reference_c, reference_d,
    reference_e, reference_source, reference_c_at_rtt, friendliness_* (NaN for Reno),
    rtt_exponent_e, rtt_exponent_r2, rtt_exponent_p, rtt_exponent_rtts_s.
    """

    tables = ("points", "fits")

    @cached_property
    def points(self) -> "pd.DataFrame":
        return children(
            self.json.get("results"),
            "points",
            {"algorithm": "algorithm"},
            columns=["p", "mean_cwnd_pkts"],
        )

    @cached_property
    def fits(self) -> "pd.DataFrame":
        return frame(self.json.get("results"), columns=["algorithm", "c", "d", "r2"])


class RunResult(Result):
    """``run()``: ``flows`` (one row per flow, or MPTCP subflow), ``links``, and ``trace``.

    flows: flow, subflow, name, algorithm, path, mean_throughput_bps, mean_cwnd_pkts,
    loss_events, timeouts, spurious_timeouts (packet engine: timeouts whose next new ACK
    was for data sent before them, RFC 3522), sent_pkts, delivered_pkts, dropped_pkts,
    goodput_bps, completion_time_s (NaN for long-lived flows), active_s.
    links: link, mean_queue_pkts, queue_sd_pkts (the queue's standard deviation over
    time), utilisation, dropped_pkts.
    trace: the time series when run with ``trace=``, else None: t_s, flow, subflow, link,
    cwnd_pkts, ssthresh_pkts, rate_bps, rtt_s, queue_pkts, delivered_pkts; rows with
    flow = -1 are links (queue_pkts is the link's queue).
    """

    tables = ("flows", "links", "trace")

    def __init__(
        self,
        data: Dict[str, Any],
        argv: Optional[List[str]] = None,
        returncode: int = 0,
        stderr: str = "",
        trace_csv: Optional[str] = None,
    ) -> None:
        super().__init__(data, argv, returncode, stderr)
        self.trace_csv = trace_csv

    @cached_property
    def flows(self) -> "pd.DataFrame":
        return frame(self.json.get("flows"), columns=["flow", "subflow", "name", "algorithm"])

    @cached_property
    def links(self) -> "pd.DataFrame":
        return frame(self.json.get("links"), columns=["link"])

    @cached_property
    def trace(self) -> Optional["pd.DataFrame"]:
        return None if self.trace_csv is None else read_trace_csv(self.trace_csv)


class SweepResult(Result):
    """``sweep()``: ``table``, one row per point: point, the swept parameters, the metrics.

    Also ``axes`` ({name: values}), ``metrics`` (the metric columns) and ``spec``
    (scenario, engine, seed, fingerprint). Metrics without a value (completion_time_s of
    a run where no flow finished) are NaN.
    """

    tables = ("table",)

    @property
    def axes(self) -> Dict[str, List[float]]:
        return {a.get("name"): a.get("values") for a in self.json.get("axes") or []}

    @property
    def metrics(self) -> List[str]:
        return list(self.json.get("metrics") or [])

    @property
    def spec(self) -> Dict[str, Any]:
        return dict(self.json.get("spec") or {})

    @cached_property
    def table(self) -> "pd.DataFrame":
        return frame(self.json.get("rows"), columns=["point", *self.axes, *self.metrics])


class ConvergeResult(Result):
    """``converge()``: ``table``, one row per algorithm, link rate and packet size.

    Columns: algorithm, bandwidth_bps, rtt_s, mss_bytes, bdp_pkts, fill_time_s,
    recovery_time_s, fill_closed_form_s, recovery_closed_form_s, fill_rel_diff,
    recovery_rel_diff (NaN where no closed form exists), closed_form_note,
    fill_slow_start_s with ``slow_start=True``.
    """

    tables = ("table",)

    @cached_property
    def table(self) -> "pd.DataFrame":
        return frame(
            self.json.get("results"),
            columns=[
                "algorithm",
                "bandwidth_bps",
                "rtt_s",
                "mss_bytes",
                "bdp_pkts",
                "fill_time_s",
                "recovery_time_s",
            ],
        )


class FairnessResult(Result):
    """``fairness()``: ``results`` (one row per algorithm), ``shares`` and ``jain_series``.

    results: algorithm, flows, jain, measure_s ([from, to] in s), utilisation,
    loss_events; rtt_unfairness_exponent and rtt_unfairness_r2 (rtt mode), algorithm_share
    (friendliness mode).
    shares: algorithm (the run's), flow, flow_algorithm, rtt_s, throughput_bps, fraction,
    loss_events, timeouts (over the whole run).
    jain_series: algorithm, t_s, jain.
    """

    tables = ("results", "shares", "jain_series")

    @cached_property
    def results(self) -> "pd.DataFrame":
        return frame(self.json.get("results"), columns=["algorithm", "flows", "jain"])

    @cached_property
    def shares(self) -> "pd.DataFrame":
        return children(
            self.json.get("results"),
            "shares",
            {"algorithm": "algorithm"},
            rename={"algorithm": "flow_algorithm"},
            columns=["flow", "flow_algorithm"],
        )

    @cached_property
    def jain_series(self) -> "pd.DataFrame":
        return children(
            self.json.get("results"),
            "jain_series",
            {"algorithm": "algorithm"},
            columns=["t_s", "jain"],
        )


_METRIC_COLUMNS = [
    "metric",
    "flow",
    "subflow",
    "link",
    "fluid",
    "packet",
    "error_kind",
    "error",
    "ci95",
    "tolerance",
    "tolerance_reason",
    "judged",
    "ok",
]


class ValidateResult(Result):
    """``validate()``: ``metrics`` (one row per compared metric) and ``passed``.

    metrics: metric, flow, subflow, link (NaN where the metric is not a flow's or a
    link's), fluid, packet, error_kind (relative, absolute or sign), error, ci95 (paired
    95% CI of the error under random loss, or of the per-seed errors with ``seeds``),
    tolerance (NaN when not judged),
    tolerance_reason, judged, ok, headline (the source's number).
    ``table3`` (``table3=True``): algorithm, source (table3, fluid, packet),
    dropped_pkts, delivered_pkts, goodput_bps, ok.
    ``table3_orders`` (``table3=True``): each pair of Table 3's ranking, higher above
    lower: ns2_agree of ns2_runs ns-2.35 runs (CBR sources started 0–19 ms later) order it
    so, p_value (two-sided sign test), judged (p < 0.05), fluid_ok, packet_ok.
    ``passed``: every judged metric within tolerance (exit code 0).
    ``failed``: the judged metrics out of tolerance. ``point`` / ``scenario``: what ran.
    ``notes``: the CLI's notes.
    """

    tables = ("metrics", "table3", "table3_orders")

    @property
    def passed(self) -> bool:
        return bool(self.json.get("ok", self.returncode == 0)) and self.returncode == 0

    @property
    def point(self) -> Optional[Dict[str, Any]]:
        return self.json.get("point")

    @property
    def scenario(self) -> Optional[str]:
        return self.json.get("scenario")

    @property
    def seeds(self) -> List[int]:
        """The seeds whose means the metrics are (``seeds=N`` > 1); else the one seed."""
        return list(self.json.get("seeds") or [self.json.get("seed", 1)])

    @property
    def notes(self) -> List[str]:
        return list(self.json.get("notes") or [])

    @cached_property
    def metrics(self) -> "pd.DataFrame":
        return frame(
            self.json.get("metrics"),
            columns=_METRIC_COLUMNS,
            defaults={"headline": False},
        )

    @cached_property
    def table3(self) -> Optional["pd.DataFrame"]:
        rows = self.json.get("rows")
        if rows is None:
            return None
        long = []
        for r in rows:
            for source, values in r.items():
                if isinstance(values, dict):
                    long.append(
                        {
                            "algorithm": r.get("algorithm"),
                            "source": source,
                            **values,
                            "ok": r.get("ok"),
                        }
                    )
        return frame(long, columns=["algorithm", "source"])

    @cached_property
    def table3_orders(self) -> Optional["pd.DataFrame"]:
        orders = self.json.get("orders")
        if orders is None:
            return None
        return frame(orders, columns=["higher", "lower"])

    @property
    def failed(self) -> "pd.DataFrame":
        m = self.metrics
        if m.empty:
            return m
        return m[m["judged"].astype(bool) & ~m["ok"].astype(bool)]

    @property
    def df(self) -> "pd.DataFrame":
        if self.json.get("metrics") is None and self.table3 is not None:
            return self.table3
        return self.metrics

    def _frames(self) -> List[Tuple[str, "pd.DataFrame"]]:
        frames = super()._frames()
        if self.json.get("metrics") is None:
            frames = [(n, f) for n, f in frames if n != "metrics"]
        return frames


class AlgosResult(Result):
    """``algos()``: ``algorithms`` (name, description) and ``params``.

    params: algorithm, param, value, default, unit, min, max, source, doc.
    """

    tables = ("params", "algorithms")

    @cached_property
    def algorithms(self) -> "pd.DataFrame":
        return frame(self.json.get("algorithms"), columns=["name", "description"])

    @cached_property
    def params(self) -> "pd.DataFrame":
        return children(
            self.json.get("algorithms"),
            "params",
            {"name": "algorithm"},
            rename={"name": "param"},
            columns=["param", "value", "default", "unit", "min", "max"],
        )


class ReferenceResult(Result):
    """``reference()``: ``rows`` (a row per point), ``runs`` (a row per simulator run) and,
    for the scenario experiment, ``metrics``.

    rows: experiment, algorithm, quantity (what is compared: mean_cwnd_pkts, recovery_s or
    jain), the point (p, bandwidth_bps or mode), then that quantity in fluid, fluid_recovery
    (the counted form), packet, ns2 and ns3 (the simulators' mean over their runs, NaN where
    one did not run), and rel_err_* (the CLI's relative errors, ``rel_err_fluid/ns2`` …).
    runs: experiment, algorithm, simulator, version, module, seed, wall_s, simulated_s,
    sent_pkts, dropped_pkts, loss_events, timeouts and the experiment's measurement
    (response_*, converge_*, fairness_*, scenario_*).
    metrics (scenario experiment): experiment, then each metric's row (metric, subject,
    fluid, packet, ns3, their errors, tolerance and verdicts).
    """

    tables = ("rows", "runs", "metrics")

    @cached_property
    def rows(self) -> "pd.DataFrame":
        kind = self.json.get("kind")
        records = []
        for r in self.json.get("rows") or []:
            q = r.get("quantity")
            rec: Dict[str, Any] = {k: r.get(k) for k in ("experiment", "algorithm", "quantity")}
            for k in ("p", "bandwidth_bps", "mode"):
                if k in r:
                    rec[k] = r[k]
            for engine in ("fluid", "fluid_recovery", "packet"):
                rec[engine] = (r.get(engine) or {}).get(q)
            for sim in ("ns2", "ns3"):
                summary = r.get(sim + "_fairness")
                if summary:
                    rec[sim] = (summary.get(q) or {}).get("mean")
                    continue
                vals = [(m.get(kind) or {}).get(q) for m in r.get(sim) or []]
                vals = [v for v in vals if isinstance(v, (int, float))]
                rec[sim] = sum(vals) / len(vals) if vals else None
            rec["rel_err"] = r.get("rel_err") or {}
            records.append(rec)
        return frame(
            records,
            columns=["experiment", "algorithm", "quantity"],
            defaults={c: None for c in ("fluid", "fluid_recovery", "packet", "ns2", "ns3")},
        )

    @cached_property
    def runs(self) -> "pd.DataFrame":
        records = []
        for r in self.json.get("rows") or []:
            for sim in ("ns2", "ns3"):
                for m in r.get(sim) or []:
                    records.append({k: v for k, v in m.items() if k != "spec"})
        return frame(
            records,
            columns=["experiment", "algorithm", "simulator", "version", "module", "seed", "wall_s", "simulated_s"],
        )

    @cached_property
    def metrics(self) -> Optional["pd.DataFrame"]:
        if self.json.get("kind") != "scenario":
            return None
        return children(self.json.get("rows"), "metrics", {"experiment": "experiment"})
