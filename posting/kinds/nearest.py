"""Nearest: each marker within a distance of the nearest other marker of its kind on the same
parcel, in a straight line (Indiana: a purple mark on a tree "not more than one hundred (100)
feet from the nearest other marked tree", on a post "not more than thirty-six (36) feet from the
nearest other marked post").

This is not the gap along the boundary: a mark is judged by its nearest neighbour wherever that
stands, so two marks across a narrow strip are near each other. A parcel with a single mark of a
kind has no "other" mark: that mark fails. Each kind with a figure is judged on its own.

Where the land's elevation is not given, a distance at sea level is judged at its states'
lowest and highest points (:mod:`posting.elevation`): within the figure at one and not at the
other is uncertain.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.checks import FAIL, OK, UNCERTAIN, against_max, apart_accuracy
from posting.checks.spacing import ring_gaps
from posting.index import BoxGrid
from posting.kinds import Kind, Part, register
from posting.measure import Measurements
from posting.rules.schema import KINDS, Reader, Rule
from posting.verdict import (
    MARKER_WORDS,
    empty_findings,
    findings_frame,
    ft,
    ft_vs,
    marker_words,
    plural,
)

__all__ = ["NearestRule", "nearest_other"]


@dataclass(frozen=True)
class NearestRule(Rule):
    """Each marker of a kind within ``<kind>_ft`` of the nearest other one of its kind on the
    same parcel (``sign_ft``, ``paint_ft``, ``post_ft``; a kind without a figure is not
    judged)."""

    sign_ft: float | None = None
    paint_ft: float | None = None
    post_ft: float | None = None
    around: bool = False

    @property
    def kinds(self) -> tuple[str, ...]:
        """The marker kinds with a figure."""
        return tuple(k for k in KINDS if getattr(self, f"{k}_ft") is not None)


def parse(t: Reader, kinds: tuple[str, ...]) -> NearestRule:
    limits = {f"{k}_ft": t.positive(f"{k}_ft") for k in KINDS}
    if all(v is None for v in limits.values()):
        raise t.error("paint_ft", "or 'sign_ft' or 'post_ft' is required (a distance per kind)")
    return NearestRule(**t.common(), **limits, around=bool(t.get("around", bool)))


def nearest_other(group: np.ndarray, x: np.ndarray, y: np.ndarray, reach: float) -> np.ndarray:
    """For each point, the distance to the nearest other point of the same ``group`` (a
    parcel), when that is within ``reach``; inf otherwise.

    Examples
    --------
    >>> nearest_other(np.array([0, 0, 0, 1]), np.array([0.0, 30.0, 200.0, 10.0]),
    ...               np.zeros(4), 100.0).tolist()
    [30.0, 30.0, inf, inf]
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    out = np.full(len(x), np.inf)
    if len(x) < 2:
        return out
    pad = reach + 1e-6 * (1.0 + reach)  # a point exactly `reach` away is inside the box
    boxes = np.column_stack([x - pad, y - pad, x + pad, y + pad])
    qi, ti = BoxGrid(boxes).query(x, y)  # the points in each point's box grown by the reach
    keep = (qi != ti) & (np.asarray(group)[qi] == np.asarray(group)[ti])
    qi, ti = qi[keep], ti[keep]
    d = np.hypot(x[ti] - x[qi], y[ti] - y[qi])
    near = d <= reach
    np.minimum.at(out, qi[near], d[near])
    return out


def measure(rule: NearestRule, profile, m: Measurements) -> Part:
    """Each marked kind's marks farther than its figure from the nearest other one."""
    asg = m.asg
    acc = apart_accuracy(m.settings.accuracy_ft)  # a distance between two markers
    rows = []
    for kind in rule.kinds:
        limit = float(getattr(rule, f"{kind}_ft"))
        mk = m.am[m.mask((kind,))]
        parcel = asg.parcel[mk]
        # on the ground (the land's elevation not given), a distance is lo to hi times as
        # measured: looked for as far as the shortest ground foot could still be within
        scale = m.scale(parcel)
        least = min(1.0, float(np.min(scale[0], initial=1.0)))
        d = nearest_other(parcel, asg.x_ft[mk], asg.y_ft[mk], (limit + acc + 1.0) / least)
        code = against_max(d, limit, acc, scale)
        ground = (code != against_max(d, limit, acc)) & m.banded
        alone = np.bincount(parcel, minlength=m.n)[parcel] == 1
        rows.append(
            pd.DataFrame(
                {
                    "parcel": parcel,
                    "marker": mk,
                    "kind": kind,
                    "nearest_ft": d,
                    "limit_ft": limit,
                    "status": code,
                    "alone": alone,
                    "ground": ground,
                }
            )
        )
    table = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
    part = Part(findings=[_findings(table, rule, acc, m)] if len(table) else [empty_findings()])
    if rule.around:
        part.findings.append(_around(rule, m))
    bad = table[table["status"] != 0] if len(table) else table
    part.tables["nearest"] = bad.drop(columns="ground", errors="ignore").reset_index(drop=True)
    return part


