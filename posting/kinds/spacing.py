"""Spacing: markers not more than a distance apart along the boundary (or in a straight line).

Florida's "not more than 500 feet apart along the boundaries"; two limits by land cover where
a statute has them (Arkansas: 100 ft on forest land, 1,000 ft elsewhere). Every gap between
consecutive markers of a ring is measured; a ring without a marker is one unmarked gap.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.boundary import arc_overlap_ft, interpolate_at, ring_stretches, stretch_start_ft
from posting.checks import FAIL, OK, UNCERTAIN, against_max, apart_accuracy, shown
from posting.checks.landcover import forest_share
from posting.checks.spacing import Gaps, corner_reach, measured_gap, ring_gaps
from posting.elevation import GroundBand
from posting.kinds import Kind, Part, register
from posting.land import LandFacts, layer_in_group
from posting.measure import Measurements
from posting.prepare import PreparedParcels
from posting.rules.schema import Reader, Rule
from posting.verdict import (
    categorical,
    empty_findings,
    findings_frame,
    ft,
    ft_vs,
    marker_words,
    plural,
    worst_per_parcel,
)

__all__ = ["GAP_STATUS", "METRICS", "MIXED_MIN_FT", "SpacingRule", "spacing_findings"]

METRICS = ("along_boundary", "straight", "either")
GAP_STATUS = ["ok", "uncertain", "over", "unmarked"]
"""A gap's status in the report, by code (OK, UNCERTAIN, FAIL, and 3: a ring with no marker)."""

MIXED_MIN_FT = 1.0
"""A gap runs through two land covers when at least this much of its length lies on each (a
land-cover edge drawn along the boundary may take a hair of it, which is no cover)."""


@dataclass(frozen=True)
class SpacingRule(Rule):
    """Markers of ``kinds`` not more than a distance apart, measured by ``metric``.

    Either one limit (``max_ft``), or two by land cover (``forest_ft`` on forest land,
    ``other_ft`` elsewhere). ``along_boundary`` measures along the boundary (Florida's "along");
    ``straight`` the straight line between consecutive markers; ``either`` passes a gap when
    either measure is within the limit (statutes that only say "apart").

    Where the figure depends on a fact the data does not show, a gap between the two figures
    is uncertain, not over: land cover unknown, or, with ``forest_condition``, forest land
    that must also meet a condition of the statute's (Minnesota's 500 ft holds "in a wooded
    area where boundary lines are not clear"; elsewhere in the woods, 1,000 ft). So is a gap
    that runs partly through forest land (at least :data:`MIXED_MIN_FT` on each cover): no
    statute says which figure holds between markers on two covers.
    """

    max_ft: float | None = None
    forest_ft: float | None = None
    other_ft: float | None = None
    forest_condition: str = ""
    metric: str = "along_boundary"
    kinds: tuple[str, ...] = ("sign",)

    @property
    def by_landcover(self) -> bool:
        """True when the limit depends on land cover."""
        return self.forest_ft is not None

    @property
    def strictest_ft(self) -> float:
        """The limit that applies when the land cover is unknown."""
        values = [v for v in (self.max_ft, self.forest_ft, self.other_ft) if v is not None]
        return min(values)


def parse(t: Reader, kinds: tuple[str, ...]) -> SpacingRule:
    limits = {k: t.positive(k) for k in ("max_ft", "forest_ft", "other_ft")}
    common = t.common()
    condition = t.get("forest_condition", str) or ""
    metric = t.choice("metric", METRICS) or "along_boundary"
    marker_kinds = t.marker_kinds(kinds)
    t.finish()  # a key misspelt (`max_m`, `limit_feet`) is named before the limit it misses
    if (limits["forest_ft"] is None) != (limits["other_ft"] is None):
        raise t.error("forest_ft", "and 'other_ft' go together (two spacings by land cover)")
    if limits["max_ft"] is None and limits["forest_ft"] is None:
        raise t.error("max_ft", "(feet) or the pair forest_ft/other_ft is required")
    if limits["max_ft"] is not None and limits["forest_ft"] is not None:
        raise t.error("max_ft", "and the pair forest_ft/other_ft are alternatives: give one")
    if condition and (limits["forest_ft"] is None or limits["forest_ft"] >= limits["other_ft"]):
        raise t.error(
            "forest_condition", "needs the pair forest_ft/other_ft, forest_ft the smaller"
        )
    return SpacingRule(
        **common, **limits, forest_condition=condition, metric=metric, kinds=marker_kinds
    )


