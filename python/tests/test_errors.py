"""Exit codes and error lines → exceptions, with a stand-in CLI and with the real one."""

from __future__ import annotations

import math
import pickle

import pytest

import tcpfluid
from tcpfluid._cli import Output, error_for, error_line


def test_error_line() -> None:
    assert error_line("progress\ntcpfluid: usage: bad\n\n", 2) == "tcpfluid: usage: bad"
    assert error_line("something else\n", 1) == "something else"
    assert error_line("", 3) == "tcpfluid: exit code 3"


def test_classification() -> None:
    def err(rc: int, stderr: str, stdout: str = "") -> tcpfluid.CLIError:
        return error_for(Output(None, ["tcpfluid", "x"], rc, stdout, stderr))

    assert type(err(2, "tcpfluid: usage: --points 0")) is tcpfluid.UsageError
    assert type(err(1, "tcpfluid: flag provided but not defined: -x")) is tcpfluid.UsageError
    assert (
        type(err(1, 'tcpfluid: invalid value "x" for flag -points: parse error'))
        is tcpfluid.UsageError
    )
    assert type(err(1, "tcpfluid: engine failed")) is tcpfluid.RunError
    e = err(2, "tcpfluid: usage: --points 0")
    assert isinstance(e, tcpfluid.TcpfluidError)
    assert str(e) == e.line == "tcpfluid: usage: --points 0"
    assert e.message == "usage: --points 0" and e.returncode == 2
    assert pickle.loads(pickle.dumps(e)).line == e.line


def test_usage_exit_2(fake) -> None:
    fake("usage")
    with pytest.raises(tcpfluid.UsageError) as info:
        tcpfluid.response(points=-1)
    assert info.value.returncode == 2
    assert info.value.line == "tcpfluid: usage: --points -1: want at least 2"
    assert info.value.argv[1:] == ["response", "--points", "-1", "--format", "json"]


def test_flag_parse_exit_1_is_usage(fake) -> None:
    fake("flagparse")
    with pytest.raises(tcpfluid.UsageError) as info:
        tcpfluid.run(bogus=1)
    assert info.value.returncode == 1
    assert info.value.line == "tcpfluid: flag provided but not defined: -bogus"


def test_run_error(fake) -> None:
    fake("runfail")
    with pytest.raises(tcpfluid.RunError) as info:
        tcpfluid.run(builtin="x")
    assert not isinstance(info.value, tcpfluid.UsageError)
    assert info.value.line == "tcpfluid: fluid engine: step size underflow at t = 3.2 s"
    assert info.value.returncode == 1
    fake("crash")
    with pytest.raises(tcpfluid.RunError, match="exit code 3"):
        tcpfluid.converge()


def test_no_json(fake) -> None:
    fake("notjson")
    with pytest.raises(tcpfluid.RunError, match="printed no JSON"):
        tcpfluid.run(builtin="x")


def test_validate_beyond_tolerance(fake) -> None:
    fake("validate-fail")
    v = tcpfluid.validate(builtin="x")
    assert v.passed is False and v.returncode == 1
    assert list(v.failed["metric"]) == ["mean_cwnd_pkts"]  # jain is not judged
    m = v.metrics
    assert m["judged"].dtype == bool and list(m["judged"]) == [True, False, True]
    assert math.isnan(m.loc[1, "tolerance"]) and m.loc[2, "error_kind"] == "absolute"
    assert list(m["headline"]) == [False, False, False]
    assert m.loc[0, "flow"] == 0 and math.isnan(m.loc[1, "flow"]) and m.loc[2, "link"] == "l0"
    with pytest.raises(tcpfluid.ValidationError) as info:
        tcpfluid.validate(builtin="x", check=True)
    assert isinstance(info.value, tcpfluid.RunError)
    assert "1 of 3 metrics out of tolerance" in info.value.line
    assert info.value.result.passed is False


def test_nulls_become_nan(fake) -> None:
    fake("nulls")
    s = tcpfluid.sweep(param={"p": [0.1, 0.2, 0.3]})
    t = s.table
    assert list(t.columns) == ["point", "p", "goodput_bps", "completion_time_s"]
    assert t["goodput_bps"].dtype == float and t["completion_time_s"].dtype == float
    assert t.loc[0, "goodput_bps"] == 1.5
    assert math.isnan(t.loc[1, "goodput_bps"]) and math.isnan(t.loc[2, "goodput_bps"])
    assert t["completion_time_s"].isna().all()


def test_format_is_reserved(fake) -> None:
    fake("echo")
    with pytest.raises(TypeError):
        tcpfluid.response(format="csv")


def test_flags_reach_the_cli(fake) -> None:
    fake("echo")
    argv = tcpfluid.call(
        "sweep",
        builtin="seed004-lfn",
        param={"buffer": [0.5, 1]},
        metric=["jain", "loss_rate"],
        shard="0/1",
    )["argv"]
    assert argv == [
        "sweep",
        "--builtin",
        "seed004-lfn",
        "--param",
        "buffer=0.5,1",
        "--metric",
        "jain,loss_rate",
        "--shard",
        "0/1",
        "--format",
        "json",
    ]
    argv = tcpfluid.call("sweep merge", "a.json", "b.json")["argv"]
    assert argv == ["sweep", "merge", "--format", "json", "a.json", "b.json"]


# --- the real CLI --------------------------------------------------------------------


def test_real_bad_flag(cli) -> None:
    with pytest.raises(tcpfluid.UsageError) as info:
        tcpfluid.response(algo=["reno"], points=3, bogus=1)
    assert info.value.line == "tcpfluid: usage: response: unknown flag --bogus (see tcpfluid response --help)"
    assert info.value.returncode == 2


def test_real_usage_error(cli) -> None:
    with pytest.raises(tcpfluid.UsageError) as info:
        tcpfluid.response(algo=["nope"], points=3)
    assert info.value.returncode == 2
    assert info.value.line.startswith("tcpfluid: ") and "unknown algorithm" in info.value.line
    with pytest.raises(tcpfluid.UsageError) as info:
        tcpfluid.run(builtin="no-such-scenario")
    assert info.value.returncode == 2 and "no-such-scenario" in info.value.message
