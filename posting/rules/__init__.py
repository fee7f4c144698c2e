"""Jurisdiction rule profiles (TOML data) and their loader."""

from posting.rules.loader import (
    ContentRule,
    CornerRule,
    Profile,
    SpacingRule,
    VisibilityRule,
    available,
    load_rules,
)

__all__ = [
    "ContentRule",
    "CornerRule",
    "Profile",
    "SpacingRule",
    "VisibilityRule",
    "available",
    "load_rules",
]