def summary(rule: SpacingRule) -> dict:
    out = {"spacing_ft": rule.max_ft if rule.max_ft else None}
    if rule.by_landcover:
        out["spacing_forest_ft"] = rule.forest_ft
        out["spacing_other_ft"] = rule.other_ft
    out["spacing_metric"] = rule.metric
    return out


def measure(rule: SpacingRule, profile, m: Measurements, limits=None) -> Part:
    """Every gap of every ring, its limit and status; the spacing findings; each parcel's
    largest gap (``max_gap``). ``limits(rule, m, gaps, part)`` gives each gap's land cover and
    limit (default: the rule's figure, or its two by land cover)."""
    prep, asg, s = m.prep, m.asg, m.settings
    rings, n = prep.rings, m.n
    part = Part()
    sel = m.mask(rule.kinds)
    mk = m.am[sel]
    gaps = ring_gaps(asg.ring[mk], asg.position_ft[mk], rings.length_ft)
    sm, em = gaps.start_marker, gaps.end_marker
    unsure_ft = None
    if rule.metric != "straight":
        gaps, unsure_ft = _round_corners(gaps, m, mk, rule.kinds)
    mx, my = asg.x_ft[mk], asg.y_ft[mk]
    two = (sm >= 0) & (sm != em)
    straight = np.full(len(gaps), np.nan)
    straight[two] = np.hypot(mx[em[two]] - mx[sm[two]], my[em[two]] - my[sm[two]])
    parcel = rings.parcel[gaps.ring]
    df = pd.DataFrame(
        {
            "parcel": parcel,
            "ring": gaps.ring,
            "part": rings.part[gaps.ring],
            "hole": rings.hole[gaps.ring],
            "start_ft": gaps.start_ft,
            "length_ft": gaps.length_ft,
            "straight_ft": straight,
            "unmarked": gaps.unmarked,
            "start_marker": np.where(sm >= 0, mk[np.maximum(sm, 0)] if len(mk) else -1, -1),
            "end_marker": np.where(em >= 0, mk[np.maximum(em, 0)] if len(mk) else -1, -1),
        },
        copy=False,  # this function's own arrays: a million gaps need no second copy
    )
    if limits is None:
        df["forest"], df["limit_ft"], forest_ft = _limits(rule, m, df, part)
    else:
        (df["forest"], df["limit_ft"]), forest_ft = limits(rule, m, df, part), None
    along = gaps.length_ft
    w = profile.water
    if w is not None and w.mode == "exempt" and m.land.water is not None:
        # boundaries formed by water need no posting: their length does not count in a gap
        df["water_ft"] = _water_overlap(prep, df, m.land)
        along = np.maximum(gaps.length_ft - df["water_ft"].to_numpy(), 0.0)
    df["measured_ft"] = measured_gap(along, straight, rule.metric)
    # a gap between two markers is off by up to twice the accuracy (each end may be off by
    # it); a ring's one marker, wherever it stands, leaves the ring's length, which the
    # parcel data fix
    accuracy = np.where(two, apart_accuracy(s.accuracy_ft), 0.0)
    unsure = None
    if limits is None:
        forest = df["forest"].to_numpy(dtype=float)
        unsure = _land_unsure(rule, forest, forest_ft, gaps.length_ft)
    measured = df["measured_ft"].to_numpy()
    judge = _Judge(rule, df["limit_ft"].to_numpy(), accuracy, gaps.unmarked, along, unsure)
    if unsure_ft is not None:
        judge.short = measured_gap(np.maximum(along - unsure_ft, 0.0), straight, rule.metric)
        judge.unsure_ft = unsure_ft
    # on the ground, where the land's elevation is not given: between lo and hi times as long
    scale = m.scale(parcel)
    code, fail_limit, land = judge(measured, scale)
    judged = df.assign(status=code)
    if unsure is not None and unsure.any():
        judged = df.assign(status=code, limit_ft=fail_limit, land_unsure=land)
        if forest_ft is not None:  # (the findings' words: how much of a gap is forest)
            judged["forest_ft"] = forest_ft
    if m.banded:
        # which statuses the band decides: as measured, a gap that is within the limit at the
        # highest land is within it too (the ground no shorter than as measured, hi >= 1), so
        # only the others are judged again (a county's million gaps, a few thousand of them)
        again = np.flatnonzero((code != OK) | (np.asarray(scale[1]) < 1.0))
        plain = np.full(len(code), OK, dtype=code.dtype)
        plain[again] = judge.take(again)(measured[again], (1.0, 1.0))[0]
        judged["ground"] = (code != plain) & ~gaps.unmarked
    judged["status"] = code
    counted = m.counted(sel)
    part.findings.append(
        spacing_findings(
            judged, counted, prep.perimeter_ft, prep.group >= 0, rule, s.accuracy_ft, m.ground
        )
    )
    df["status"] = categorical(np.where(gaps.unmarked, 3, code), GAP_STATUS)
    # each parcel's largest gap as the rule measures it (along the boundary, in a straight
    # line, or the more lenient of the two; less a boundary formed by water where the rule
    # leaves it out): the figure its verdict turns on, not the length along the line, which
    # showed a parcel that complies "in a straight line" with a largest gap over its limit
    max_gap = np.full(n, np.nan)
    if len(gaps):
        np.fmax.at(max_gap, parcel, df["measured_ft"].to_numpy(dtype=float))
    max_gap[counted == 0] = np.nan
    _gap_ends(prep, df)
    part.tables["gaps"] = df
    part.columns["max_gap"] = max_gap
    return part


