"""Jurisdiction rule profiles (TOML data) and their loader."""

from posting.rules.loader import (
    KINDS,
    AccessRule,
    ContentRule,
    CornerRule,
    FacingRule,
    PaintRule,
    PostRule,
    Profile,
    PublicRule,
    RenewalRule,
    Rule,
    SpacingRule,
    VisibilityRule,
    available,
    load_rules,
)

__all__ = [
    "KINDS",
    "AccessRule",
    "ContentRule",
    "CornerRule",
    "FacingRule",
    "PaintRule",
    "PostRule",
    "Profile",
    "PublicRule",
    "RenewalRule",
    "Rule",
    "SpacingRule",
    "VisibilityRule",
    "available",
    "load_rules",
]
