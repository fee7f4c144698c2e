"""A large GeoJSON file cut into slices of whole features, each of which a worker reads as
one process reads the file (:func:`posting.io.read_layer` with a :class:`FeatureSlice`).

Open-data portals hand out a county's or a state's parcels as one GeoJSON FeatureCollection as
often as any other format; GDAL reaches a feature of it only by parsing every one before it,
and read whole by one worker, a state's would take tens of GB of one process. The file is
scanned once, 8 MiB at a time with numpy, for the commas between the members of its
``features`` array: the commas outside strings (a quote ends a string unless an odd number of
backslashes comes before it) where the brackets and braces opened are the top-level object's
and the array's. A slice is read as the text before the array, the slice's features and the
text after the array: a FeatureCollection of its own, with the file's ``crs`` and other
members.

GDAL settles the types of a GeoJSON file's properties on the features it reads, so a slice
can read a column differently from the whole file (whole numbers in one slice, decimals in
another). The slices' columns are compared (:func:`agree`): where each has the same columns
in the same order and of the same types, they are the whole file's (GDAL's types only widen
from feature to feature); a column with no value in some slices takes the others' type where
that allows missing values (:func:`conform`); otherwise the file is read whole
(:func:`posting.distributed._json_settled`, :meth:`posting.distributed._Steps.scan`).

The scan cuts only a file that every reader reads alike: UTF-8 text (with or without its mark)
holding one JSON object with a ``features`` array, its strings and brackets closed. Any other
file is read whole, as before; so is one of at most twice a slice's features.

A GeoJSON text sequence (GDAL's GeoJSONSeq: one feature a line, or records that each begin
with a record separator) is cut by :func:`cut_sequence`, at lines or separators: no string can
hold either raw. Its slices are handed to GDAL as records that begin with a separator, which
its GeoJSONSeq driver knows them by, and their columns are compared alike.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "CHUNK_BYTES",
    "SEQUENCE_SUFFIXES",
    "SUFFIXES",
    "FeatureSlice",
    "agree",
    "columns",
    "conform",
    "cut",
    "cut_sequence",
    "geometry_problem",
    "member_bounds",
    "member_texts",
    "record_bounds",
    "record_texts",
    "slice_text",
    "unread_member",
    "unread_record",
]

SUFFIXES = (".geojson", ".json")
"""Files scanned for their features (GeoJSON; an Esri JSON FeatureSet cuts alike)."""
SEQUENCE_SUFFIXES = (".geojsonl", ".geojsons")
"""GeoJSON text sequences (GDAL's GeoJSONSeq), scanned for their records."""

CHUNK_BYTES = 1 << 23
"""Bytes scanned at a time (8 MiB: a few dozen MB of numpy temporaries)."""

_QUOTE, _BACKSLASH, _COMMA = 34, 92, 44
_OPEN = np.zeros(256, dtype=np.int8)
_OPEN[[ord("{"), ord("[")]] = 1
_OPEN[[ord("}"), ord("]")]] = -1
_STRUCTURAL = np.zeros(256, dtype=bool)
_STRUCTURAL[[ord(c) for c in "{}[],"]] = True
_FEATURES_KEY = re.compile(rb'"features"\s*:\s*$')


@dataclass(frozen=True)
class FeatureSlice:
    """Features ``[first, first + rows)`` of a GeoJSON file: the bytes ``[start, end)``, read
    between the file's text before its ``features`` array (``[0, head_end)``, up to the array's
    ``[``) and after it (from ``tail_start``, the array's ``]``).

    Attributes
    ----------
    head_end, tail_start
        The byte after the array's ``[``; its ``]``.
    start, end
        The slice's features, without the commas around them.
    first
        The number of the slice's first feature in the file.
    rows
        Its number of features.
    casts
        The columns to read as another type where the slice has no value in them
        (:func:`agree`).
    lines
        The features are lines of a GeoJSON text sequence (:func:`cut_sequence`), read as
        records that each begin with a record separator (a sequence's slice has no text before
        or after it: ``head_end`` 0, ``tail_start`` the file's size).
    """

    head_end: int
    tail_start: int
    start: int
    end: int
    first: int
    rows: int
    casts: tuple[tuple[str, str], ...] = ()
    lines: bool = False


def _chunks(path: str) -> Iterator[tuple[int, np.ndarray]]:
    """The file in chunks of :data:`CHUNK_BYTES`, each with its offset. Read, not mapped: the
    file's pages do not stay in this process."""
    with open(path, "rb") as fh:
        a = 0
        while len(buf := np.frombuffer(fh.read(CHUNK_BYTES), dtype=np.uint8)):
            yield a, buf
            a += len(buf)


def _escaped(c: np.ndarray, q: np.ndarray, carry: int) -> np.ndarray:
    """Whether each quote at positions ``q`` of chunk ``c`` is escaped: an odd number of
    backslashes right before it (``carry`` of them end the chunk before)."""
    before = q[(q > 0)]
    cand = before[c[before - 1] == _BACKSLASH]
    odd = np.zeros(len(q), dtype=bool)
    if len(q) and q[0] == 0:
        odd[0] = carry % 2 == 1
    if not len(cand):
        return odd
    b = np.flatnonzero(c == _BACKSLASH)
    # runs of backslashes: where each begins; the run that ends right before each candidate
    begins = b[np.r_[True, np.diff(b) != 1]]
    run = np.searchsorted(begins, cand - 1, side="right") - 1
    length = cand - begins[run]
    length = np.where(begins[run] == 0, length + carry, length)
    odd[np.searchsorted(q, cand)] = length % 2 == 1
    return odd


def _trailing_backslashes(c: np.ndarray, carry: int) -> int:
    """How many backslashes end chunk ``c`` (with those that ended the chunk before, if the
    whole chunk is backslashes)."""
    n = 0
    while n < len(c) and c[len(c) - 1 - n] == _BACKSLASH:  # (most chunks end otherwise)
        n += 1
    return carry + n if n == len(c) else n


def _features_key_before(fh: Any, pos: int) -> bool:
    """Whether the ``[`` at byte ``pos`` is the value of a ``"features"`` member."""
    lo = max(0, pos - 256)
    fh.seek(lo)
    return _FEATURES_KEY.search(fh.read(pos - lo)) is not None


def cut(path: str | os.PathLike[str], rows: int) -> list[FeatureSlice] | None:
    """Slices of about ``rows`` features of the GeoJSON file ``path``, in order; None when it
    holds at most twice that many or cannot be cut so that each slice reads as the whole file
    does (see the module's notes: then it is read whole)."""
    path = os.fspath(path)
    scan = _scan_collection(path, rows) if _big_enough(path, rows) else None
    if scan is None or scan[3] <= 2 * rows:
        return None
    array_open, array_close, cuts, features = scan
    bounds = [array_open, *cuts, array_close]  # the bytes around each slice
    sizes = _sizes(len(bounds) - 1, features, rows)
    del bounds[len(sizes) : -1]  # (a small last slice joined to the one before)
    firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).tolist()
    return [
        FeatureSlice(array_open + 1, array_close, lo + 1, hi, first, n)
        for lo, hi, first, n in zip(bounds[:-1], bounds[1:], firsts, sizes, strict=True)
    ]


