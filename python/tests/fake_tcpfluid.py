"""A stand-in for the tcpfluid CLI: $FAKE_MODE chooses what it prints and how it exits.

conftest.py's ``fake`` fixture copies it behind a shebang line as $TCPFLUID_BIN.
"""

import json
import os
import sys

VALIDATE_FAIL = {
    "scenario": "x",
    "seed": 1,
    "ok": False,
    "metrics": [
        {"metric": "mean_cwnd_pkts", "flow": 0, "fluid": 10.0, "packet": 20.0, "error_kind": "relative",
         "error": 0.5, "tolerance": 0.1, "tolerance_reason": "r", "judged": True, "ok": False},
        {"metric": "jain", "fluid": 1.0, "packet": 0.5, "error_kind": "relative", "error": 0.5,
         "tolerance": None, "tolerance_reason": "no tolerance", "judged": False, "ok": False},
        {"metric": "utilisation", "link": "l0", "fluid": 0.9, "packet": 0.9, "error_kind": "absolute",
         "error": 0.0, "tolerance": 0.03, "tolerance_reason": "r", "judged": True, "ok": True},
    ],
}  # fmt: skip

NULLS = {
    "spec": {"scenario": "s"},
    "axes": [{"name": "p", "values": [0.1, 0.2, 0.3]}],
    "metrics": ["goodput_bps", "completion_time_s"],
    "rows": [
        {"point": 0, "p": 0.1, "goodput_bps": 1.5, "completion_time_s": None},
        {"point": 1, "p": 0.2, "goodput_bps": None, "completion_time_s": None},
        {"point": 2, "p": 0.3, "goodput_bps": "NaN", "completion_time_s": None},
    ],
}


def fail(line: str, code: int, stdout: str = "") -> None:
    if stdout:
        print(stdout)
    print(line, file=sys.stderr)
    sys.exit(code)


def main() -> None:
    mode = os.environ.get("FAKE_MODE", "echo")
    if mode == "echo":
        print(json.dumps({"argv": sys.argv[1:]}))
    elif mode == "usage":
        fail("tcpfluid: usage: --points -1: want at least 2", 2)
    elif mode == "flagparse":
        fail("tcpfluid: flag provided but not defined: -bogus", 1,
             "Incorrect Usage: flag provided but not defined: -bogus\n\nNAME: ...")  # fmt: skip
    elif mode == "runfail":
        fail("progress...\ntcpfluid: fluid engine: step size underflow at t = 3.2 s", 1)
    elif mode == "crash":
        sys.exit(3)
    elif mode == "notjson":
        print("flow  name ...")
    elif mode == "validate-fail":
        fail("tcpfluid: validate: 1 of 3 metrics out of tolerance (mean_cwnd_pkts flow 0)", 1,
             json.dumps(VALIDATE_FAIL))  # fmt: skip
    elif mode == "nulls":
        print(json.dumps(NULLS))


if __name__ == "__main__":
    main()
