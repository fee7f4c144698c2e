"""The JSON report: the header indented, then one parcel and one unassigned sign per line."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import orjson

from posting import jsontext
from posting.errors import python_name
from posting.records import LINE_END, header, parcel_line_chunks, unassigned_items
from posting.render import register

if TYPE_CHECKING:
    from posting.report import Report

__all__ = ["iter_json"]


@register("json", "report", (".json",), "the JSON report")
def iter_json(
    report: Report, name: Callable[[str], str] = python_name
) -> Iterator[bytes | memoryview]:
    """The JSON report as UTF-8, in pieces: the header indented, then one parcel and one
    unassigned sign per line (readable; the parcels' lines written by Arrow's kernels,
    :func:`posting.records.parcel_line_chunks`, each piece while the next are made; the
    signs' by orjson). ``name`` spells the settings the report names (``--fences`` on the
    command line)."""
    head = json.dumps(header(report, name), indent=1, ensure_ascii=False, allow_nan=False)
    yield (head[:-2] + ',\n "parcels": [').encode()
    end = len(LINE_END.encode())
    held = None  # each piece is written once the next is made: the last one's LINE_END is not
    for lines in parcel_line_chunks(report):
        yield b"\n  " if held is None else jsontext.span(held)
        held = lines
    if held is not None:
        last = jsontext.span(held)
        yield last[: len(last) - end]
    yield b'\n ],\n "unassigned_signs": ['
    sep = b"\n  "
    items = unassigned_items(report)
    while batch := list(itertools.islice(items, 5_000)):  # a few MB at a time
        yield sep
        yield _json_lines(batch)
        sep = b",\n  "
    yield b"\n ]\n}\n"


def _json_lines(items: list[dict[str, Any]]) -> bytes | memoryview:
    """``items`` as JSON objects separated by ``,`` and a new line (indented by two).

    One orjson call for the whole list, split where one item ends and the next begins, is
    several times faster than one call per item (100,000 small ``bytes`` objects). An item's
    first key is the split mark: ``},{"key":`` cannot occur inside a JSON string (its quotes are
    escaped there), and where a nested object starts with the same key, the count tells and each
    item is written on its own.

    >>> bytes(_json_lines([{"id": "a", "x": [{"y": 1}, {"y": 2}]}, {"id": "b"}]))
    b'{"id":"a","x":[{"y":1},{"y":2}]},\\n  {"id":"b"}'
    >>> bytes(_json_lines([{"id": "a", "x": [{"id": 1}, {"id": 2}]}, {"id": "b"}]))
    b'{"id":"a","x":[{"id":1},{"id":2}]},\\n  {"id":"b"}'
    """
    if not items:
        return b""
    first = next(iter(items[0]), None)
    if first is not None and all(next(iter(x), None) == first for x in items):
        whole = orjson.dumps(items)
        key = orjson.dumps(first) + b":"
        lines = whole.replace(b"},{" + key, b"},\n  {" + key)
        if len(lines) - len(whole) == 3 * (len(items) - 1):  # one break between each two
            return memoryview(lines)[1:-1]
    return b",\n  ".join(map(orjson.dumps, items))
