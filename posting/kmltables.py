"""A KML placemark's attributes written as an HTML table in its ``<description>``.

ArcGIS' *Layer To KML* (and *Map To KML*) writes each feature's attributes not in
``<ExtendedData>``, which GDAL reads as columns, but as the pop-up Google Earth shows: an HTML
table of rows ``<td>FIELD</td><td>value</td>``, nested in an outer table whose first row is a
header (the layer's name). GDAL gives that HTML as the ``description`` column, so a sign's text,
letter height and owner's name were *not checked*. :func:`description_tables` reads such a
table into columns, named as the table names them (they then go through the header matching
of :mod:`posting.attributes` as any other column's); a description that is no such table (free
text, a photo's link) is left as it is.

>>> desc = ("<table><tr><td>layer</td></tr><tr><td><table>"
...         "<tr><td>SIGN_TEXT</td><td>NO TRESPASSING</td></tr>"
...         "<tr><td>LETTER_HEI</td><td>&lt;Null&gt;</td></tr></table></td></tr></table>")
>>> field_table(desc)
{'SIGN_TEXT': 'NO TRESPASSING', 'LETTER_HEI': None}
>>> field_table("Sign on the oak by the gate") is None
True
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["description_tables", "field_table"]

NULLS = frozenset({"", "<null>", "null", "&lt;null&gt;"})
"""A value that records nothing: a blank cell, or ArcGIS' ``<Null>`` (as the pop-up shows a
field without a value)."""


class _Tables(HTMLParser):
    """The rows of each table of an HTML text: for each row, its cells' text and whether each
    is a header cell (``<th>``). A cell's text is its own, not that of a table nested in it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[tuple[str, bool]]]] = []
        self._open: list[int] = []  # the open tables, as indices into self.tables
        self._cell: list[list[str] | None] = []  # per open table: the open cell's text
        self._header: list[bool] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "table":
            self._open.append(len(self.tables))
            self.tables.append([])
            self._cell.append(None)
            self._header.append(False)
        elif not self._open:
            return
        elif tag == "tr":
            self._end_cell()
            self.tables[self._open[-1]].append([])
        elif tag in ("td", "th"):
            self._end_cell()
            rows = self.tables[self._open[-1]]
            if not rows:  # (a cell outside a row: a row of its own)
                rows.append([])
            self._cell[-1] = []
            self._header[-1] = tag == "th"
        elif tag == "br" and self._cell and self._cell[-1] is not None:
            self._cell[-1].append(" ")

    def handle_endtag(self, tag: str) -> None:
        if not self._open:
            return
        if tag == "table":
            self._end_cell()
            self._open.pop()
            self._cell.pop()
            self._header.pop()
        elif tag in ("td", "th", "tr"):
            self._end_cell()

    def handle_data(self, data: str) -> None:
        if self._cell and self._cell[-1] is not None:
            self._cell[-1].append(data)

    def _end_cell(self) -> None:
        if self._cell and self._cell[-1] is not None:
            text = " ".join("".join(self._cell[-1]).split())
            self.tables[self._open[-1]][-1].append((text, self._header[-1]))
            self._cell[-1] = None


def field_table(html: object) -> dict[str, str | None] | None:
    """The fields of a description that is a table of fields (each row a field's name and its
    value, as ArcGIS writes them; rows of header cells aside), as ``{name: value}`` (a value
    of :data:`NULLS` is None; a name given twice keeps its first value); None for any other
    description: not text, no table, or no table whose every row has two cells. Of several
    such tables, the first."""
    if not isinstance(html, str) or "<t" not in html.lower():
        return None
    parser = _Tables()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):  # pragma: no cover - html.parser is lenient
        return None
    for rows in parser.tables:
        rows = [r for r in rows if r and not all(header for _, header in r)]
        if not rows or any(len(r) != 2 for r in rows):
            continue
        out: dict[str, str | None] = {}
        for (name, _), (value, _) in rows:
            if name:
                out.setdefault(name, None if value.lower() in NULLS else value)
        if out:
            return out
    return None


def description_tables(frame: pd.DataFrame, column: str = "description") -> pd.DataFrame:
    """``frame`` (a KML layer as GDAL reads it) with the fields of each ``column`` that is a
    table of fields (:func:`field_table`) as columns of their own, and that description blank
    (it is the fields, not a description of the sign). A field named as a column already there
    (case aside: ``Name``, ``description``) fills that column where it is blank; others are
    added in the order the tables first name them. ``frame`` itself where no description is
    such a table.

    >>> f = pd.DataFrame({"Name": ["1", None], "description": [
    ...     "<table><tr><td>NAME</td><td>A</td></tr><tr><td>Owner</td><td>Smith</td></tr>"
    ...     "</table>", "by the gate"]})
    >>> description_tables(f).fillna("-").to_dict("list")
    {'Name': ['1', '-'], 'description': ['-', 'by the gate'], 'Owner': ['Smith', '-']}
    """
    if column not in frame.columns:
        return frame
    text = frame[column].to_numpy(dtype=object)
    maybe = pd.Series(text, dtype="string").str.contains("<t", case=False, regex=False)
    found = {int(i): field_table(text[i]) for i in maybe.fillna(False).to_numpy(bool).nonzero()[0]}
    rows = {i: fields for i, fields in found.items() if fields is not None}
    if not rows:
        return frame
    out = frame.copy()
    at = list(rows)
    text = text.copy()
    text[at] = None
    out[column] = text
    have = {str(c).lower(): c for c in out.columns}
    for name in dict.fromkeys(k for fields in rows.values() for k in fields):
        values = np.full(len(frame), None, dtype=object)
        values[at] = [fields.get(name) for fields in rows.values()]
        col = have.get(name.lower())
        if col is None:
            out[name] = values
            have[name.lower()] = name
            continue
        old = out[col].to_numpy(dtype=object)
        blank = pd.isna(old) | (pd.Series(old, dtype="string").str.strip() == "").fillna(True)
        out[col] = np.where(blank, values, old)
    return out
