"""When: rules that apply only on some land (Arkansas: paint marks at each point of entry and on
posts only on land other than forest; North Dakota: signs at the gates, not along the line, on
land entirely enclosed by a fence; New Mexico: the 500 ft spacing only where the land is not
fenced; California 554.1: the 600 ft spacing only over one acre or one mile), or a way of posting
that serves only some land (Nevada's 1,000 ft on land used for agriculture or grazing).

A profile's ``[when]`` table has one sub-table per rule it makes conditional, named as the
rule's findings are (``access``, ``spacing``, ``paint``, ``paint_support``; a table's name covers
every check of the table), or ``profile`` for the whole way of posting::

    [when.access]
    land = ["not forest"]          # every condition listed must hold (combine = "any": one)
    clause = "Ark. Code Ann. 18-11-405(2)(C)"

Conditions, each per parcel, from the context layers and parcel attributes already read:

======================  =====================================================================
``forest``              at least half the parcel's area is forest (land-cover layer), or the
                        parcel attribute says so (``landcover_field``)
``agricultural``        cultivated (``cultivated_where``), or at least half its area is
                        land cover naming cultivation, agriculture, farms, pasture, hay,
                        grazing, range, orchards or crops (``Pasture/Hay``, ``Cultivated
                        Crops``, ``Orchards/Vineyards``: :data:`AGRICULTURAL_WORDS`), and
                        not negated (``Non-agricultural``) (land-cover layer)
``fenced``              fenced all round, by any fence of the fence layer (water excepted)
``acres_over``,         the parcel's area is more than / at most so many acres
``acres_at_most``
``longest_over_ft``,    its longest lineal dimension (the greatest distance between two of its
``longest_at_most_ft``  points) is more than / at most so many feet
======================  =====================================================================

Each of ``forest``, ``agricultural``, ``fenced`` may be written ``not forest``. Where a
condition does not hold, the rule's violations become notes ("not required: ..."), its gaps,
corners and access points are not required; where it cannot be told (no land cover, no fence
layer), its violations become ``uncertain``, saying what would settle it. A whole way of posting
(``profile``) that does not serve the land, or that the data cannot show serves it, gets a
violation that says so: a more lenient way of posting is not granted on land it may not serve,
and another profile, given as an alternative, judges the parcel.

The land's elevation not given, its acres and lengths are measured at sea level and are ``lo``
to ``hi`` times as long on the ground (areas by the squares: :mod:`posting.elevation`). A
threshold is met where it is at every elevation of the band, not met where at none, and
unknown between: the rule is judged both ways, as where the land cover is unknown (its
violations ``uncertain``, with words that say the land's elevation settles it), never a false
pass. A whole way of posting for such land alone is ``uncertain`` there (as where a fence may
or may not enclose the land), not a violation: the data were given, the elevation was not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import shapely

from posting.checks import acres_at_most, acres_may_be_at_most
from posting.checks.land import share_of_area
from posting.cover import NEGATED
from posting.kinds import REGISTRY, Kind, Part, register
from posting.kinds.points import POINT_STATUS
from posting.kinds.spacing import GAP_STATUS
from posting.land import fence_cover, layer_in_group
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import findings_frame

__all__ = [
    "AGRICULTURAL",
    "AGRICULTURAL_WORDS",
    "CLASSES",
    "Gate",
    "WhenRule",
    "land_classes",
    "longest_over",
]

CLASSES = ("forest", "agricultural", "fenced")
"""The classes of land a condition can name (each also as ``not <class>``)."""

AGRICULTURAL = (
    "cultivated",
    "agricultural",
    "agriculture",
    "farm",
    "farmland",
    "pasture",
    "grazing",
    "range",
    "rangeland",
    "orchard",
    "crop",
    "cropland",
)
"""Land-cover values read as land used for agriculture or grazing (and values that name them
among other words: :data:`AGRICULTURAL_WORDS`)."""

AGRICULTURAL_WORDS = re.compile(
    r"\b(cultivated|cultivation|agricultur(e|al)|farms?|farmland|pastures?|pastureland|hay|"
    r"grazing|grazed|range|rangeland|orchards?|vineyards?|crops?|cropland)\b"
)
"""A land-cover value that names land used for agriculture or grazing among other words: the
National Land Cover Database's "Pasture/Hay" (81) and "Cultivated Crops" (82), a state layer's
"Orchards/Vineyards" or "AGRICULTURAL LAND", searched in its case-folded text. Read by the
exact words alone, such land was "not agricultural", and a way of posting for farm land alone
(Nevada's) was refused on it."""


def _farm_words(values: pd.Series) -> list[str]:
    """The distinct case-folded ``values`` that name land used for agriculture or grazing
    among other words (:data:`AGRICULTURAL_WORDS`), none of them negated."""
    return [
        v
        for v in values.dropna().unique()  # (a blank value is NaN, not text)
        if AGRICULTURAL_WORDS.search(v) and not NEGATED.search(v)
    ]


_THRESHOLDS = ("acres_over", "acres_at_most", "longest_over_ft", "longest_at_most_ft")
_HOW = {
    "forest": ("forest land", "land other than forest land"),
    "agricultural": (
        "land used for agriculture or grazing",
        "land not used for agriculture or grazing",
    ),
    "fenced": ("land fenced all round", "land not fenced all round"),
}
_SETTLE = {
    "forest": "{option:landcover} or {option:landcover_field}",
    "agricultural": "{option:cultivated_where} or {option:landcover}",
    "fenced": "{option:fences}",
}


@dataclass(frozen=True)
class Gate(Rule):
    """One rule (``rule``) that applies only where the land meets the conditions."""

    rule: str = ""
    land: tuple[str, ...] = ()
    acres_over: float | None = None
    acres_at_most: float | None = None
    longest_over_ft: float | None = None
    longest_at_most_ft: float | None = None
    combine: str = "all"

    def words(self) -> str:
        """The conditions in words: ``land other than forest land``, ``more than 1 acres or a
        lineal dimension over 5,280 ft``."""
        bits = []
        for c in self.land:
            neg, cls = _split(c)
            bits.append(_HOW[cls][neg])
        for key, text in (
            ("acres_over", "more than {:g} acres"),
            ("acres_at_most", "at most {:g} acres"),
            ("longest_over_ft", "a lineal dimension over {:,.0f} ft"),
            ("longest_at_most_ft", "no lineal dimension over {:,.0f} ft"),
        ):
            v = getattr(self, key)
            if v is not None:
                bits.append(text.format(v).replace(" 1 acres", " 1 acre"))
        return (" or " if self.combine == "any" else " and ").join(bits)


@dataclass(frozen=True)
class WhenRule(Rule):
    """Rules of the profile that apply only on some land (:class:`Gate`, one per rule)."""

    gates: tuple[Gate, ...] = ()


def _split(condition: str) -> tuple[bool, str]:
    words = condition.split()
    return (len(words) == 2 and words[0] == "not", words[-1])


def parse(t: Reader, kinds: tuple[str, ...]) -> WhenRule:
    gates = []
    for name in list(t.data):
        sub = t.table(name)
        known = name == "profile" or any(name == k or name.startswith(f"{k}_") for k in REGISTRY)
        if sub is None or not known or name == "when":
            raise t.error(
                name, "must be a rule's table (when.access, when.spacing, ...) or when.profile"
            )
        land = sub.strings("land") or ()
        for c in land:
            neg, cls = _split(c)
            if cls not in CLASSES or (len(c.split()) == 2 and not neg) or len(c.split()) > 2:
                raise sub.error(
                    "land",
                    f"has {c!r}; the conditions are "
                    + ", ".join(CLASSES)
                    + " (each also as 'not ...')",
                )
        limits = {k: sub.positive(k) for k in _THRESHOLDS}
        common = sub.common()
        combine = sub.choice("combine", ("all", "any")) or "all"
        sub.finish()  # a condition of no known name (`zoning = "R1"`) is named first
        if not land and all(v is None for v in limits.values()):
            raise sub.error("land", "or a threshold (acres_over, longest_over_ft, ...) is required")
        gates.append(Gate(**common, rule=name, land=land, combine=combine, **limits))
    if not gates:
        raise t.error("profile", "or another rule's sub-table is required")
    clause = "; ".join(dict.fromkeys(g.clause for g in gates))
    return WhenRule(clause=clause, verified=all(g.verified for g in gates), gates=tuple(gates))


# -- the land, per parcel ------------------------------------------------------------------------


def longest_ft(geom: Any) -> float:
    """The longest lineal dimension of one geometry (feet): the greatest distance between two
    vertices of its convex hull (NaN: None or empty). For the words of one parcel's finding;
    :func:`longest_over` compares many with a threshold.

    >>> longest_ft(shapely.box(0, 0, 3000, 4000))
    5000.0
    """
    if geom is None or shapely.is_empty(geom):
        return float("nan")
    return float(np.sqrt(_diameter2(geom)))


def _diameter2(geom: Any) -> float:
    """The squared greatest distance between two vertices of ``geom``'s convex hull (a
    geometry that is neither None nor empty)."""
    xy = shapely.get_coordinates(shapely.convex_hull(geom))
    return float(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=-1).max())


