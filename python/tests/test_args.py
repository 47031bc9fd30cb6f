"""Keyword arguments → flags (no binary needed)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from tcpfluid import format_value, to_flags
from tcpfluid._args import flag_name


def test_issue_examples() -> None:
    assert to_flags({"points": 3}) == ["--points", "3"]
    assert to_flags({"algo": ["reno", "cubic"]}) == ["--algo", "reno,cubic"]
    assert to_flags({"param": {"colo.gamma": 2}}) == ["--param", "colo.gamma=2"]
    assert to_flags({"slow_start": True}) == ["--slow-start"]


def test_names() -> None:
    assert flag_name("p_min") == "--p-min"
    assert flag_name("warmup_losses") == "--warmup-losses"
    assert flag_name("p") == "-p"
    assert flag_name("lambda_") == "--lambda"
    with pytest.raises(TypeError):
        flag_name("--x")


def test_values() -> None:
    assert format_value("100ms") == "100ms"
    assert format_value(0.1) == "0.1"
    assert format_value(1e-7) == "1e-07"
    assert format_value(1e9) == "1000000000"  # bit/s, not 1000000000.0
    assert format_value(3.0) == "3"  # an IntFlag accepts it
    assert format_value(2.5e-3) == "0.0025"
    assert format_value(datetime.timedelta(milliseconds=100)) == "0.1s"
    assert format_value(datetime.timedelta(minutes=2)) == "120s"
    assert format_value(Path("a/b.yaml")) == "a/b.yaml"
    assert format_value(["1Gbps", 1e10]) == "1Gbps,10000000000"
    assert format_value(("50ms", 0.075)) == "50ms,0.075"
    with pytest.raises(ValueError):
        format_value(float("nan"))
    with pytest.raises(TypeError):
        format_value(object())


def test_numpy_values() -> None:
    np = pytest.importorskip("numpy")
    assert format_value(np.float64(0.5)) == "0.5"
    assert format_value(np.int64(7)) == "7"
    assert format_value(np.array([1, 2])) == "1,2"
    assert to_flags({"sack": np.bool_(True)}) == ["--sack"]


def test_booleans_and_none() -> None:
    assert to_flags({"sack": False}) == ["--sack=false"]
    assert to_flags({"seed": None, "table3": True}) == ["--table3"]
    assert to_flags({"param": {"a.b": None, "c.d": 1}}) == ["--param", "c.d=1"]


def test_repeated_and_grids() -> None:
    assert to_flags(
        {"param": {"colo.gamma": "0.5:3:6", "rtt": ["50ms", "100ms"], "cubic.beta": 0.7}}
    ) == [
        "--param",
        "colo.gamma=0.5:3:6",
        "--param",
        "rtt=50ms,100ms",
        "--param",
        "cubic.beta=0.7",
    ]


def test_order_is_kept() -> None:
    assert to_flags({"builtin": "seed004-lfn", "p": 1e-4, "rtt": "100ms"}) == [
        "--builtin",
        "seed004-lfn",
        "-p",
        "0.0001",
        "--rtt",
        "100ms",
    ]


def test_base_units() -> None:
    units = {"rtt": "s", "bandwidth": "bps", "mss": "B"}
    assert to_flags({"rtt": 0.05, "mss": 1000}, units) == ["--rtt", "0.05s", "--mss", "1000B"]
    assert to_flags({"bandwidth": [1e9, "10Gbps"]}, units) == ["--bandwidth", "1000000000bps,10Gbps"]
    assert to_flags({"rtt": "100ms", "points": 3}, units) == ["--rtt", "100ms", "--points", "3"]
    assert to_flags({"rtt": datetime.timedelta(milliseconds=20)}, units) == ["--rtt", "0.02s"]
