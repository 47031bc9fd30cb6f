"""Each function against the real CLI, on small inputs (a second or two in all)."""

from __future__ import annotations

import math

import pytest

import tcpfluid

pytestmark = pytest.mark.usefixtures("cli")


def test_response() -> None:
    r = tcpfluid.response(algo=["reno"], points=3)
    pts, fits = r.points, r.fits
    assert list(pts.columns[:6]) == [
        "algorithm",
        "p",
        "mean_cwnd_pkts",
        "ci95_pkts",
        "throughput_bps",
        "loss_events",
    ]
    assert len(pts) == 3 and set(pts["algorithm"]) == {"reno"}
    raw = r.json["results"][0]
    assert pts["mean_cwnd_pkts"].tolist() == [p["mean_cwnd_pkts"] for p in raw["points"]]
    assert (
        fits.loc[0, "c"] == raw["c"]
        and fits.loc[0, "reference_source"] == raw["reference"]["source"]
    )
    # Mathis, W = 1.22 / sqrt(p), less the ACKs of the lost packets: sqrt(1 - p) steepens
    # the fit over p up to 1e-2 by under 1e-3.
    assert abs(fits.loc[0, "d"] - 0.5) < 1e-3
    assert math.isnan(fits.loc[0, "friendliness"])  # Reno against itself: null
    assert r.df is r.points and r.meta["rtt_s"] == 0.1
    assert "points:" in str(r) and "fits:" in str(r) and "<table" in r._repr_html_()


def test_response_params_and_units() -> None:
    r = tcpfluid.response(
        algo="cubic",
        points=2,
        p_min=1e-6,
        p_max=1e-3,
        rtt=0.05,
        mss="1000B",
        param={"cubic.beta": 0.7},
    )
    assert r.meta["rtt_s"] == 0.05 and r.meta["mss_bytes"] == 1000
    assert r.points["p"].min() == pytest.approx(1e-6) and r.points["p"].max() == pytest.approx(
        1e-3
    )


def test_run_with_trace(tmp_path) -> None:
    r = tcpfluid.run(builtin="seed004-lfn", trace=True, sample="1s")
    flows, links, trace = r.flows, r.links, r.trace
    assert list(flows["name"]) == ["no-scaling", "scaling"]
    for col in (
        "flow",
        "algorithm",
        "goodput_bps",
        "mean_cwnd_pkts",
        "completion_time_s",
        "dropped_pkts",
    ):
        assert col in flows.columns
    assert flows.loc[0, "goodput_bps"] == r.json["flows"][0]["goodput_bps"]
    assert (
        abs(flows.loc[0, "goodput_bps"] / (65535 * 8 / 0.05) - 1) < 0.02
    )  # the 64 KB window's cap
    assert list(links["link"]) == ["l0", "l1"] and "utilisation" in links.columns
    assert list(trace.columns) == [
        "t_s",
        "flow",
        "subflow",
        "link",
        "cwnd_pkts",
        "ssthresh_pkts",
        "rate_bps",
        "rtt_s",
        "queue_pkts",
        "delivered_pkts",
    ]
    assert set(trace.loc[trace.flow == -1, "link"]) == {"l0", "l1"}
    assert trace.loc[trace.flow >= 0, "link"].isna().all()
    assert trace["t_s"].max() <= r.json["duration_s"] + 1e-9
    assert r.df is r.flows

    path = tmp_path / "trace.csv"
    kept = tcpfluid.run(builtin="seed004-lfn", trace=path, sample="1s")
    assert path.exists() and len(kept.trace) == len(trace)
    assert tcpfluid.run(builtin="seed004-lfn").trace is None


def test_sweep() -> None:
    s = tcpfluid.sweep(builtin="seed004-lfn", param={"buffer": [0.5, 1]})
    t = s.table
    assert s.axes == {"buffer": [0.5, 1]} and list(t.columns) == ["point", "buffer", *s.metrics]
    assert list(t["point"]) == [0, 1] and list(t["buffer"]) == [0.5, 1]
    assert t.loc[1, "jain"] == s.json["rows"][1]["jain"]
    assert s.spec["scenario"] == "seed004-lfn"


