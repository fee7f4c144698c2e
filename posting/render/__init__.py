"""Renderers: a report or a plan in each output format, registered by format.

One pattern for every output: a renderer is a function of the report (or the plan) and its
options that returns the file's text or bytes (or its pieces, for a large file written as it is
made). :func:`render` finds it by format; :func:`format_of` tells the format from a file's
extension. The built-in renderers are imported on first use (the map's folium only when a map
is asked for); another module adds one with :func:`register`.

>>> sorted(name for target, name in formats() if target == "report")
['csv', 'geojson', 'json', 'map', 'summary']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from posting.errors import InputError

__all__ = ["Format", "format_of", "formats", "register", "render"]

Output = str | bytes | Iterable[str | bytes | memoryview]


@dataclass(frozen=True)
class Format:
    """A renderer: ``func(obj, **options)`` gives the output of a ``target`` (``report`` or
    ``plan``) in format ``name``; files ending in one of ``suffixes`` are in this format."""

    name: str
    target: str
    suffixes: tuple[str, ...]
    func: Callable[..., Output]
    title: str = ""


_FORMATS: dict[tuple[str, str], Format] = {}
_BUILTIN = {
    ("report", "json"): "posting.render.json",
    ("report", "geojson"): "posting.render.geojson",
    ("report", "csv"): "posting.render.csv",
    ("report", "summary"): "posting.render.summary",
    ("report", "map"): "posting.maps",
    ("plan", "gpx"): "posting.export",
    ("plan", "kml"): "posting.export",
    ("plan", "csv"): "posting.export",
    ("plan", "geojson"): "posting.export",
    ("plan", "pnezd"): "posting.stakeout",
    ("plan", "summary-json"): "posting.export",
    ("plan", "summary-csv"): "posting.export",
}


def register(
    name: str, target: str, suffixes: tuple[str, ...] = (), title: str = ""
) -> Callable[[Callable[..., Output]], Callable[..., Output]]:
    """Register the decorated function as the renderer of ``target`` in format ``name``."""

    def add(func: Callable[..., Output]) -> Callable[..., Output]:
        _FORMATS[(target, name)] = Format(name, target, suffixes, func, title)
        return func

    return add


def _get(target: str, name: str) -> Format:
    key = (target, name)
    if key not in _FORMATS and key in _BUILTIN:
        importlib.import_module(_BUILTIN[key])
    if key not in _FORMATS:
        known = ", ".join(sorted(n for t, n in formats() if t == target))
        raise InputError(f"no {target} format {name!r}; the formats are: {known}")
    return _FORMATS[key]


def formats() -> list[tuple[str, str]]:
    """Every (target, format) there is a renderer for."""
    return sorted({*_BUILTIN, *_FORMATS})


def _target(obj: Any) -> str:
    return getattr(obj, "RENDER_TARGET", type(obj).__name__.lower())


def render(obj: Any, fmt: str, **options: Any) -> Output:
    """``obj`` (a :class:`~posting.report.Report` or a :class:`~posting.planning.Plan`) in
    format ``fmt``."""
    return _get(_target(obj), fmt).func(obj, **options)


def format_of(path: str, target: str, given: str | None = None, parameter: str = "") -> str:
    """The format of an output file: ``given``, else the one its extension names.

    ``parameter`` is the setting that gave the path (for the error, which names the formats).

    >>> format_of("out/plan.GPX", "plan"), format_of("-", "plan", "csv")
    ('gpx', 'csv')
    """
    if given:
        _get(target, given)
        return given
    suffix = Path(path).suffix.lower()
    for t, name in formats():
        if t == target and suffix in _get(t, name).suffixes:
            return name
    known = sorted({s for t, n in formats() if t == target for s in _get(t, n).suffixes})
    raise InputError(
        f"cannot tell the format from the extension; use {', '.join(known)}"
        + (", or give {option}" if parameter else ""),
        path=path,
        parameter=parameter or None,
    )
