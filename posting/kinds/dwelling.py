"""The small-dwelling exemption: no posting is needed on land of at most so many acres with a
dwelling on it (Florida: five acres, enclosed).

The area is the parcel's equal-area measure; the dwelling comes from a layer of footprints or
address points, or from an attribute. What the data cannot show (that the land is enclosed) is
said in the exemption's text, unless the land is fenced all round.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posting.checks import acres_at_most
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
    small = valid & acres_at_most(prep.area_acres, d.max_acres) & facts.dwelling.astype(bool)
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
