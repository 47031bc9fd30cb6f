"""A tiny in-tree PEP 517 / PEP 660 build backend for the tcpfluid Python package.

``pip install ./python`` must work offline, and pip's build isolation would otherwise
download setuptools. This backend needs nothing but the standard library: it reads the
``[project]`` table of ``pyproject.toml`` and writes a pure-Python wheel (``py3-none-any``)
of ``src/<package>/``, an sdist, or an editable wheel whose ``.pth`` file points at ``src/``.

Hooks: ``build_wheel``, ``build_sdist``, ``build_editable``, the ``get_requires_for_build_*``
hooks (no requirements) and ``prepare_metadata_for_build_wheel`` / ``..._editable``.

Archives are reproducible: sorted entries, fixed permissions and timestamps (from
``SOURCE_DATE_EPOCH`` when set, else 1980-01-01).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent

# [project] keys this backend turns into metadata; any other key is an error, so that a
# field added to pyproject.toml is never dropped silently.
_KNOWN_KEYS = {
    "name",
    "version",
    "description",
    "readme",
    "requires-python",
    "dependencies",
    "optional-dependencies",
    "classifiers",
    "keywords",
    "urls",
    "authors",
    "license",
}

_SDIST_INCLUDE = ("pyproject.toml", "README.md", "_build", "src", "tests")
_SKIP_PARTS = {"__pycache__", ".pytest_cache", ".mypy_cache"}


# --- pyproject.toml ------------------------------------------------------------------


def _parse_toml_subset(text: str) -> Dict[str, Any]:
    """Parses the TOML subset pyproject.toml uses here, for Pythons without tomllib.

    Tables (``[a.b]``), ``key = value`` with basic strings, literal strings, integers,
    booleans, arrays (over several lines too) and inline tables of strings. Anything else
    raises ValueError.
    """
    doc: Dict[str, Any] = {}
    table = doc
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = _strip_comment(lines[i]).strip()
        i += 1
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]") or line.startswith("[["):
                raise ValueError(f"unsupported TOML table line: {line!r}")
            table = doc
            for part in line[1:-1].split("."):
                table = table.setdefault(part.strip().strip('"'), {})
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError(f"unsupported TOML line: {line!r}")
        value = value.strip()
        # an array may continue over several lines until its brackets balance
        while value.startswith("[") and _depth(value) > 0:
            if i >= len(lines):
                raise ValueError("unterminated TOML array")
            value += " " + _strip_comment(lines[i]).strip()
            i += 1
        table[key.strip().strip('"')] = _toml_value(value)
    return doc


def _strip_comment(line: str) -> str:
    out, quote = [], ""
    for ch in line:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            break
        out.append(ch)
    return "".join(out)


def _depth(value: str) -> int:
    depth, quote = 0, ""
    for ch in value:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth


def _split_items(body: str) -> List[str]:
    items, depth, quote, cur = [], 0, "", []
    for ch in body:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        items.append("".join(cur).strip())
    return items


def _toml_value(value: str) -> Any:
    if value.startswith('"') and value.endswith('"') and len(value) >= 2:
        if "\\" in value:
            raise ValueError(f"unsupported TOML escape in {value!r}")
        return value[1:-1]
    if value.startswith("'") and value.endswith("'") and len(value) >= 2:
        return value[1:-1]
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"[+-]?\d+", value):
        return int(value)
    if value.startswith("[") and value.endswith("]"):
        return [_toml_value(v) for v in _split_items(value[1:-1])]
    if value.startswith("{") and value.endswith("}"):
        out = {}
        for item in _split_items(value[1:-1]):
            k, _, v = item.partition("=")
            out[k.strip().strip('"')] = _toml_value(v.strip())
        return out
    raise ValueError(f"unsupported TOML value: {value!r}")


def _load_pyproject(root: Path = ROOT) -> Dict[str, Any]:
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib  # Python 3.11+
    except ImportError:
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            return _parse_toml_subset(text)
    return tomllib.loads(text)


def _project(root: Path = ROOT) -> Dict[str, Any]:
    project = _load_pyproject(root).get("project")
    if not isinstance(project, dict):
        raise ValueError("pyproject.toml has no [project] table")
    unknown = set(project) - _KNOWN_KEYS
    if unknown:
        raise ValueError(f"tcpfluid_build does not handle [project] keys {sorted(unknown)}")
    if "dynamic" in project:
        raise ValueError("tcpfluid_build does not support dynamic metadata")
    for key in ("name", "version"):
        if not isinstance(project.get(key), str):
            raise ValueError(f"[project] needs a string {key!r}")
    return project


def _dist_name(project: Dict[str, Any]) -> str:
    """The name as wheel and dist-info file names spell it (PEP 427, PEP 503)."""
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project: Dict[str, Any], root: Path = ROOT) -> str:
    """The core metadata (METADATA / PKG-INFO), version 2.1."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
    ]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    for kw in [",".join(project["keywords"])] if project.get("keywords") else []:
        lines.append(f"Keywords: {kw}")
    for author in project.get("authors", []):
        if "name" in author and "email" in author:
            lines.append(f"Author-email: {author['name']} <{author['email']}>")
        elif "email" in author:
            lines.append(f"Author-email: {author['email']}")
        elif "name" in author:
            lines.append(f"Author: {author['name']}")
    license_ = project.get("license")
    if isinstance(license_, dict) and "text" in license_:
        lines.append(f"License: {license_['text']}")
    elif isinstance(license_, str):
        lines.append(f"License: {license_}")
    for label, url in project.get("urls", {}).items():
        lines.append(f"Project-URL: {label}, {url}")
    for classifier in project.get("classifiers", []):
        lines.append(f"Classifier: {classifier}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    for dep in project.get("dependencies", []):
        lines.append(f"Requires-Dist: {dep}")
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        for dep in deps:
            marker = f'extra == "{extra}"'
            lines.append(
                f"Requires-Dist: {dep}; {marker}"
                if ";" not in dep
                else f"Requires-Dist: {dep} and {marker}"
            )
    body = ""
    readme = project.get("readme")
    if readme:
        path = readme if isinstance(readme, str) else readme.get("file")
        if not path:
            raise ValueError("[project] readme: want a file name")
        ctype = "text/markdown" if str(path).endswith(".md") else "text/plain"
        if isinstance(readme, dict) and readme.get("content-type"):
            ctype = readme["content-type"]
        lines.append(f"Description-Content-Type: {ctype}")
        body = (root / path).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + body


def _wheel_file() -> str:
    return (
        "Wheel-Version: 1.0\nGenerator: tcpfluid_build\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    )


# --- archives ------------------------------------------------------------------------


def _epoch() -> int:
    """SOURCE_DATE_EPOCH when set, else 1980-01-01 UTC (zip cannot go before 1980)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    return max(int(epoch), 315532800) if epoch.isdigit() else 315532800


def _timestamp() -> Tuple[int, int, int, int, int, int]:
    t = time.gmtime(_epoch())
    return (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)


def _wanted(rel: Path) -> bool:
    """Whether a file goes into an archive: no caches, no compiled Python."""
    return not _SKIP_PARTS & set(rel.parts) and rel.suffix not in (".pyc", ".pyo")


def _package_files(root: Path, package: str) -> Iterator[Tuple[str, Path]]:
    src = root / "src" / package
    if not (src / "__init__.py").is_file():
        raise ValueError(f"no package at {src}")
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(root / "src")
        if path.is_file() and _wanted(rel):
            yield rel.as_posix(), path


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def _write_wheel(
    wheel_directory: str, entries: List[Tuple[str, bytes]], project: Dict[str, Any]
) -> str:
    name = _dist_name(project)
    version = project["version"]
    dist_info = f"{name}-{version}.dist-info"
    entries = sorted(entries) + [
        (f"{dist_info}/METADATA", _metadata(project).encode("utf-8")),
        (f"{dist_info}/WHEEL", _wheel_file().encode("utf-8")),
    ]
    record = io.StringIO()
    for arcname, data in entries:
        record.write(f"{arcname},{_record_hash(data)},{len(data)}\n")
    record.write(f"{dist_info}/RECORD,,\n")
    entries.append((f"{dist_info}/RECORD", record.getvalue().encode("utf-8")))

    filename = f"{name}-{version}-py3-none-any.whl"
    os.makedirs(wheel_directory, exist_ok=True)
    tmp = os.path.join(wheel_directory, filename + ".tmp")
    stamp = _timestamp()
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for arcname, data in entries:
            info = zipfile.ZipInfo(arcname, date_time=stamp)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    os.replace(tmp, os.path.join(wheel_directory, filename))
    return filename


def _write_metadata_dir(metadata_directory: str, project: Dict[str, Any]) -> str:
    dist_info = f"{_dist_name(project)}-{project['version']}.dist-info"
    path = Path(metadata_directory) / dist_info
    path.mkdir(parents=True, exist_ok=True)
    (path / "METADATA").write_text(_metadata(project), encoding="utf-8")
    (path / "WHEEL").write_text(_wheel_file(), encoding="utf-8")
    return dist_info


# --- PEP 517 hooks -------------------------------------------------------------------


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[dict] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(
    metadata_directory: str, config_settings: Optional[dict] = None
) -> str:
    return _write_metadata_dir(metadata_directory, _project())


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: Optional[dict] = None
) -> str:
    return _write_metadata_dir(metadata_directory, _project())


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[dict] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    project = _project()
    package = _dist_name(project)
    entries = [(arc, path.read_bytes()) for arc, path in _package_files(ROOT, package)]
    return _write_wheel(wheel_directory, entries, project)


def build_editable(
    wheel_directory: str,
    config_settings: Optional[dict] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    """A PEP 660 editable wheel: a .pth file that puts this checkout's src/ on sys.path."""
    project = _project()
    package = _dist_name(project)
    list(_package_files(ROOT, package))  # fails early when the package is missing
    pth = (str(ROOT / "src") + "\n").encode("utf-8")
    return _write_wheel(wheel_directory, [(f"__editable__.{package}.pth", pth)], project)


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    files: List[Tuple[str, bytes]] = [(f"{base}/PKG-INFO", _metadata(project).encode("utf-8"))]
    for top in _SDIST_INCLUDE:
        path = ROOT / top
        paths = [path] if path.is_file() else sorted(path.rglob("*")) if path.is_dir() else []
        for p in paths:
            rel = p.relative_to(ROOT)
            if p.is_file() and _wanted(rel):
                files.append((f"{base}/{rel.as_posix()}", p.read_bytes()))
    filename = base + ".tar.gz"
    os.makedirs(sdist_directory, exist_ok=True)
    mtime = _epoch()
    tmp = os.path.join(sdist_directory, filename + ".tmp")
    with open(tmp, "wb") as raw, gzip.GzipFile(
        fileobj=raw, mode="wb", mtime=mtime, filename=""
    ) as gz, tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for arcname, data in sorted(files):
            info = tarfile.TarInfo(arcname)
            info.size, info.mode, info.mtime = len(data), 0o644, mtime
            info.uname = info.gname = ""
            tf.addfile(info, io.BytesIO(data))
    os.replace(tmp, os.path.join(sdist_directory, filename))
    return filename
