"""Mark height measured from the mark's centre, or above the normal water surface (Virginia:
"the center of the mark shall be no less than three feet nor more than six feet from the ground
or normal water surface"; South Carolina and West Virginia: the bottom of the mark, from the
ground or normal water surface).

The heights are the marker data's: the bottom's (``height_ft``) and the centre's
(``centre_ft``) where recorded, else each from the other and half the mark's length
(``length_in``). Where the statute allows the normal water surface as the base
(``from_water``), a mark on a stretch of boundary formed by water (the water layer) is read as
measured from it, and the report says which marks those are.
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

__all__ = ["HEIGHT_COLUMNS", "MarkHeightRule", "either", "heights"]

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


HEIGHT_COLUMNS = ("height_ft", "length_in", "centre_ft")
"""The marker columns a mark's height is read from: its bottom, its length, its centre."""


def heights(
    bottom: pd.Series | None, length: pd.Series | None, centre: pd.Series | None
) -> tuple[np.ndarray, np.ndarray]:
    """Per mark, the height of its bottom and of its centre (ft; NaN unknown), each as
    recorded, else from the other and the mark's length (``length_in``); a column not given
    (None) is not recorded.

    >>> b, c = heights(pd.Series([3.0, None, None]), pd.Series([8.0, 8.0, None]),
    ...                pd.Series([None, 4.0, 4.0]))
    >>> b.round(3).tolist(), c.round(3).tolist()
    ([3.0, 3.667, nan], [3.333, 4.0, 4.0])
    """
    given = next(v for v in (bottom, length, centre) if v is not None)
    nan = np.full(len(given), np.nan)
    bot, cen = (ct.numbers(v) if v is not None else nan for v in (bottom, centre))
    half_ft = ct.numbers(length) / 24.0 if length is not None else nan
    return np.where(np.isnan(bot), cen - half_ft, bot), np.where(np.isnan(cen), bot + half_ft, cen)


def either(
    bottom: pd.Series | None,
    length: pd.Series | None,
    lo: float | None,
    hi: float | None,
    centre: pd.Series | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Per mark, by both readings of its height (bottom and centre, :func:`heights`): FAIL
    where both put it outside ``[lo, hi]`` (else OK, or NOT_RECORDED where neither is
    recorded, or one is not and the other does not settle it); and FAIL where the two, both
    known, disagree.

    >>> f, d = either(pd.Series([4.0, 2.9, 2.5, 5.9, 6.1, None, 7.0, 4.0]),
    ...               pd.Series([8.0, 8.0, 8.0, 8.0, 8.0, 8.0, None, None]), 3.0, 6.0)
    >>> f.tolist(), d.tolist()
    ([0, 0, 2, 0, 2, -1, 2, -1], [0, 2, 0, 2, 0, 0, 0, 0])
    >>> f, d = either(None, None, 3.0, 6.0, pd.Series([2.5, 3.2, 6.5]))  # centres alone
    >>> f.tolist(), d.tolist()
    ([2, -1, -1], [0, 0, 0])
    """
    bottom_ft, centre_at = heights(bottom, length, centre)
    b = ct.within(pd.Series(bottom_ft), lo, hi)
    c = ct.within(pd.Series(centre_at), lo, hi)
    fail = np.where((b == FAIL) & (c == FAIL), FAIL, OK)
    # one reading unknown (the length not recorded): the centre is at or above the bottom, so
    # a bottom above the range, or a centre below it, puts both out; a bottom within a range
    # with no top, or a centre within one with no floor, both in; otherwise not settled
    with np.errstate(invalid="ignore"):
        out = np.zeros(len(b), dtype=bool)
        if hi is not None:
            out |= bottom_ft > hi
        if lo is not None:
            out |= centre_at < lo
    inside = ((b == OK) & (hi is None)) | ((c == OK) & (lo is None))
    one = (b == ct.NOT_RECORDED) != (c == ct.NOT_RECORDED)
    fail[one] = np.where(out[one], FAIL, np.where(inside[one], OK, ct.NOT_RECORDED))
    fail[(b == ct.NOT_RECORDED) & (c == ct.NOT_RECORDED)] = ct.NOT_RECORDED
    split = np.where(((b == OK) & (c == FAIL)) | ((b == FAIL) & (c == OK)), FAIL, OK)
    return fail, split


def _columns(m: Measurements, measured: str) -> tuple[str, ...]:
    """The height columns the marker data has, where they can give the ``measured`` height:
    its own column, or the other end's and the length (for ``either``, the bottom or the
    centre). Where they cannot, the columns one reads it from (the rule then notes the first
    missing, as it did before a centre could give the bottom)."""
    have = tuple(c for c in HEIGHT_COLUMNS if find_column(m.attrs.columns, c) is not None)
    own = {"bottom": "height_ft", "centre": "centre_ft"}.get(measured)
    other = {"bottom": "centre_ft", "centre": "height_ft"}.get(measured)
    if own is None:  # either: one end recorded settles some marks
        readable = "height_ft" in have or "centre_ft" in have
    else:
        readable = own in have or {other, "length_in"} <= set(have)
    if readable:
        return have
    return ("height_ft",) if measured == "bottom" else ("height_ft", "length_in")


def _by_name(columns: tuple[str, ...], fn):
    """``fn(bottom, length, centre)`` called with the ``columns`` given (None for the rest)."""

    def call(*values: pd.Series):
        got = dict(zip(columns, values, strict=True))
        return fn(*(got.get(c) for c in HEIGHT_COLUMNS))

    return call


def items(rule: MarkHeightRule, profile, m: Measurements, part: Part) -> list[Item]:
    lo, hi = rule.min_ft, rule.max_ft
    base = "the ground or the normal water surface" if rule.from_water else "the ground"
    columns = _columns(m, rule.measured)
    if rule.measured == "either":
        where = f"{range_text(lo, hi)} above {base}"
        return [
            Item(
                "mark_height",
                rule.clause,
                rule.kinds,
                columns,
                _by_name(columns, lambda b, length, c: either(b, length, lo, hi, c)[0]),
                f"have both their bottom and their centre outside {where}",
                None,
                "ft",
            ),
            Item(
                "mark_height",
                rule.clause,
                rule.kinds,
                columns,
                _by_name(columns, lambda b, length, c: either(b, length, lo, hi, c)[1]),
                f"are within {where} by their bottom or their centre only (which the law "
                "measures was not read)",
                None,
                "ft",
                level="uncertain",
            ),
        ]
    what = f"have their {rule.measured} outside {range_text(lo, hi)} above {base}"
    at = 0 if rule.measured == "bottom" else 1

    def fn(b, length, c):
        return ct.within(pd.Series(heights(b, length, c)[at]), lo, hi)

    return [
        Item(
            "mark_height", rule.clause, rule.kinds, columns, _by_name(columns, fn), what, None, "ft"
        )
    ]


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
