"""Shared fixtures.

The end-to-end tests run this checkout's CLI: when the tests sit in a checkout and
$TCPFLUID_BIN is not set, the session builds ./cmd/tcpfluid once (into the package's
cache) and points $TCPFLUID_BIN at it, so a tcpfluid on PATH cannot stand in for it.
Outside a checkout they use whatever tcpfluid.find_binary() finds, and are skipped when
it finds nothing (never under CI=true).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

import tcpfluid

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def binary() -> str:
    if os.environ.get("TCPFLUID_BIN"):
        return tcpfluid.find_binary()
    root = tcpfluid.find_checkout([HERE])
    try:
        if root is not None:
            from tcpfluid._binary import build_binary

            path = build_binary(root)
        else:
            path = tcpfluid.find_binary()
    except tcpfluid.BinaryNotFoundError as err:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no tcpfluid binary: {err}")
    return path


@pytest.fixture()
def cli(binary: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The real CLI, as $TCPFLUID_BIN."""
    monkeypatch.setenv("TCPFLUID_BIN", binary)
    return binary


@pytest.fixture()
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A stand-in CLI as $TCPFLUID_BIN; set FAKE_MODE to choose what it does."""
    path = tmp_path / "fake-tcpfluid"
    path.write_text(f"#!{sys.executable}\n" + (HERE / "fake_tcpfluid.py").read_text())
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("TCPFLUID_BIN", str(path))

    def mode(name: str) -> None:
        monkeypatch.setenv("FAKE_MODE", name)

    return mode


def pytest_report_header(config: pytest.Config) -> str:
    return f"tcpfluid {tcpfluid.__version__} from {Path(tcpfluid.__file__).parent}"