@dataclass
class _Judge:
    """Each gap's status against its limit, as measured times ``scale`` (lo, hi: the ground's
    longer feet, :meth:`posting.measure.Measurements.scale`): the survey's accuracy, a marker
    that may stand on either side of a corner (``short``: the gap from the nearer foot; where
    ``unsure_ft`` > 0), the stricter or more lenient figure by a fact the data does not show
    (``unsure``), a ring without a marker."""

    rule: SpacingRule
    limit: np.ndarray
    accuracy: np.ndarray
    unmarked: np.ndarray
    along: np.ndarray
    unsure: np.ndarray | None
    short: np.ndarray | None = None
    unsure_ft: np.ndarray | None = None

    def take(self, idx: np.ndarray) -> _Judge:
        """The judge of gaps ``idx`` alone."""

        def at(a: np.ndarray | None) -> np.ndarray | None:
            return None if a is None else np.asarray(a)[idx]

        return _Judge(
            self.rule,
            self.limit[idx],
            self.accuracy[idx],
            self.unmarked[idx],
            self.along[idx],
            at(self.unsure),
            at(self.short),
            at(self.unsure_ft),
        )

    def __call__(self, measured: np.ndarray, scale) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The status codes, the limit each fail is said against, and where the land's cover
        (or condition) leaves the figure unsure."""
        rule, limit, accuracy, unsure = self.rule, self.limit, self.accuracy, self.unsure
        code = against_max(measured, limit, accuracy, scale)
        if self.short is not None:
            # a marker about as near both sides of a corner (within the accuracy) may stand on
            # either: over the limit from one foot and not from the other is uncertain
            could = against_max(self.short, limit, accuracy, scale) != FAIL
            code[(code == FAIL) & could & (self.unsure_ft > 0)] = UNCERTAIN
        fail_limit, land = limit, np.zeros(len(code), dtype=bool)
        if unsure is not None and unsure.any():
            # the figure is the stricter or the more lenient, by a fact the data does not
            # show: within the stricter, sure; over the more lenient (with the accuracy), sure;
            # between, uncertain (the law's own words, not a false fail)
            lenient = max(rule.forest_ft, rule.other_ft)
            over_lenient = against_max(measured, lenient, accuracy, scale) == FAIL
            over_strict = unsure & (code == FAIL)  # over the stricter even with the accuracy
            near_strict = unsure & (code == UNCERTAIN)  # a close call on the stricter: stays one
            code[over_strict] = np.where(over_lenient, FAIL, UNCERTAIN)[over_strict]
            # (a ring without a marker keeps the stricter figure: its finding says what to
            # place, and where the land is not known, the stricter is the one that surely
            # suffices)
            lenient_over = over_strict & over_lenient & ~self.unmarked
            fail_limit = np.where(lenient_over, lenient, limit)
            land = over_strict & ~over_lenient
            code[near_strict & over_lenient] = FAIL  # (only with an accuracy wider than the span)
        code[self.unmarked & (self.along > 1.0)] = FAIL
        return code, fail_limit, land


LANDCOVER_COUNTS = re.compile(r"land cover unknown for (\d+) of (\d+) gaps")
"""The counts of the land-cover note (:func:`_limits`), which the report makes those of the
parcels each profile judges (:func:`posting.assemble.landcover_counted`)."""


def _round_corners(
    gaps: Gaps, m: Measurements, mk: np.ndarray, kinds: tuple[str, ...]
) -> tuple[Gaps, np.ndarray | None]:
    """The gaps measured to each marker's foot on the gap's own side of a corner, where the
    marker is as near that side as the other (:func:`posting.checks.spacing.corner_reach`);
    and per gap, how much shorter it may be by a foot that is as near only within the stated
    accuracy (None where no gap may)."""
    prep, asg, s = m.prep, m.asg, m.settings
    if prep.corners is None or not len(gaps) or not len(mk):
        return gaps, None
    r = corner_reach(
        prep.vertices,
        prep.corners,
        m.beside_corners(kinds),
        asg.position_ft[mk],
        asg.x_ft[mk],
        asg.y_ft[mk],
        asg.distance_ft[mk],
        tie_ft=apart_accuracy(s.accuracy_ft),
        reach_ft=s.corner_tolerance_ft,
    )
    sm, em = gaps.start_marker, gaps.end_marker
    marked = sm >= 0
    a, b = np.where(marked, sm, 0), np.where(marked, em, 0)
    ahead = np.where(marked, r.ahead_ft[a], 0.0)
    behind = np.where(marked, r.behind_ft[b], 0.0)
    if not (ahead.any() or behind.any()):
        return gaps, None
    sure_ahead = np.where(r.sure[a], ahead, 0.0)
    sure_behind = np.where(r.sure[b], behind, 0.0)
    # a gap is never made shorter than nothing (two markers' feet crossing at a corner)
    cut = np.minimum(sure_ahead + sure_behind, gaps.length_ft)
    start = gaps.start_ft + np.minimum(sure_ahead, cut)
    length = prep.rings.length_ft[gaps.ring]
    start = np.where(start >= length, start - length, start)
    measured = dataclasses.replace(gaps, start_ft=start, length_ft=gaps.length_ft - cut)
    unsure = np.maximum(ahead + behind - cut, 0.0)
    return measured, unsure if unsure.any() else None


def landcover_counts(unknown: int, gaps: int) -> str:
    """The land-cover note's counts: ``unknown`` of ``gaps`` gaps spaced by the stricter limit.

    >>> landcover_counts(1, 3)
    'land cover unknown for 1 of 3 gaps'
    """
    return f"land cover unknown for {unknown:d} of {gaps:d} gaps"


def _land_unsure(
    rule: SpacingRule,
    forest: np.ndarray,
    forest_ft: np.ndarray | None = None,
    length_ft: np.ndarray | None = None,
) -> np.ndarray | None:
    """Per gap: True where the limit is the stricter or the more lenient by a fact the data
    does not show (land cover unknown; forest land under a ``forest_condition``; a gap of
    ``length_ft`` with ``forest_ft`` of it on forest land, at least :data:`MIXED_MIN_FT` on
    each cover); None for a rule with one figure.

    A gap on both covers is held to the forest figure by some readings (its forest land is
    not posted at that figure) and to the other by others (most of it is other land): unsure,
    unless most of it is forest land and that part alone is longer than the forest figure, a
    stretch of forest land more than that without a marker, over on every reading.

    >>> r = SpacingRule("x", forest_ft=500.0, other_ft=1000.0)
    >>> _land_unsure(r, np.array([np.nan, 1.0, 0.0])).tolist()
    [True, False, False]

    Gaps of 990, 600 and 700 ft with 400, 599.5 and 400 ft of forest land, and one with half a
    foot: the second's forest part alone is over 500 ft (over on any reading).

    >>> _land_unsure(r, np.array([0.0, 1.0, 1.0, 0.0]), np.array([400.0, 599.5, 400, 0.5]),
    ...              np.array([990.0, 600.0, 700.0, 990.0])).tolist()
    [True, False, True, False]
    >>> r = SpacingRule("x", forest_ft=500.0, other_ft=1000.0, forest_condition="unclear lines")
    >>> _land_unsure(r, np.array([np.nan, 1.0, 0.0])).tolist()
    [True, True, False]
    """
    if not rule.by_landcover or rule.forest_ft == rule.other_ft:
        return None
    unsure = np.isnan(forest)
    if rule.forest_condition:
        unsure |= forest == 1.0
    if forest_ft is not None and length_ft is not None:
        unsure |= _mixed(rule, forest, forest_ft, length_ft)
    return unsure


def _mixed(
    rule: SpacingRule, forest: np.ndarray, forest_ft: np.ndarray, length_ft: np.ndarray
) -> np.ndarray:
    """Per gap: True where it runs through both covers (at least :data:`MIXED_MIN_FT` on
    each; ``forest_ft`` NaN: not known, False) and is not over on every reading
    (:func:`_land_unsure`).

    >>> r = SpacingRule("x", forest_ft=500.0, other_ft=1000.0)
    >>> _mixed(r, np.array([0.0, 1.0, np.nan]), np.array([400.0, 599.5, np.nan]),
    ...        np.array([990.0, 600.0, 857.0])).tolist()
    [True, False, False]
    """
    with np.errstate(invalid="ignore"):
        both = (forest_ft >= MIXED_MIN_FT) & (length_ft - forest_ft >= MIXED_MIN_FT)
        over = (forest == 1.0) & (forest_ft > rule.forest_ft)
    return both & ~(over & (rule.forest_ft < rule.other_ft))


def empty(m: Measurements) -> Part:
    """No spacing rule: no gaps, and no largest gap."""
    return Part(tables={"gaps": _empty_gaps()}, columns={"max_gap": np.full(m.n, np.nan)})


def _water_overlap(prep: PreparedParcels, df: pd.DataFrame, land: LandFacts) -> np.ndarray:
    """Length of each gap that runs along a boundary formed by water (``land.water``: not
    where the line merely crosses a creek, whose 60 ft within the tolerance of it is no
    water boundary): the overlap of the gap and the water stretches of its ring, as intervals
    of arc position round the ring."""
    water = land.water
    if not len(df) or water is None or not len(water):
        return np.zeros(len(df))
    rings = prep.rings
    # (a merged stretch may run either way along its ring; one wholly along water: from its
    # start)
    w_start = stretch_start_ft(rings, water.ring, water.geometry, water.length_ft)
    return arc_overlap_ft(
        rings.length_ft,
        df["ring"].to_numpy(dtype=np.int64),
        df["start_ft"].to_numpy(dtype=float),
        df["length_ft"].to_numpy(dtype=float),
        water.ring,
        w_start,
        water.length_ft,
    )


def _gap_lines(prep: PreparedParcels, df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Each gap's stretch of boundary (working feet) and its working-CRS group."""
    lines = ring_stretches(
        prep.rings.geometry,
        df["ring"].to_numpy(),
        df["start_ft"].to_numpy(),
        df["length_ft"].to_numpy(),
        vertices=prep.vertices,
    )
    return lines, prep.group[df["parcel"].to_numpy(dtype=np.int64)]


