"""The ``<coordinates>`` of a KML or KMZ file, checked as GDAL's reader would misread them.

GDAL's KML reader (libkml) reads a position's numbers leniently and without a word: a value
that is not a number (``abc``, an empty element) becomes 0, so a sign stands on the equator or
the prime meridian; a position written with a space instead of a comma (``-81.5 27.1``) becomes
``0 0``; decimal commas (``-81,5,27,1``) become three numbers (``-81 5 27``); ``81.5.3`` becomes
81.5; and a Point of several positions keeps the first. A placemark so read would be checked
where it is not, so :func:`first_misread` finds the first, by its line in the file and the row
GDAL gives it, to refuse the file.

What is accepted is what the KML standard writes (OGC 12-007r2, 16.9.1:
``lon,lat[,alt]`` tuples separated by white space) and what GDAL reads as meant: spaces beside
a comma, a trailing comma, an altitude GDAL cannot read (it is not used).
"""

from __future__ import annotations

import math
import posixpath
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from xml.parsers import expat

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_N = r"[+-]?(?:\d{1,30}(?:\.\d*)?|\.\d+)"  # (no exponent: never too large a float)
_T = rf"{_N}\s*,\s*{_N}(?:\s*,\s*{_N})?"
_PLAIN = re.compile(rf"\s*{_T}(?:\s+{_T})*\s*")
_PLAIN_ONE = re.compile(rf"\s*{_T}\s*")
"""The text of ``<coordinates>`` as writers write it (lon,lat[,alt] tuples, spaces between
them and around commas), which :func:`tuple_problem` accepts: checked at once, where a loop
over a county's vertices in Python would take seconds."""
_AROUND_COMMA = re.compile(r"\s*,\s*")
_CONTAINERS = frozenset({"Document", "Folder"})


@dataclass(frozen=True)
class Misread:
    """A placemark whose ``<coordinates>`` GDAL would read as other than written."""

    row: int | None
    """Its row as GDAL reads the file: the placemarks of each Document and Folder in turn, in
    the order they open (the layers GDAL makes of them); None if the file could not be read to
    its end."""
    line: int
    """The line of the ``<coordinates>`` element in the file (from 1)."""
    name: str | None
    """The placemark's ``<name>``, if it has one."""
    text: str
    """The element's text, shortened to 60 characters."""
    why: str
    """How it is misread."""


def tuple_problem(text: str, point: bool) -> str | None:
    """Why GDAL would misread the text of a ``<coordinates>`` element (of a Point's if
    ``point``), or None if it reads it as written."""
    if (_PLAIN_ONE if point else _PLAIN).fullmatch(text):
        return None
    return _tuple_problem(text, point)


def _tuple_problem(text: str, point: bool) -> str | None:
    """:func:`tuple_problem`, tuple by tuple."""
    tuples = _AROUND_COMMA.sub(",", text.strip()).split()
    if not tuples:
        return "it has no position (GDAL places it at 0, 0)"
    for t in tuples:
        parts = t.split(",")
        if len(parts) > 1 and parts[0] == "":  # a leading comma, which GDAL skips
            parts = parts[1:]
        if len(parts) == 4 and parts[3] == "":  # a trailing comma after the altitude
            parts = parts[:3]
        if len(parts) == 3 and parts[2] == "":  # after the latitude
            parts = parts[:2]
        if len(parts) < 2:
            hint = ": a space where a comma belongs?" if _NUMBER.fullmatch(parts[0]) else ""
            return f"{t!r} is not longitude,latitude{hint} (GDAL places it at 0, 0)"
        if len(parts) > 3:
            return f"{t!r} has {len(parts)} numbers: decimal commas? (GDAL reads the first three)"
        for v in parts[:2]:
            if not _NUMBER.fullmatch(v):
                return f"{v!r} in {t!r} is not a number (GDAL reads it as 0 or a part of it)"
            if not math.isfinite(float(v)):
                return f"{v!r} in {t!r} is too large a number"
    if point and len(tuples) > 1:
        return f"a Point has {len(tuples)} positions (GDAL keeps the first)"
    return None


