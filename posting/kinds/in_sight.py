"""In sight: each marker within sight of the next along the boundary (New Jersey's
"intervisible signs", Nevada's marks "visible within the direct line of sight of a person standing
next to another").

Whether a marker can be seen from the next depends on the ground, the trees and the weather,
which surveyed positions cannot show. The check makes it a distance, stated and configurable:

* the straight line between consecutive markers along each ring must be no longer than the
  **sight distance**: the rule's ``sight_ft`` on open land and ``forest_sight_ft`` on forest land
  (by the land cover along the line of sight: a land-cover layer or parcel attribute), or the
  distance the user states for the land (the ``sight_ft`` context setting), which wins;
* the line must not cross a building (the footprints of the dwellings layer, where given).

The defaults, :data:`DEFAULT_SIGHT_FT` and :data:`DEFAULT_FOREST_SIGHT_FT`, are the distances
at which legislatures that set both a spacing and "readily visible to any person approaching"
deem a mark visible: 1,000 ft on open land and 100 ft on forest land (Texas 30.05(b)(2)(D),
Arkansas 18-11-404/405, Kentucky 511.070, Alabama 13A-7-1). Where the land cover is unknown, a
pair farther apart than the forest distance but within the open-land one could be in sight or
not: it is ``uncertain``, and the report says how to settle it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from posting.checks import FAIL, OK, UNCERTAIN, against_max, apart_accuracy, shown
from posting.checks.landcover import forest_share
from posting.checks.spacing import ring_gaps
from posting.elevation import GroundBand
from posting.index import unique_ints
from posting.kinds import Kind, Part, register
from posting.land import layer_in_group
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import (
    empty_findings,
    findings_frame,
    ft,
    ft_vs,
    marker_words,
    plural,
    worst_per_parcel,
)

__all__ = [
    "DEFAULT_FOREST_SIGHT_FT",
    "DEFAULT_SIGHT_FT",
    "SIGHT_COUNTS",
    "InSightRule",
    "blocked_by",
    "sight_counts",
    "sight_pairs",
]

DEFAULT_SIGHT_FT = 1000.0
"""Sight distance on open land: the 1,000 ft that the purple-paint statutes of Texas, Arkansas,
Kentucky and Alabama allow between marks "readily visible to any person approaching" on land
other than forest."""

DEFAULT_FOREST_SIGHT_FT = 100.0
"""Sight distance on forest land: the 100 ft those statutes allow between such marks on forest
land."""


SIGHT_COUNTS = re.compile(r"land cover unknown along (\d+) of (\d+) lines of sight")
"""The counts of this rule's land-cover note, which a partitioned run sums (each partition
counts its own parcels' lines: :attr:`posting.measure.Measurements.own`)."""


def sight_counts(unknown: int, lines: int) -> str:
    """The land-cover note's counts: ``unknown`` of ``lines`` lines of sight.

    >>> sight_counts(2, 17)
    'land cover unknown along 2 of 17 lines of sight'
    """
    return f"land cover unknown along {unknown:d} of {lines:d} lines of sight"


@dataclass(frozen=True)
class InSightRule(Rule):
    """Each marker of ``kinds`` within sight of the next along the boundary: ``sight_ft`` on
    open land, ``forest_sight_ft`` on forest land."""

    sight_ft: float = DEFAULT_SIGHT_FT
    forest_sight_ft: float = DEFAULT_FOREST_SIGHT_FT
    kinds: tuple[str, ...] = ("sign",)


def parse(t: Reader, kinds: tuple[str, ...]) -> InSightRule:
    sight = t.positive("sight_ft") or DEFAULT_SIGHT_FT
    forest = t.positive("forest_sight_ft") or min(DEFAULT_FOREST_SIGHT_FT, sight)
    if forest > sight:
        raise t.error("forest_sight_ft", f"({forest:g}) must not exceed sight_ft ({sight:g})")
    return InSightRule(
        **t.common(), sight_ft=sight, forest_sight_ft=forest, kinds=t.marker_kinds(kinds)
    )


