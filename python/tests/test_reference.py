"""reference(): its tables from a stored ns-2 run, and the CLI with no simulator."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import tcpfluid

STORED = Path(__file__).resolve().parents[2] / "testdata" / "reference" / "ns2" / "fairness-rtt-reno.json"


def test_reference_tables_from_a_stored_run() -> None:
    data = json.loads(STORED.read_text())
    r = tcpfluid.ReferenceResult(data)
    rows, runs = r.rows, r.runs
    row = data["rows"][0]
    assert len(rows) == 1 and rows.loc[0, "quantity"] == "jain" and rows.loc[0, "mode"] == "rtt"
    assert rows.loc[0, "ns2"] == row["ns2_fairness"]["jain"]["mean"] and math.isnan(rows.loc[0, "ns3"])
    assert rows.loc[0, "fluid"] == row["fluid"]["jain"]
    assert rows.loc[0, "rel_err_fluid/ns2"] == row["rel_err"]["fluid/ns2"]
    assert list(runs["seed"]) == list(range(1, 11)) and set(runs["simulator"]) == {"ns2"}
    assert list(runs["fairness_jain"]) == [m["fairness"]["jain"] for m in row["ns2"]]
    assert r.metrics is None and r.df is rows


@pytest.mark.usefixtures("cli")
def test_reference_tcpfluid_alone() -> None:
    r = tcpfluid.reference(sim="none", experiment="converge", algo=["reno", "vegas"], bandwidth="100Mbps")
    rows = r.rows
    assert list(rows["algorithm"]) == ["reno", "vegas"] and set(rows["quantity"]) == {"recovery_s"}
    # Reno back from half the pipe of 1500 + 50-byte packets, one packet a round trip.
    pipe = 100e6 * 0.1 / (8 * 1550)
    assert abs(rows.loc[0, "fluid"] / (pipe / 2 * 0.1) - 1) < 0.01
    assert rows["ns2"].isna().all() and r.runs.empty and "--sim" in r.argv