def first_misread(path: str) -> Misread | None:
    """The first placemark of a KML file (or a KMZ file's main KML) whose ``<coordinates>``
    GDAL would misread (:func:`tuple_problem`), or None: the first of :func:`misreads`."""
    found = misreads(path, limit=1)
    return found[0] if found else None


def misreads(path: str, limit: int = 1000, member: str | None = None) -> list[Misread]:
    """The placemarks of a KML file (or a KMZ file's main KML, or its ``member``) whose
    ``<coordinates>`` GDAL would misread (:func:`tuple_problem`), in the file's order, at most
    ``limit`` of them. A file the XML parser refuses, or a KMZ without a KML, is not checked
    (GDAL said what it could read)."""
    return _on_main_kml(path, lambda f: _scan(f, limit), member)


def network_links(path: str, member: str | None = None) -> list[str]:
    """Where the ``<NetworkLink>`` elements of a KML file (or a KMZ file's main KML, or its
    ``member``) point (their ``<href>``, in the file's order): places Google Earth loads from
    elsewhere, which GDAL does not follow (but see :func:`linked_members`). [] for a file the
    XML parser refuses.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".kml", delete=False) as f:
    ...     _ = f.write('<kml><Document><NetworkLink><Link><href>https://a/b.kmz</href>'
    ...                 '</Link></NetworkLink></Document></kml>')
    >>> network_links(f.name)
    ['https://a/b.kmz']
    >>> os.unlink(f.name)
    """

    def scan(f) -> list[str]:
        p = expat.ParserCreate()
        p.buffer_text = True
        path: list[str] = []
        hrefs: list[str] = []
        text: list[str] | None = None

        def start(tag: str, attrs: dict) -> None:
            nonlocal text
            path.append(tag.rpartition(":")[2])
            if path[-1] == "href" and "NetworkLink" in path:
                text = []

        def end(tag: str) -> None:
            nonlocal text
            if text is not None and path[-1] == "href":
                hrefs.append("".join(text).strip())
                text = None
            path.pop()

        def chars(data: str) -> None:
            if text is not None:
                text.append(data)

        p.StartElementHandler, p.EndElementHandler = start, end
        p.CharacterDataHandler = chars
        try:
            p.ParseFile(f)
        except expat.ExpatError:
            return []
        return hrefs

    return _on_main_kml(path, scan, member)


def main_kml(names: list[str]) -> str | None:
    """The main KML of a KMZ file whose members are ``names``, as libkml chooses it:
    ``doc.kml``, else the first KML; None without one."""
    kml = [n for n in names if n.lower().endswith(".kml")]
    return "doc.kml" if "doc.kml" in kml else (kml[0] if kml else None)


def linked_members(path: str, links: list[str]) -> tuple[list[str], list[str]]:
    """The ``links`` of a KMZ file's main KML (:func:`network_links`) that name a KML inside
    the KMZ (an ``href`` relative to the main KML, as Google Earth saves a layer with the files
    it loads: ``files/signs.kml``), as the members they name, each once, in the links' order;
    and the others (to the web, to a file beside the KMZ or not in it), as written. Of a KML
    file, none is inside.

    >>> import tempfile, zipfile, os
    >>> with tempfile.NamedTemporaryFile(suffix=".kmz", delete=False) as f:
    ...     with zipfile.ZipFile(f, "w") as z:
    ...         z.writestr("doc.kml", "<kml/>"); z.writestr("files/a b.kml", "<kml/>")
    >>> linked_members(f.name, ["files/a%20b.kml", "./files/a b.kml", "https://x/y.kml",
    ...                         "files/c.kml"])
    (['files/a b.kml'], ['https://x/y.kml', 'files/c.kml'])
    >>> os.unlink(f.name)
    """
    if not links or Path(path).suffix.lower() != ".kmz":
        return [], list(links)
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
    except (zipfile.BadZipFile, OSError):
        return [], list(links)
    main = main_kml(names)
    inside: dict[str, None] = {}
    elsewhere = []
    for href in links:
        parts = urlsplit(href.replace("\\", "/"))
        name = posixpath.normpath(
            posixpath.join(posixpath.dirname(main or ""), unquote(parts.path))
        )
        plain = not (parts.scheme or parts.netloc or parts.path.startswith("/"))
        if plain and name in names and name.lower().endswith(".kml") and name != main:
            inside[name] = None
        else:
            elsewhere.append(href)
    return list(inside), elsewhere