def sight_pairs(
    marker_ring: np.ndarray,
    position_ft: np.ndarray,
    x_ft: np.ndarray,
    y_ft: np.ndarray,
    ring_length_ft: np.ndarray,
) -> pd.DataFrame:
    """Each marker and the next along its ring (wrapping round), with the straight distance
    between them: ``ring``, ``a``, ``b`` (indices into the arrays given), ``distance_ft``.
    A ring with fewer than two markers has no pair.

    Examples
    --------
    Three markers on a 400 ft square ring, at (0, 0), (100, 0) and (0, 100):

    >>> p = sight_pairs(np.array([0, 0, 0]), np.array([0.0, 100.0, 300.0]),
    ...                 np.array([0.0, 100.0, 0.0]), np.array([0.0, 0.0, 100.0]),
    ...                 np.array([400.0]))
    >>> p[["a", "b"]].to_numpy().tolist(), p["distance_ft"].round(2).tolist()
    ([[0, 1], [1, 2], [2, 0]], [100.0, 141.42, 100.0])
    """
    gaps = ring_gaps(marker_ring, position_ft, ring_length_ft)
    two = (gaps.start_marker >= 0) & (gaps.start_marker != gaps.end_marker)
    a, b = gaps.start_marker[two], gaps.end_marker[two]
    x, y = np.asarray(x_ft, dtype=float), np.asarray(y_ft, dtype=float)
    return pd.DataFrame(
        {"ring": gaps.ring[two], "a": a, "b": b, "distance_ft": np.hypot(x[b] - x[a], y[b] - y[a])}
    )


def blocked_by(lines: np.ndarray, footprints: np.ndarray) -> np.ndarray:
    """For each line of sight, True where it crosses a building footprint (runs through its
    inside and out again; a line along a wall, or from a sign on the building, is not
    blocked by it). Only the footprints' polygons are buildings: an address point, or several
    as one feature, and a line are not.

    >>> house = shapely.box(40, -10, 60, 10)
    >>> blocked_by(np.array([shapely.LineString([(0, 0), (100, 0)]),
    ...                      shapely.LineString([(0, 20), (100, 20)])]),
    ...            np.array([house])).tolist()
    [True, False]
    """
    out = np.zeros(len(lines), dtype=bool)
    polys = footprints[np.isin(shapely.get_type_id(footprints), (3, 6))]  # (polygons)
    if len(lines) and len(polys):
        li, pi = shapely.STRtree(polys).query(lines, predicate="crosses")
        ends = shapely.intersects(polys[pi], shapely.get_point(lines[li], 0)) | shapely.intersects(
            polys[pi], shapely.get_point(lines[li], -1)
        )
        out[li[~ends]] = True
    return out


