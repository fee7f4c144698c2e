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

from typing import Any

import numpy as np
import pandas as pd

__all__ = ["description_tables", "field_table"]

NULLS = frozenset({"", "<null>", "null", "&lt;null&gt;"})
"""A value that records nothing: a blank cell, or ArcGIS' ``<Null>`` (as the pop-up shows a
field without a value)."""


_ROWS = frozenset({"thead", "tbody", "tfoot"})


def _cells(tr: Any) -> list[tuple[str, bool]]:
    """A table row's cells: each one's text (blanks collapsed) and whether it is a header
    cell (``<th>``)."""
    return [
        (" ".join(" ".join(c.itertext()).split()), c.tag == "th")
        for c in tr
        if c.tag in ("td", "th")
    ]


def _rows(table: Any) -> list[list[tuple[str, bool]]]:
    """A table's own rows (not those of a table nested in it): its ``<tr>`` children, and
    those of its ``<thead>``, ``<tbody>`` and ``<tfoot>``."""
    out = []
    for child in table:
        if child.tag == "tr":
            out.append(_cells(child))
        elif child.tag in _ROWS:
            out.extend(_cells(tr) for tr in child if tr.tag == "tr")
    return out


def field_table(html: object, parser: Any = None) -> dict[str, str | None] | None:
    """The fields of a description that is a table of fields (each row a field's name and its
    value, as ArcGIS writes them; rows of header cells aside), as ``{name: value}`` (a value
    of :data:`NULLS` is None; a name given twice keeps its first value); None for any other
    description: not text, no table, or no table (with none nested in it) whose every row has
    two cells. Of several such tables, the first. Read by libxml2's HTML parser (lxml), as
    lenient as a browser's pop-up (a cell left unclosed, entities); ``parser``: an
    ``lxml.etree.HTMLParser`` of the calling thread's, to read many (one is made if not
    given: a parser is not to be shared between threads)."""
    if not isinstance(html, str) or "<t" not in html.lower():
        return None
    from lxml import etree

    if parser is None:
        parser = etree.HTMLParser(recover=True, no_network=True)
    try:
        doc = etree.fromstring(html, parser)
    except (etree.XMLSyntaxError, ValueError):  # (nothing an HTML parser can read)
        return None
    if doc is None:
        return None
    for table in doc.iter("table"):
        if table.find(".//table") is not None:  # (the outer table of ArcGIS' header)
            continue
        rows = [r for r in _rows(table) if r and not all(header for _, header in r)]
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
    from lxml import etree

    text = frame[column].to_numpy(dtype=object)
    maybe = pd.Series(text, dtype="string").str.contains("<t", case=False, regex=False)
    parser = etree.HTMLParser(recover=True, no_network=True)  # (this thread's, this file's)
    at = maybe.fillna(False).to_numpy(bool).nonzero()[0]
    found = {int(i): field_table(text[i], parser) for i in at}
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
