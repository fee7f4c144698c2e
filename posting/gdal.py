"""pyogrio for the thread that calls it, with GDAL's messages handled there as in the thread
that imported it.

GDAL keeps its message handler per thread, and pyogrio installs its own (which turns GDAL's
warnings into Python warnings and its errors into exceptions) when it is imported, for that
thread only. A file read in another thread (the markers read beside the parcels, a worker of
a cluster) had GDAL print its messages raw on stderr ("Warning 1: Non closed ring detected",
"ERROR 1: Unable to read geometry"), where the command shows them as warnings on one line of
their own or says in a note what the reader did about them.
"""

from __future__ import annotations

import threading
from types import ModuleType

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