def _on_main_kml(path: str, read: Callable[[Any], list], member: str | None = None) -> list:
    """``read`` of a KML file's bytes, or of a KMZ file's main KML (as libkml chooses it:
    :func:`main_kml`) or its ``member``; [] for a KMZ without a KML or that cannot be
    opened."""
    if Path(path).suffix.lower() == ".kmz":
        try:
            with zipfile.ZipFile(path) as z:
                main = member or main_kml(z.namelist())
                if main is None:
                    return []
                with z.open(main) as f:
                    return read(f)
        except (zipfile.BadZipFile, OSError, KeyError):
            return []
    with open(path, "rb") as f:
        return read(f)


def _scan(f, limit: int) -> list[Misread]:
    p = expat.ParserCreate()
    p.buffer_text = True
    containers: list[int] = []  # the open Documents and Folders, as their order of opening
    counts: list[int] = []  # each container's placemarks so far
    path: list[str] = []  # the open elements' local names
    state: dict = {"placemark": None, "text": None}
    found: list[tuple] = []  # (placemark, line, text, why), the first of each placemark

    def start(tag: str, attrs: dict) -> None:
        tag = tag.rpartition(":")[2]
        path.append(tag)
        if tag in _CONTAINERS:
            containers.append(len(counts))
            counts.append(0)
        elif tag == "Placemark":
            if not containers:  # a placemark outside any: its own layer
                containers.append(len(counts))
                counts.append(0)
            c = containers[-1]
            state["placemark"] = {"container": c, "index": counts[c], "name": None}
            counts[c] += 1
        elif state["placemark"] is not None and tag in ("coordinates", "name"):
            state["text"] = []
            state["line"] = p.CurrentLineNumber

    def end(tag: str) -> None:
        tag = tag.rpartition(":")[2]
        path.pop()
        pm = state["placemark"]
        if tag in _CONTAINERS:
            containers.pop()
        elif pm is None:
            return
        elif tag == "name" and path and path[-1] == "Placemark" and state["text"] is not None:
            pm["name"] = "".join(state["text"]).strip()
        elif tag == "coordinates" and state["text"] is not None and len(found) < limit:
            text = "".join(state["text"])
            why = tuple_problem(text, point=bool(path) and path[-1] == "Point")
            if why is not None and not (found and found[-1][0] is pm):
                found.append((pm, state["line"], text, why))
        elif tag == "Placemark":
            state["placemark"] = None
        if tag in ("coordinates", "name"):
            state["text"] = None

    def chars(data: str) -> None:
        if state["text"] is not None:
            state["text"].append(data)

    p.StartElementHandler = start
    p.EndElementHandler = end
    p.CharacterDataHandler = chars
    whole = True
    try:  # to the end, once one is found too: a container's later placemarks come before
        p.ParseFile(f)
    except expat.ExpatError:  # (GDAL read what it could: what was read is checked)
        whole = False
    out = []
    for pm, line, text, why in found:
        row = sum(counts[: pm["container"]]) + pm["index"] if whole else None
        short = " ".join(text.split())
        short = short if len(short) <= 60 else short[:57] + "..."
        out.append(Misread(row, line, pm["name"] or None, short, why))
    return out
