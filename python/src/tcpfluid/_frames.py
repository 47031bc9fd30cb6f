"""JSON records → pandas DataFrames, defensively.

- Nested objects are flattened with ``_``: ``{"reference": {"c": 1}}`` → column ``reference_c``;
  a nested object that is ``null`` in some records leaves those records' columns NaN.
- Lists of objects are left out (they become frames of their own, see :func:`children`);
  lists of numbers stay as Python lists in their cells.
- ``null`` becomes NaN. A column of numbers (or of numeric strings such as ``"NaN"``,
  ``"Inf"``) with nulls is float. A column of booleans with gaps (Go leaves false out with
  ``omitempty``) is filled with False.
"""

from __future__ import annotations

import io
import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set

import pandas as pd

__all__ = ["frame", "children", "read_trace_csv"]

_NUMERIC_WORDS = {
    "nan",
    "+nan",
    "-nan",
    "inf",
    "+inf",
    "-inf",
    "infinity",
    "+infinity",
    "-infinity",
}


def _dict_paths(records: Iterable[Mapping[str, Any]], prefix: str = "") -> Set[str]:
    paths: Set[str] = set()
    for rec in records:
        for key, value in rec.items():
            if isinstance(value, Mapping):
                path = prefix + key
                paths.add(path)
                paths |= _dict_paths([value], path + "_")
    return paths


def _is_object_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _flatten(
    rec: Mapping[str, Any], dict_paths: Set[str], prefix: str, out: Dict[str, Any]
) -> None:
    for key, value in rec.items():
        path = prefix + key
        if isinstance(value, Mapping):
            _flatten(value, dict_paths, path + "_", out)
        elif value is None and path in dict_paths:
            continue  # an absent nested object: its columns stay NaN
        elif _is_object_list(value):
            continue  # a table of its own
        else:
            out[path] = value


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _numeric_word(v: Any) -> bool:
    return isinstance(v, str) and v.strip().lower() in _NUMERIC_WORDS


def _clean(df: pd.DataFrame) -> pd.DataFrame:
    for col in df.columns:
        s = df[col]
        if s.dtype != object:
            continue
        values = [v for v in s if not _missing(v)]
        if not values:
            df[col] = pd.Series(math.nan, index=df.index, dtype=float)
        elif all(isinstance(v, bool) for v in values):
            if len(values) < len(s):
                df[col] = s.map(lambda v: False if _missing(v) else v).astype(bool)
            else:
                df[col] = s.astype(bool)
        elif all(_is_number(v) or _numeric_word(v) for v in values):
            df[col] = pd.to_numeric(
                s.map(lambda v: math.nan if _missing(v) else v), errors="coerce"
            )
    return df


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def frame(
    records: Optional[Sequence[Mapping[str, Any]]],
    columns: Sequence[str] = (),
    defaults: Optional[Mapping[str, Any]] = None,
) -> pd.DataFrame:
    """A DataFrame of ``records`` (flattened, cleaned); ``columns`` come first, in that order.

    ``defaults`` adds each listed column that no record has, with that value.
    """
    records = [r for r in (records or []) if isinstance(r, Mapping)]
    paths = _dict_paths(records)
    rows: List[Dict[str, Any]] = []
    for rec in records:
        out: Dict[str, Any] = {}
        _flatten(rec, paths, "", out)
        rows.append(out)
    order: Dict[str, None] = dict.fromkeys(columns)
    for row in rows:
        order.update(dict.fromkeys(row))
    cols = list(order)
    if defaults:
        for col, value in defaults.items():
            if not any(col in row for row in rows):
                for row in rows:
                    row[col] = value
                if col not in order:
                    cols.append(col)
    df = pd.DataFrame(rows, columns=cols)
    return _clean(df)


def children(
    parents: Optional[Sequence[Mapping[str, Any]]],
    key: str,
    keep: Mapping[str, str],
    rename: Optional[Mapping[str, str]] = None,
    columns: Sequence[str] = (),
    defaults: Optional[Mapping[str, Any]] = None,
) -> pd.DataFrame:
    """The objects of list ``key`` of each parent, one row each.

    ``keep`` maps parent fields to the columns they fill on their children's rows (first);
    ``rename`` renames the children's own fields.
    """
    rows: List[Dict[str, Any]] = []
    rename = rename or {}
    for parent in parents or []:
        for child in parent.get(key) or []:
            if not isinstance(child, Mapping):
                continue
            row = {dst: parent.get(src) for src, dst in keep.items()}
            for k, v in child.items():
                row[rename.get(k, k)] = v
            rows.append(row)
    return frame(rows, columns=[*keep.values(), *columns], defaults=defaults)


def read_trace_csv(text: str) -> pd.DataFrame:
    """The CSV time series of ``run --trace`` / ``run --format csv``.

    Columns t_s, flow, subflow, link, cwnd_pkts, ssthresh_pkts, rate_bps, rtt_s,
    queue_pkts, delivered_pkts: a row per flow (or subflow) per sample, and a row per link
    per sample with flow = -1 (link empty on flow rows, NaN here).
    """
    if not text.strip():
        return pd.DataFrame()
    return pd.read_csv(io.StringIO(text), dtype={"link": str}, na_values=["null"])
