"""Facing: signs face outward, their azimuth within a tolerance of the boundary's outward
normal where they stand (a sign facing into the parcel warns nobody coming in)."""

from __future__ import annotations

from dataclasses import dataclass

from posting.checks import content as ct
from posting.kinds import Kind, Part, register
from posting.kinds.items import Item
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule

__all__ = ["FacingRule"]


@dataclass(frozen=True)
class FacingRule(Rule):
    """Signs face outward: their azimuth within ``tolerance_deg`` of the outward normal."""

    kinds: tuple[str, ...] = ("sign",)
    tolerance_deg: float = 90.0


def parse(t: Reader, kinds: tuple[str, ...]) -> FacingRule:
    tol = t.positive("tolerance_deg")
    if tol is not None and tol > 180:
        raise t.error("tolerance_deg", f"must be at most 180, not {tol:g}")
    return FacingRule(
        **t.common(), kinds=t.marker_kinds(("sign",)), tolerance_deg=90.0 if tol is None else tol
    )


def items(fr: FacingRule, profile, m: Measurements, part: Part) -> list[Item]:
    az = m.outward_az
    if az is None:
        return []
    return [
        Item(
            "facing",
            fr.clause,
            fr.kinds,
            ("facing_deg",),
            lambda v, sel: ct.facing_status(v, az[sel], fr.tolerance_deg),
            f"face more than {fr.tolerance_deg:g}° away from outward (they face into the parcel)",
            fr.tolerance_deg,
            "deg",
            with_selection=True,
        )
    ]


register(Kind("facing", FacingRule, parse, "signs face outward", items=items))
