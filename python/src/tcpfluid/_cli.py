"""Running the CLI and turning its exit codes into exceptions."""

from __future__ import annotations

import functools
import json
import subprocess
from typing import Any, List, Mapping, NamedTuple, Sequence, Union

from ._args import to_flags
from ._binary import find_binary
from ._errors import CLIError, RunError, UsageError

__all__ = ["Output", "invoke", "error_for", "error_line"]

# What Go's flag package and urfave/cli print for arguments they cannot parse. Today's CLI
# exits with 1 for these (it exits with 2 for its own usage errors); they are usage errors.
_FLAG_PARSE_ERRORS = (
    "flag provided but not defined",
    "invalid value ",
    "invalid boolean value",
    "flag needs an argument",
    "bad flag syntax",
    "Required flag",
    "Required flags",
    "No help topic for",
)


class Output(NamedTuple):
    """A finished CLI run: the parsed JSON (None if stdout was not JSON) and the process."""

    data: Any
    argv: List[str]
    returncode: int
    stdout: str
    stderr: str


def error_line(stderr: str, returncode: int) -> str:
    """The CLI's one-line error: the last stderr line that starts with ``tcpfluid:``.

    Else the last line, else a line naming the exit code.
    """
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in reversed(lines):
        if ln.startswith("tcpfluid:"):
            return ln
    if lines:
        return lines[-1]
    return f"tcpfluid: exit code {returncode}"


def error_for(out: Output) -> CLIError:
    """The exception for a failed run.

    UsageError for exit code 2 or for a flag the CLI could not parse, else RunError.
    """
    line = error_line(out.stderr, out.returncode)
    usage = out.returncode == 2 or (
        out.returncode == 1
        and (
            out.stdout.lstrip().startswith("Incorrect Usage")
            or any(s in line for s in _FLAG_PARSE_ERRORS)
        )
    )
    cls = UsageError if usage else RunError
    return cls(line, out.returncode, out.argv, out.stdout, out.stderr)


@functools.lru_cache(maxsize=None)
def _units(binary: str) -> Mapping[str, Mapping[str, str]]:
    """Each command's flags with a base unit (``tcpfluid flags``), by command and flag name."""
    proc = subprocess.run(
        [binary, "flags"], capture_output=True, text=True, encoding="utf-8", stdin=subprocess.DEVNULL
    )
    try:
        table = json.loads(proc.stdout) if proc.returncode == 0 else {}
    except ValueError:
        table = {}
    if not isinstance(table, dict):
        return {}
    return {
        cmd: {name: f["base_unit"] for name, f in fl.items() if isinstance(f, dict) and f.get("base_unit")}
        for cmd, fl in table.items()
        if isinstance(fl, dict)
    }


def _command(command: Union[str, Sequence[str]]) -> List[str]:
    parts = command.split() if isinstance(command, str) else list(command)
    if not parts:
        raise TypeError("no command")
    return parts


def invoke(
    command: Union[str, Sequence[str]],
    flags: Mapping[str, Any],
    positional: Sequence[str] = (),
    *,
    json_on_failure: bool = False,
) -> Output:
    """Runs ``tcpfluid COMMAND FLAGS --format json POSITIONAL`` and parses its JSON.

    Raises the error of :func:`error_for` when the exit code is not 0 — except, with
    ``json_on_failure``, exit code 1 with JSON on stdout (validate beyond tolerance), which
    is returned.
    """
    if "format" in flags:
        raise TypeError("format= is not a parameter: the package always reads --format json")
    binary = find_binary()
    units = _units(binary).get(" ".join(_command(command)), {})
    argv = [
        binary,
        *_command(command),
        *to_flags(flags, units),
        "--format",
        "json",
        *map(str, positional),
    ]
    proc = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        stdin=subprocess.DEVNULL,
    )
    data = None
    if proc.stdout.strip():
        try:
            data = json.loads(proc.stdout)
        except ValueError:
            data = None
    out = Output(data, argv, proc.returncode, proc.stdout, proc.stderr)
    if proc.returncode != 0:
        if json_on_failure and proc.returncode == 1 and isinstance(data, dict):
            return out
        raise error_for(out)
    if data is None:
        raise RunError(
            f"tcpfluid: {' '.join(_command(command))} printed no JSON "
            f"(stdout {proc.stdout[:200]!r})",
            proc.returncode,
            argv,
            proc.stdout,
            proc.stderr,
        )
    return out