def _big_enough(path: str, rows: int) -> bool:
    """Whether a file may hold more than ``rows`` features: forty bytes at least each."""
    try:
        return os.path.getsize(path) >= 40 * rows
    except OSError:  # read whole: the reading says what is wrong
        return False


def _sizes(k: int, count: int, rows: int) -> list[int]:
    """The features of each of ``k`` slices of ``count``, ``rows`` each but the last, which
    joins the one before when it has less than half of ``rows``."""
    sizes = [rows] * k
    sizes[-1] = count - rows * (k - 1)
    if k > 1 and 2 * sizes[-1] < rows:
        sizes[-2:] = [sizes[-2] + sizes[-1]]
    return sizes


def member_bounds(path: str | os.PathLike[str]) -> np.ndarray | None:
    """Where each member of the ``features`` array of the GeoJSON file ``path`` lies: the
    array's ``[``, the commas between its members and its ``]`` (member ``k`` lies between
    the ``k``-th and the next), as :func:`cut` scans them (8 bytes a member); None for a file
    it would not cut."""
    commas: list[np.ndarray] = []
    scan = _scan_collection(os.fspath(path), 1 << 62, commas)
    if scan is None:
        return None
    return np.concatenate([[scan[0]], *commas, [scan[1]]]).astype(np.int64)


def member_texts(
    path: str | os.PathLike[str], bounds: np.ndarray, rows: np.ndarray
) -> dict[int, bytes]:
    """The text of members ``rows`` of the ``features`` array of the GeoJSON file ``path``
    whose members lie within ``bounds`` (:func:`member_bounds`)."""
    rows = np.asarray(rows, dtype=np.int64)
    return _texts(path, rows, bounds[rows] + 1, bounds[rows + 1])


