"""The in-tree build backend: wheel, sdist and editable wheel with the standard library alone."""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

import tcpfluid

PY = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location(
    "tcpfluid_build", PY / "_build" / "tcpfluid_build.py"
)
backend = importlib.util.module_from_spec(spec)
spec.loader.exec_module(backend)


def test_no_build_requirements() -> None:
    assert backend.get_requires_for_build_wheel() == []
    assert backend.get_requires_for_build_sdist() == []
    assert backend.get_requires_for_build_editable() == []
    text = (PY / "pyproject.toml").read_text()
    assert "requires = []" in text and 'backend-path = ["_build"]' in text


def test_toml_fallback_matches_tomllib() -> None:
    tomllib = pytest.importorskip("tomllib")
    text = (PY / "pyproject.toml").read_text()
    assert backend._parse_toml_subset(text) == tomllib.loads(text)


def test_version_matches_package() -> None:
    assert backend._project()["version"] == tcpfluid.__version__


def test_wheel(tmp_path: Path) -> None:
    name = backend.build_wheel(str(tmp_path))
    assert name == f"tcpfluid-{tcpfluid.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(tmp_path / name) as zf:
        names = zf.namelist()
        dist = f"tcpfluid-{tcpfluid.__version__}.dist-info"
        assert "tcpfluid/__init__.py" in names and "tcpfluid/py.typed" in names
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        meta = zf.read(f"{dist}/METADATA").decode()
        assert "Name: tcpfluid\n" in meta and "Requires-Dist: pandas" in meta
        assert "Root-Is-Purelib: true" in zf.read(f"{dist}/WHEEL").decode()
        rows = list(csv.reader(io.StringIO(zf.read(f"{dist}/RECORD").decode())))
        assert sorted(r[0] for r in rows) == sorted(names)
        for path, digest, size in rows:
            if path.endswith("RECORD"):
                assert digest == size == ""
                continue
            data = zf.read(path)
            assert int(size) == len(data)
            assert (
                digest
                == "sha256="
                + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            )
    again = tmp_path / "again"
    assert (again / backend.build_wheel(str(again))).read_bytes() == (
        tmp_path / name
    ).read_bytes()  # reproducible


def test_metadata_matches_wheel(tmp_path: Path) -> None:
    dist = backend.prepare_metadata_for_build_wheel(str(tmp_path))
    meta = (tmp_path / dist / "METADATA").read_text()
    with zipfile.ZipFile(tmp_path / backend.build_wheel(str(tmp_path))) as zf:
        assert zf.read(f"{dist}/METADATA").decode() == meta


def test_sdist(tmp_path: Path) -> None:
    name = backend.build_sdist(str(tmp_path))
    base = name[: -len(".tar.gz")]
    with tarfile.open(tmp_path / name) as tf:
        names = tf.getnames()
    for member in (
        "PKG-INFO",
        "pyproject.toml",
        "README.md",
        "_build/tcpfluid_build.py",
        "src/tcpfluid/__init__.py",
    ):
        assert f"{base}/{member}" in names


def test_editable(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / backend.build_editable(str(tmp_path))) as zf:
        pth = [n for n in zf.namelist() if n.endswith(".pth")]
        assert pth and zf.read(pth[0]).decode().strip() == str(PY / "src")
        assert not [n for n in zf.namelist() if n.startswith("tcpfluid/")]
