"""Jurisdiction rule profiles (TOML data) and their loader.

The rule types themselves live with their kinds (:mod:`posting.kinds`); they are also reachable
here by their old names (``posting.rules.SpacingRule``), loaded on first use so that the kinds'
modules and the loader can import this package's :mod:`~posting.rules.schema` in any order.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOME = {
    "Profile": "posting.rules.loader",
    "available": "posting.rules.loader",
    "load_rules": "posting.rules.loader",
    "KINDS": "posting.rules.schema",
    "Rule": "posting.rules.schema",
    "AccessRule": "posting.kinds.access",
    "ContentRule": "posting.kinds.content",
    "CornerRule": "posting.kinds.corners",
    "CultivationRule": "posting.kinds.cultivation",
    "DwellingExemption": "posting.kinds.dwelling",
    "FacingRule": "posting.kinds.facing",
    "FenceRule": "posting.kinds.fence",
    "PaintRule": "posting.kinds.paint",
    "PostRule": "posting.kinds.post",
    "PublicRule": "posting.kinds.public",
    "RenewalRule": "posting.kinds.renewal",
    "SpacingRule": "posting.kinds.spacing",
    "VisibilityRule": "posting.kinds.visibility",
    "WaterRule": "posting.kinds.water",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'posting.rules' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