def _findings(
    table: pd.DataFrame, rule: NearestRule, accuracy_ft: float, m: Measurements
) -> pd.DataFrame:
    out = [empty_findings()]
    for (kind, level), code in (
        ((k, lv), c)
        for k in rule.kinds
        for lv, c in (("violation", FAIL), ("uncertain", UNCERTAIN))
    ):
        sel = table[(table["kind"] == kind) & (table["status"] == code)]
        if not len(sel):
            continue
        by_ground = sel["ground"].to_numpy(dtype=bool)
        if by_ground.any():
            out.append(_ground_findings(sel[by_ground], table, rule, kind, level, m))
            sel = sel[~by_ground]
            if not len(sel):
                continue
        limit = float(getattr(rule, f"{kind}_ft"))
        word = MARKER_WORDS[kind]
        total = table[table["kind"] == kind].groupby("parcel").size()
        g = sel.groupby("parcel")
        n = g.size()
        far = g["nearest_ft"].max()
        msgs = []
        for p, k in n.items():
            of = int(total.loc[p])
            if level == "uncertain":
                msgs.append(
                    f"{k} of {of} {word}s within ±{ft(accuracy_ft)} (twice the stated survey "
                    f"accuracy: each marker may be off by it) of {ft(limit)} from the nearest "
                    f"other {word}"
                )
            elif of == 1:
                msgs.append(f"its only {word} has no other {word} within {ft(limit)}")
            else:
                msgs.append(
                    f"{k} of {of} {word}s {plural(k, 'is', 'are')} more than {ft(limit)} from "
                    f"the nearest other {word}"
                )
        measured = far.where(np.isfinite(far), np.nan)
        out.append(
            findings_frame(
                n.index,
                f"nearest_{kind}",
                level,
                rule.clause,
                msgs,
                measured.to_numpy(dtype=float),
                limit,
                "ft",
                n.to_numpy(),
            )
        )
    return pd.concat(out, ignore_index=True)


def _ground_findings(
    sel: pd.DataFrame,
    table: pd.DataFrame,
    rule: NearestRule,
    kind: str,
    level: str,
    m: Measurements,
) -> pd.DataFrame:
    """The marks over the figure (``violation``) or maybe over it (``uncertain``) on the ground
    only: the land's elevation, not given, lies between its states' lowest and highest
    points (:mod:`posting.elevation`). Per parcel, how many and the farthest, on the ground."""
    limit = float(getattr(rule, f"{kind}_ft"))
    word = MARKER_WORDS[kind]
    total = table[table["kind"] == kind].groupby("parcel").size()
    g = sel.groupby("parcel")
    n, far = g.size(), g["nearest_ft"].max()
    parcel = n.index.to_numpy(dtype=np.int64)
    lo, hi = m.ground.at(parcel)
    verdict = (
        "over it at any of them"
        if level == "violation"
        else "perhaps over it: the land's elevation settles it"
    )
    msgs = [
        f"{k} of {int(total.loc[p])} {word}s {plural(k, 'is', 'are')} up to {ft_vs(d, limit)} "
        f"at sea level from the nearest other {word}, {d * a:,.2f}-{d * b:,.2f} ft on the "
        f"ground at {w}: not more than {ft(limit)} is asked, and the farthest is {verdict}"
        for p, k, d, a, b, w in zip(
            parcel.tolist(),
            n.tolist(),
            far.tolist(),
            lo.tolist(),
            hi.tolist(),
            m.ground.where[parcel].tolist(),
            strict=True,
        )
    ]
    return findings_frame(
        parcel, f"nearest_{kind}", level, rule.clause, msgs, far.to_numpy(), limit, "ft", n
    )


def _around(rule: NearestRule, m: Measurements) -> pd.DataFrame:
    """``around``: the marks are placed "around the area where entry is denied" (Indiana
    35-43-2-2(c)(4)). Each
    mark near another says nothing of where the marks stand: two marks 50 ft apart at one
    corner pass the nearest rule. A stretch of boundary longer than the largest figure with no
    mark of the rule's kinds (or a ring of the parcel with none) leaves it open whether the
    marks go around the area: ``uncertain`` (clusters of marks around it may satisfy the
    words; a court decides), never a pass."""
    prep, asg = m.prep, m.asg
    rings = prep.rings
    mk = m.am[m.mask(rule.kinds)]
    if not len(mk):
        return empty_findings()
    reach = max(float(getattr(rule, f"{k}_ft")) for k in rule.kinds)
    gaps = ring_gaps(asg.ring[mk], asg.position_ft[mk], rings.length_ft)
    parcel = rings.parcel[gaps.ring]
    marked = np.bincount(asg.parcel[mk], minlength=m.n) > 0
    acc = apart_accuracy(m.settings.accuracy_ft)
    # (on the ground: a stretch that may be longer than the figure there is one)
    long = (against_max(gaps.length_ft, reach, acc, m.scale(parcel)) != OK) & marked[parcel]
    if not long.any():
        return empty_findings()
    df = pd.DataFrame({"parcel": parcel[long], "length_ft": gaps.length_ft[long]})
    g = df.groupby("parcel")["length_ft"]
    n, worst, total = g.size(), g.max(), g.sum()
    what = marker_words(rule.kinds)
    msgs = [
        f"{k} {plural(k, 'stretch', 'stretches')} of boundary longer than {ft(reach)} with no "
        f"{what} ({ft(t)} in all; the longest {ft(w)}): the marks must be placed around the "
        "area where entry is denied, and whether these are is for a person to judge"
        for k, w, t in zip(n.tolist(), worst.tolist(), total.tolist(), strict=True)
    ]
    return findings_frame(
        n.index,
        "nearest_around",
        "uncertain",
        rule.clause,
        msgs,
        worst.to_numpy(dtype=float),
        reach,
        "ft",
        n.to_numpy(),
    )


def summary(rule: NearestRule) -> dict:
    return {f"nearest_{k}_ft": getattr(rule, f"{k}_ft") for k in rule.kinds}


register(
    Kind(
        "nearest",
        NearestRule,
        parse,
        "each marker near the nearest other of its kind",
        measure=measure,
        counts_markers=True,
        summary=summary,
    )
)
