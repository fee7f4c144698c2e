"""A CSV file cut into slices of records, each read as the whole file reads it."""

from __future__ import annotations

import codecs
import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import csvslices
from posting.csvslices import TextSlice, cut
from posting.io import _read_csv

HEADER = "lon,lat,name,text"


def _write(path, text: str, encoding: str = "utf-8") -> None:
    path.write_bytes(text.encode(encoding))


def _slices_read(path, slices: list[TextSlice]) -> pd.DataFrame:
    return pd.concat([_read_csv(str(path), None, s).frame for s in slices], ignore_index=True)


def test_records_cut_every_rows_th_with_the_header_and_first_record_before_each(tmp_path):
    """Ten records of 8 bytes after a 17-byte header, in slices of 3: 3, 3 and 4 records (a
    last slice of one joins the one before); each slice's bytes are its records'."""
    path = tmp_path / "signs.csv"
    rows = [f"-81.{i},28.{i}\n" for i in range(10)]  # "-81.0,28.0\n": 11 bytes
    _write(path, "lon,lat\n" + "".join(rows))
    head = len("lon,lat\n")
    got = cut(path, 3)
    assert [(s.start, s.end, s.rows) for s in got] == [
        (head, head + 33, 3),
        (head + 33, head + 66, 3),
        (head + 66, head + 110, 4),
    ]
    assert {(s.header_end, s.first_end) for s in got} == {(head, head + 11)}
    assert _slices_read(path, got).equals(_read_csv(str(path), None).frame)


def test_blank_lines_are_no_records_and_quoted_line_ends_are_no_ends(tmp_path):
    """pandas skips a blank line (or one of blanks): it is not counted; a line end inside
    quotes ends no record."""
    path = tmp_path / "signs.csv"
    lines = [HEADER]
    for i in range(9):
        lines.append(f'-81.{i},28.{i},"a\nb, {i}",x')
        lines.append(" \t" if i % 2 else "")
    _write(path, "\r\n".join(lines) + "\r\n\r\n")
    got = cut(path, 2)
    assert [s.rows for s in got] == [2, 2, 2, 2, 1]
    assert _slices_read(path, got).equals(_read_csv(str(path), None).frame)
    assert len(_read_csv(str(path), None).frame) == 9


@pytest.mark.parametrize(
    "text, why",
    [
        (HEADER + "\n" + '-81,28,5" sign,x\n' * 20, "a quote inside a field"),
        (HEADER + "\r" + "-81,28,a,x\r" * 20, "lines ended by \\r alone"),
        ("\n" + HEADER + "\n" + "-81,28,a,x\n" * 20, "a blank line before the header"),
        (HEADER + "\n" + "-81,28,a,x\n" * 20 + '-81,28,"open,x\n', "a quote left open"),
        ("lon;lat;name\n" + "-81,5;28,5;a\n" * 20, "semicolons: decimal commas"),
        (HEADER + "\n" + "-81,28,a,x\n" * 6, "at most twice the rows"),
    ],
)
def test_a_file_that_not_every_reader_cuts_alike_is_read_whole(tmp_path, text, why):
    path = tmp_path / "signs.csv"
    _write(path, text)
    assert cut(path, 3) is None, why


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_text_that_is_not_utf_8_is_read_whole(tmp_path, encoding):
    """Latin-1 (one run reads it so, with a note naming the first byte that is not UTF-8) and
    UTF-16 are read whole."""
    path = tmp_path / "signs.csv"
    _write(path, HEADER + "\n" + "-81,28,Léan,x\n" * 20, encoding)
    assert cut(path, 3) is None


_FIELD = st.one_of(
    st.sampled_from(["", "a", "x y", " s ", "12", "é", "日本"]),
    st.builds(
        lambda t: '"' + t.replace('"', '""') + '"',
        st.text(alphabet='a,"\n\r é', max_size=6),
    ),
)
_BLANK_LINE = st.sampled_from(["", " ", "\t", " \t "])


@settings(max_examples=150, deadline=None)
@given(
    records=st.lists(st.tuples(_FIELD, _FIELD, st.lists(_BLANK_LINE, max_size=1)), max_size=40),
    rows=st.integers(1, 7),
    crlf=st.booleans(),
    bom=st.booleans(),
    last_end=st.booleans(),
    chunk=st.sampled_from([5, 16, 1 << 20]),
)
def test_slices_read_as_the_whole_file(tmp_path_factory, records, rows, crlf, bom, last_end, chunk):
    """Any file of RFC 4180 records (quoted line ends, commas and quotes, blank lines, CRLF, a
    byte-order mark, a last line without its end), scanned in chunks of any size: the slices
    read, one after another, are the file read whole, and hold the rows they say; only a small
    file, or one with a \r that ends no line, is left whole."""
    end = "\r\n" if crlf else "\n"
    lines = [HEADER]
    for i, (name, text, blank) in enumerate(records):
        lines += [f"-81.{i},28.{i},{name},{text}", *blank]
    body = end.join(lines) + (end if last_end else "")
    path = tmp_path_factory.mktemp("csv") / "signs.csv"
    path.write_bytes((codecs.BOM_UTF8 if bom else b"") + body.encode())
    old = csvslices.CHUNK_BYTES
    csvslices.CHUNK_BYTES = chunk
    try:
        got = cut(path, rows)
    finally:
        csvslices.CHUNK_BYTES = old
    whole = _read_csv(str(path), None).frame
    if got is None:  # too small, or a line ended by \r alone (in quotes too: not cut)
        lone_cr = re.search("\r(?!\n)", body) is not None
        assert len(whole) <= 2 * rows or path.stat().st_size < 4 * rows or lone_cr
        return
    assert len(whole) > 2 * rows
    parts = [_read_csv(str(path), None, s).frame for s in got]
    assert [len(p) for p in parts] == [s.rows for s in got]
    assert pd.concat(parts, ignore_index=True).equals(whole)
    assert all(s.rows == rows for s in got[:-1]) and rows / 2 <= got[-1].rows < 1.5 * rows