def _limits(
    rule: SpacingRule, m: Measurements, df: pd.DataFrame, part: Part
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Per gap: forest land or not (most of its length; NaN unknown), the spacing limit that
    applies (the stricter where the gap runs through both covers: :func:`_land_unsure` judges
    it), and, from a land-cover layer, how many feet of the gap are forest (else None)."""
    n = len(df)
    forest = np.full(n, np.nan)
    if not rule.by_landcover:
        return forest, np.full(n, rule.max_ft), None
    forest_ft = None
    ctx = m.context
    if ctx.landcover is not None:
        prep = m.prep
        lines, group = _gap_lines(prep, df)
        is_forest = ctx.landcover.values == "forest"
        share = np.full(n, np.nan)
        for g in range(len(prep.crss)):
            at = group == g
            if not at.any():
                continue
            near, polys = layer_in_group(ctx.landcover, prep, g, 0.0)
            share[at] = forest_share(lines[at], polys[is_forest[near]])
        forest = np.where(np.isnan(share), np.nan, share >= 0.5)
        forest_ft = share * df["length_ft"].to_numpy(dtype=float)
    elif ctx.parcel_landcover is not None:
        per_parcel = ctx.forest_by_parcel()
        forest = per_parcel[df["parcel"].to_numpy(dtype=np.int64)] if n else forest
    unknown = np.isnan(forest)
    limit = np.where(forest == 1.0, rule.forest_ft, rule.other_ft)
    limit[unknown] = rule.strictest_ft
    if forest_ft is not None:  # (a gap on both covers: the figure that surely suffices)
        both = _land_unsure(rule, forest, forest_ft, df["length_ft"].to_numpy(float))
        if both is not None:
            limit[both] = rule.strictest_ft
    # noted always, with its counts: the report keeps the note where a gap of the parcels
    # this profile judges has land cover unknown, or none was given (a partition of the
    # parcels notes its counts though none of its gaps is unknown: the run sums them)
    why = (
        "blank in the parcels' {option:landcover_field} column"
        if ctx.landcover is None and ctx.parcel_landcover is not None
        else "no {option:landcover} layer or parcel attribute"
    )
    part.skip(
        "landcover",
        rule.clause,
        f"{landcover_counts(int(unknown.sum()), n)} ({why}): a gap there within "
        f"{rule.strictest_ft:,.0f} ft passes, one over "
        f"{max(rule.forest_ft, rule.other_ft):,.0f} ft fails, one between is uncertain",
    )
    return forest, limit, forest_ft


def _empty_gaps() -> pd.DataFrame:
    return pd.DataFrame(
        {
            c: pd.Series(dtype=t)
            for c, t in (
                ("parcel", np.int64),
                ("ring", np.int64),
                ("part", np.int64),
                ("hole", np.int64),
                ("start_ft", float),
                ("length_ft", float),
                ("straight_ft", float),
                ("unmarked", bool),
                ("start_marker", np.int64),
                ("end_marker", np.int64),
                ("forest", float),
                ("limit_ft", float),
                ("measured_ft", float),
                ("status", object),
                ("start_lon", float),
                ("start_lat", float),
                ("end_lon", float),
                ("end_lat", float),
            )
        }
    )


def _gap_ends(prep: PreparedParcels, gap_df: pd.DataFrame) -> None:
    """WGS 84 end points of every reported gap (status other than ``ok``; NaN for a ring with
    no marker). The same points as the ends of the gap's line (:func:`posting.draw.gap_lines`),
    made without the line: most runs never draw one."""
    rep = np.flatnonzero((gap_df["status"] != "ok").to_numpy())
    ends = np.full((len(gap_df), 4), np.nan)
    if len(rep):
        v = prep.vertices
        ring = gap_df["ring"].to_numpy()[rep]
        a = gap_df["start_ft"].to_numpy()[rep]
        b = a + gap_df["length_ft"].to_numpy()[rep]
        length = v.length[ring]
        x0, y0 = interpolate_at(v, ring, a)
        x1, y1 = interpolate_at(v, ring, np.where(b >= length, b - length, b))
        group = prep.group[prep.rings.parcel[ring]]
        ends[rep] = np.column_stack(
            [*prep.ft_to_lonlat(group, x0, y0), *prep.ft_to_lonlat(group, x1, y1)]
        )
        ends[rep[gap_df["unmarked"].to_numpy()[rep]]] = np.nan
    gap_df["start_lon"], gap_df["start_lat"] = ends[:, 0], ends[:, 1]
    gap_df["end_lon"], gap_df["end_lat"] = ends[:, 2], ends[:, 3]


_HOW = {"along_boundary": "along the boundary", "straight": "in a straight line", "either": "apart"}


def spacing_findings(
    gaps: pd.DataFrame,
    counted: np.ndarray,
    perimeter_ft: np.ndarray,
    valid: np.ndarray,
    rule: SpacingRule,
    accuracy_ft: float,
    ground: GroundBand | None = None,
) -> pd.DataFrame:
    """Spacing findings per parcel.

    Parameters
    ----------
    gaps
        One row per gap: ``parcel``, ``status`` (OK / UNCERTAIN / FAIL), ``measured_ft``,
        ``length_ft``, ``straight_ft``, ``limit_ft``, ``unmarked`` (a whole ring without
        markers).
    counted, perimeter_ft, valid
        Per parcel: markers of the rule's kinds, boundary length, usable geometry.
    ground
        Per parcel, the ground's band (the land's elevation not given); the gaps' ``ground``
        column marks those whose status it decides (over, or uncertain, on the ground only).
    """
    # masks first, with numpy: a county has a million gaps and few are reported
    status = gaps["status"].to_numpy()
    unmarked = gaps["unmarked"].to_numpy(dtype=bool)
    posted = counted[gaps["parcel"].to_numpy(dtype=np.int64)] > 0
    land = (
        gaps["land_unsure"].to_numpy(dtype=bool)
        if "land_unsure" in gaps
        else np.zeros(len(gaps), dtype=bool)
    )

    by_ground = (
        gaps["ground"].to_numpy(dtype=bool) if "ground" in gaps else np.zeros(len(gaps), dtype=bool)
    )

    def rows(mask: np.ndarray) -> pd.DataFrame:
        sel = gaps[mask]
        return sel.assign(excess=sel["measured_ft"] - sel["limit_ft"])

    # a ring without a marker whose status is OK needs none: along water a profile exempts
    # (an island's shore, a pond's as a hole), all but a foot of it
    needs = np.zeros(len(counted), dtype=bool)
    needs[gaps["parcel"].to_numpy(dtype=np.int64)[status != OK]] = True
    return pd.concat(
        [
            empty_findings(),
            _no_marker(gaps, posted, valid & (counted == 0) & needs, perimeter_ft, rule),
            _over(rows(posted & (status == FAIL) & ~unmarked & ~by_ground), rule),
            _unmarked_rings(rows(posted & unmarked & (status != OK)), rule),
            _ground_calls(
                rows(posted & (status != OK) & ~unmarked & by_ground), rule, ground, accuracy_ft
            ),
            _close_calls(
                rows(posted & (status == UNCERTAIN) & ~unmarked & ~land & ~by_ground),
                rule,
                accuracy_ft,
            ),
            _land_calls(rows(posted & (status == UNCERTAIN) & ~unmarked & land & ~by_ground), rule),
        ],
        ignore_index=True,
    )


def _spacing_rows(w: pd.DataFrame, rule: SpacingRule, level: str, msgs, key: str) -> pd.DataFrame:
    """Findings of the worst gap per parcel (``w``), its measure in ``key``."""
    return findings_frame(
        w["parcel"], "spacing", level, rule.clause, msgs, w[key], w["limit_ft"], "ft", w["n"]
    )


def _no_marker(
    gaps: pd.DataFrame,
    posted: np.ndarray,
    bare: np.ndarray,
    perimeter_ft: np.ndarray,
    rule: SpacingRule,
) -> pd.DataFrame:
    """A parcel with usable geometry and no marker of the rule's kinds: one finding."""
    bare_parcels = np.flatnonzero(bare)
    if not len(bare_parcels):
        return empty_findings()
    gap_parcel = gaps["parcel"].to_numpy(dtype=np.int64)
    limit = (
        pd.Series(gaps["limit_ft"].to_numpy()[~posted])
        .groupby(gap_parcel[~posted])
        .min()
        .reindex(bare_parcels)
        .fillna(rule.strictest_ft)
        .to_numpy()
    )
    what, how = marker_words(rule.kinds), _HOW[rule.metric]
    return findings_frame(
        bare_parcels,
        "spacing",
        "violation",
        rule.clause,
        [
            f"no {what} on its {ft(per)} of boundary; they must be not more "
            f"than {ft(lim)} {how if how == 'apart' else 'apart ' + how}"
            for per, lim in zip(perimeter_ft[bare_parcels].tolist(), limit.tolist(), strict=True)
        ],
        perimeter_ft[bare_parcels],
        limit,
        "ft",
        1,
    )


