"""The small-dwelling exemption: no posting is needed on land of at most so many acres with a
dwelling on it (Florida: five acres, enclosed).

The area is the parcel's equal-area measure; the dwelling comes from a layer of footprints or
address points, or from an attribute. What the data cannot show (that the land is enclosed) is
said in the exemption's text, unless the land is fenced all round.

The area is measured at sea level unless the land's elevation is given: on the ground it is
larger by the square of the elevation factor (:mod:`posting.elevation`). Land of at most the
acres only at some of its states' elevations may be exempt or not: a parcel that its markers
do not post is then uncertain, with a finding that says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posting.checks import acres_at_most, acres_may_be_at_most
from posting.kinds import Kind, Land, Part, register
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule

__all__ = ["DwellingExemption"]


@dataclass(frozen=True)
class DwellingExemption(Rule):
    """No posting needed on land of at most ``max_acres`` with a dwelling; ``requires`` names
    what the exemption also needs that parcel data may not show (Florida: "enclosed")."""

    max_acres: float = 5.0
    requires: tuple[str, ...] = ()


def parse(t: Reader, kinds: tuple[str, ...]) -> DwellingExemption:
    return DwellingExemption(
        **t.common(),
        max_acres=t.positive("max_acres", required=True),
        requires=t.strings("requires") or (),
    )


def settle(d: DwellingExemption, profile, m: Measurements, land: Land, part: Part) -> None:
    prep, facts = m.prep, m.land
    if facts.dwelling is None:
        part.skip(
            "dwelling",
            d.clause,
            "where the dwellings are is unknown (give {option:dwellings} or "
            "{option:dwelling_where})",
        )
        return
    valid = prep.group >= 0
    scale = m.area_scale(np.arange(m.n))  # (areas: the elevation's alone)
    housed = valid & facts.dwelling.astype(bool)
    small = housed & acres_at_most(prep.area_acres, d.max_acres, scale)
    if m.banded:
        _maybe_small(d, m, land, part, housed & ~small, scale)
    if facts.dwelling_maybe is not None:
        _maybe_housed(d, m, land, part, valid & facts.dwelling_maybe & ~housed, scale)
    for p in np.flatnonzero(small):  # the exempt parcels: few, and each needs its own words
        needs = []
        for cond in d.requires:
            if cond == "enclosed" and (land.fenced[p] or land.posted_by[p] == "fence"):
                needs.append("enclosed (it is fenced all round)")
            else:
                needs.append(f"{cond} (not shown by the data: check it on the ground)")
        land.exemption[p] = (
            f"land of {prep.area_acres[p]:.2f} acres (not more than {d.max_acres:g}) with "
            f"a dwelling ({facts.dwelling_source}), {d.clause}"
            + (f"; the land must also be {', '.join(needs)}" if needs else "")
        )


def _maybe_housed(
    d: DwellingExemption, m: Measurements, land: Land, part: Part, candidates, scale
) -> None:
    """Land of at most ``max_acres`` (at some of its elevations, at least) on whose line with
    another parcel a dwelling stands (:func:`posting.land.dwellings_on_parcels`): exempt if the
    dwelling is on it, not if it is on the other; where its markers do not post it,
    uncertain."""
    prep = m.prep
    maybe = candidates & acres_may_be_at_most(prep.area_acres, d.max_acres, scale)
    unsure = np.flatnonzero(maybe & np.isin(land.status, ["noncompliant", "unposted"]))
    if not len(unsure):
        return
    acres = prep.area_acres[unsure]
    land.unsure(
        part,
        unsure,
        "dwelling",
        d.clause,
        [
            f"a dwelling ({m.land.dwelling_source}) stands on its line with another parcel: "
            f"on this land of {a:.2f} acres (not more than {d.max_acres:g}) it would be "
            f"exempt ({d.clause}), on the other not; the data cannot tell which"
            for a in acres.tolist()
        ],
        acres,
        d.max_acres,
        "acres",
    )


def _maybe_small(
    d: DwellingExemption, m: Measurements, land: Land, part: Part, candidates, scale
) -> None:
    """Land with a dwelling of at most ``max_acres`` at some of its states' elevations and not
    at others (the land's elevation not given): where its markers do not post it, uncertain."""
    prep, facts = m.prep, m.land
    maybe = candidates & acres_may_be_at_most(prep.area_acres, d.max_acres, scale)
    unsure = np.flatnonzero(maybe & np.isin(land.status, ["noncompliant", "unposted"]))
    if not len(unsure):
        return
    lo, hi = (np.asarray(x, dtype=float)[unsure] for x in scale)
    acres = prep.area_acres[unsure]
    where = m.ground.where[unsure]
    land.unsure(
        part,
        unsure,
        "dwelling",
        d.clause,
        [
            f"land of {a:.3f} acres at sea level is {a * x * x:.3f}-{a * y * y:.3f} acres on "
            f"the ground at {w}: with a dwelling ({facts.dwelling_source}) it may be exempt "
            f"(not more than {d.max_acres:g} acres, {d.clause}) or not; the land's elevation "
            "settles it"
            for a, x, y, w in zip(
                acres.tolist(), lo.tolist(), hi.tolist(), where.tolist(), strict=True
            )
        ],
        acres,
        d.max_acres,
        "acres",
    )


register(
    Kind(
        "dwelling",
        DwellingExemption,
        parse,
        "small-dwelling exemption",
        settle=settle,
        settle_after=("fence",),
    )
)
