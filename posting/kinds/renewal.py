"""Renewal: posting is renewed every so many days; a survey older than that is noted (the
markers may be gone)."""

from __future__ import annotations

from dataclasses import dataclass

from posting.checks import content as ct
from posting.kinds import Kind, Part, register
from posting.kinds.items import KINDS_ALL, Item
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule

__all__ = ["RenewalRule"]


@dataclass(frozen=True)
class RenewalRule(Rule):
    """Posting is renewed every ``days`` days: a survey older than that is flagged."""

    days: float = 365.0


def parse(t: Reader, kinds: tuple[str, ...]) -> RenewalRule:
    return RenewalRule(**t.common(), days=t.positive("days", required=True))


def items(rn: RenewalRule, profile, m: Measurements, part: Part) -> list[Item]:
    today = m.today
    return [
        Item(
            "renewal",
            rn.clause,
            KINDS_ALL,
            ("surveyed",),
            lambda v: ct.age_status(v, today, rn.days),
            f"were surveyed more than {rn.days:g} days ago (posting is renewed "
            "yearly): survey them again",
            level="note",
            unknown=ct.UNKNOWN_AGE,
        )
    ]


register(Kind("renewal", RenewalRule, parse, "posting renewed", items=items))
