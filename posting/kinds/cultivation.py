"""Cultivated land counts as posted (Florida's cultivated land, Texas' crops).

Land cultivated all over is posted by cultivation. Land cultivated in part only (by the land
cover, or a merged property some of whose lots are cultivated) is posted by cultivation where
it is cultivated, and by its markers, or not, elsewhere: where its markers do not post it all
round (``noncompliant``), which of the stretches they miss lie along the cultivated land the
data cannot tell, and the parcel is ``uncertain``; land without markers (``unposted``) has
land that is neither cultivated nor posted, and stays so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.kinds import Kind, Land, Part, register
from posting.land import SHARE_HAIR
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
    valid = m.prep.group >= 0
    posted_by[cult & valid & pd.isna(posted_by)] = "cultivation"
    share = m.land.cultivated_share
    if share is None:
        return
    with np.errstate(invalid="ignore"):
        partly = (share > SHARE_HAIR) & (share < 1 - SHARE_HAIR)
    unsure = np.flatnonzero(partly & valid & pd.isna(posted_by) & (land.status == "noncompliant"))
    if not len(unsure):
        return
    words, measured, whole, unit = _partly(m, unsure, share[unsure])
    land.unsure(
        part,
        unsure,
        "cultivation",
        c.clause,
        [
            f"{w}: cultivation posts that land, its markers the rest or not; whether the "
            "stretches of boundary they leave unposted lie along the cultivated land, the "
            "data cannot tell"
            for w in words
        ],
        measured,
        whole,
        unit,
    )


def _partly(
    m: Measurements, parcels: np.ndarray, share: np.ndarray
) -> tuple[list[str], np.ndarray, np.ndarray, str]:
    """How much of each of ``parcels`` is cultivated, in words, and as a figure of a whole
    (acres of its acres by the land cover; lots of its lots by the attribute) and its unit."""
    prep = m.prep
    if m.land.cultivated_by == "area":
        acres = prep.area_acres[parcels]
        measured = share * acres
        words = [
            f"{a:.2f} of its {t:.2f} acres ({s:.0%}) cultivated by the land cover"
            for a, t, s in zip(measured.tolist(), acres.tolist(), share.tolist(), strict=True)
        ]
        return words, measured, acres, "acres"
    rows = prep.source_rows
    lots = np.array([1 if rows is None else len(rows[p]) for p in parcels.tolist()], float)
    measured = np.round(share * lots)
    words = [
        f"{k:.0f} of its {t:.0f} lots cultivated (the parcel attribute), the others not"
        for k, t in zip(measured.tolist(), lots.tolist(), strict=True)
    ]
    return words, measured, lots, "lots"


register(Kind("cultivation", CultivationRule, parse, "cultivated land", settle=settle))