def _over(over: pd.DataFrame, rule: SpacingRule) -> pd.DataFrame:
    """Gaps over the limit, by parcel: how many, and the worst."""
    if not len(over):
        return empty_findings()
    w = worst_per_parcel(over, "excess")
    msgs = []
    cols = ("n", "measured_ft", "length_ft", "straight_ft", "limit_ft")
    for n, mm, a, s, lim in zip(*(w[c].tolist() for c in cols), strict=True):
        extra = ""
        if math.isfinite(s) and abs(s - a) > 1:
            extra = f" ({ft(a)} along the boundary, {ft(s)} in a straight line)"
        msgs.append(
            f"{n} {plural(n, 'gap', 'gaps')} between markers longer than "
            f"{ft(lim)} {_HOW[rule.metric]}; the worst is {ft_vs(mm, lim)}{extra}"
        )
    return _spacing_rows(w, rule, "violation", msgs, "measured_ft")


def _unmarked_rings(bare: pd.DataFrame, rule: SpacingRule) -> pd.DataFrame:
    """Rings (a hole, another part) without a marker on a parcel that has some."""
    if not len(bare):
        return empty_findings()
    w = worst_per_parcel(bare, "length_ft")
    total = bare.groupby("parcel")["length_ft"].sum().loc[w["parcel"]].to_numpy()
    msgs = [
        f"{n} of its boundary rings (a hole or a separate part) "
        f"{plural(n, 'has', 'have')} no {marker_words(rule.kinds)}: {ft(t)} of boundary unmarked"
        for n, t in zip(w["n"].tolist(), total.tolist(), strict=True)
    ]
    return _spacing_rows(w, rule, "violation", msgs, "length_ft")