def measure(rule: InSightRule, profile, m: Measurements) -> Part:
    """Consecutive markers farther apart than the sight distance, or with a building between
    them; the ``sight`` table lists those pairs."""
    prep, asg, ctx = m.prep, m.asg, m.context
    part = Part()
    mk = m.am[m.mask(rule.kinds)]
    pairs = sight_pairs(
        asg.ring[mk], asg.position_ft[mk], asg.x_ft[mk], asg.y_ft[mk], prep.rings.length_ft
    )
    pairs["a"], pairs["b"] = mk[pairs["a"].to_numpy()], mk[pairs["b"].to_numpy()]
    parcel = prep.rings.parcel[pairs["ring"].to_numpy()]
    pairs.insert(0, "parcel", parcel)
    ax, ay = asg.x_ft[pairs["a"]], asg.y_ft[pairs["a"]]
    bx, by = asg.x_ft[pairs["b"]], asg.y_ft[pairs["b"]]
    lines = (
        shapely.linestrings(
            np.stack([np.column_stack([ax, ay]), np.column_stack([bx, by])], axis=1)
        )
        if len(pairs)
        else np.empty(0, dtype=object)
    )
    group = prep.group[parcel]
    acc = apart_accuracy(m.settings.accuracy_ft)  # a distance between two markers
    d = pairs["distance_ft"].to_numpy()
    user = getattr(ctx, "sight_ft", None)
    if user is not None:
        sight = np.full(len(pairs), float(user))
        forest = np.zeros(len(pairs))
        how = np.full(len(pairs), "the stated sight distance", dtype=object)
    else:
        forest = _forest(m, lines, group, parcel, part, rule)
        sight = np.where(forest == 1.0, rule.forest_sight_ft, rule.sight_ft)
        how = np.where(forest == 1.0, "forest land", "open land").astype(object)
        how[np.isnan(forest)] = "open land; land cover unknown"
    judge = _Judge(rule, d, sight, np.isnan(forest), acc, user is not None)
    # on the ground, where the land's elevation is not given: between lo and hi times as far
    code, beyond = judge(m.scale(parcel))
    ground = np.zeros(len(pairs), dtype=bool)
    if m.banded:
        ground = code != judge((1.0, 1.0))[0]
    blocked = np.zeros(len(pairs), dtype=bool)
    if ctx.dwellings is not None:
        for g in unique_ints(group[group >= 0]).tolist():
            at = group == g
            # a line of sight runs between markers up to the tolerance outside the boundary
            # (the buildings near it: not only those of the frame's parcels' box)
            _, footprints = layer_in_group(ctx.dwellings, prep, g, m.settings.tolerance_ft)
            blocked[at] = blocked_by(lines[at], footprints)
    code[blocked] = FAIL
    pairs["sight_ft"], pairs["status"], pairs["blocked"] = sight, code, blocked
    pairs["beyond"] = beyond & ~blocked
    pairs["land"] = how
    pairs["ground"] = ground & ~blocked
    # the distance the band decided against: the forest one where the cover is unknown and the
    # pair within the open-land one
    pairs["ground_sight_ft"] = np.where(
        judge.woods_only(m.scale(parcel)), rule.forest_sight_ft, sight
    )
    part.findings.append(_findings(pairs, rule, acc, m.ground))
    bad = pairs[code != OK].drop(columns=["ground", "ground_sight_ft"])
    ends = (
        np.column_stack(
            [
                *prep.ft_to_lonlat(group[code != OK], ax[code != OK], ay[code != OK]),
                *prep.ft_to_lonlat(group[code != OK], bx[code != OK], by[code != OK]),
            ]
        )
        if len(bad)
        else np.empty((0, 4))
    )
    bad["start_lon"], bad["start_lat"], bad["end_lon"], bad["end_lat"] = ends.T
    bad["status"] = np.where(bad["status"] == FAIL, "out of sight", "uncertain")
    part.tables["sight"] = bad.reset_index(drop=True)
    return part


@dataclass
class _Judge:
    """Each pair's status against its sight distance, its distance times ``scale`` (lo, hi:
    the ground's longer feet, :meth:`posting.measure.Measurements.scale`): the survey's
    accuracy (``acc``), land cover unknown (``unknown``: within sight on open land but perhaps
    not in woods), and a distance that is ours, not the statute's (an unverified rule without
    the user's own sight distance, ``stated``: beyond it, uncertain)."""

    rule: InSightRule
    d: np.ndarray
    sight: np.ndarray
    unknown: np.ndarray
    acc: float
    stated: bool

    def __call__(self, scale) -> tuple[np.ndarray, np.ndarray]:
        """The status codes and the pairs beyond a distance of ours (uncertain)."""
        code = against_max(self.d, self.sight, self.acc, scale)
        if not self.stated:
            # unknown land cover: within sight on open land, perhaps not in woods
            code[self.woods_only(scale) & (code == OK)] = UNCERTAIN
        # the distance is ours where the rule is unverified (no statute gives a sight
        # distance: New Jersey's "intervisible", Nevada's "line of sight"): a pair beyond it
        # may still be in sight, a question of fact, so uncertain, not out of sight; a
        # building between them, or the user's own sight distance (--sight-ft), settles it
        beyond = (code == FAIL) & (not self.stated) & (not self.rule.verified)
        code[beyond] = UNCERTAIN
        return code, beyond

    def woods_only(self, scale) -> np.ndarray:
        """Land cover unknown and the pair perhaps out of sight in woods (not surely within
        the forest distance)."""
        if self.stated:
            return np.zeros(len(self.d), dtype=bool)
        far = against_max(self.d, self.rule.forest_sight_ft, self.acc, scale) != OK
        return self.unknown & far & (against_max(self.d, self.sight, self.acc, scale) == OK)


