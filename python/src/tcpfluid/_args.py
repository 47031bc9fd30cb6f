"""Python keyword arguments → tcpfluid command-line flags.

The mapping is generic, so flags added to the CLI work without changes here:

============================================  ======================================
Python                                        command line
============================================  ======================================
``points=3``                                  ``--points 3``
``p_min=1e-7`` (underscores → hyphens)        ``--p-min 1e-07``
``p=1e-4`` (one letter)                       ``-p 0.0001``
``rtt='100ms'``, ``bandwidth='1Gbps'``        ``--rtt 100ms``, ``--bandwidth 1Gbps``
``rtt=0.1`` (plain numbers: SI base units)    ``--rtt 0.1s`` (the flag's base unit added)
``rtt=timedelta(milliseconds=100)``           ``--rtt 0.1s``
``algo=['reno', 'cubic']``                    ``--algo reno,cubic``
``param={'colo.gamma': 2}``                   ``--param colo.gamma=2`` (one per key)
``param={'rtt': ['50ms', '100ms']}``          ``--param rtt=50ms,100ms`` (a sweep grid)
``slow_start=True``                           ``--slow-start``
``slow_start=False``                          ``--slow-start=false``
``scenario=Path('s.yaml')``                   ``--scenario s.yaml``
``seed=None``                                 (left out: the CLI's default)
============================================  ======================================

A trailing underscore is dropped (``lambda_=...`` → ``--lambda``), for names that are
Python keywords. The CLI wants a unit on every quantity (``--rtt 0.1`` is an error); a
plain number given for a flag with a base unit (seconds ``s``, bit/s ``bps``, bytes ``B``,
BDPs ``bdp``, as ``tcpfluid flags`` reports them) gets that unit, in lists too.
"""

from __future__ import annotations

import datetime
import math
import numbers
import os
from typing import Any, Iterable, List, Mapping, Optional

__all__ = ["to_flags", "flag_name", "format_value"]


def flag_name(name: str) -> str:
    """``p_min`` → ``--p-min``; one-letter names get one dash (``p`` → ``-p``)."""
    if not name or name.startswith("-"):
        raise TypeError(f"bad flag name {name!r}")
    if name.endswith("_") and len(name) > 1:
        name = name[:-1]
    name = name.replace("_", "-")
    return ("-" if len(name) == 1 else "--") + name


def format_value(value: Any, unit: str = "") -> str:
    """One value as the CLI reads it: numbers in Python's round-trip form, lists comma-joined.

    Plain numbers are in the flag's base unit, which ``unit`` appends (``0.1`` with ``s``
    → ``0.1s``); ``datetime.timedelta`` becomes seconds with an ``s``.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or _is_numpy_bool(value):
        return "true" if value else "false"
    if isinstance(value, datetime.timedelta):
        return _number(value.total_seconds()) + "s"
    if isinstance(value, numbers.Integral):
        return str(int(value)) + unit
    if isinstance(value, numbers.Real):
        return _number(float(value)) + unit
    if isinstance(value, os.PathLike):
        return os.fspath(value)  # type: ignore[return-value]
    if isinstance(value, Mapping):
        raise TypeError(
            "a mapping is only allowed as a whole flag value (param={...}), "
            f"got {value!r} inside a list"
        )
    if isinstance(value, Iterable):
        return ",".join(format_value(v, unit) for v in value)
    raise TypeError(f"cannot pass {type(value).__name__} {value!r} to the CLI")


def _number(v: float) -> str:
    if math.isnan(v) or math.isinf(v):
        raise ValueError(f"{v} is not a value the CLI accepts")
    if v == int(v) and abs(v) < 1e16:
        return str(int(v))  # 1e9 → 1000000000, not 1000000000.0
    return repr(v)


def _is_numpy_bool(value: Any) -> bool:
    return type(value).__name__ == "bool_" and type(value).__module__ == "numpy"


def to_flags(flags: Mapping[str, Any], units: Optional[Mapping[str, str]] = None) -> List[str]:
    """Turns keyword arguments into CLI arguments, in order; ``None`` values are left out.

    ``units`` maps flag names (``rtt``) to their base units (``s``), for plain numbers.

    >>> to_flags({"algo": ["reno", "cubic"], "points": 3, "param": {"colo.gamma": 2}})
    ['--algo', 'reno,cubic', '--points', '3', '--param', 'colo.gamma=2']
    >>> to_flags({"rtt": 0.05, "bandwidth": [1e9, "10Gbps"]}, {"rtt": "s", "bandwidth": "bps"})
    ['--rtt', '0.05s', '--bandwidth', '1000000000bps,10Gbps']
    """
    args: List[str] = []
    for name, value in flags.items():
        if value is None:
            continue
        flag = flag_name(name)
        if isinstance(value, bool) or _is_numpy_bool(value):
            args.append(flag if value else flag + "=false")
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if item is None:
                    continue
                args += [flag, f"{key}={format_value(item)}"]
        else:
            args += [flag, format_value(value, (units or {}).get(flag.lstrip("-"), ""))]
    return args