def _close_calls(unsure: pd.DataFrame, rule: SpacingRule, accuracy_ft: float) -> pd.DataFrame:
    """Gaps within the survey's accuracy of the limit."""
    if not len(unsure):
        return empty_findings()
    w = worst_per_parcel(unsure, "excess")
    both = ft(apart_accuracy(accuracy_ft))
    msgs = [
        f"{n} {plural(n, 'gap', 'gaps')} within ±{both} (twice the stated survey accuracy: "
        f"each marker may be off by it) of the {ft(lim)} limit; the closest call is {ft(mm)}"
        for n, mm, lim in zip(
            *(w[c].tolist() for c in ("n", "measured_ft", "limit_ft")), strict=True
        )
    ]
    return _spacing_rows(w, rule, "uncertain", msgs, "measured_ft")


def _ground_calls(
    gaps: pd.DataFrame, rule: SpacingRule, ground: GroundBand, accuracy_ft: float = 0.0
) -> pd.DataFrame:
    """Gaps over the limit (a violation), or maybe over it (uncertain), only on the ground: as
    measured at sea level they pass or are a close call, and the land's elevation, not given,
    lies between its states' lowest and highest points. Per parcel and level, how many and
    the worst, with its figures on the ground (a violation's lower figure never shown at or
    under the limit: :func:`posting.checks.shown`), the survey's accuracy where one is stated
    (it makes the close call with the ground's figure), and what settles it."""
    if not len(gaps):
        return empty_findings()
    both = apart_accuracy(accuracy_ft)
    if both:  # the accuracy makes the close call, the ground's figure which side of it
        maybe = (
            f"; with the survey's accuracy (±{ft(both)} on a gap between two markers) it may "
            "be over the {limit} limit: the land's elevation (--elevation-ft) may settle it"
        )
    else:
        maybe = (
            ": it may be over the {limit} limit: the land's elevation (--elevation-ft) settles it"
        )
    out = []
    for level, code in (("violation", FAIL), ("uncertain", UNCERTAIN)):
        sel = gaps[gaps["status"].to_numpy() == code]
        if not len(sel):
            continue
        w = worst_per_parcel(sel, "excess")
        parcel = w["parcel"].to_numpy(dtype=np.int64)
        lo, hi = ground.at(parcel)
        measured, limit = w["measured_ft"].to_numpy(dtype=float), w["limit_ft"].to_numpy(float)
        low_ft = shown(measured * lo, 2, limit, code)
        msgs = []
        for n, mm, lim, x, y, where in zip(
            w["n"].tolist(),
            measured.tolist(),
            limit.tolist(),
            low_ft.tolist(),
            (measured * hi).tolist(),
            ground.where[parcel].tolist(),
            strict=True,
        ):
            gap = (
                f"1 gap of {ft_vs(mm, lim)}"
                if n == 1
                else f"{n} gaps, the worst of {ft_vs(mm, lim)}"
            )
            tail = (
                f": over the {ft(lim)} limit at any of them"
                if code == FAIL
                else maybe.format(limit=ft(lim))
            )
            msgs.append(
                f"{gap} {_HOW[rule.metric]} at sea level{',' if n > 1 else ''} is "
                f"{x:,.2f}-{_ft2(y)} on the ground at {where}{tail}"
            )
        out.append(_spacing_rows(w, rule, level, msgs, "measured_ft"))
    return pd.concat(out, ignore_index=True) if out else empty_findings()


