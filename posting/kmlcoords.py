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

import io
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
    elsewhere, which GDAL does not follow (but see :func:`linked_files`). [] for a file the
    XML parser refuses.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".kml", delete=False) as f:
    ...     _ = f.write('<kml><Document><NetworkLink><Link><href>https://a/b.kmz</href>'
    ...                 '</Link></NetworkLink></Document></kml>')
    >>> network_links(f.name)
    ['https://a/b.kmz']
    >>> os.unlink(f.name)
    """

    return _on_main_kml(path, _links_in, member)


def _links_in(f: Any) -> list[str]:
    """The ``<href>`` of each ``<NetworkLink>`` of a KML file's bytes ([] if the XML parser
    refuses them)."""
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


def main_kml(names: list[str]) -> str | None:
    """The main KML of a KMZ file whose members are ``names``, as libkml chooses it:
    ``doc.kml``, else the first KML; None without one."""
    kml = [n for n in names if n.lower().endswith(".kml")]
    return "doc.kml" if "doc.kml" in kml else (kml[0] if kml else None)


MAX_LINK_DEPTH = 8
"""How many links deep :func:`linked_files` follows (a file linking to one that links to
another ...): a link deeper is named as not followed."""


@dataclass(frozen=True)
class KmlFile:
    """A KML file to read: on disk (``path``, a ``.kml``), or inside a KMZ file on disk
    (``path``) as the ``chain`` of members that leads to it: a KML member (``("doc.kml",)``),
    or the KML member of a KMZ inside it (``("files/inner.kmz", "doc.kml")``)."""

    path: str
    chain: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        """The name GDAL reads it by (``/vsizip/`` within a KMZ, nested within a KMZ's KMZ):
        GDAL follows no link of a file so read."""
        src = Path(self.path).resolve().as_posix()
        for member in self.chain:
            src = f"/vsizip/{{{src}}}/{member}"
        return src

    @property
    def label(self) -> str:
        """How a message names it beside the file given: its member(s) within the KMZ, or its
        name on disk."""
        return "/".join(self.chain) if self.chain else self.path

    def open(self) -> Any:
        """Its bytes, as a file (a context manager)."""
        if not self.chain:
            return open(self.path, "rb")
        z = zipfile.ZipFile(self.path)
        for member in self.chain[:-1]:
            z = zipfile.ZipFile(io.BytesIO(z.read(member)))
        return z.open(self.chain[-1])

    def names(self) -> list[str]:
        """The members of the archive that holds it ([] for a file on disk)."""
        if not self.chain:
            return []
        z = zipfile.ZipFile(self.path)
        for member in self.chain[:-1]:
            z = zipfile.ZipFile(io.BytesIO(z.read(member)))
        return z.namelist()


def kml_file(path: str) -> KmlFile | None:
    """A KML file on disk, or a KMZ file's main KML (:func:`main_kml`); None for a KMZ without
    a KML or that cannot be opened."""
    if Path(path).suffix.lower() != ".kmz":
        return KmlFile(path)
    try:
        with zipfile.ZipFile(path) as z:
            main = main_kml(z.namelist())
    except (zipfile.BadZipFile, OSError):
        return None
    return None if main is None else KmlFile(path, (main,))


def _linked(at: KmlFile, href: str) -> KmlFile | None:
    """The local KML file a link of ``at`` names (an ``href`` relative to it: inside its KMZ,
    else beside the KMZ or KML file on disk; a KML, or a KMZ's main KML), or None (a link to
    the web, an absolute path, a file that is not there)."""
    parts = urlsplit(href.replace("\\", "/"))
    if parts.scheme or parts.netloc or parts.path.startswith("/") or not parts.path.strip():
        return None
    rel = unquote(parts.path)
    if at.chain:
        try:
            names = at.names()
        except (zipfile.BadZipFile, OSError, KeyError):
            names = []
        name = posixpath.normpath(posixpath.join(posixpath.dirname(at.chain[-1]), rel))
        if name in names:
            inner = (*at.chain[:-1], name)
            if name.lower().endswith(".kml"):
                return KmlFile(at.path, inner)
            if name.lower().endswith(".kmz"):
                try:
                    main = main_kml(KmlFile(at.path, (*inner, "")).names())
                except (zipfile.BadZipFile, OSError, KeyError):
                    return None
                return None if main is None else KmlFile(at.path, (*inner, main))
            return None
        if len(at.chain) > 1:  # (a KMZ inside a KMZ: nothing beside it on disk)
            return None
    beside = Path(at.path).parent / rel
    if not beside.is_file() or beside.suffix.lower() not in (".kml", ".kmz"):
        return None
    return kml_file(str(beside))


def linked_files(
    path: str, links: list[str] | None = None, depth: int = MAX_LINK_DEPTH
) -> tuple[list[KmlFile], list[str]]:
    """The local KML files a KML or KMZ file's ``<NetworkLink>`` elements lead to, followed as
    Google Earth follows them: a link relative to the file that links (``files/signs.kml``
    inside a KMZ, as Google Earth saves a layer with the files it loads; ``other.kml`` beside
    a KML on disk; a KMZ inside a KMZ, by its main KML), and the links of the files so
    reached, ``depth`` links deep. The files in the order to read them: the file's own (its
    main KML), then each link's file followed by its own links', each file once (a file
    linking to itself, or two to each other, is read once); and the links not followed (to
    the web, which is never fetched, to a file that is not there, deeper than ``depth``), as
    written, each once. ``links``: the main KML's links, if known (:func:`network_links`).
    A KMZ without a KML gives ([], the links).

    >>> import tempfile, zipfile, os
    >>> link = "<NetworkLink><Link><href>{}</href></Link></NetworkLink>".format
    >>> with tempfile.NamedTemporaryFile(suffix=".kmz", delete=False) as f:
    ...     with zipfile.ZipFile(f, "w") as z:
    ...         z.writestr("doc.kml", "<kml>" + link("a.kml") + link("https://x/y.kml") + "</kml>")
    ...         z.writestr("a.kml", "<kml>" + link("doc.kml") + link("b.kml") + "</kml>")
    ...         z.writestr("b.kml", "<kml/>")
    >>> files, elsewhere = linked_files(f.name)
    >>> [k.chain for k in files], elsewhere
    ([('doc.kml',), ('a.kml',), ('b.kml',)], ['https://x/y.kml'])
    >>> os.unlink(f.name)
    """
    main = kml_file(path)
    if main is None:
        return [], list(links or [])
    files: list[KmlFile] = []
    elsewhere: dict[str, None] = {}
    seen: set[tuple[str, tuple[str, ...]]] = set()

    def visit(at: KmlFile, hrefs: list[str], level: int) -> None:
        seen.add((str(Path(at.path).resolve()), at.chain))
        files.append(at)
        for href in hrefs:
            to = _linked(at, href)
            if to is not None and (str(Path(to.path).resolve()), to.chain) in seen:
                continue  # (read already, or being read: a loop)
            if to is None or level >= depth:
                elsewhere[href] = None
                continue
            visit(to, _network_links_of(to), level + 1)

    visit(main, _network_links_of(main) if links is None else list(links), 0)
    return files, list(elsewhere)


def _network_links_of(at: KmlFile) -> list[str]:
    """:func:`network_links` of a :class:`KmlFile`."""
    try:
        with at.open() as f:
            return _links_in(f)
    except (zipfile.BadZipFile, OSError, KeyError):
        return []


def misreads_of(at: KmlFile, limit: int = 1000) -> list[Misread]:
    """:func:`misreads` of a :class:`KmlFile`."""
    try:
        with at.open() as f:
            return _scan(f, limit)
    except (zipfile.BadZipFile, OSError, KeyError):
        return []


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
