"""tcpfluid from Python: the tcpfluid CLI's analyses as pandas DataFrames.

>>> import tcpfluid
>>> r = tcpfluid.response(algo=["reno"], points=3)
>>> r.points[["algorithm", "p", "mean_cwnd_pkts"]]      # one row per loss rate
>>> r.fits.loc[0, "d"]                                  # 0.5: W = c / p^d
>>> r.json["results"][0]["c"]                           # the CLI's JSON, as parsed

Every function (:func:`response`, :func:`run`, :func:`sweep`, :func:`converge`,
:func:`fairness`, :func:`validate`, :func:`reference`, :func:`algos`) runs one CLI command with
``--format json``; keyword arguments become flags (``points=3`` → ``--points 3``; see
:func:`to_flags`), and the result holds the JSON (``.json``) and DataFrames of it
(``.df`` is the main one). The binary is ``$TCPFLUID_BIN``, else ``tcpfluid`` on PATH,
else built from the surrounding checkout (see :func:`find_binary`). CLI errors raise
:class:`UsageError` (exit code 2, a rejected argument) or :class:`RunError` (exit code 1),
both :class:`TcpfluidError` subclasses carrying the CLI's error line and exit code.
"""

from ._api import algos, call, converge, fairness, reference, response, run, sweep, validate, version
from ._args import format_value, to_flags
from ._binary import cache_dir, find_binary, find_checkout
from ._errors import (
    BinaryNotFoundError,
    BuildError,
    CLIError,
    RunError,
    TcpfluidError,
    UsageError,
    ValidationError,
)
from ._results import (
    AlgosResult,
    ConvergeResult,
    FairnessResult,
    ResponseResult,
    Result,
    RunResult,
    SweepResult,
    ValidateResult,
    ReferenceResult,
)

__version__ = "0.1.0.dev0"

# Name the public classes by the package in tracebacks and reprs (tcpfluid.UsageError).
for _cls in (
    TcpfluidError,
    CLIError,
    UsageError,
    RunError,
    ValidationError,
    BinaryNotFoundError,
    BuildError,
    Result,
    ResponseResult,
    RunResult,
    SweepResult,
    ConvergeResult,
    FairnessResult,
    ValidateResult,
    AlgosResult,
    ReferenceResult,
):
    _cls.__module__ = __name__
del _cls

__all__ = [
    "response",
    "run",
    "sweep",
    "converge",
    "fairness",
    "validate",
    "reference",
    "algos",
    "call",
    "version",
    "to_flags",
    "format_value",
    "find_binary",
    "find_checkout",
    "cache_dir",
    "TcpfluidError",
    "CLIError",
    "UsageError",
    "RunError",
    "ValidationError",
    "BinaryNotFoundError",
    "BuildError",
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