def _ft2(x: float) -> str:
    """Feet to the hundredth, for a figure on the ground (``500.03 ft``)."""
    return f"{x:,.2f} ft"


def _land_calls(unsure: pd.DataFrame, rule: SpacingRule) -> pd.DataFrame:
    """Gaps over the stricter figure but within the more lenient, where which applies turns on
    a fact the data does not show."""
    if not len(unsure):
        return empty_findings()
    w = worst_per_parcel(unsure, "excess")
    lenient = max(rule.forest_ft, rule.other_ft)
    why = (
        f"on forest land only where {rule.forest_condition}, or where the land cover is unknown"
        if rule.forest_condition
        else "on forest land, and the land cover is not known"
    )
    f_ft = w["forest_ft"] if "forest_ft" in w else pd.Series(np.nan, index=w.index)
    length = w["length_ft"].to_numpy(dtype=float)
    # (the gaps on both covers; the others are unsure for want of the cover or its condition)
    mixed = _mixed(rule, w["forest"].to_numpy(dtype=float), f_ft.to_numpy(dtype=float), length)
    msgs = [
        f"{n} {plural(n, 'gap', 'gaps')} longer than {ft(lim)} but within {ft(lenient)} "
        f"{_HOW[rule.metric]}; the shorter figure holds "
        + (
            f"on forest land, and the longest, {ft(mm)}, runs through forest land for {ft(f)} "
            f"of its {ft(a)} along the boundary and other land for the rest: the law gives no "
            "figure for a gap on both"
            if two
            else f"{why}; the longest is {ft(mm)}"
        )
        for n, mm, lim, f, a, two in zip(
            *(w[c].tolist() for c in ("n", "measured_ft", "limit_ft")),
            f_ft.tolist(),
            length.tolist(),
            mixed.tolist(),
            strict=True,
        )
    ]
    return _spacing_rows(w, rule, "uncertain", msgs, "measured_ft")


register(
    Kind(
        "spacing",
        SpacingRule,
        parse,
        "markers not more than a distance apart",
        measure=measure,
        counts_markers=True,
        summary=summary,
        empty=empty,
    )
)
