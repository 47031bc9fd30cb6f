"""Exceptions raised by the tcpfluid package."""

from __future__ import annotations

from typing import Any, Optional, Sequence

__all__ = [
    "TcpfluidError",
    "BinaryNotFoundError",
    "BuildError",
    "CLIError",
    "UsageError",
    "RunError",
    "ValidationError",
]


class TcpfluidError(Exception):
    """Base class of every error this package raises."""


class BinaryNotFoundError(TcpfluidError):
    """No tcpfluid binary: not in $TCPFLUID_BIN, not on PATH, and no checkout to build."""


class BuildError(TcpfluidError):
    """``go build`` of the checkout's ``./cmd/tcpfluid`` failed.

    Attributes: ``root`` (the checkout), ``returncode`` and ``stderr`` of ``go build``.
    """

    def __init__(
        self, message: str, root: str = "", returncode: Optional[int] = None, stderr: str = ""
    ):
        super().__init__(message)
        self.root = root
        self.returncode = returncode
        self.stderr = stderr


class CLIError(TcpfluidError):
    """The CLI exited with a non-zero code.

    ``str(err)`` is the CLI's one-line error (``tcpfluid: ...``). Attributes:

    - ``line``: that line, as the CLI printed it on stderr;
    - ``message``: the line without the ``tcpfluid: `` prefix;
    - ``returncode``: the exit code (2: usage, 1: a failed run or validation);
    - ``argv``: the command line that was run;
    - ``stdout``, ``stderr``: everything the CLI printed.
    """

    def __init__(
        self,
        line: str,
        returncode: int,
        argv: Sequence[str] = (),
        stdout: str = "",
        stderr: str = "",
    ):
        super().__init__(line)
        self.line = line
        self.message = line[len("tcpfluid: ") :] if line.startswith("tcpfluid: ") else line
        self.returncode = returncode
        self.argv = list(argv)
        self.stdout = stdout
        self.stderr = stderr

    def __reduce__(self) -> Any:  # keep the attributes through pickling (multiprocessing)
        return (type(self), (self.line, self.returncode, self.argv, self.stdout, self.stderr))


class UsageError(CLIError):
    """The CLI rejected its arguments: an unknown flag, a bad value, a missing input (exit code 2).

    Flag-parsing errors of the current CLI exit with 1 and are UsageErrors too.
    """


class RunError(CLIError):
    """The CLI accepted its arguments but the run failed (exit code 1)."""


class ValidationError(RunError):
    """``validate(..., check=True)``: a metric is beyond its tolerance.

    ``result`` holds the :class:`~tcpfluid.ValidateResult`, the table the CLI printed.
    """

    def __init__(
        self,
        line: str,
        returncode: int,
        argv: Sequence[str] = (),
        stdout: str = "",
        stderr: str = "",
        result: Any = None,
    ):
        super().__init__(line, returncode, argv, stdout, stderr)
        self.result = result

    def __reduce__(self) -> Any:
        return (
            type(self),
            (self.line, self.returncode, self.argv, self.stdout, self.stderr, self.result),
        )
