"""Finding and building the binary."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

import tcpfluid
from tcpfluid import _binary


def _exe(path: Path, text: str = "#!/bin/sh\necho fake\n") -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_env_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exe = _exe(tmp_path / "mine")
    monkeypatch.setenv("TCPFLUID_BIN", str(exe))
    assert tcpfluid.find_binary() == str(exe)


def test_env_not_executable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TCPFLUID_BIN", str(tmp_path / "missing"))
    with pytest.raises(tcpfluid.BinaryNotFoundError, match="TCPFLUID_BIN"):
        tcpfluid.find_binary()


def test_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TCPFLUID_BIN", raising=False)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = _exe(bindir / "tcpfluid")
    monkeypatch.setenv("PATH", str(bindir) + os.pathsep + os.environ.get("PATH", ""))
    assert tcpfluid.find_binary() == str(exe)


def test_nothing_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TCPFLUID_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_binary, "find_checkout", lambda starts=None: None)
    with pytest.raises(tcpfluid.BinaryNotFoundError, match="no tcpfluid binary"):
        tcpfluid.find_binary()


def test_find_checkout(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "cmd" / "tcpfluid").mkdir(parents=True)
    (root / "notebooks" / "deep").mkdir(parents=True)
    (root / "go.mod").write_text("module github.com/tcpfluid/tcpfluid\n\ngo 1.26\n")
    assert tcpfluid.find_checkout([root / "notebooks" / "deep"]) == str(root.resolve())
    other = tmp_path / "other"
    (other / "cmd" / "tcpfluid").mkdir(parents=True)
    (other / "go.mod").write_text("module example.com/tcpfluid\n")
    assert tcpfluid.find_checkout([other]) is None


MAIN = 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("%s\\n") }\n'


@pytest.mark.skipif(shutil.which("go") is None, reason="needs go")
def test_build_once_per_source_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "repo"
    (root / "cmd" / "tcpfluid").mkdir(parents=True)
    (root / "go.mod").write_text("module github.com/tcpfluid/tcpfluid\n\ngo 1.21\n")
    main = root / "cmd" / "tcpfluid" / "main.go"
    main.write_text(MAIN % "one")
    monkeypatch.setenv("TCPFLUID_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TCPFLUID_BIN", raising=False)
    monkeypatch.setenv("PATH", os.path.dirname(shutil.which("go")))  # no tcpfluid on PATH
    monkeypatch.chdir(root / "cmd")
    find = _binary.find_checkout
    monkeypatch.setattr(
        _binary, "find_checkout", lambda starts=None: find([Path.cwd()])
    )  # not this checkout

    def output(path: str) -> str:
        return subprocess.run([path], capture_output=True, text=True, check=True).stdout.strip()

    first = tcpfluid.find_binary()
    assert output(first) == "one" and first.startswith(str(tmp_path / "cache"))
    assert tcpfluid.find_binary() == first  # cached
    mtime = os.stat(first).st_mtime_ns

    main.write_text(MAIN % "two")  # an edit: a new build, never the stale one
    second = tcpfluid.find_binary()
    assert second != first and output(second) == "two"

    (root / "cmd" / "tcpfluid" / "extra.go").write_text(
        "package main\n\nvar extra = 1\n"
    )  # a new file
    third = tcpfluid.find_binary()
    assert third not in (first, second) and output(third) == "two"

    os.remove(root / "cmd" / "tcpfluid" / "extra.go")
    main.write_text(MAIN % "one")  # back to the first state: its build is reused
    assert tcpfluid.find_binary() == first
    assert os.stat(first).st_mtime_ns >= mtime
    assert not list((tmp_path / "cache").glob("*.tmp"))
