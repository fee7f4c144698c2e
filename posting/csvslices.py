"""A large CSV file cut into slices of whole records, each of which a worker reads as one
process reads the file (:func:`posting.io.read_layer` with a :class:`TextSlice`).

A state's signs come as one CSV file as often as not (a GPS export, a survey's table): read
whole by one worker, ten million rows of text would take several GB of one process. The file is
scanned once, 8 MiB at a time with numpy, for the ends of its records: a line end outside
quotes (the quotes before it are even in number), where the line holds more than blanks (pandas
skips a blank line, so it is no record). A slice is read as the header, the file's first record
(pandas settles the columns and the index by it), then the slice's records, and the first record
is dropped again.

The scan cuts only a file that every reader tokenizes alike: UTF-8 text (with or without its
mark), commas between fields (a header without one is a spreadsheet's semicolons, whose decimal
commas are settled over the whole file), lines ended by ``\\n`` or ``\\r\\n``, and quotes where
RFC 4180 puts them (a quote that opens a field follows a comma, a line end or a quote; one that
closes it comes before a comma, a line end or a quote). Any other file is read whole, as before.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

__all__ = ["CHUNK_BYTES", "TextSlice", "csv_separator", "cut"]

CHUNK_BYTES = 1 << 23
"""Bytes scanned at a time (8 MiB: a few dozen MB of numpy temporaries)."""

_QUOTE, _COMMA, _LF, _CR = 34, 44, 10, 13
_BLANK = np.zeros(256, dtype=bool)
_BLANK[[9, 10, 13, 32]] = True  # what a blank line may hold


def csv_separator(head: bytes) -> str:
    """The separator of a CSV file that begins with ``head``: a comma, or where the header has
    none, the semicolon, tab or bar it has most of (a spreadsheet in a language that writes
    28,5 for 28.5 separates its values with semicolons).

    >>> csv_separator(b"lon,lat\\n"), csv_separator(b"lon;lat\\n-81,1;28,5\\n")
    (',', ';')
    """
    encoding = "utf-16" if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else "utf-8-sig"
    first = head.decode(encoding, errors="replace").lstrip("\ufeff").splitlines()[0]
    if "," in first:
        return ","
    sep = max((";", "\t", "|"), key=first.count)
    return sep if sep in first else ","


@dataclass(frozen=True)
class TextSlice:
    """Records ``[start, end)`` (bytes) of a CSV file, with what a reader puts before them.

    Attributes
    ----------
    header_end
        The byte after the header record's line end.
    first_end
        The byte after the first data record's line end.
    start, end
        The slice's bytes: whole records (and any blank lines between them).
    rows
        Its number of records.
    """

    header_end: int
    first_end: int
    start: int
    end: int
    rows: int


def _chunks(path: str) -> Iterator[tuple[int, np.ndarray, int, int]]:
    """The file in chunks of :data:`CHUNK_BYTES`: each one's offset, its bytes, and the bytes
    before and after it (line ends before and after the file). Read, not mapped: the file's
    pages do not stay in this process."""
    prev = _LF
    with open(path, "rb") as fh:
        a = 0
        while len(buf := np.frombuffer(fh.read(CHUNK_BYTES + 1), dtype=np.uint8)):
            c = buf[:CHUNK_BYTES]
            yield a, c, prev, int(buf[-1]) if len(buf) > len(c) else _LF
            prev = int(c[-1])
            a += len(c)
            fh.seek(a)


def _next(c: np.ndarray, at: np.ndarray, nxt: int) -> np.ndarray:
    """The byte after each of positions ``at`` of chunk ``c`` (``nxt`` after its last)."""
    return np.where(at + 1 < len(c), c[np.minimum(at + 1, len(c) - 1)], nxt)


def cut(path: str | os.PathLike[str], rows: int) -> list[TextSlice] | None:
    """Slices of about ``rows`` records of the CSV file ``path``, in order; None when it holds
    at most twice that many or cannot be cut so that each slice reads as the whole file does
    (see the module's notes: then it is read whole)."""
    path = os.fspath(path)
    try:
        size = os.path.getsize(path)
    except OSError:  # read whole: the reading says what is wrong
        return None
    if size < 4 * rows:  # a record takes two bytes at least
        return None
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return None
    if csv_separator(head) != ",":  # decimal commas: settled on the whole file
        return None
    begin = 3 if head[:3] == codecs.BOM_UTF8 else 0
    decoder = codecs.getincrementaldecoder("utf-8")()
    quotes = 0  # quotes before the chunk
    tail = False  # whether the line still open at the chunk's start holds more than blanks
    count = 0  # records so far (the header is the first)
    lead: list[int] = []  # the ends of the header and of the first record
    cuts: list[int] = []  # the header's end, then every rows-th record's
    for a, c, prev, nxt in _chunks(path):
        b = a + len(c)
        if c.max() >= 128 or decoder.getstate()[0]:  # (ASCII is UTF-8)
            try:
                decoder.decode(c.tobytes(), final=b >= size)
            except UnicodeDecodeError:  # read whole: one run reads it as Latin-1, with a note
                return None
        cr = np.flatnonzero(c == _CR)
        if len(cr) and (_next(c, cr, nxt) != _LF).any():
            return None  # a line ended by \r alone
        q = np.flatnonzero(c == _QUOTE)
        if len(q):
            opening = (quotes + np.arange(len(q))) % 2 == 0
            before = c[np.maximum(q - 1, 0)]
            if q[0] == 0:
                before[0] = prev
            before[q + a == begin] = _LF  # the file's first byte after its mark
            after = _next(c, q, nxt)
            good = np.where(
                opening,
                np.isin(before, (_COMMA, _LF, _QUOTE)),
                np.isin(after, (_COMMA, _LF, _CR, _QUOTE)),
            )
            if not good.all():
                return None  # a quote inside a field: tokenizers differ there
        lf = np.flatnonzero(c == _LF)
        # a byte other than a blank (a space, tab or line end): mostly, one above the space
        solid = c > 32
        if np.count_nonzero(c < 32) != len(lf) + len(cr) + np.count_nonzero(c == 9):
            solid |= ~_BLANK[c] & (c < 32)  # other control characters
        lf = lf[(quotes + np.searchsorted(q, lf)) % 2 == 0]  # line ends outside quotes
        quotes += len(q)
        # whether each line holds more than blanks: from each line's start to its end, the
        # first line's begun in an earlier chunk, the last one still open
        starts = np.concatenate([[0], lf + 1])
        opened = starts[-1] < len(c)
        full = np.logical_or.reduceat(solid, starts if opened else starts[:-1])
        line, still = (full[:-1], bool(full[-1])) if opened else (full, False)
        if len(line):
            line[0] |= tail
            tail = still
        else:
            tail = tail or still
        if count == 0 and len(line) and not line[0]:
            return None  # blank lines before the header
        records = lf[line] + (a + 1)  # the byte after each record's line end
        number = count + 1 + np.arange(len(records))  # the header is record 1
        if len(lead) < 2:
            lead += records[number <= 2].tolist()
        cuts += records[(number - 1) % rows == 0].tolist()
        count += len(records)
    if quotes % 2:
        return None  # a quote left open: the reader's error, on the whole file
    count += tail  # a last record without a line end
    data_rows = count - 1
    if data_rows <= 2 * rows:
        return None
    cuts = [*(e for e in cuts if e < size), size]  # blank lines at the end: the last slice's
    sizes = [rows] * (len(cuts) - 1)
    sizes[-1] = data_rows - rows * (len(cuts) - 2)
    if sizes[-1] == 0:  # only blank lines after the last cut
        del cuts[-2]
        sizes.pop()
    if len(sizes) > 1 and 2 * sizes[-1] < rows:  # a small last slice joins the one before
        del cuts[-2]
        sizes[-2:] = [sizes[-2] + sizes[-1]]
    return [
        TextSlice(lead[0], lead[1], s, e, n)
        for s, e, n in zip(cuts[:-1], cuts[1:], sizes, strict=True)
    ]
