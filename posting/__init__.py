"""posting: is this land legally posted against trespass?

Measures parcel boundaries and surveyed markers (signs, paint marks) against a jurisdiction's
posting statute, in true feet, and says per parcel whether it is posted and where it falls short.

>>> import posting
>>> "florida" in posting.available()
True

The names below are loaded on first use: ``import posting`` (and the ``posting`` command's
start-up) does not import pandas, shapely and pyproj until something needs them, so the command
can start reading a large input while they load (:mod:`posting.prefetch`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from posting.engine import check
    from posting.errors import CRSError, InputError, PostingError, RulesError
    from posting.io import read_markers, read_parcels
    from posting.planning import Plan, plan
    from posting.report import Report
    from posting.rules import Profile, available, load_rules
    from posting.settings import Settings

_HOME = {
    "check": "posting.engine",
    "CRSError": "posting.errors",
    "InputError": "posting.errors",
    "PostingError": "posting.errors",
    "RulesError": "posting.errors",
    "read_markers": "posting.io",
    "read_parcels": "posting.io",
    "Plan": "posting.planning",
    "plan": "posting.planning",
    "Report": "posting.report",
    "Profile": "posting.rules",
    "available": "posting.rules",
    "load_rules": "posting.rules",
    "Settings": "posting.settings",
}

__all__ = [
    "CRSError",
    "InputError",
    "Plan",
    "PostingError",
    "Profile",
    "Report",
    "RulesError",
    "Settings",
    "available",
    "check",
    "load_rules",
    "plan",
    "read_markers",
    "read_parcels",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'posting' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # once loaded, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})