def longest_over(geoms: np.ndarray, threshold_ft: float | np.ndarray) -> np.ndarray:
    """For each geometry, True where two of its points are more than ``threshold_ft`` apart
    (its diameter exceeds it; None/empty: False); ``threshold_ft`` one for all, or one per
    geometry.

    The diameter ``D`` of a shape lies between ``sqrt(3) R`` and ``2 R``, ``R`` the radius of
    its smallest enclosing circle; only shapes in that band have their convex hull's vertices
    compared pair by pair.

    >>> longest_over(np.array([shapely.box(0, 0, 3000, 4000), shapely.box(0, 0, 30, 40)]),
    ...              4999.0).tolist()
    [True, False]
    """
    geoms = np.asarray(geoms, dtype=object)
    out = np.zeros(len(geoms), dtype=bool)
    t = np.broadcast_to(np.asarray(threshold_ft, dtype=float), geoms.shape)
    ok = ~(shapely.is_missing(geoms) | shapely.is_empty(geoms))
    if not ok.any():
        return out
    r = np.zeros(len(geoms))
    r[ok] = shapely.minimum_bounding_radius(geoms[ok])
    out[ok & (np.sqrt(3.0) * r > t)] = True
    band = np.flatnonzero(ok & (np.sqrt(3.0) * r <= t) & (2.0 * r > t))
    for i in band.tolist():  # the few shapes whose diameter is close to the threshold
        out[i] = _diameter2(geoms[i]) > t[i] ** 2
    return out


