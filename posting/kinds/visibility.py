"""Placement that surveyed positions cannot show (line of sight, "noticeable"): always noted
as not checked, with the statute's words."""

from __future__ import annotations

from dataclasses import dataclass

from posting.kinds import Kind, Part, register
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule

__all__ = ["VisibilityRule"]


@dataclass(frozen=True)
class VisibilityRule(Rule):
    """Placement that surveyed positions cannot show (line of sight, "noticeable")."""


def parse(t: Reader, kinds: tuple[str, ...]) -> VisibilityRule:
    return VisibilityRule(**t.common())


def remark(rule: VisibilityRule, profile, m: Measurements, part: Part) -> None:
    part.skip(
        "visibility",
        rule.clause,
        f"{rule.text or 'visibility'}: line of sight cannot be judged from surveyed positions",
    )


register(Kind("visibility", VisibilityRule, parse, "placement in sight", remark=remark))
