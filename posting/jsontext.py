"""JSON text of table columns, written by Arrow's compute kernels: one string per row and no
Python object per value.

A county of real shapes reports hundreds of thousands of gaps and missing corners; as Python
dicts and lists (four objects and a dozen values a gap) they cost the JSON report most of its
time. Here each column becomes JSON text at once (numbers, integers, strings, ``[lon, lat]``
pairs), the columns are joined into one object per row, and the rows into one array per
parcel, handed to orjson as a :class:`orjson.Fragment`: the bytes are those orjson writes for
the same values (its number and string spelling, checked in the tests).

Numbers are spelled by Arrow where Arrow's shortest round-trip text is orjson's: plain decimals
of magnitude at least 1e-5 (and zero), with ``.0`` added to whole numbers; the rest (exponent
forms) by orjson, value by value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["arrays", "integers", "join", "numbers", "pairs", "texts", "where"]

_SMALLEST_PLAIN = 1e-5
"""Below this magnitude orjson writes an exponent where Arrow writes a plain decimal."""

Part = str | pa.Array
_EMPTY = pa.scalar("", pa.large_string())


def numbers(values: Any, decimals: int) -> pa.Array:
    """A float column as JSON numbers, rounded to ``decimals``; ``null`` where not finite.

    >>> numbers(np.array([612.0, 0.125, np.nan, -0.0, 1e-7, 2.5e16]), 2).to_pylist()
    ['612.0', '0.12', 'null', '-0.0', '0.0', '2.5e+16']
    """
    a = np.round(np.asarray(values, dtype=float), decimals)
    text = pc.cast(pa.array(a), pa.large_string())
    whole = pc.invert(pc.match_substring_regex(text, r"[.e]"))
    text = pc.if_else(whole, join(text, ".0"), text)
    finite = np.isfinite(a)
    odd = finite & (a != 0) & (np.abs(a) < _SMALLEST_PLAIN)
    odd |= finite & pc.match_substring(text, "e").to_numpy(zero_copy_only=False)
    if finite.all() and not odd.any():
        return text
    fix = np.full(len(a), "null", dtype=object)
    at = np.flatnonzero(odd)
    if len(at):  # exponent forms: orjson's own spelling
        fix[at] = orjson.dumps(a[at].tolist())[1:-1].decode().split(",")
    mask = ~finite | odd
    return pc.replace_with_mask(text, pa.array(mask), pa.array(fix[mask], type=pa.large_string()))


def integers(values: Any) -> pa.Array:
    """An integer column as JSON numbers.

    >>> integers([3, -1, 0]).to_pylist()
    ['3', '-1', '0']
    """
    return pc.cast(pa.array(np.asarray(values, dtype=np.int64)), pa.large_string())


def texts(values: Any) -> pa.Array:
    """A column of text as JSON strings (orjson's escaping); ``null`` where missing. Each
    distinct value is written once.

    >>> texts(np.array(['a "b"', None, 'a "b"'], dtype=object)).to_pylist()
    ['"a \\\\"b\\\\""', 'null', '"a \\\\"b\\\\""']
    """
    codes, uniques = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=True)
    written = [orjson.dumps(u).decode() for u in uniques.tolist()]
    table = pa.array([*written, "null"], type=pa.large_string())
    return table.take(pa.array(np.where(codes < 0, len(written), codes)))


def pairs(x: Any, y: Any, decimals: int) -> pa.Array:
    """Two float columns as ``[x,y]`` pairs (rounded); ``null`` where either is not finite.

    >>> pairs([-81.12345678, np.nan], [27.5, 1.0], 7).to_pylist()
    ['[-81.1234568,27.5]', 'null']
    """
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    both = join("[", numbers(xa, decimals), ",", numbers(ya, decimals), "]")
    bad = ~(np.isfinite(xa) & np.isfinite(ya))
    return (
        pc.if_else(pa.array(bad), pa.scalar("null", pa.large_string()), both) if bad.any() else both
    )


def join(*parts: Part) -> pa.Array:
    """Literal text and columns of text joined row by row (at least one part a column)."""
    big = [pa.scalar(x, pa.large_string()) if isinstance(x, str) else x for x in parts]
    return pc.binary_join_element_wise(*big, _EMPTY)


def where(mask: np.ndarray, text: pa.Array) -> pa.Array:
    """``text`` where ``mask`` is true, the empty string elsewhere (an optional key).

    >>> where(np.array([True, False]), pa.array([',"a":1', ',"a":2'])).to_pylist()
    [',"a":1', '']
    """
    return pc.if_else(pa.array(np.asarray(mask, dtype=bool)), text.cast(pa.large_string()), _EMPTY)


def arrays(items: pa.Array, owner: np.ndarray, n: int) -> list[Any]:
    """The rows of ``items`` (JSON text) as one JSON array per owner ``0 .. n-1``, in their
    order within each owner: an :class:`orjson.Fragment` each, or the shared empty tuple
    ``()`` for an owner without rows (orjson writes ``[]``).

    >>> [orjson.dumps(x) for x in arrays(pa.array(['1', '2', '3']), np.array([2, 0, 2]), 3)]
    [b'[2]', b'[]', b'[1,3]']
    """
    owner = np.asarray(owner, dtype=np.int64)
    out: list[Any] = [()] * n
    if not len(owner):
        return out
    if (np.diff(owner) < 0).any():
        items = items.take(pa.array(np.argsort(owner, kind="stable")))
    # each item followed by a comma, all in one buffer: an owner's items are one stretch of it
    text = join(items.cast(pa.large_string()), ",")
    ends = np.frombuffer(text.buffers()[1], dtype=np.int64)[
        text.offset : text.offset + len(text) + 1
    ]
    data = text.buffers()[2].to_pybytes()
    count = np.bincount(owner, minlength=n)
    has = np.flatnonzero(count)
    first = np.concatenate([[0], np.cumsum(count[has])])
    starts, stops = ends[first[:-1]].tolist(), (ends[first[1:]] - 1).tolist()
    for i, a, b in zip(has.tolist(), starts, stops, strict=True):
        out[i] = orjson.Fragment(b"[" + data[a:b] + b"]")
    return out