def land_classes(m: Measurements, needed: Iterable[str] = CLASSES) -> dict[str, np.ndarray]:
    """Per parcel and class of land (:data:`CLASSES`): 1.0 where the land is of it, 0.0
    where not, NaN where the data cannot tell; measured only for the classes ``needed`` (the
    others NaN): whether land is fenced all round is an overlay of the fences' reach with every
    ring, which a gate on agricultural land alone has no use for."""
    prep, ctx = m.prep, m.context
    n = m.n
    needed = set(needed)
    out = {c: np.full(n, np.nan) for c in CLASSES}
    cover = bool(needed & {"forest", "agricultural"})
    if cover and ctx.landcover is not None:
        values = pd.Series(ctx.landcover.values, dtype=object).astype(str).str.casefold()
        forest_v = (values == "forest").to_numpy()
        farm_v = values.isin(AGRICULTURAL).to_numpy() | values.isin(_farm_words(values)).to_numpy()
        for g in range(len(prep.crss)):
            sel = np.flatnonzero(prep.group == g)
            near, polys = layer_in_group(ctx.landcover, prep, g, 0.0)
            geoms = prep.geometry_ft[sel]
            out["forest"][sel] = share_of_area(geoms, polys[forest_v[near]]) >= 0.5
            out["agricultural"][sel] = share_of_area(geoms, polys[farm_v[near]]) >= 0.5
    elif cover and ctx.parcel_landcover is not None:
        out["forest"] = ctx.forest_by_parcel()
    cult = m.land.cultivated
    if cult is not None and ctx.cultivated is not None:  # an attribute: known per parcel
        known = pd.notna(pd.Series(cult, dtype=object)).to_numpy()
        yes = pd.Series(cult, dtype=object).fillna(False).astype(bool).to_numpy()
        farm = out["agricultural"]
        farm[known & yes] = 1.0
        farm[known & ~yes & np.isnan(farm)] = 0.0
    if m.land.fence_lines is not None and "fenced" in needed:
        fenced, _, _, maybe = fence_cover(
            prep, m.land, None, m.settings.tolerance_ft, True, accuracy_ft=m.settings.accuracy_ft
        )
        out["fenced"] = np.where(maybe > 0, np.nan, fenced.astype(float))  # maybe: unknown
        out[FENCED_MAYBE] = maybe > 0
    return out