def test_sweep_nulls() -> None:
    s = tcpfluid.sweep(
        builtin="seed000-dumbbell",
        param={"buffer": "0.5:1:2"},
        duration="20s",
        metric=["throughput_bps", "completion_time_s"],
        workers=2,
    )
    assert list(s.table.columns) == ["point", "buffer", "throughput_bps", "completion_time_s"]
    assert s.table["completion_time_s"].isna().all()  # long-lived flows: null → NaN
    assert (s.table["throughput_bps"] > 0).all()


def test_converge() -> None:
    c = tcpfluid.converge(algo=["reno"], bandwidth="1Gbps", mss=1000, slow_start=True)
    t = c.table
    assert len(t) == 1 and t.loc[0, "bdp_pkts"] == 12500
    # AIMD(1, 1/2): (BDP - 1) and BDP/2 round trips of 100 ms and a 1000-byte packet's
    # 8 us transmission at 1 Gb/s (store and forward).
    rtt = 0.1 + 8e-6
    assert (
        abs(t.loc[0, "fill_time_s"] / (12499 * rtt) - 1) < 1e-6
        and abs(t.loc[0, "recovery_time_s"] / (6250 * rtt) - 1) < 1e-6
    )
    assert t.loc[0, "fill_slow_start_s"] == c.json["results"][0]["fill_slow_start_s"]


def test_fairness() -> None:
    f = tcpfluid.fairness(algo=["reno"], duration="100s")
    res, shares, series = f.results, f.shares, f.jain_series
    assert res.loc[0, "algorithm"] == "reno" and res.loc[0, "flows"] == 3
    assert res.loc[0, "jain"] == f.json["results"][0]["jain"] and 0 < res.loc[0, "jain"] <= 1
    assert list(shares.columns[:3]) == ["algorithm", "flow", "flow_algorithm"]
    assert len(shares) == 3 and abs(shares["fraction"].sum() - 1) < 1e-9
    assert (shares["loss_events"] >= 1).all() and (shares["timeouts"] <= shares["loss_events"]).all()
    assert list(series.columns) == ["algorithm", "t_s", "jain"] and len(series) > 10


def test_fairness_form() -> None:
    f = tcpfluid.fairness(algo="reno", duration="100s", form="hybrid-recovery")
    assert f.json["form"] == "hybrid-recovery" and "--form" in f.argv


def test_fairness_friendliness() -> None:
    f = tcpfluid.fairness(mode="friendliness", algo="cubic", against=("reno", 2), duration="60s")
    assert 0 < f.results.loc[0, "algorithm_share"] < 1
    assert set(f.shares["flow_algorithm"]) == {"cubic", "reno"}


def test_validate_point() -> None:
    v = tcpfluid.validate(algo="reno", p=1e-3)
    assert v.passed and v.returncode == 0 and v.point["p"] == 1e-3
    m = v.metrics
    assert list(m["metric"]) == ["mean_cwnd_pkts", "mean_throughput_bps"]
    for col in ("fluid", "packet", "error_kind", "error", "tolerance", "tolerance_reason", "judged", "ok", "headline"):
        assert col in m.columns
    assert m.loc[0, "fluid"] == v.json["metrics"][0]["fluid"] and m["ok"].all()
    assert v.failed.empty


def test_validate_seeds() -> None:
    v = tcpfluid.validate(builtin="parking-lot", duration="20s", seeds=2, seed=5)
    assert v.seeds == [5, 6] and "--seeds" in v.argv
    judged = v.metrics[v.metrics["judged"] & (v.metrics["error_kind"] != "sign")]
    assert len(judged) > 0 and judged["ci95"].notna().all()


def test_validate_table3() -> None:
    v = tcpfluid.validate(table3=True)
    t = v.table3
    assert set(t["source"]) == {"table3", "fluid", "packet"} and len(t) == 12
    assert v.df is t and v.passed == v.json["ok"]
    o = v.table3_orders
    assert len(o) == 6 and o["judged"].sum() == 4
    judged = o[o["judged"].astype(bool)]
    assert judged["fluid_ok"].all() and judged["packet_ok"].all()


def test_algos_and_version() -> None:
    a = tcpfluid.algos()
    assert "reno" in set(a.algorithms["name"])
    gamma = a.params[(a.params.algorithm == "colo") & (a.params.param == "gamma")]
    assert len(gamma) == 1
    assert tcpfluid.version().startswith("tcpfluid ")
