"""Cultivated land counts as posted (Florida's cultivated land, Texas' crops)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from posting.kinds import Kind, Land, Part, register
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule

__all__ = ["CultivationRule"]


@dataclass(frozen=True)
class CultivationRule(Rule):
    """Cultivated land counts as posted (``counts_as_posted``)."""

    counts_as_posted: bool = True


def parse(t: Reader, kinds: tuple[str, ...]) -> CultivationRule:
    counts = t.get("counts_as_posted", bool)
    return CultivationRule(**t.common(), counts_as_posted=True if counts is None else counts)


def settle(c: CultivationRule, profile, m: Measurements, land: Land, part: Part) -> None:
    if not c.counts_as_posted:
        return
    if m.land.cultivated is None:
        part.skip(
            "cultivation",
            c.clause,
            "which land is cultivated is unknown (give {option:cultivated_where}, or a "
            "{option:landcover} layer)",
        )
        return
    cult = pd.Series(m.land.cultivated, dtype=object).fillna(False).astype(bool).to_numpy()
    posted_by = land.posted_by
    posted_by[cult & (m.prep.group >= 0) & pd.isna(posted_by)] = "cultivation"


register(Kind("cultivation", CultivationRule, parse, "cultivated land", settle=settle))