FENCED_MAYBE = "fenced (maybe)"
"""The key of :func:`land_classes`'s parcels that the fences given may fence all round or not
(within the stated survey accuracy only, or not round a hole: :func:`posting.land.fence_cover`)."""

_MAYBE_WORDS = (
    "it is fenced all round only within the stated survey accuracy, or not round its holes"
)


def _fence_doubt(gate: Gate, m: Measurements, classes: dict[str, np.ndarray]) -> np.ndarray:
    """Per parcel: True where whether the gate's conditions hold turns on a fence that may or
    may not fence the land all round (the data was given, the answer is uncertain), and on
    nothing unknown besides."""
    maybe = classes.get(FENCED_MAYBE)
    if maybe is None or not maybe.any() or all(_split(c)[1] != "fenced" for c in gate.land):
        return np.zeros(m.n, dtype=bool)
    either = []
    for v in (1.0, 0.0):
        resolved = {**classes, "fenced": np.where(maybe, v, classes["fenced"])}
        either.append(_holds(gate, m, resolved))
    yes, no = either
    return ~np.isnan(yes) & ~np.isnan(no) & (yes != no)


def _thresholds(
    gate: Gate,
    m: Measurements,
    scale: tuple[Any, Any],
    area_scale: tuple[Any, Any] | None = None,
) -> list[np.ndarray]:
    """Per threshold of the gate and parcel: 1.0 where the land meets it, 0.0 where not, NaN
    where it does at some of its elevations and not at others (its lengths on the ground
    ``lo`` to ``hi`` times as measured, areas by the squares of ``area_scale``'s, ``scale``'s
    where not given; (1, 1): as measured)."""
    if area_scale is None:
        area_scale = scale
    prep = m.prep
    acres, geoms = prep.area_acres, prep.geometry_ft
    lo, hi = (np.broadcast_to(np.asarray(x, dtype=float), acres.shape) for x in scale)
    a_lo, a_hi = (np.broadcast_to(np.asarray(x, dtype=float), acres.shape) for x in area_scale)
    known = ~np.isnan(acres)

    def over(t: float) -> tuple[np.ndarray, np.ndarray]:  # (surely over, perhaps over)
        sure = ~acres_may_be_at_most(acres, t, (a_lo, a_hi)) & known  # over at the lowest land
        return sure, ~acres_at_most(acres, t, (a_lo, a_hi)) & known  # over at the highest

    def longest(t: float) -> tuple[np.ndarray, np.ndarray]:
        return longest_over(geoms, t / lo), longest_over(geoms, t / hi)

    values = []
    for key, fn, yes in (
        ("acres_over", over, True),  # either acre
        ("acres_at_most", over, False),
        ("longest_over_ft", longest, True),
        ("longest_at_most_ft", longest, False),
    ):
        t = getattr(gate, key)
        if t is None:
            continue
        sure, perhaps = fn(t)
        v = np.where(sure, 1.0, np.where(perhaps, np.nan, 0.0))
        values.append(v if yes else 1.0 - v)
    return values