def _forest(m: Measurements, lines, group, parcel, part: Part, rule: InSightRule) -> np.ndarray:
    """Per pair: 1 where the line of sight runs through forest, 0 where not, NaN unknown."""
    ctx = m.context
    forest = np.full(len(lines), np.nan)
    if ctx.landcover is not None:
        is_forest = ctx.landcover.values == "forest"
        for g in unique_ints(group[group >= 0]).tolist():
            at = group == g
            near, polys = layer_in_group(ctx.landcover, m.prep, g, m.settings.tolerance_ft)
            forest[at] = (forest_share(lines[at], polys[is_forest[near]]) >= 0.5).astype(float)
    elif ctx.parcel_landcover is not None:
        per = ctx.forest_by_parcel()
        forest = per[parcel] if len(parcel) else forest
    unknown = np.isnan(forest)
    counts = unknown if m.own is None else unknown[m.own[parcel]]
    # a part of a larger check's parcels notes its own counts always: the run sums them
    if counts.any() or m.own is not None:
        part.skip(
            "in_sight",
            rule.clause,
            f"{sight_counts(int(counts.sum()), len(counts))}: markers "
            f"{ft(rule.forest_sight_ft)} to {ft(rule.sight_ft)} apart are in sight on open land "
            "but perhaps not in woods (uncertain); give {option:landcover}, or the sight "
            "distance on this land with {option:sight_ft}",
        )
    return forest


def _findings(
    pairs: pd.DataFrame, rule: InSightRule, accuracy_ft: float, ground: GroundBand | None = None
) -> pd.DataFrame:
    """Per parcel and level, the pairs out of sight (a violation) or perhaps (uncertain); those
    whose status the ground's band decides (``ground``) said apart (:func:`_ground_calls`)."""
    out = [empty_findings()]
    what = marker_words(rule.kinds)
    by_ground = pairs["ground"].to_numpy(dtype=bool)
    if by_ground.any():
        out.append(_ground_calls(pairs[by_ground], rule, accuracy_ft, ground))
    pairs = pairs[~by_ground]
    for level, code in (("violation", FAIL), ("uncertain", UNCERTAIN)):
        sel = pairs[pairs["status"].to_numpy() == code]
        if not len(sel):
            continue
        sel = sel.assign(excess=sel["distance_ft"] - sel["sight_ft"])
        g = sel.groupby("parcel")
        worst = sel.sort_values("excess", ascending=False, kind="stable").drop_duplicates("parcel")
        worst = worst.sort_values("parcel", kind="stable")
        n = g.size().loc[worst["parcel"]].to_numpy()
        nb = g["blocked"].sum().loc[worst["parcel"]].to_numpy()
        far_of = (
            g["beyond"].sum().astype(int).to_dict()
            if level == "uncertain" and "beyond" in sel
            else {}
        )
        msgs = []
        for p, k, kb, dist, lim, land in zip(
            worst["parcel"].tolist(),
            n.tolist(),
            nb.tolist(),
            worst["distance_ft"].tolist(),
            worst["sight_ft"].tolist(),
            worst["land"].tolist(),
            strict=True,
        ):
            pair = plural(k, "pair", "pairs")
            if level == "uncertain" and far_of.get(p, 0):
                kf = far_of[p]
                text = (
                    f"{kf} {plural(kf, 'pair', 'pairs')} of consecutive {what}s farther apart "
                    f"than the checker's sight distance (the farthest {ft(dist)} apart; "
                    f"{ft(lim)}, {land}): the statute gives no distance, so whether they are "
                    "in sight of each other is a question of fact, which a stated sight "
                    "distance for this land settles"
                )
            elif level == "uncertain":
                text = (
                    f"{k} {pair} of consecutive {what}s {ft(dist)} apart or less: in sight on "
                    f"open land, not certainly in woods ({ft(rule.forest_sight_ft)}) or within "
                    f"±{ft(accuracy_ft)} of the sight distance (twice the stated survey "
                    "accuracy: each marker may be off by it)"
                )
            else:
                far = k - int(kb)
                bits = []
                if far:
                    bits.append(
                        f"{far} {plural(far, 'pair', 'pairs')} of consecutive {what}s out of "
                        f"sight of each other (the farthest {ft_vs(dist, lim)} apart; sight "
                        f"distance {ft(lim)}, {land})"
                    )
                if kb:
                    bits.append(
                        f"{int(kb)} {plural(int(kb), 'line', 'lines')} of sight between "
                        f"consecutive {what}s crossing a building"
                    )
                text = "; ".join(bits)
            msgs.append(text)
        out.append(
            findings_frame(
                worst["parcel"],
                "in_sight",
                level,
                rule.clause,
                msgs,
                worst["distance_ft"],
                worst["sight_ft"],
                "ft",
                n,
            )
        )
    return pd.concat(out, ignore_index=True)


