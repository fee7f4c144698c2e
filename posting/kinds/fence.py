"""Fenced land: land enclosed by a fence at least so high counts as posted (Florida's fenced
land, North Dakota's enclosed land).

A stretch of boundary is fenced when a high enough fence runs within the tolerance of it;
openings under 20 ft are gates; stretches formed by water need no fence unless the profile says
so. The unfenced stretches are reported (``fence_gaps``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.kinds import Kind, Land, Part, register
from posting.land import MAYBE_HEIGHT, MAYBE_HOLES, fence_cover
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import ft

__all__ = ["FenceRule"]

_COLUMNS = ["parcel", "length_ft", "geometry"]


@dataclass(frozen=True)
class FenceRule(Rule):
    """Land enclosed by a fence at least ``min_height_ft`` high counts as posted;
    ``water_excepted``: stretches formed by water need no fence."""

    min_height_ft: float | None = None
    water_excepted: bool = True


def parse(t: Reader, kinds: tuple[str, ...]) -> FenceRule:
    water_excepted = t.get("water_excepted", bool)
    return FenceRule(
        **t.common(),
        min_height_ft=t.positive("min_height_ft"),
        water_excepted=True if water_excepted is None else water_excepted,
    )


def settle(rule: FenceRule, profile, m: Measurements, land: Land, part: Part) -> None:
    prep = m.prep
    if m.land.fence_lines is None:
        part.skip("fence", rule.clause, "no fence layer ({option:fences})")
        part.tables["fence_gaps"] = pd.DataFrame(columns=_COLUMNS)
        return
    tol, acc = m.settings.tolerance_ft, m.settings.accuracy_ft
    fenced, unfenced, gaps, maybe = fence_cover(
        prep, m.land, rule.min_height_ft, tol, rule.water_excepted, accuracy_ft=acc
    )
    if rule.water_excepted and m.land.water is not None and fenced.any():
        fenced = _water_posted(rule, m, land, part, fenced)
    land.fenced = fenced
    land.posted_by[fenced & (prep.group >= 0)] = "fence"
    # fenced all round only within the survey's accuracy, or along the outer boundary only:
    # land its markers do not post is uncertain (posted by fence, or not)
    unsure = np.flatnonzero((maybe > 0) & np.isin(land.status, ["noncompliant", "unposted"]))
    if len(unsure):
        rings = prep.rings
        in_holes = rings.hole[gaps.ring] > 0
        holes_ft = np.bincount(
            rings.parcel[gaps.ring[in_holes]], weights=gaps.length_ft[in_holes], minlength=m.n
        )
        land.unsure(
            part,
            unsure,
            "fence",
            rule.clause,
            [_unsure_words(rule, tol, acc, maybe[p], unfenced[p], holes_ft[p]) for p in unsure],
            unfenced[unsure],
            0.0,  # fenced all round: no stretch unfenced
            "ft",
        )
    ring_parcel = prep.rings.parcel[gaps.ring]
    geo = prep.geoms_to_lonlat(prep.group[ring_parcel], gaps.geometry)
    part.tables["fence_gaps"] = pd.DataFrame(
        {"parcel": ring_parcel, "length_ft": gaps.length_ft, "geometry": geo}
    )


def _water_posted(
    rule: FenceRule, m: Measurements, land: Land, part: Part, fenced: np.ndarray
) -> np.ndarray:
    """``fenced`` (:func:`~posting.land.fence_cover`'s, with the water excepted) less the land
    fenced all round only where its water boundary counts, which needs no fence only where it
    is posted with signs (Florida): land its markers post all round is fenced; land without
    markers has none along the water, and is not; land its markers do not post all round
    (``noncompliant``) may have them along the water or not, and is ``uncertain``, as is land
    already so."""
    tol, acc = m.settings.tolerance_ft, m.settings.accuracy_ft
    dry, dry_unfenced = fence_cover(
        m.prep, m.land, rule.min_height_ft, tol, False, accuracy_ft=acc
    )[:2]
    # (land its markers post all round has signs along the water too: fenced)
    wet_only = fenced & ~dry & (land.status != "compliant")
    if not wet_only.any():
        return fenced
    fenced = fenced & ~wet_only
    unsure = np.flatnonzero(wet_only & np.isin(land.status, ["noncompliant", "uncertain"]))
    if len(unsure):
        land.unsure(
            part,
            unsure,
            "fence",
            rule.clause,
            [
                f"fenced all round but along water ({ft(w)} without a fence), which needs none "
                "only where it is posted with signs: whether its signs post that stretch "
                "(posted by fence), the data cannot tell"
                for w in dry_unfenced[unsure].tolist()
            ],
            dry_unfenced[unsure],
            0.0,
            "ft",
        )
    return fenced


def _unsure_words(
    rule: FenceRule, tol: float, acc: float, why: int, unfenced_ft: float, holes_ft: float
) -> str:
    """Why a parcel may be posted by fence, or not (:func:`posting.land.fence_cover`)."""
    high = f"at least {rule.min_height_ft:g} ft high " if rule.min_height_ft else ""
    if why == MAYBE_HEIGHT:
        within = f"{ft(tol + acc)}: the {ft(tol)} limit plus the accuracy" if acc else ft(tol)
        return (
            f"fenced (within {within}) only where fences whose height the layer does not "
            f"give count ({ft(unfenced_ft)} without a fence known to be "
            f"{rule.min_height_ft:g} ft high or more): posted by fence if they are so high, "
            "not if lower; the data cannot tell"
        )
    if why == MAYBE_HOLES:
        within = f" (within {ft(tol + acc)}: the {ft(tol)} limit plus the accuracy)" if acc else ""
        return (
            f"fenced along its outer boundary{within}, not along its holes (others' land inside "
            f"it: {ft(holes_ft)} without a fence {high}within {ft(tol)}): whether land fenced "
            "round its outside is enclosed (posted by fence), the data cannot tell"
        )
    return (
        f"fenced all round only within the stated survey accuracy: a fence {high}"
        f"runs within {ft(tol + acc)} of all its boundary (the {ft(tol)} limit "
        f"plus {ft(acc)}), not all within {ft(max(tol - acc, 0.0))}"
        + (f" ({ft(unfenced_ft)} is beyond {ft(tol)})" if unfenced_ft else "")
        + ": posted by fence or not, the data cannot tell"
    )


def empty(m: Measurements) -> Part:
    """No fence rule: no unfenced stretches."""
    return Part(tables={"fence_gaps": pd.DataFrame(columns=_COLUMNS)})


register(Kind("fence", FenceRule, parse, "fenced land", settle=settle, empty=empty))