def _holds(
    gate: Gate,
    m: Measurements,
    classes: dict[str, np.ndarray],
    scale: tuple[Any, Any] | None = None,
) -> np.ndarray:
    """Per parcel: 1.0 where the gate's conditions hold, 0.0 where not, NaN unknown (by the
    data, or by the land's elevation: ``scale``, the ground's band, :meth:`Measurements.scale`
    of every parcel by default)."""
    values = []
    for c in gate.land:
        neg, cls = _split(c)
        v = classes[cls]
        values.append(np.where(np.isnan(v), np.nan, (v == 1.0) != neg))
    area_scale = scale
    if scale is None:
        scale, area_scale = m.scale(np.arange(m.n)), m.area_scale(np.arange(m.n))
    values += _thresholds(gate, m, scale, area_scale)
    v = np.vstack(values)
    if gate.combine == "any":
        out = np.where((v == 1.0).any(axis=0), 1.0, np.where(np.isnan(v).any(axis=0), np.nan, 0.0))
    else:
        out = np.where((v == 0.0).any(axis=0), 0.0, np.where(np.isnan(v).any(axis=0), np.nan, 1.0))
    return out


def _unknown(gate: Gate) -> str:
    settle = [_SETTLE[_split(c)[1]] for c in gate.land]
    return ", ".join(dict.fromkeys(settle))


def remark(rule: WhenRule, profile, m: Measurements, part: Part) -> None:
    """Each gated rule's findings where the land does not meet its conditions (notes) or may
    not (uncertain); a whole way of posting that does not serve the land (a violation). Per
    parcel, whether each gated rule applies (1.0, 0.0, NaN unknown) is kept in ``part.gated``:
    the plan reads it (a bare lot has no finding of the rule to tell it)."""
    classes = land_classes(m, {_split(c)[1] for gate in rule.gates for c in gate.land})
    valid = m.prep.group >= 0
    f = pd.concat(part.findings, ignore_index=True)
    for gate in rule.gates:
        holds = _holds(gate, m, classes)
        part.gated[gate.rule] = holds  # for the plan: the rule's markers wanted here or not
        doubt = _fence_doubt(gate, m, classes)
        # unknown only by the land's elevation (not given): the thresholds are met at some of
        # its elevations and not at others, and the data tell the rest
        by_ground = np.isnan(holds) & ~np.isnan(_holds(gate, m, classes, (1.0, 1.0)))
        words = gate.words()
        if gate.rule == "profile":
            no = np.flatnonzero(valid & (holds == 0.0))
            maybe_fenced = np.flatnonzero(valid & doubt)
            maybe_ground = np.flatnonzero(valid & by_ground & ~doubt)
            unsure = np.flatnonzero(valid & np.isnan(holds) & ~doubt & ~by_ground)
            new = [f]
            if len(no):
                new.append(_whole(no, "violation", gate, "this land is not"))
            if len(maybe_fenced):  # the data was given: it may serve the land or not
                why = f"whether it is {words}, the data cannot tell: {_MAYBE_WORDS}"
                new.append(_whole(maybe_fenced, "uncertain", gate, why))
            if len(maybe_ground):  # it serves the land at some of its elevations
                for p in maybe_ground.tolist():  # (each parcel its own words: few)
                    why = _ground_words(gate, m, p).replace("which it is", "the land is", 1)
                    new.append(_whole(np.array([p]), "uncertain", gate, why))
            if len(unsure):  # a way of posting is not granted on land it may not serve
                new.append(
                    _whole(
                        unsure,
                        "violation",
                        gate,
                        f"whether the land is {words} is unknown (give {_unknown(gate)})",
                    )
                )
            f = pd.concat(new, ignore_index=True)
            continue
        rule_col = f["rule"].astype(str)
        mine = (rule_col == gate.rule) | rule_col.str.startswith(f"{gate.rule}_")
        if gate.rule == "spacing_by_kind":
            mine |= rule_col == "spacing"
        parcel = f["parcel"].to_numpy(dtype=np.int64)
        at = holds[parcel] if len(parcel) else np.empty(0)
        serious = f["level"].isin(["violation", "uncertain"]).to_numpy()
        off = (mine & serious & (at == 0.0)).to_numpy()
        f.loc[off, "message"] = [
            f"(not required: only on {words}) {x}" for x in f.loc[off, "message"]
        ]
        f.loc[off, "level"] = "note"
        maybe = (mine & (f["level"] == "violation") & np.isnan(at)).to_numpy()
        fence_doubt = doubt[parcel[maybe]] if len(parcel) else np.zeros(0, dtype=bool)
        ground = by_ground[parcel[maybe]] if len(parcel) else np.zeros(0, dtype=bool)
        f.loc[maybe, "message"] = [
            f"(required only on {words}, {_ground_words(gate, m, p)}) {x}"
            if g and not d
            else f"(required only on {words}, which the data cannot tell: "
            f"{_MAYBE_WORDS if d else 'give ' + _unknown(gate)}) {x}"
            for x, d, g, p in zip(
                f.loc[maybe, "message"], fence_doubt, ground, parcel[maybe].tolist(), strict=True
            )
        ]
        f.loc[maybe, "level"] = "uncertain"
        _tables(part, gate.rule, holds == 0.0)
    part.findings[:] = [f]


