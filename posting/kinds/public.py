"""Notice on property open to the public part of the day (a town code): the notice states the
days and hours entry is prohibited and that entry then is an offence."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posting.checks import content as ct
from posting.kinds import Kind, Part, register
from posting.kinds.items import KINDS_ALL, Item
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule

__all__ = ["PublicRule"]


@dataclass(frozen=True)
class PublicRule(Rule):
    """On property the public is invited to part of the day, the notice states the days and
    hours entry is prohibited and that entry then is an offence."""

    offence_words: tuple[str, ...] = ()


def parse(t: Reader, kinds: tuple[str, ...]) -> PublicRule:
    return PublicRule(**t.common(), offence_words=t.strings("offence_words") or ())


def items(rule: PublicRule, profile, m: Measurements, part: Part) -> list[Item]:
    pub = m.context.public
    if pub is None:
        part.skip(
            "public_notice",
            rule.clause,
            "which parcels the public is invited to is unknown (give {option:public_where})",
        )
        return []
    on_public = np.asarray(pub, dtype=bool)[m.asg.parcel[m.am]]
    words = rule.offence_words
    return [
        Item(
            "public_notice",
            rule.clause,
            KINDS_ALL,
            ("text",),
            lambda v: ct.hours_status(v, words),
            "do not state the days and hours entry is prohibited and that "
            "entry then is an offence (property open to the public)",
            where=on_public,
        )
    ]


register(Kind("public", PublicRule, parse, "notice on public property", items=items))
