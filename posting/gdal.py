"""pyogrio for the thread that calls it, with GDAL's messages handled there as in the thread
that imported it.

GDAL keeps its message handler per thread, and pyogrio installs its own (which turns GDAL's
warnings into Python warnings and its errors into exceptions) when it is imported, for that
thread only. A file read in another thread (the markers read beside the parcels, a worker of
a cluster) had GDAL print its messages raw on stderr ("Warning 1: Non closed ring detected",
"ERROR 1: Unable to read geometry"), where the command shows them as warnings on one line of
their own or says in a note what the reader did about them (:func:`show_gdal_warnings`).
"""

from __future__ import annotations

import threading
import warnings
from types import ModuleType
from typing import Any

__all__ = ["pyogrio_here", "show_gdal_warnings"]

_HERE = threading.local()


def pyogrio_here() -> ModuleType:
    """The ``pyogrio`` module, its message handler installed in the calling thread."""
    import pyogrio as module

    if not getattr(_HERE, "handled", False):
        _HERE.handled = True
        try:  # pyogrio's own registration, as at its import (twice in that thread: harmless)
            from pyogrio._err import _register_error_handler
        except ImportError:  # pragma: no cover - another pyogrio
            return module
        _register_error_handler()
    return module


def _show_gdal_warning(message: Any, category: Any, filename: str, lineno: int, *a: Any) -> None:
    """GDAL's warnings (pyogrio passes them on as Python warnings) on one line of their own,
    as the summary's warnings are, instead of Python's two lines of source."""
    if "pyogrio" in filename:
        import click

        click.echo(f"  warning: GDAL: {' '.join(str(message).split())}", err=True)
    else:
        _default_showwarning(message, category, filename, lineno, *a)


_default_showwarning = warnings.showwarning


def show_gdal_warnings() -> None:
    """GDAL's warnings as the command shows them: each on one line of its own, and not the one
    about a ring that is not closed (the reader closes the ring and says so in a note). Called
    inside the command (:mod:`posting.cli`), and by the workers of the cluster it starts,
    which read the files (here, so that a worker needs nothing of the command's module)."""
    warnings.filterwarnings("ignore", "Non closed ring", RuntimeWarning)
    # a GeoJSON column of values of several types: kept as the text, as posting reads it; a
    # GeoPackage named otherwise (.shp, .geojson): read by its content, as it is
    warnings.filterwarnings("ignore", "Could not parse column .* as JSON", UserWarning)
    warnings.filterwarnings("ignore", ".* but non conformant file extension", RuntimeWarning)
    warnings.showwarning = _show_gdal_warning
