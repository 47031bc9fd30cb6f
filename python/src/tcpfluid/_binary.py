"""Finding — or building — the tcpfluid binary.

:func:`find_binary` looks, in order, at

1. ``$TCPFLUID_BIN`` (a path, or a name on PATH): used as it is, an error if it is not
   an executable;
2. ``tcpfluid`` on ``PATH``;
3. a checkout of ``github.com/tcpfluid/tcpfluid``: the first directory, walking up from
   this package's files and then from the working directory, whose ``go.mod`` declares
   that module. Its ``./cmd/tcpfluid`` is built with ``go build`` into the cache directory
   (``$TCPFLUID_CACHE_DIR``, else ``$XDG_CACHE_HOME/tcpfluid``, else
   ``~/.cache/tcpfluid``) under a name that is a hash of everything the build reads: the
   Go files (and embedded files) of every package of the module that the command imports,
   ``go.mod``, ``go.sum`` and ``go env`` (Go version, GOOS, GOARCH, CGO_ENABLED, GOFLAGS).
   Each source state is built once; an edited source gets a new build, never a stale
   binary. Within one process the hash is recomputed only when a file's or a package
   directory's modification time or size changes (or a file changed less than a second
   before the last hash, whose next change might keep its modification time).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple

from ._errors import BinaryNotFoundError, BuildError

__all__ = ["find_binary", "find_checkout", "cache_dir", "source_key", "MODULE"]

MODULE = "github.com/tcpfluid/tcpfluid"
ENV_BIN = "TCPFLUID_BIN"
ENV_CACHE = "TCPFLUID_CACHE_DIR"
KEEP_BUILDS = 5  # cached builds kept per cache directory, newest first

_log = logging.getLogger("tcpfluid")
_lock = threading.Lock()


class _Memo(NamedTuple):
    """The last key computed for a checkout in this process, with what it was computed from."""

    fingerprint: tuple
    files: List[Path]
    dirs: List[Path]
    key: str
    racy: bool  # a file was modified within a second of hashing: its next edit may keep its mtime


_keys: Dict[str, _Memo] = {}  # checkout root → its last key
_MODULE_LINE = re.compile(r'^\s*module\s+"?' + re.escape(MODULE) + r'"?\s*(//.*)?$', re.M)
# environment variables that change what `go build` produces
_GO_ENV = (
    "GOVERSION",
    "GOOS",
    "GOARCH",
    "CGO_ENABLED",
    "GOFLAGS",
    "GOEXPERIMENT",
    "GOAMD64",
    "GOARM64",
)


def find_binary() -> str:
    """The path of the tcpfluid binary to run (see the module's docstring for the order).

    Raises :class:`BinaryNotFoundError` when there is none, :class:`BuildError` when a
    checkout's build fails.
    """
    env = os.environ.get(ENV_BIN, "")
    if env:
        path = os.path.expanduser(env)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
        found = shutil.which(path) if os.sep not in path else None
        if found:
            return found
        raise BinaryNotFoundError(f"${ENV_BIN} = {env!r} is not an executable file")
    found = shutil.which("tcpfluid")
    if found:
        return found
    root = find_checkout()
    if root is None:
        raise BinaryNotFoundError(
            "no tcpfluid binary: set $TCPFLUID_BIN to one, put tcpfluid on PATH "
            "(go install github.com/tcpfluid/tcpfluid/cmd/tcpfluid@latest), or run inside a "
            "checkout of github.com/tcpfluid/tcpfluid with Go installed"
        )
    return build_binary(root)


def find_checkout(starts: Optional[Iterable[os.PathLike]] = None) -> Optional[str]:
    """The root of a tcpfluid checkout at or above one of ``starts``, else None.

    ``starts`` defaults to this package's directory, then the working directory.
    """
    if starts is None:
        starts = [Path(__file__).resolve().parent, Path.cwd()]
    for start in starts:
        d = Path(start).resolve()
        for cand in (d, *d.parents):
            if _is_checkout(cand):
                return str(cand)
    return None


def _is_checkout(d: Path) -> bool:
    gomod = d / "go.mod"
    try:
        text = gomod.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return bool(_MODULE_LINE.search(text)) and (d / "cmd" / "tcpfluid").is_dir()


def cache_dir() -> Path:
    """Where checkout builds go.

    $TCPFLUID_CACHE_DIR, else $XDG_CACHE_HOME/tcpfluid, else ~/.cache/tcpfluid.
    """
    env = os.environ.get(ENV_CACHE)
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "tcpfluid"


def _go() -> str:
    go = shutil.which("go")
    if go is None:
        raise BinaryNotFoundError(
            "a tcpfluid checkout was found but `go` is not on PATH to build it: install Go, "
            "or set $TCPFLUID_BIN to a built tcpfluid"
        )
    return go


def _run_go(go: str, args: List[str], root: str) -> str:
    proc = subprocess.run(
        [go, *args], cwd=root, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    if proc.returncode != 0:
        raise BuildError(
            f"go {' '.join(args)} failed in {root}: {proc.stderr.strip()}",
            root,
            proc.returncode,
            proc.stderr,
        )
    return proc.stdout


def _build_inputs(go: str, root: str) -> Tuple[List[Path], List[Path], str]:
    """What `go build ./cmd/tcpfluid` reads from the checkout: files, their directories, go env."""
    out = _run_go(go, ["list", "-deps", "-json", "./cmd/tcpfluid"], root)
    files: List[Path] = []
    dirs: List[Path] = []
    decoder, i = json.JSONDecoder(), 0
    while True:
        while i < len(out) and out[i].isspace():
            i += 1
        if i >= len(out):
            break
        pkg, i = decoder.raw_decode(out, i)
        mod = pkg.get("Module") or {}
        replace = mod.get("Replace") or {}
        local = mod.get("Main") or (replace.get("Dir") and not replace.get("Version"))
        if pkg.get("Standard") or not local:
            continue  # the standard library and versioned modules: fixed by go env and go.sum
        d = Path(pkg["Dir"])
        dirs.append(d)
        for field in (
            "GoFiles",
            "CgoFiles",
            "CFiles",
            "CXXFiles",
            "HFiles",
            "SFiles",
            "SysoFiles",
            "EmbedFiles",
        ):
            files += [d / f for f in pkg.get(field) or []]
    for name in ("go.mod", "go.sum", "go.work", "go.work.sum", "vendor/modules.txt"):
        if (Path(root) / name).is_file():
            files.append(Path(root) / name)
    files = sorted(set(files))
    dirs = sorted(set(dirs) | {f.parent for f in files})
    env = _run_go(go, ["env", *_GO_ENV], root)
    return files, dirs, env


def _fingerprint(go: str, files: List[Path], dirs: List[Path]) -> tuple:
    stats = []
    for p in [Path(go), *files, *dirs]:
        try:
            st = p.stat()
        except OSError:
            return ()  # a file went away: recompute
        stats.append((str(p), st.st_mtime_ns, st.st_size))
    return (
        tuple(stats),
        tuple(os.environ.get(k) for k in _GO_ENV + ("GOTOOLCHAIN", "GOROOT", "PATH")),
    )


def source_key(root: str, go: Optional[str] = None) -> str:
    """A hash of the checkout's build inputs (see the module docstring); hex, 64 digits."""
    go = go or _go()
    root = str(Path(root).resolve())
    with _lock:
        memo = _keys.get(root)
    if (
        memo
        and memo.fingerprint
        and not memo.racy
        and _fingerprint(go, memo.files, memo.dirs) == memo.fingerprint
    ):
        return memo.key
    files, dirs, env = _build_inputs(go, root)
    fingerprint = _fingerprint(go, files, dirs)
    # As git does for its index: a file modified in the same second as the hashing could be
    # modified again without its mtime or size changing, so such a memo is not trusted.
    newest = max((mtime for _, mtime, _ in fingerprint[0]), default=0) if fingerprint else 0
    racy = time.time_ns() - newest < 1_000_000_000
    h = hashlib.sha256(b"tcpfluid-build-key 1\n")
    h.update(env.encode())
    for f in files:
        h.update(os.path.relpath(f, root).encode() + b"\0")
        h.update(hashlib.sha256(f.read_bytes()).digest())
    key = h.hexdigest()
    with _lock:
        _keys[root] = _Memo(fingerprint, files, dirs, key, racy)
    return key


def build_binary(root: str) -> str:
    """Builds ``root``'s ./cmd/tcpfluid into the cache once per source state; returns its path."""
    go = _go()
    cache = cache_dir()
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:
        cache = (
            Path(tempfile.gettempdir())
            / f"tcpfluid-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
        )
        cache.mkdir(parents=True, exist_ok=True)
    for _ in range(3):
        key = source_key(root, go)
        path = cache / f"tcpfluid-{key[:24]}"
        if path.is_file() and os.access(path, os.X_OK):
            try:
                os.utime(path)  # the most recently used builds survive pruning
            except OSError:
                pass
            return str(path)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=cache)
        os.close(fd)
        _log.info("building %s/cmd/tcpfluid into %s", root, path)
        try:
            proc = subprocess.run(
                [go, "build", "-buildvcs=false", "-o", tmp, "./cmd/tcpfluid"],
                cwd=root,
                capture_output=True,
                text=True,
                stdin=subprocess.DEVNULL,
            )
            if proc.returncode != 0:
                raise BuildError(
                    f"go build ./cmd/tcpfluid failed in {root}: {proc.stderr.strip()}",
                    root,
                    proc.returncode,
                    proc.stderr,
                )
            if source_key(root, go) != key:
                continue  # a source changed during the build: this binary may mix both states
            os.chmod(tmp, 0o755)
            os.replace(
                tmp, path
            )  # atomic; a concurrent build of the same key writes the same program
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        _prune(cache, keep=path)
        return str(path)
    raise BuildError(f"the Go sources in {root} kept changing during go build; try again", root)


def _prune(cache: Path, keep: Path) -> None:
    """Keeps the newest KEEP_BUILDS builds and drops temporary files older than an hour."""
    try:
        builds = [p for p in cache.glob("tcpfluid-*") if not p.name.endswith(".tmp")]
        builds.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for p in builds[KEEP_BUILDS:]:
            if p != keep:
                p.unlink()
        for p in cache.glob("tcpfluid-*.tmp"):
            if time.time() - p.stat().st_mtime > 3600:
                p.unlink()
    except OSError:
        pass
