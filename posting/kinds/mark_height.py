"""Mark height measured from the mark's centre, or above the normal water surface (Virginia:
"the center of the mark shall be no less than three feet nor more than six feet from the ground
or normal water surface"; South Carolina and West Virginia: the bottom of the mark, from the
ground or normal water surface).

The height is the marker data's ``centre_ft`` where recorded; otherwise, for the centre, the
bottom (``height_ft``) plus half the mark's length (``length_in``), and for the bottom,
``height_ft``. Where the statute allows the normal water surface as the base (``from_water``),
a mark on a stretch of boundary formed by water (the water layer) is read as measured from it,
and the report says which marks those are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from posting.attributes import find_column
from posting.checks import FAIL, OK
from posting.checks import content as ct
from posting.kinds import Kind, Part, register
from posting.kinds.items import Item, range_text
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule, range_of
from posting.verdict import findings_frame, plural

__all__ = ["MarkHeightRule", "centre_ft"]

MEASURED = ("bottom", "centre", "either")
"""Where a mark's height is taken: its bottom, its centre, or ``either`` where the text that
says which was not read: a mark inside the range by both readings passes, outside by both
fails, and inside by one only is ``uncertain``."""


@dataclass(frozen=True)
class MarkHeightRule(Rule):
    """Marks of ``kinds`` with their ``measured`` point (bottom or centre) between ``min_ft``
    and ``max_ft`` above the ground (or the normal water surface, ``from_water``)."""

    kinds: tuple[str, ...] = ("paint",)
    measured: str = "centre"
    min_ft: float | None = None
    max_ft: float | None = None
    from_water: bool = False


def parse(t: Reader, kinds: tuple[str, ...]) -> MarkHeightRule:
    bounds = range_of(t, "min_ft", "max_ft")
    if bounds["min_ft"] is None and bounds["max_ft"] is None:
        raise t.error("min_ft", "or 'max_ft' is required")
    return MarkHeightRule(
        **t.common(),
        kinds=t.marker_kinds(("paint",)),
        measured=t.choice("measured", MEASURED) or "centre",
        **bounds,
        from_water=bool(t.get("from_water", bool)),
    )


def centre_ft(bottom_ft: pd.Series, length_in: pd.Series) -> pd.Series:
    """The centre's height from the bottom's (ft) and the mark's length (in).

    >>> centre_ft(pd.Series([3.0, None]), pd.Series([8.0, 8.0])).tolist()
    [3.3333333333333335, nan]
    """
    return ct.numbers(bottom_ft) + ct.numbers(length_in) / 24.0


def either(
    bottom: pd.Series, length: pd.Series, lo: float | None, hi: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """Per mark, by both readings of its height (bottom and centre): FAIL where both put it
    outside ``[lo, hi]`` (else OK, or NOT_RECORDED where the bottom is not recorded, or the
    length is not and the bottom alone does not settle it); and FAIL where the two disagree.

    >>> f, d = either(pd.Series([4.0, 2.9, 2.5, 5.9, 6.1, None, 7.0, 4.0]),
    ...               pd.Series([8.0, 8.0, 8.0, 8.0, 8.0, 8.0, None, None]), 3.0, 6.0)
    >>> f.tolist(), d.tolist()
    ([0, 0, 2, 0, 2, -1, 2, -1], [0, 2, 0, 2, 0, 0, 0, 0])
    """
    b = ct.within(bottom, lo, hi)
    c = ct.within(pd.Series(centre_ft(bottom, length)), lo, hi)
    fail = np.where((b == FAIL) & (c == FAIL), FAIL, OK)
    # the length unknown: the centre is at or above the bottom, so a bottom above the range
    # puts both out; otherwise it is not settled
    above = (ct.numbers(bottom) > hi) if hi is not None else np.zeros(len(b), dtype=bool)
    fail[(c == ct.NOT_RECORDED) & (b != ct.NOT_RECORDED)] = ct.NOT_RECORDED
    fail[(c == ct.NOT_RECORDED) & above] = FAIL
    fail[b < 0] = b[b < 0]
    split = np.where(((b == OK) & (c == FAIL)) | ((b == FAIL) & (c == OK)), FAIL, OK)
    return fail, split


def items(rule: MarkHeightRule, profile, m: Measurements, part: Part) -> list[Item]:
    lo, hi = rule.min_ft, rule.max_ft
    base = "the ground or the normal water surface" if rule.from_water else "the ground"
    if rule.measured == "either":
        columns = ("height_ft", "length_in")
        where = f"{range_text(lo, hi)} above {base}"
        return [
            Item(
                "mark_height",
                rule.clause,
                rule.kinds,
                columns,
                lambda bottom, length: either(bottom, length, lo, hi)[0],
                f"have both their bottom and their centre outside {where}",
                None,
                "ft",
            ),
            Item(
                "mark_height",
                rule.clause,
                rule.kinds,
                columns,
                lambda bottom, length: either(bottom, length, lo, hi)[1],
                f"are within {where} by their bottom or their centre only (which the law "
                "measures was not read)",
                None,
                "ft",
                level="uncertain",
            ),
        ]
    what = f"have their {rule.measured} outside {range_text(lo, hi)} above {base}"
    if rule.measured == "bottom":
        columns, fn = ("height_ft",), (lambda v: ct.within(v, lo, hi))
    elif find_column(m.attrs.columns, "centre_ft") is not None:
        columns, fn = ("centre_ft",), (lambda v: ct.within(v, lo, hi))
    else:
        columns = ("height_ft", "length_in")

        def fn(bottom, length):
            return ct.within(pd.Series(centre_ft(bottom, length)), lo, hi)

    return [Item("mark_height", rule.clause, rule.kinds, columns, fn, what, None, "ft")]


def remark(rule: MarkHeightRule, profile, m: Measurements, part: Part) -> None:
    """Marks on a stretch formed by water: their height is read as from the water surface."""
    water = m.land.water
    if not rule.from_water or water is None or not len(water.ring):
        return
    mk = m.am[m.mask(rule.kinds)]
    tol = m.settings.water_tolerance_ft
    ring_geom = m.prep.rings.geometry[water.ring]
    a = shapely.line_locate_point(ring_geom, shapely.get_point(water.geometry, 0))
    b = shapely.line_locate_point(ring_geom, shapely.get_point(water.geometry, -1))
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    # a stretch through the ring's start is the rest of the ring: from hi round to lo
    wraps = np.abs((hi - lo) - shapely.length(water.geometry)) > 1.0
    stretches = pd.DataFrame({"ring": water.ring, "lo": lo, "hi": hi, "wraps": wraps})
    marks = pd.DataFrame(
        {"ring": m.asg.ring[mk], "pos": m.asg.position_ft[mk], "i": np.arange(len(mk))}
    )
    pairs = marks.merge(stretches, on="ring")  # each mark with the water stretches of its ring
    pos, lo, hi = pairs["pos"], pairs["lo"], pairs["hi"]
    within = (pos >= lo - tol) & (pos <= hi + tol)
    beyond = (pos >= hi - tol) | (pos <= lo + tol)
    inside = pairs[np.where(pairs["wraps"], beyond, within)]
    on = np.zeros(len(mk), dtype=bool)
    on[inside["i"].to_numpy(dtype=np.int64)] = True
    parcel = m.asg.parcel[mk[on]]
    if not len(parcel):
        return
    k = pd.Series(parcel).value_counts().sort_index()
    part.findings.append(
        findings_frame(
            k.index,
            "mark_height",
            "note",
            rule.clause,
            [
                f"{c} {plural(c, 'mark stands', 'marks stand')} where water forms the boundary: "
                "its height is read as above the normal water surface"
                for c in k.tolist()
            ],
            np.nan,
            None,
            None,
            k.to_numpy(),
        )
    )


register(Kind("mark_height", MarkHeightRule, parse, "height of a mark", items=items, remark=remark))