_DEPTH = {"Point": 0, "MultiPoint": 1, "LineString": 1, "MultiLineString": 2, "Polygon": 2}
_DEPTH["MultiPolygon"] = 3
"""How deep a GeoJSON geometry's positions lie in its ``coordinates``."""


def geometry_problem(feature: Any) -> str | None:
    """Why GDAL's reader gave no geometry to ``feature`` (a member of a ``features`` array, as
    parsed), which has one: its geometry is not an object, not of a GeoJSON type, or its
    positions are not numbers (GDAL leaves such a geometry out without a word); None where the
    feature's geometry is null or missing."""
    geom = feature.get("geometry") if isinstance(feature, dict) else None
    if geom is None:
        return None
    if not isinstance(geom, dict):
        return f"its geometry is {_shown(geom)}, not a geometry object"
    kind, coords = geom.get("type"), geom.get("coordinates")
    if kind not in _DEPTH:
        return f"its geometry's type {_shown(kind)} is none of GeoJSON's"
    if coords is None:
        return f"its {kind} has no coordinates"
    todo = [(coords, _DEPTH[kind])]
    while todo:
        value, depth = todo.pop()
        if not isinstance(value, list):
            return f"its {kind}'s coordinates hold {_shown(value)} where a list belongs"
        if depth:
            todo.extend((v, depth - 1) for v in reversed(value))
            continue
        bad = [v for v in value if isinstance(v, bool) or not isinstance(v, int | float)]
        if bad:
            return f"a coordinate of its {kind} is {_shown(bad[0])}, not a number"
        if len(value) < 2:
            return f"a position of its {kind} is {_shown(value)}: it needs two numbers"
    return "GDAL's reader cannot read it"


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _scan_collection(
    path: str, rows: int, commas_to: list[np.ndarray] | None = None
) -> tuple[int, int, list[int], int] | None:
    """The scan of :func:`cut`: the features array's ``[`` and ``]``, every ``rows``-th comma
    between its members, and how many members it holds; None for a file not cut. Every comma
    between members goes into ``commas_to`` if given, an array a chunk."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return None
    with open(path, "rb") as fh:
        head = fh.read(4)
    if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) or head[:4] in (
        codecs.BOM_UTF32_LE,
        codecs.BOM_UTF32_BE,
    ):
        return None
    decoder = codecs.getincrementaldecoder("utf-8")()
    in_string = False  # inside a string at the chunk's start
    carry = 0  # backslashes that ended the chunk before
    depth = 0  # brackets and braces open at the chunk's start
    seen_top = False
    array_open = array_close = -1  # the features array's [ and ]
    count = 0  # commas between its features so far
    cuts: list[int] = []  # every rows-th comma between features
    nonblank = False  # whether the array holds anything but blanks
    with open(path, "rb") as keys:
        for a, c in _chunks(path):
            if not _utf8(decoder, c, a + len(c) >= size):
                return None  # read whole: one run reads it as Latin-1
            q = np.flatnonzero(c == _QUOTE)
            real = q[~_escaped(c, q, carry if in_string else 0)]
            carry = _trailing_backslashes(c, carry)
            s = np.flatnonzero(_STRUCTURAL[c])
            outside = (np.searchsorted(real, s) + in_string) % 2 == 0
            s = s[outside]
            in_string = (in_string + len(real)) % 2 == 1
            if not len(s):
                continue
            step = _OPEN[c[s]].astype(np.int64)
            after = depth + np.cumsum(step)  # depth after each bracket (a comma: at it)
            if (after < 0).any():
                return None  # more closed than opened: the reader's error
            if not seen_top:
                if c[s[0]] != ord("{"):
                    return None  # not one JSON object
                seen_top = True
            if array_open < 0:
                opens = np.flatnonzero((c[s] == ord("[")) & (after == 2))
                for k in opens:
                    if _features_key_before(keys, a + int(s[k])):
                        array_open = a + int(s[k])
                        break
            if array_open >= 0 and array_close < 0:
                pos = s + a
                inside = pos > array_open
                closes = np.flatnonzero(inside & (c[s] == ord("]")) & (after == 1))
                if len(closes):
                    array_close = int(pos[closes[0]])
                    inside &= pos < array_close
                commas = pos[inside & (c[s] == _COMMA) & (after == 2)]
                number = count + 1 + np.arange(len(commas))  # the features before each
                cuts += commas[number % rows == 0].tolist()
                if commas_to is not None:
                    commas_to.append(commas)
                count += len(commas)
                if not nonblank:
                    lo = max(array_open + 1 - a, 0)
                    hi = (array_close - a) if array_close >= 0 else len(c)
                    nonblank = bool((c[lo:hi] > 32).any())
            depth = int(after[-1])
    if in_string or depth != 0 or array_open < 0 or array_close < 0 or not nonblank:
        return None  # (an unclosed file, or no features: the reader says what is wrong)
    return array_open, array_close, cuts, count + 1


def slice_text(path: str | os.PathLike[str], part: FeatureSlice) -> bytes:
    """The text of a FeatureCollection of ``part``'s features: the file's text before its
    ``features`` array, the features, and the text after it."""
    with open(path, "rb") as fh:
        head = fh.read(part.head_end)
        fh.seek(part.start)
        body = fh.read(part.end - part.start)
        fh.seek(part.tail_start)
        tail = fh.read()
    if part.lines:  # a sequence's lines, as records GDAL's GeoJSONSeq driver tells by their RS
        body = b"".join(b"\x1e" + line + b"\n" for line in body.split(b"\n") if line.strip())
    return head + body + tail


def _utf8(decoder: Any, c: np.ndarray, final: bool) -> bool:
    """Whether chunk ``c`` goes on valid UTF-8 text (``decoder``: the chunks before)."""
    if c.max() >= 128 or decoder.getstate()[0]:  # (ASCII is UTF-8)
        try:
            decoder.decode(c.tobytes(), final=final)
        except UnicodeDecodeError:
            return False
    return True


_RS, _NEWLINE, _CR, _OPEN_BRACE, _CLOSE_BRACE = 30, 10, 13, ord("{"), ord("}")
_BOM8 = codecs.BOM_UTF8


def cut_sequence(path: str | os.PathLike[str], rows: int) -> list[FeatureSlice] | None:
    """Slices of about ``rows`` features of the GeoJSON text sequence ``path`` (GDAL's
    GeoJSONSeq: ``.geojsonl``, ``.geojsons``), in order; None when it holds at most twice that
    many or cannot be cut so that each slice reads as the whole file does (it is then read
    whole).

    A sequence is one feature per record: records that each begin with a record separator (RS,
    RFC 8142), or lines. A file whose first byte is RS is cut before every ``rows``-th RS
    (JSON text holds no raw RS). Any other file is cut at the start of every ``rows``-th line,
    if every line of it is a record: it begins with ``{`` and ends with ``}`` (before a
    ``\r``), or is empty; a pretty-printed record over several lines is not cut. Only UTF-8
    text without a byte-order mark is cut."""
    path = os.fspath(path)
    scan = _scan_sequence(path, rows) if _big_enough(path, rows) else None
    if scan is None or scan[1] <= 2 * rows:
        return None
    rs, count, starts, size = scan
    sizes = _sizes(len(starts), count, rows)
    del starts[len(sizes) :]  # (a small last slice joined to the one before)
    ends = [*starts[1:], size]
    firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).tolist()
    return [
        FeatureSlice(0, size, lo, hi, first, n, lines=not rs)
        for lo, hi, first, n in zip(starts, ends, firsts, sizes, strict=True)
    ]


def record_bounds(path: str | os.PathLike[str]) -> np.ndarray | None:
    """Where each record of the GeoJSON text sequence ``path`` begins, and the file's size
    (record ``k`` lies between the ``k``-th and the next), as :func:`cut_sequence` scans them
    (8 bytes a record); None for a file it would not cut."""
    starts: list[np.ndarray] = []
    scan = _scan_sequence(os.fspath(path), 1 << 62, starts)
    if scan is None:
        return None
    return np.concatenate([*starts, [scan[3]]]).astype(np.int64)


def record_texts(
    path: str | os.PathLike[str], bounds: np.ndarray, rows: np.ndarray
) -> dict[int, bytes]:
    """The text of records ``rows`` of the GeoJSON text sequence ``path`` whose records lie
    within ``bounds`` (:func:`record_bounds`), without their RS."""
    rows = np.asarray(rows, dtype=np.int64)
    texts = _texts(path, rows, bounds[rows], bounds[rows + 1])
    return {r: t.lstrip(b"\x1e") for r, t in texts.items()}


def _texts(path: str | os.PathLike[str], rows: np.ndarray, starts, ends) -> dict[int, bytes]:
    """The bytes ``[starts[i], ends[i])`` of ``path`` for each of ``rows``."""
    out: dict[int, bytes] = {}
    with open(path, "rb") as fh:
        for r, a, b in zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True):
            fh.seek(a)
            out[r] = fh.read(b - a)
    return out


def _scan_sequence(
    path: str, rows: int, starts_to: list[np.ndarray] | None = None
) -> tuple[bool, int, list[int], int] | None:
    """The scan of :func:`cut_sequence`: whether records begin with RS, how many there are,
    where every ``rows``-th begins, and the file's size; None for a file not cut. Where every
    record begins goes into ``starts_to`` if given, an array a chunk."""
    path = os.fspath(path)
    try:
        size = os.path.getsize(path)
    except OSError:  # read whole: the reading says what is wrong
        return None
    with open(path, "rb") as fh:
        rs = fh.read(1) == b"\x1e"
    decoder = codecs.getincrementaldecoder("utf-8")()
    count = 0  # records so far
    starts: list[int] = []  # where every rows-th record begins
    before = np.array([_NEWLINE, _NEWLINE], dtype=np.uint8)  # (the file begins a line)
    for a, c in _chunks(path):
        if not _utf8(decoder, c, a + len(c) >= size) or (a == 0 and c[:3].tobytes() == _BOM8):
            return None
        if rs:
            begin = np.flatnonzero(c == _RS)
        else:
            x = np.concatenate([before, c])  # each byte after the two before it (c[i]: x[i + 2])
            nl = np.flatnonzero(c == _NEWLINE) + 2  # the newlines' places in x
            last = np.where(x[nl - 1] == _CR, x[nl - 2], x[nl - 1])  # each line's, but a \r
            if not np.isin(last, (_CLOSE_BRACE, _NEWLINE)).all():
                return None  # a line that neither ends a record nor is empty
            heads = np.flatnonzero(x[1:-1] == _NEWLINE)  # the bytes that begin a line
            lead = c[heads]
            if not np.isin(lead, (_OPEN_BRACE, _NEWLINE, _CR)).all():
                return None  # a line that neither begins a record nor is empty
            begin = heads[lead == _OPEN_BRACE]
            before = x[-2:].copy()
        number = count + np.arange(len(begin))  # the records before each
        starts += (begin[number % rows == 0] + a).tolist()
        if starts_to is not None:
            starts_to.append(begin + a)
        count += len(begin)
    if not rs and before[-1] != _NEWLINE:  # a last line without its newline
        if (before[0] if before[-1] == _CR else before[-1]) != _CLOSE_BRACE:
            return None
    return rs, count, starts, size


def unread_member(
    path: str | os.PathLike[str], part: FeatureSlice | None = None
) -> tuple[int, tuple[int, str] | None]:
    """The members of a GeoJSON file's ``features`` array (of ``part``'s, if given) before the
    first that GDAL's reader leaves out without a word (one that is not a JSON object, or, in a
    FeatureCollection, an object that is not a Feature), and that one's row (from the slice's
    first, or 0) and why; None for that if it has none, or if Python's parser cannot read the
    text (GDAL's error says why). Slow: for a read whose count of features is not the array's
    (:func:`member_bounds`)."""
    if part is not None:
        text, first = slice_text(path, part), part.first
    else:
        with open(path, "rb") as fh:
            text, first = fh.read(), 0
    try:
        doc = json.loads(text)
    except ValueError:
        return 0, None
    members = doc.get("features") if isinstance(doc, dict) else None
    if not isinstance(members, list):
        return 0, None
    collection = doc.get("type") == "FeatureCollection"  # (not an Esri FeatureSet)
    for k, member in enumerate(members):
        if not isinstance(member, dict):
            return k, (first + k, "not a JSON object")
        if collection and member.get("type") != "Feature":
            return k, (first + k, "not a GeoJSON Feature")
    return len(members), None


def unread_record(
    path: str | os.PathLike[str], part: FeatureSlice | None = None
) -> tuple[int, tuple[int, int, str] | None]:
    """The records of a GeoJSON text sequence (of ``part`` of it, if given) that are JSON
    objects, counted by Python's parser, and the first that is not one (its number, from the
    slice's first or 0, the line it begins on, and why), which GDAL's GeoJSONSeq driver leaves
    out without a word; None for that if every record is one. Slow (Python's parser, record by
    record): for a read whose count of features is not the records' (:func:`record_bounds`), or
    a file that cannot be counted so (:func:`posting.io._read_ogr_layer`)."""
    if part is not None:
        with open(path, "rb") as fh:
            line = fh.read(part.start).count(b"\n") + 1
            data = fh.read(part.end - part.start)
        number = part.first
    else:
        with open(path, "rb") as fh:
            data = fh.read()
        line, number = 1, 0
    text = data.decode("utf-8", errors="replace")
    decoder = json.JSONDecoder()
    at, good = 0, 0
    blank = re.compile(r"[\s\x1e]*")
    while (at := blank.match(text, at).end()) < len(text):
        try:
            value, end = decoder.raw_decode(text, at)
        except ValueError as exc:
            why = f"not JSON ({exc.msg})" if hasattr(exc, "msg") else "not JSON"
            return good, (number + good, line + text.count("\n", 0, at), why)
        if not isinstance(value, dict):  # (GDAL reads a bare geometry as a feature)
            return good, (number + good, line + text.count("\n", 0, at), "not a JSON object")
        good += 1
        at = end
    return good, None


Column = tuple[str, str, bool]
"""A column of a slice as read: its name, its pandas type, and whether every value is missing."""


def columns_of(frame: Any) -> tuple[Column, ...]:
    """The columns of a slice read (its GeoDataFrame or attribute table), but its geometry."""
    geometry = getattr(frame, "_geometry_column_name", None)
    return tuple(
        (str(c), str(t), bool(frame[c].isna().all()))
        for c, t in frame.dtypes.items()
        if c != geometry
    )


def columns(path: str | os.PathLike[str], part: FeatureSlice) -> tuple[Column, ...]:
    """The columns of ``part`` of ``path`` as :func:`posting.io.read_layer` reads them (by
    GDAL through Arrow, without the geometries: a fifth less time than with them)."""
    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()

    from posting.io import _exact_ints

    frame = pyogrio.read_dataframe(
        slice_text(path, part),
        read_geometry=False,
        use_arrow=True,
        arrow_to_pandas_kwargs={"types_mapper": _exact_ints().get},
    )
    return columns_of(frame)


def _keeps_missing(kind: str) -> bool:
    """Whether a column of this pandas type has the same type with missing values: where GDAL
    reads a column with some empty values as one with none (decimals, text, dates, and whole
    numbers, read as pandas' nullable integers either way: ``posting.io._exact_ints``), not
    where missing values change it (numpy's integers and booleans become decimals or
    objects)."""
    return (
        kind in ("float64", "float32", "object", "str", "string")
        or kind.startswith("datetime64")
        or kind in _NULLABLE_INTS
    )


_NULLABLE_INTS = frozenset(f"{u}Int{b}" for u in ("", "U") for b in (8, 16, 32, 64))


def agree(slices: list[tuple[Column, ...]]) -> tuple[tuple[str, str], ...] | None:
    """Whether slices read with these columns read as the whole file does: None where they do
    not (the file is then read whole), else the casts that make them so.

    GDAL types a GeoJSON file's properties by the values it meets, so the slices agree when
    they have the same columns, in the same order, each of one type in every slice where it
    has a value. A column with no value in a slice (GDAL gives such a column text) takes the
    type of the others, where missing values do not change that type: the cast ``(name,
    type)``.

    >>> agree([(("acres", "float64", False),), (("acres", "str", True),)])
    (('acres', 'float64'),)
    >>> agree([(("code", "int32", False),), (("code", "str", True),)]) is None
    True
    """
    if len({tuple(c[0] for c in cols) for cols in slices}) != 1:
        return None
    casts = []
    for k, name in enumerate(c[0] for c in slices[0]):
        full = {cols[k][1] for cols in slices if not cols[k][2]}
        empty = {cols[k][1] for cols in slices if cols[k][2]}
        if len(full) > 1 or (not full and len(empty) > 1):
            return None
        if full and (kind := next(iter(full))) and empty - full:
            if not _keeps_missing(kind):
                return None
            casts.append((name, kind))
    return tuple(casts)


def conform(frame: Any, casts: tuple[tuple[str, str], ...]) -> Any:
    """``frame`` (a slice read) with each of its columns named in ``casts`` that has no value
    given the type there, as missing values of it (:func:`agree`)."""
    import pandas as pd

    for name, kind in casts:
        if name in frame.columns and frame[name].isna().all():
            frame[name] = pd.Series(pd.array([None] * len(frame), dtype=kind), index=frame.index)
    return frame