def _ground_words(gate: Gate, m: Measurements, p: int) -> str:
    """Why parcel ``p`` may meet the gate's thresholds or not: its land's elevation, not
    given (its figures on the ground at its states' lowest and highest points: its acres, its
    longest dimension, as the gate's thresholds ask)."""
    lo, hi = (float(np.asarray(x, dtype=float).reshape(-1)[0]) for x in m.scale(np.array([p])))
    a_lo, a_hi = (
        float(np.asarray(x, dtype=float).reshape(-1)[0]) for x in m.area_scale(np.array([p]))
    )
    where = m.ground.where[p]
    # the figure of each threshold the band leaves open (over at one end, not at the other)
    a = float(m.prep.area_acres[p])
    d = longest_ft(m.prep.geometry_ft[p])
    acres = [t for t in (gate.acres_over, gate.acres_at_most) if t is not None]
    lengths = [t for t in (gate.longest_over_ft, gate.longest_at_most_ft) if t is not None]
    open_acres = any(
        acres_at_most(np.array([a]), t, (a_lo, a_lo))[0]
        != acres_at_most(np.array([a]), t, (a_hi, a_hi))[0]
        for t in acres
    )
    open_length = any((d * lo > t) != (d * hi > t) for t in lengths)
    if not (open_acres or open_length):  # (not expected: the band left a threshold open)
        open_acres, open_length = bool(acres), bool(lengths)
    figures = []
    if open_acres:
        figures.append(
            f"land of {a:.4f} acres at sea level is {a * a_lo * a_lo:.4f}-{a * a_hi * a_hi:.4f} "
            "acres"
        )
    if open_length:
        figures.append(
            f"its longest dimension of {d:,.2f} ft at sea level is {d * lo:,.2f}-{d * hi:,.2f} ft"
        )
    figure = " and ".join(figures) + f" on the ground at {where}"
    return (
        f"which it is at some of its elevations and not at others: {figure}; the land's "
        "elevation (--elevation-ft) settles it"
    )


def _whole(parcels: np.ndarray, level: str, gate: Gate, why: str) -> pd.DataFrame:
    return findings_frame(
        parcels,
        "when",
        level,
        gate.clause,
        f"this way of posting serves only {gate.words()}: {why}",
        np.nan,
        np.nan,
        None,
        1,
    )


def _tables(part: Part, rule: str, off: np.ndarray) -> None:
    """Gaps, corners and access points of a rule not required on a parcel: so marked (the map
    draws none of them and the plan places nothing for them)."""
    table = {
        "spacing": "gaps",
        "spacing_by_kind": "gaps",
        "corners": "corners",
        "access": "access",
    }.get(rule)
    t = part.tables.get(table) if table else None
    if t is None or not len(t):
        return
    hit = off[t["parcel"].to_numpy(dtype=np.int64)]
    if not hit.any():
        return
    t = t.copy()
    status = np.array(t["status"].astype(object), dtype=object)
    if table == "gaps":
        status[hit] = "ok"
        t["status"] = pd.Categorical(status, categories=GAP_STATUS)
        t.loc[hit, "limit_ft"] = np.nan
    else:
        status[hit] = "not required"
        t["status"] = pd.Categorical(status, categories=POINT_STATUS)
        if "marker_shared" in t:
            t["marker_shared"] = t["marker_shared"].fillna(False).to_numpy(dtype=bool) & ~hit
    part.tables[table] = t


def summary(rule: WhenRule) -> dict:
    return {"when": {g.rule: g.words() for g in rule.gates}}


register(Kind("when", WhenRule, parse, "rules for some land only", remark=remark, summary=summary))