def _ground_calls(
    pairs: pd.DataFrame, rule: InSightRule, accuracy_ft: float, ground: GroundBand
) -> pd.DataFrame:
    """Pairs out of sight (a violation), or perhaps (uncertain), only on the ground: as
    measured at sea level they are in sight or a close call, and the land's elevation, not
    given, lies between its states' lowest and highest points. Per parcel and level, how many
    and the farthest, with its distance on the ground (a violation's lower figure never shown
    at or under the sight distance: :func:`posting.checks.shown`), the survey's accuracy
    where one is stated, and what settles it."""
    out = []
    what = marker_words(rule.kinds)
    if accuracy_ft:  # the accuracy makes the close call, the ground's figure which side of it
        maybe = (
            f"; with the survey's accuracy (±{ft(accuracy_ft)} on a distance between two "
            "markers) they may be out of sight: the land's elevation (--elevation-ft) may "
            "settle it"
        )
    else:
        maybe = ": they may be out of sight: the land's elevation (--elevation-ft) settles it"
    for level, code in (("violation", FAIL), ("uncertain", UNCERTAIN)):
        sel = pairs[pairs["status"].to_numpy() == code]
        if not len(sel):
            continue
        sel = sel.assign(excess=sel["distance_ft"] - sel["ground_sight_ft"])
        w = worst_per_parcel(sel, "excess")
        parcel = w["parcel"].to_numpy(dtype=np.int64)
        lo, hi = ground.at(parcel)
        d, lim = w["distance_ft"].to_numpy(dtype=float), w["ground_sight_ft"].to_numpy(float)
        low_ft = shown(d * lo, 2, lim, code)
        land = np.where(
            lim < w["sight_ft"].to_numpy(float), "woods; land cover unknown", w["land"]
        ).tolist()
        msgs = []
        for n, dd, li, x, y, where, how in zip(
            w["n"].tolist(),
            d.tolist(),
            lim.tolist(),
            low_ft.tolist(),
            (d * hi).tolist(),
            ground.where[parcel].tolist(),
            land,
            strict=True,
        ):
            pairs_of = (
                f"1 pair of consecutive {what}s {ft_vs(dd, li)} apart"
                if n == 1
                else f"{n} pairs of consecutive {what}s, the farthest {ft_vs(dd, li)} apart"
            )
            tail = ": out of sight at any of them" if code == FAIL else maybe
            msgs.append(
                f"{pairs_of} at sea level{',' if n > 1 else ''} {'is' if n == 1 else 'are'} "
                f"{x:,.2f}-{y:,.2f} ft on the ground at {where}, the sight distance "
                f"{ft(li)} ({how}){tail}"
            )
        out.append(
            findings_frame(
                w["parcel"],
                "in_sight",
                level,
                rule.clause,
                msgs,
                w["distance_ft"],
                lim,
                "ft",
                w["n"],
            )
        )
    return pd.concat(out, ignore_index=True) if out else empty_findings()


def summary(rule: InSightRule) -> dict:
    return {"sight_ft": rule.sight_ft, "forest_sight_ft": rule.forest_sight_ft}


register(
    Kind(
        "in_sight",
        InSightRule,
        parse,
        "each marker in sight of the next",
        measure=measure,
        counts_markers=True,
        summary=summary,
    )
)
