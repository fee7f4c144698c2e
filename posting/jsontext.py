"""JSON text of table columns, written by Arrow's compute kernels: one string per row and no
Python object per value.

A county of real shapes reports hundreds of thousands of gaps and missing corners; as Python
dicts and lists (four objects and a dozen values a gap) they cost the JSON report most of its
time. Here each column becomes JSON text at once (numbers, integers, strings, ``[lon, lat]``
pairs), the columns are joined into one object per row, and the rows into one array per
parcel, handed to orjson as a :class:`orjson.Fragment`: the bytes are those orjson writes for
the same values (its number and string spelling, checked in the tests).

Numbers are written by orjson itself, a column in one call, and cut into a column of text at
its commas; strings by orjson, once per distinct value.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "arrays",
    "booleans",
    "choice",
    "dumped",
    "integers",
    "join",
    "numbers",
    "pairs",
    "pieces",
    "rounded",
    "scatter",
    "span",
    "texts",
    "where",
]

Part = str | pa.Array
_EMPTY = pa.scalar("", pa.large_string())


def numbers(values: Any, decimals: int | None, *, exact: bool = False) -> pa.Array:
    """A float column as JSON numbers, rounded to ``decimals`` (None: as they are); ``null``
    where not finite.

    ``exact``: rounded as Python's ``round`` rounds (:func:`rounded`), not as ``np.round``.

    >>> numbers(np.array([612.0, 0.125, np.nan, -0.0, 1e-7, 2.5e16]), 2).to_pylist()
    ['612.0', '0.12', 'null', '-0.0', '0.0', '2.5e+16']
    """
    a = np.asarray(values, dtype=float)
    if decimals is not None:
        a = rounded(a, decimals) if exact else np.round(a, decimals)
    return _split(orjson.dumps(a.tolist()), len(a))


def rounded(values: Any, decimals: int) -> np.ndarray:
    """Floats rounded to ``decimals`` as Python's ``round`` rounds them: to the nearest
    decimal of the float's exact value, half to even.

    ``np.round`` scales by ``10**decimals`` first, and that product's own rounding can put a
    value within an ulp of a half on the other side of it; those few are rounded by Python.

    >>> rounded(np.array([0.125, 2.675, 1.005, -0.5, np.nan]), 2).tolist()
    [0.12, 2.67, 1.0, -0.5, nan]
    >>> float(np.round(0.285, 2)), round(0.285, 2), float(rounded(np.array([0.285]), 2)[0])
    (0.28, 0.28, 0.28)
    """
    a = np.asarray(values, dtype=float)
    out = np.round(a, decimals)
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = a * 10.0**decimals
        frac = scaled - np.floor(scaled)
        near = np.abs(frac - 0.5) <= 4 * np.spacing(np.abs(scaled))
        near |= np.isfinite(a) & ~np.isfinite(scaled)  # scaled beyond the floats
    for i in np.flatnonzero(near):
        out[i] = round(float(a[i]), decimals)
    return out


def integers(values: Any) -> pa.Array:
    """An integer column as JSON numbers.

    >>> integers([3, -1, 0]).to_pylist()
    ['3', '-1', '0']
    """
    a = np.asarray(values, dtype=np.int64)
    return _split(orjson.dumps(a.tolist()), len(a))


def _split(array: bytes, n: int) -> pa.Array:
    """The ``n`` items of a JSON array of numbers (or ``null``) written by orjson, as a column of
    text: its commas are the items' ends (no number has one), so the text without them is
    the column's data, and each comma's place, less the commas before it, an offset."""
    body = np.frombuffer(array, dtype=np.uint8)[1:-1]
    comma = np.flatnonzero(body == ord(","))
    data = body[body != ord(",")]
    offsets = np.empty(n + 1, dtype=np.int64)
    offsets[0], offsets[-1] = 0, len(data)
    offsets[1:-1] = comma - np.arange(len(comma))
    return pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))


def booleans(values: Any) -> pa.Array:
    """A boolean column as JSON ``true`` and ``false``.

    >>> booleans([True, False]).to_pylist()
    ['true', 'false']
    """
    mask = pa.array(np.asarray(values, dtype=bool))
    return pc.if_else(
        mask, pa.scalar("true", pa.large_string()), pa.scalar("false", pa.large_string())
    )


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
    big = [
        pa.scalar(x, pa.large_string()) if isinstance(x, str) else x.cast(pa.large_string())
        for x in parts
    ]
    return pc.binary_join_element_wise(*big, _EMPTY)


PIECE_BYTES = 8 << 20
"""About how much text :func:`pieces` makes at a time: well below glibc's largest block kept
for reuse (32 MiB), so that the memory of the pieces written is reused for the next."""


def pieces(parts: Sequence[Part], n: int, piece_bytes: int | None = None) -> Iterator[pa.Array]:
    """The row-by-row :func:`join` of ``parts`` (``n`` rows) in consecutive pieces of about
    ``piece_bytes`` (None: :data:`PIECE_BYTES`) of text, made ahead of the caller on every core
    (:func:`posting.parallel.ahead`): to write a large column of text without making it
    whole.

    >>> [p.to_pylist() for p in pieces(["<", pa.array(list("abcde")), ">"], 5, 20)]
    [['<a>', '<b>'], ['<c>', '<d>'], ['<e>']]
    """
    from posting.parallel import ahead

    literal = sum(len(p.encode()) for p in parts if isinstance(p, str))
    columns = sum(p.nbytes for p in parts if not isinstance(p, str))
    per_row = literal + columns / max(n, 1)
    rows = max(1, int((piece_bytes or PIECE_BYTES) // max(per_row, 1.0)))

    def rows_text(lo: int, hi: int) -> pa.Array:
        return join(*(p if isinstance(p, str) else p.slice(lo, hi - lo) for p in parts))

    return ahead(rows_text, n, rows)


def where(mask: np.ndarray, text: pa.Array) -> pa.Array:
    """``text`` where ``mask`` is true, the empty string elsewhere (an optional key).

    >>> where(np.array([True, False]), pa.array([',"a":1', ',"a":2'])).to_pylist()
    [',"a":1', '']
    """
    return pc.if_else(pa.array(np.asarray(mask, dtype=bool)), text.cast(pa.large_string()), _EMPTY)


def scatter(mask: np.ndarray, text: pa.Array) -> pa.Array:
    """The rows of ``text`` where ``mask`` is true, in order, the empty string elsewhere (an
    optional key written only for the rows that have it).

    >>> scatter(np.array([False, True, True]), pa.array([',"a":1', ',"a":2'])).to_pylist()
    ['', ',"a":1', ',"a":2']
    """
    mask = np.asarray(mask, dtype=bool)
    blank = pa.array(np.full(len(mask), "", dtype=object), type=pa.large_string())
    return pc.replace_with_mask(blank, pa.array(mask), text.cast(pa.large_string()))


def choice(mask: np.ndarray, yes: str, no: str) -> pa.Array:
    """``yes`` where ``mask`` is true, ``no`` elsewhere, as a column of text.

    >>> choice(np.array([True, False]), "[", ",").to_pylist()
    ['[', ',']
    """
    table = pa.array([no, yes], type=pa.large_string())
    return table.take(pa.array(np.asarray(mask, dtype=np.int8)))


def arrays(
    parts: Part | Sequence[Part],
    owner: np.ndarray,
    n: int,
    brackets: tuple[str, str, str] = ("[", ",", "]"),
) -> list[Part]:
    """The rows given by ``parts`` (joined row by row: one JSON value each) as one JSON array
    per owner ``0 .. n-1``, in their order within each owner, ``[]`` for an owner without rows.

    Returns the parts whose row-by-row join is that column (to be joined into larger values):
    the rows are written once, each with a ``[`` or ``,`` before it and a ``]`` after the last
    of its owner, and each owner's array is a stretch of that text (no copy). ``brackets``
    gives other text for the opening, the separator and the closing (``("", "; ", "")`` lists
    the rows as plain text).

    >>> join(*arrays(pa.array(['1', '2', '3']), np.array([2, 0, 2]), 3)).to_pylist()
    ['[2]', '[]', '[1,3]']
    """
    parts = list(parts) if isinstance(parts, list | tuple) else [parts]
    owner = np.asarray(owner, dtype=np.int64)
    opening, separator, closing = brackets
    count = np.bincount(owner, minlength=n)
    empty = choice(count == 0, opening + closing, "")
    if not len(owner):
        return [empty]
    if (np.diff(owner) < 0).any():
        order = np.argsort(owner, kind="stable")
        take = pa.array(order)
        parts = [p.take(take) if isinstance(p, pa.Array) else p for p in parts]
        owner = owner[order]
    change = owner[1:] != owner[:-1]
    text = join(
        choice(np.r_[True, change], opening, separator),
        *parts,
        choice(np.r_[change, True], closing, ""),
    )
    ends = np.frombuffer(text.buffers()[1], dtype=np.int64)[
        text.offset : text.offset + len(text) + 1
    ]
    at = ends[np.concatenate([[0], np.cumsum(count)])].astype(np.int64)
    stretches = pa.LargeStringArray.from_buffers(n, pa.py_buffer(at), text.buffers()[2])
    return [empty, stretches]


def span(text: pa.Array) -> memoryview:
    """The rows of ``text`` one after another, as one buffer (no copy).

    >>> bytes(span(pa.array(['{"a":1},', '{"a":2}'], type=pa.large_string())))
    b'{"a":1},{"a":2}'
    """
    if not len(text):
        return memoryview(b"")
    text = text.cast(pa.large_string())
    ends = np.frombuffer(text.buffers()[1], dtype=np.int64)
    lo, hi = int(ends[text.offset]), int(ends[text.offset + len(text)])
    return memoryview(text.buffers()[2])[lo:hi]


def dumped(values: Any) -> pa.Array:
    """Any JSON-ready Python values (lists, dicts, numbers, text, None), each written by orjson:
    for the columns whose values are not all text (one call per value).

    >>> dumped([1, "a", None, [1.5]]).to_pylist()
    ['1', '"a"', 'null', '[1.5]']
    """
    return pa.array([orjson.dumps(v).decode() for v in values], type=pa.large_string())
