"""Facts about the land that the rules may need: water along the boundary, dwellings, fences,
cultivation, easements. Measured once per check, for every profile.

Context layers come in their own CRS; each is projected into the working frame of the parcels
it is near (see :func:`layer_in_group`), and measured with the pure functions of
:mod:`posting.checks.land`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import shapely

from posting.checks import EPSILON_FT, FOOT_SLACK
from posting.checks.land import (
    FENCE_END_FT,
    FENCE_JOIN_FT,
    Stretches,
    boundary_in_zone,
    fence_zone,
    share_of_area,
    zone,
)
from posting.crs import (
    FARTHEST_FT,
    WGS84,
    WorkingCRS,
    bowed,
    group_box,
    lon_meets,
    lonlat_margin_deg,
)
from posting.dissolve import meeting, tile
from posting.io import FeatureLayer, polygons_not_valid
from posting.prepare import PreparedParcels

if TYPE_CHECKING:
    from pyproj import CRS

__all__ = [
    "ON_LINE_FT",
    "PER_ROW",
    "REACH_DEG",
    "SHARE_HAIR",
    "WATER_HAIR_FT",
    "LandFacts",
    "dwellings_on_parcels",
    "fence_heights_ft",
    "frame_reach",
    "in_frame",
    "land_facts",
    "layer_in_group",
    "properties_context",
    "usable",
]


REACH_DEG = 10.0
"""How far beyond its area (a State Plane or UTM zone's area of use; a local transverse
Mercator's meridian) a working frame holds a context feature as it is: the part of a feature
reaching farther (an ocean, a coastline, a river as one polygon across a continent) is cut off
first (:func:`in_frame`)."""


@lru_cache(maxsize=64)
def frame_reach(frame: WorkingCRS) -> tuple[float, float, float, float] | None:
    """The (west, south, east, north) in degrees within which ``frame`` holds a feature's
    vertices as they are: its area of use, or its central meridian, and :data:`REACH_DEG`
    either side; None where that crosses the antimeridian (features are then left whole).

    >>> from posting.crs import local_tm
    >>> frame_reach(local_tm(-81.1149))
    (-91.115, -90.0, -71.115, 90.0)
    """
    area = frame.crs.area_of_use
    if area is not None and area.west <= area.east:
        w, s, e, n = area.west, area.south, area.east, area.north
    else:
        op = frame.crs.coordinate_operation
        params = {p.name: p.value for p in op.params} if op is not None else {}
        lon0 = params.get("Longitude of natural origin", params.get("Longitude of origin"))
        if lon0 is None:
            return None
        w = e = float(lon0)
        s, n = -90.0, 90.0
    w, e = w - REACH_DEG, e + REACH_DEG
    if w < -180 or e > 180:
        return None
    return (round(w, 9), max(s - REACH_DEG, -90.0), round(e, 9), min(n + REACH_DEG, 90.0))


def in_frame(
    geoms: np.ndarray, lonlat_bounds: np.ndarray, crs: CRS, frame: WorkingCRS
) -> np.ndarray:
    """``geoms`` (in ``crs``, their boxes in degrees ``lonlat_bounds``) in ``frame``, in feet,
    each cut first at the frame's reach (:func:`frame_reach`) where it reaches beyond.

    A transverse Mercator frame projects a vertex a quarter of the globe away to infinity (the
    feature was then left out, an ocean's shore with it) and one a few tens of degrees away
    where its series no longer holds; a feature cut at the reach keeps, within it, its
    vertices and edges as they are. The cut is made in degrees (a projected layer's features
    that reach beyond taken to WGS 84 first), the same in every partition of a run (the reach
    is the frame's, not its parcels'); the other features are projected as they are.

    Examples
    --------
    >>> from posting.crs import local_tm
    >>> river = shapely.box(-81.2, 28.7, 60.0, 28.71)
    >>> frame = local_tm(-81.1)
    >>> cut = in_frame(np.array([river]), np.array([river.bounds]), WGS84, frame)
    >>> lon, lat = frame.ft_to_lonlat(*shapely.get_coordinates(cut[0]).T)
    >>> round(float(lon.min()), 6), round(float(lon.max()), 6)
    (-81.2, -71.1)
    """
    out = frame.geoms_to_ft(geoms, crs)
    reach = frame_reach(frame)
    if reach is None or not len(geoms):
        return out
    w, s, e, n = reach
    b = lonlat_bounds
    placed = np.isfinite(b).all(axis=1)  # (a feature off the Earth: :func:`usable` drops it)
    out_of_reach = (b[:, 0] < w) | (b[:, 1] < s) | (b[:, 2] > e) | (b[:, 3] > n)
    beyond = np.flatnonzero(placed & out_of_reach)
    if not len(beyond):
        return out
    far = np.array(geoms[beyond], dtype=object, copy=True)
    if not crs.is_geographic:
        from posting.crs import to_lonlat

        xy, which = shapely.get_coordinates(far, return_index=True)
        with np.errstate(invalid="ignore"):
            lon, lat = to_lonlat(xy[:, 0], xy[:, 1], crs)
        # a vertex its CRS cannot place: the feature left out (before its ring, its first and
        # last vertex NaN, is rebuilt: GEOS refuses a ring whose ends differ)
        lost = which[~(np.isfinite(lon) & np.isfinite(lat))]
        far[lost] = None
        kept = ~np.isin(which, lost)
        far, crs = shapely.set_coordinates(far, np.column_stack([lon[kept], lat[kept]])), WGS84
    out = np.array(out, dtype=object, copy=True)
    with np.errstate(invalid="ignore"):
        # a polygon GEOS calls invalid (a ring collapsed to a line) made valid first: GEOS's
        # cut takes valid geometries only
        bad = polygons_not_valid(far)
        far[bad] = shapely.make_valid(far[bad])
        out[beyond] = frame.geoms_to_ft(shapely.clip_by_rect(far, w, s, e, n), crs)
    return out


def layer_in_group(layer: FeatureLayer, prep: PreparedParcels, g: int, margin_ft: float):
    """Indices and working-frame geometry of the features near group ``g``'s parcels.

    The geometries are those GEOS can measure (:func:`usable`), cut at the frame's reach
    (:func:`in_frame`); a geometry collection comes as its parts, each with its feature's
    index (which then appears once per part).
    """
    sel = np.flatnonzero(prep.group == g)
    if not len(sel):  # none of these parcels in this frame (a partition of a wider layer)
        none = np.empty(0, dtype=np.int64)
        return none, prep.crss[g].geoms_to_ft(layer.geometry[none], layer.crs)
    # (as the frame draws them: long edges bow; the short way round near 180 degrees)
    west, south, east, north = group_box(prep.bounds_lonlat[sel])
    pad = lonlat_margin_deg(margin_ft, south, north) + 1e-6
    fb = layer.lonlat_bounds()
    bb = bowed(fb)
    near = np.flatnonzero(
        lon_meets(bb[:, 0], bb[:, 2], west - pad, east + pad)
        & (bb[:, 3] >= south - pad)
        & (bb[:, 1] <= north + pad)
    )
    geoms = usable(in_frame(layer.geometry[near], fb[near], layer.crs, prep.crss[g]))
    while (collections := shapely.get_type_id(geoms) == 7).any():
        parts, owner = shapely.get_parts(geoms[collections], return_index=True)
        at = np.r_[np.flatnonzero(~collections), np.flatnonzero(collections)[owner]]
        order = np.argsort(at, kind="stable")  # in the layer's order, parts in theirs
        near = near[at[order]]
        geoms = np.concatenate([geoms[~collections], parts])[order]
    return near, geoms


def usable(geoms: np.ndarray) -> np.ndarray:
    """Context geometries GEOS can measure against the parcels: an invalid polygon (a bowtie,
    a ring crossing itself) made valid, one with a coordinate that is not finite or is farther
    than :data:`posting.crs.FARTHEST_FT` from the working frame's origin left out as None. A
    line of one point repeated, which GEOS calls invalid and measures, stays a line (made
    valid, it would be a point: a road taken for a gate).

    Examples
    --------
    >>> bowtie = shapely.Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])
    >>> absurd = shapely.LineString([(0, 0), (-1e300, 0)])
    >>> stub = shapely.LineString([(1, 1), (1, 1)])
    >>> fixed = usable(np.array([bowtie, absurd, None, stub], dtype=object))
    >>> fixed[0].geom_type, fixed[0].area, fixed[1:3].tolist(), fixed[3].geom_type
    ('MultiPolygon', 2.0, [None, None], 'LineString')
    """
    xy, which = shapely.get_coordinates(geoms, return_index=True)
    with np.errstate(invalid="ignore"):
        far = np.unique(which[~(np.abs(xy) <= FARTHEST_FT).all(axis=1)])
    bad = polygons_not_valid(geoms)  # (and collections)
    bad[far] = False
    if not len(far) and not bad.any():
        return geoms
    geoms = geoms.copy()
    geoms[far] = None
    geoms[bad] = shapely.make_valid(geoms[bad])
    return geoms


@dataclass
class LandFacts:
    """Per parcel (or merged property) and per boundary stretch.

    Attributes
    ----------
    water
        Stretches of boundary formed by water (``Stretches`` over all rings), or None without a
        water layer.
    water_crossings
        The shorter stretches (under three times the tolerance) where the boundary meets the
        water itself: where a creek (a line, or a polygon narrower than the tolerance) crosses
        the line. Not frontage (``water``), but where a profile wants markers on both banks of
        water crossing the boundary (Montana, Oregon), these are such places.
    dwelling
        Per parcel: True with a dwelling, False without, None unknown (no layer or attribute).
    dwelling_maybe
        Per parcel: True where a dwelling of the layer stands on its line with another parcel
        (:func:`dwellings_on_parcels`): on it or on the other, the data cannot tell.
    cultivated
        Per parcel: True (all its land), False (none of it), or None: unknown, or partly
        cultivated (``cultivated_share`` tells).
    cultivated_share
        Per parcel, the share of its land that is cultivated (0 to 1, NaN unknown): of its
        area by the land cover, or of its lots (a merged property's, by the attribute).
    cultivated_by
        What the share is of: ``area`` (the land cover) or ``lots`` (the attribute).
    fence_lines
        Per group, the fence lines in working feet and their heights (ft, NaN unknown).
    easements
        Stretches of boundary inside easements, with ``holder`` per stretch.
    recorded_acres
        Per parcel, the acreage the attributes record (NaN where none).
    fence_covers
        :func:`fence_cover`'s results by its settings, kept: every profile with a fence rule,
        the land-class gates and the shared-line bounds (:mod:`posting.ambiguity`) measure the
        same fences (read only).
    fence_reach
        The fences' reach (:func:`posting.checks.land.fence_zone`) by working-CRS group, the
        height counted and the distance, kept: the fence covers with and without the water
        excepted (:mod:`posting.kinds.fence`) reach alike. Not kept by :meth:`take`.
    """

    water: Stretches | None = None
    water_crossings: Stretches | None = None
    dwelling: np.ndarray | None = None
    dwelling_maybe: np.ndarray | None = None
    dwelling_source: str = ""
    cultivated: np.ndarray | None = None
    cultivated_share: np.ndarray | None = None
    cultivated_by: str = ""
    fence_lines: dict[int, tuple[np.ndarray, np.ndarray]] | None = None
    easements: Stretches | None = None
    easement_holder: np.ndarray | None = None
    recorded_acres: np.ndarray | None = None
    notes: list[str] = field(default_factory=list)
    fence_covers: dict[tuple, tuple] = field(default_factory=dict, repr=False)
    fence_reach: dict[tuple, np.ndarray] = field(default_factory=dict, repr=False)

    def take(self, parcels: np.ndarray, ring_new: np.ndarray) -> LandFacts:
        """The facts of ``parcels`` (places, ascending) alone, their rings renumbered by
        ``ring_new`` (per old ring, its new number, -1 for those left out): each per-parcel
        value and per-stretch row of theirs, in order, with the fence covers already measured
        (:func:`posting.measure.restrict`)."""

        def of(values: np.ndarray | None) -> np.ndarray | None:
            return None if values is None else np.asarray(values)[parcels]

        easements, holder = _stretches_take(self.easements, ring_new)
        covers = {
            key: (
                fenced[parcels],
                unfenced[parcels],
                _stretches_take(gaps, ring_new)[0],
                maybe[parcels],
            )
            for key, (fenced, unfenced, gaps, maybe) in self.fence_covers.items()
        }
        return LandFacts(
            water=_stretches_take(self.water, ring_new)[0],
            water_crossings=_stretches_take(self.water_crossings, ring_new)[0],
            dwelling=of(self.dwelling),
            dwelling_maybe=of(self.dwelling_maybe),
            dwelling_source=self.dwelling_source,
            cultivated=of(self.cultivated),
            cultivated_share=of(self.cultivated_share),
            cultivated_by=self.cultivated_by,
            fence_lines=self.fence_lines,
            easements=easements,
            easement_holder=None
            if self.easement_holder is None or holder is None
            else self.easement_holder[holder],
            recorded_acres=of(self.recorded_acres),
            notes=list(self.notes),
            fence_covers=covers,
        )


def _stretches_take(
    st: Stretches | None, ring_new: np.ndarray
) -> tuple[Stretches | None, np.ndarray | None]:
    """The rows of ``st`` on the rings ``ring_new`` keeps, renumbered, and their places."""
    if st is None:
        return None, None
    ring = ring_new[st.ring]
    keep = np.flatnonzero(ring >= 0)
    return Stretches(ring[keep], st.feature[keep], st.geometry[keep], st.length_ft[keep]), keep


def _stretches_by_group(
    prep: PreparedParcels,
    layer: FeatureLayer,
    tol: float,
    min_len: float,
    crossings: list | None = None,
):
    """Per working-CRS group, the stretches of boundary within ``tol`` of the features and at
    least ``min_len`` long, and the zone pieces. With ``crossings`` (a list), the shorter
    stretches that meet a feature itself (where a line crosses a creek) are appended to it,
    as the first four columns of :class:`Stretches`."""
    rings = prep.rings
    ring_group = prep.group[rings.parcel]
    out, zones = [], {}
    for g in range(len(prep.crss)):
        near, geoms = layer_in_group(layer, prep, g, tol)
        rg = np.flatnonzero(ring_group == g)
        pieces = zone(geoms, tol, around=rings.geometry[rg])
        zones[g] = pieces
        floor = 0.0 if crossings is not None else min_len
        st = boundary_in_zone(rings.geometry[rg], pieces, min_length_ft=floor)
        long = st.length_ft >= min_len
        if crossings is not None:
            short = np.flatnonzero(~long)
            if len(short) and len(geoms):
                # a short stretch is a crossing where it meets the water itself, not only
                # its zone (a line passing within the tolerance of a pond is no crossing)
                hit, _ = shapely.STRtree(geoms).query(st.geometry[short], predicate="intersects")
                short = short[np.unique(hit)]
                crossings.append(
                    (rg[st.ring[short]], st.feature[short], st.geometry[short], st.length_ft[short])
                )
        out.append(
            (
                rg[st.ring[long]],
                st.feature[long],
                st.geometry[long],
                st.length_ft[long],
                near,
                pieces,
            )
        )
    return out, zones


def _concat(parts) -> Stretches:
    if not parts:
        return Stretches(
            np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, object), np.empty(0)
        )
    return Stretches(*(np.concatenate([p[i] for p in parts]) for i in range(4)))


def _per_property(prep: PreparedParcels, per_row: Any, how: str) -> np.ndarray:
    """A per-input-row value for each property: the row's own where parcels are not merged;
    for a property merged of several rows, with ``how``: ``sum`` (NaN where none is known),
    ``any`` (True where any row is, None where no row is known), ``all`` (True where every row
    is), ``share`` (the share of its rows that are True, 0 to 1, the unknown counted as not;
    NaN where no row is known), ``same`` (the rows' one value, None where they differ or none
    is known), ``each`` (the rows' one value, or where they differ a tuple of their values,
    sorted, None last).

    >>> from types import SimpleNamespace as P
    >>> prep = P(source_rows=[[0, 2], [1], [3, 4]])
    >>> _per_property(prep, [1.5, None, 2.0, None, None], "sum").tolist()
    [3.5, nan, nan]
    >>> _per_property(prep, [False, None, True, False, None], "any").tolist()
    [True, None, False]
    >>> _per_property(prep, [True, True, False, True, True], "all").tolist()
    [False, True, True]
    >>> _per_property(prep, [True, None, False, True, None], "share").tolist()
    [0.5, nan, 0.5]
    >>> _per_property(prep, ["a", "b", "a", "a", None], "same").tolist()
    ['a', 'b', None]
    >>> _per_property(prep, ["b", "c", "a", None, "b"], "each").tolist()
    [('a', 'b'), 'c', ('b', None)]
    """
    values = np.asarray(per_row, dtype=float if how == "sum" else object)
    if prep.source_rows is None:  # not merged: one row each
        return _as_share(values) if how == "share" else values
    owner = np.repeat(np.arange(len(prep.source_rows)), [len(r) for r in prep.source_rows])
    rows = np.concatenate(prep.source_rows) if prep.source_rows else np.empty(0, np.int64)
    s = pd.Series(values[rows], dtype=float if how == "sum" else object)
    if how == "sum":
        return s.groupby(owner).sum(min_count=1).to_numpy(dtype=float)
    if how == "all":
        return s.fillna(False).astype(bool).groupby(owner).all().to_numpy()
    if how == "share":
        share = s.fillna(False).astype(bool).astype(float).groupby(owner).mean().to_numpy()
        return np.where(s.notna().groupby(owner).any().to_numpy(), share, np.nan)
    out = np.full(len(prep.source_rows), None, dtype=object)
    known = s.notna().groupby(owner).any().to_numpy()
    if how == "any":
        anyv = s.fillna(False).astype(bool).groupby(owner).any().to_numpy()
        out[known] = anyv[known]
        return out
    one = (s.groupby(owner).nunique(dropna=False) == 1).to_numpy()
    first = s.groupby(owner).first().reindex(range(len(out))).to_numpy(dtype=object)
    out[known & one] = first[known & one]
    if how == "each":  # a loop over the properties whose lots differ only
        for p in np.flatnonzero(~one).tolist():
            seen = set(values[prep.source_rows[p]].tolist())
            out[p] = tuple(sorted(seen - {None}, key=str)) + ((None,) if None in seen else ())
    return out


def _as_share(values: Any) -> np.ndarray:
    """Per-parcel True, False or None (unknown) as a share of the land: 1.0, 0.0 or NaN; a
    share (a merged property's, :func:`_per_property`) as it is.

    >>> _as_share([True, False, None, np.True_, 0.5]).tolist()
    [1.0, 0.0, nan, 1.0, 0.5]
    """
    return pd.Series(values, dtype=object).astype(float).to_numpy()


PER_ROW = {  # the context's per-row attributes (from parcel columns), and how a merged
    "dwelling": "any",  # property takes them: a dwelling on any of its lots
    "cultivated": "share",  # cultivated where all its lots are; some of them: partly
    "recorded_acres": "sum",
    "public": "any",  # the public invited onto any part of it
    "registered": "all",  # recorded as posted where every lot is
    "parcel_landcover": "same",  # forest or not where its lots agree, else unknown
    "parcel_place": "each",  # in one place where its lots say so, else the places they name
}


def properties_context(prep: PreparedParcels, context: Any) -> Any:
    """``context`` (a :class:`posting.measure.Context`) with its per-row parcel attributes
    (:data:`PER_ROW`: read from the parcels' columns, one value per input row) as one value
    per property of ``prep`` (:func:`_per_property`): where parcels are merged by owner, or a
    partition's rows are not in its properties' order, property ``i`` is not row ``i``."""
    from dataclasses import replace

    given = {k: getattr(context, k) for k in PER_ROW if getattr(context, k) is not None}
    if prep.source_rows is None or not given:
        return context
    return replace(context, **{k: _per_property(prep, v, PER_ROW[k]) for k, v in given.items()})


def _easements(prep: PreparedParcels, layer: FeatureLayer) -> tuple[Stretches, np.ndarray]:
    """Stretches of boundary inside easement polygons (within half a foot: a line drawn on
    the parcel line counts), and the holder of the easement each lies in."""
    rings = prep.rings
    ring_group = prep.group[rings.parcel]
    parts, holders = [], []
    for g in range(len(prep.crss)):
        near, geoms = layer_in_group(layer, prep, g, 1.0)
        rg = np.flatnonzero(ring_group == g)
        pieces = zone(geoms, 0.5, around=rings.geometry[rg])
        st = boundary_in_zone(rings.geometry[rg], pieces, min_length_ft=1.0)
        mid = shapely.line_interpolate_point(st.geometry, 0.5, normalized=True)
        holder = np.full(len(st), None, dtype=object)
        if len(st) and len(geoms):
            # asked of the easements' tiles: a corridor across the county is as big as its
            # bounds, and every stretch's point was measured against its every vertex
            tiles, of = tile(geoms, around=mid, distance_ft=1.0)
            mi, ti = shapely.STRtree(tiles).query(mid, predicate="dwithin", distance=1.0)
            fi = of[ti]
            # within a foot of several: the first easement of the layer that names a holder
            # (not the tree's first, which a partition's subset of the easements changes)
            unnamed = pd.isna(layer.values[near[fi]])
            by = np.lexsort((near[fi], unnamed, mi))
            mi, fi = mi[by], fi[by]
            first = np.r_[True, np.diff(mi) != 0] if len(mi) else np.empty(0, bool)
            holder[mi[first]] = layer.values[near[fi[first]]]
        parts.append((rg[st.ring], st.feature, st.geometry, st.length_ft))
        holders.append(holder)
    return _concat(parts), (np.concatenate(holders) if holders else np.empty(0, object))


_FT_PER = {"ft": 1.0, "feet": 1.0, "foot": 1.0, "in": 1 / 12, "inch": 1 / 12, "inches": 1 / 12}
_FT_PER |= {"m": 1 / 0.3048, "cm": 1 / 30.48, "mm": 1 / 304.8}
_FT_PER |= dict.fromkeys(("meter", "meters", "metre", "metres"), 1 / 0.3048)
_UNITS = "|".join(sorted(_FT_PER, key=len, reverse=True))
_UNIT_OF_COLUMN = re.compile(rf"(?:^|[^a-z])({_UNITS})$")
"""A column's unit: the last word of its name (``height_m``, ``HGT_CM``)."""


def fence_heights_ft(layer: FeatureLayer) -> np.ndarray:
    """Each fence's height in feet (NaN where unknown): a number in the unit its column's name
    ends with (``height_m``, ``HGT_CM``, ``height_in``; feet otherwise: ``height_ft``,
    ``height``), text that gives its own unit (``4 ft``, ``48 in``, ``1.2 m``, ``4' 6 in``)
    converted (:func:`posting.attributes.measured`).

    Examples
    --------
    >>> from posting.crs import WGS84
    >>> values = np.array(["1.2", "4 ft", "48 in", "1.5 m", "4' 6 in", "tall", None], dtype=object)
    >>> def heights(field):
    ...     layer = FeatureLayer("<memory>", np.full(7, None), WGS84, values, field)
    ...     return fence_heights_ft(layer).round(3).tolist()
    >>> heights("height_ft")
    [1.2, 4.0, 4.0, 4.921, 4.5, nan, nan]
    >>> heights("HEIGHT_M")
    [3.937, 4.0, 4.0, 4.921, 4.5, nan, nan]
    """
    from posting.attributes import measured

    text = pd.Series(layer.values, dtype=object)
    plain = pd.to_numeric(text, errors="coerce").to_numpy(float)
    given = pd.to_numeric(measured(text, "height_ft"), errors="coerce").to_numpy(float)
    unit = _UNIT_OF_COLUMN.search((layer.field or "").casefold())
    per = _FT_PER[unit[1]] if unit else 1.0
    return np.where(np.isnan(plain), given, plain * per)


ON_LINE_FT = 0.01
"""A dwelling's point (an address point, a footprint's point on its surface) within this of a
parcel's line is on it (as a GIS snaps points onto lines, and as a sign on a line is)."""


def dwellings_on_parcels(polygons: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per polygon: has it a dwelling, and may it have one (and perhaps not)?

    A point inside a polygon, farther than :data:`ON_LINE_FT` from its line, is its dwelling.
    A point on the line (within :data:`ON_LINE_FT`: an address point placed on the lot's
    frontage) of one polygon alone is that one's; on the lines of two or more (a line they
    share), it may stand on any of them: each may have it.

    Examples
    --------
    Two lots side by side; an address point on the first one's road frontage, and one on the
    line they share:

    >>> lots = np.array([shapely.box(0, 0, 100, 100), shapely.box(100, 0, 200, 100)])
    >>> have, maybe = dwellings_on_parcels(lots, shapely.points([(50, 0), (100, 50)]))
    >>> have.tolist(), maybe.tolist()
    ([True, False], [True, True])
    """
    polygons = np.asarray(polygons, dtype=object)
    have = np.zeros(len(polygons), dtype=bool)
    maybe = np.zeros(len(polygons), dtype=bool)
    points = np.asarray(points, dtype=object)
    points = points[~(shapely.is_missing(points) | shapely.is_empty(points))]
    if not len(points) or not len(polygons):
        return have, maybe
    qi, pi = shapely.STRtree(polygons).query(points, predicate="dwithin", distance=ON_LINE_FT)
    on_line = shapely.dwithin(shapely.boundary(polygons[pi]), points[qi], ON_LINE_FT)
    have[pi[~on_line]] = True  # (inside, off its line)
    lines = np.bincount(qi[on_line], minlength=len(points))  # how many lines each point is on
    have[pi[on_line & (lines[qi] == 1)]] = True
    maybe[pi[on_line & (lines[qi] > 1)]] = True
    return have, maybe


WATER_HAIR_FT = 1e-4
"""How wide a boundary's stretch formed by water is taken for the fences' reach it adds to
(:func:`fence_cover` with ``except_water``): a stretch of the line itself, a tenth of
:data:`posting.checks.EPSILON_FT` either side of it, its ends cut square."""

SHARE_HAIR = 1e-6
"""A share of a parcel's land within this of all (or none) of it is all (none): the land
cover's edge drawn on the parcel's line, vertex for vertex, is measured on a grid
(:func:`posting.dissolve.overlap`), a hair off. Land cultivated in between is partly so, and
posted by cultivation only there (:mod:`posting.kinds.cultivation`)."""


def land_facts(prep: PreparedParcels, context, settings) -> LandFacts:
    """Measure what the context layers say about each parcel's land and boundary."""
    facts = LandFacts()
    n = len(prep)
    tol = settings.water_tolerance_ft
    if context.water is not None:
        crossings: list = []
        parts, _ = _stretches_by_group(prep, context.water, tol, 3 * tol, crossings)
        facts.water = _concat([p[:4] for p in parts])
        facts.water_crossings = _concat(crossings)
    if context.easements is not None:
        facts.easements, facts.easement_holder = _easements(prep, context.easements)
    if context.dwellings is not None or context.dwelling is not None:
        have, maybe = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
        sources = []
        if context.dwellings is not None:
            for g in range(len(prep.crss)):
                sel = np.flatnonzero(prep.group == g)
                _, geoms = layer_in_group(context.dwellings, prep, g, ON_LINE_FT)
                pts = shapely.point_on_surface(geoms)
                have[sel], maybe[sel] = dwellings_on_parcels(prep.geometry_ft[sel], pts)
            sources.append(context.dwellings.source)
        if context.dwelling is not None:
            have |= pd.Series(context.dwelling, dtype=object).fillna(False).to_numpy(bool)
            sources.append("the parcel attribute")
        facts.dwelling = have
        facts.dwelling_maybe = maybe & ~have
        facts.dwelling_source = " and ".join(sources)
    if context.cultivated is not None:
        share = _as_share(context.cultivated)
        facts.cultivated_by = "lots"
    elif context.landcover is not None:
        share = np.zeros(n)
        is_cult = context.landcover.values == "cultivated"
        for g in range(len(prep.crss)):
            sel = np.flatnonzero(prep.group == g)
            near, polys = layer_in_group(context.landcover, prep, g, 0.0)
            share[sel] = share_of_area(prep.geometry_ft[sel], polys[is_cult[near]])
        facts.cultivated_by = "area"
    if context.cultivated is not None or context.landcover is not None:
        facts.cultivated_share = share
        facts.cultivated = np.full(n, None, dtype=object)
        facts.cultivated[share >= 1 - SHARE_HAIR] = True
        facts.cultivated[share <= SHARE_HAIR] = False
    if context.fences is not None:
        facts.fence_lines = {}
        heights = fence_heights_ft(context.fences)
        for g in range(len(prep.crss)):
            # (a fence within the tolerance plus the accuracy may serve: fence_cover; and one
            # within a foot of its end joins it: checks.land.fence_zone)
            reach = settings.tolerance_ft + max(settings.accuracy_ft, 0.0) + FENCE_JOIN_FT
            near, geoms = layer_in_group(context.fences, prep, g, reach)
            facts.fence_lines[g] = (geoms, heights[near])
    if context.recorded_acres is not None:
        facts.recorded_acres = np.asarray(context.recorded_acres, dtype=float)
    return facts


MAYBE_ACCURACY, MAYBE_HOLES, MAYBE_HEIGHT = 1, 2, 3
"""Why :func:`fence_cover` cannot tell whether land is fenced all round: fenced so only within
the tolerance plus the survey's accuracy; fenced along its outer boundary, not its holes;
fenced so only by fences whose height the layer does not give, where a height is required."""


def fence_cover(
    prep: PreparedParcels,
    facts: LandFacts,
    min_height_ft: float | None,
    tolerance_ft: float,
    except_water: bool,
    gate_ft: float = 20.0,
    accuracy_ft: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, Stretches, np.ndarray]:
    """Per parcel: fenced all round?, and the unfenced length; the unfenced stretches; and
    fenced all round only within the survey's accuracy?

    A stretch of boundary is fenced when a fence at least ``min_height_ft`` high (any height
    when None; a fence of unknown height does not count when a height is required) runs within
    ``tolerance_ft`` of it: the reach of a fence line stops square across each end where the
    fence stops (:func:`posting.checks.land.fence_zone`), so an opening between two ends is
    unfenced for its width, and a fence that stops at a corner pin fences up to the corner.
    With ``except_water``, stretches formed by water (``facts.water``: not those where a line
    crosses a creek, shorter) need no fence.
    Unfenced pieces shorter than ``gate_ft`` are gates and openings of the fence itself; a
    ring with no fence along it at all is no opening, however short (a sliver lot of a 15 ft
    boundary, with no fence near, is not fenced land).

    The unfenced length and stretches are those beyond ``tolerance_ft`` of a fence. With an
    ``accuracy_ft``, a parcel is fenced all round when it is so within the tolerance less the
    accuracy, and only maybe (:data:`MAYBE_ACCURACY`, the last array; else 0) when it is so
    within the tolerance plus the accuracy but not less it: how far a fence stands from the
    line is a figure like any other (:func:`posting.checks.against_max`). Land fenced along its
    outer boundary (within the tolerance plus the accuracy) but not along its holes (others'
    land inside it) may be enclosed or not (:data:`MAYBE_HOLES`): whether a fence round the
    outside encloses land with an unfenced hole, the statutes do not say. Land fenced round
    its outer boundary (within the tolerance plus the accuracy) only if the fences of unknown
    height count is fenced or not as they are high enough or not (:data:`MAYBE_HEIGHT`).
    """
    acc = max(float(accuracy_ft), 0.0)
    key = (min_height_ft, float(tolerance_ft), bool(except_water), float(gate_ft), acc)
    if key in facts.fence_covers:  # the same fences measured again (another profile ...)
        return facts.fence_covers[key]
    rings, n = prep.rings, len(prep)

    def cover(tol: float, unknown: bool = False) -> tuple[np.ndarray, Stretches]:
        return _unfenced(
            prep, facts, min_height_ft, tol, except_water, gate_ft, tolerance_ft, unknown
        )

    unfenced, gaps = cover(tolerance_ft)
    if acc > 0:
        (sure, _), (loose, loose_gaps) = cover(tolerance_ft - acc), cover(tolerance_ft + acc)
    else:
        sure, loose, loose_gaps = unfenced, unfenced, gaps
    outer = rings.hole[loose_gaps.ring] == 0
    loose_outer = np.bincount(
        rings.parcel[loose_gaps.ring[outer]], weights=loose_gaps.length_ft[outer], minlength=n
    )
    usable = (prep.group >= 0) & bool(facts.fence_lines)
    fenced = (sure == 0) & usable
    maybe = np.zeros(n, dtype=np.int8)
    maybe[(loose_outer == 0) & usable & ~fenced] = MAYBE_HOLES
    maybe[(loose == 0) & usable & ~fenced] = MAYBE_ACCURACY
    unknown_height = min_height_ft is not None and any(
        np.isnan(h).any() for _, h in (facts.fence_lines or {}).values()
    )
    if unknown_height:  # (the fences of unknown height high enough: fenced round?)
        high_gaps = cover(tolerance_ft + acc, unknown=True)[1]
        outer = rings.hole[high_gaps.ring] == 0
        high_outer = np.bincount(
            rings.parcel[high_gaps.ring[outer]], weights=high_gaps.length_ft[outer], minlength=n
        )
        maybe[(high_outer == 0) & usable & ~fenced & (maybe == 0)] = MAYBE_HEIGHT
    facts.fence_covers[key] = fenced, unfenced, gaps, maybe
    return fenced, unfenced, gaps, maybe


def _less(rings: np.ndarray, parts: np.ndarray) -> np.ndarray:
    """Each of ``rings`` less the union of ``parts`` (disjoint areas, or lines: the parts of a
    union, of one dimension), each ring less only the parts it meets; a ring that meets none
    is kept as it is.

    Areas are cut into tiles first (:func:`posting.dissolve.tile`): a county-wide fence's
    reach is one piece of 100,000s of vertices, and GEOS's overlay, like its predicates asked
    of a small ring, costs in the vertices of both. A ring is taken less each tile it meets,
    one after another. Where it crosses a cut, the two tiles may leave a hair of it between
    them (a cut's vertex is put a hair off the cut): far shorter than a gate (:func:`_unfenced`
    leaves such pieces out), and never a whole ring. A ring that runs along an edge a cut
    crosses (a lot's line along a lake's shore, vertex for vertex, water within 0 ft) would
    keep the stretch from the cut to that edge's next vertex: it is taken less the parts
    uncut (:func:`posting.dissolve.along_cuts`)."""
    if not len(parts) or not len(rings):
        return rings
    tj, ri, tiles, _ = meeting(rings, parts)  # (lines are kept whole)
    if not len(ri):
        return rings
    order = np.lexsort((tj, ri))  # each ring's tiles in the union's order
    ri, tj = ri[order], tj[order]
    _, first, count = np.unique(ri, return_index=True, return_counts=True)
    rank = np.arange(len(ri)) - np.repeat(first, count)  # the how-manyth tile of its ring
    by = np.argsort(rank, kind="stable")
    ends = np.searchsorted(rank[by], np.arange(count.max() + 1))
    out = rings.copy()
    for a, b in pairwise(ends):  # (rounds: as many as the most tiles a ring meets)
        now = by[a:b]
        out[ri[now]] = shapely.difference(out[ri[now]], tiles[tj[now]])
    return out


def _unfenced(
    prep: PreparedParcels,
    facts: LandFacts,
    min_height_ft: float | None,
    tolerance_ft: float,
    except_water: bool,
    gate_ft: float,
    limit_ft: float,
    unknown_counts: bool = False,
) -> tuple[np.ndarray, Stretches]:
    """Per parcel, the length beyond ``tolerance_ft`` of a high enough fence (gates left out),
    and those stretches (:func:`fence_cover`), with the slack of a limit of ``limit_ft``; with
    ``unknown_counts``, a fence of unknown height counted as high enough."""
    rings = prep.rings
    n = len(prep)
    ring_group = prep.group[rings.parcel]
    # "within" the tolerance, as every limit is (posting.checks.against_max): a side exactly
    # the tolerance from a fence lies on the edge of its reach, where the floating overlay
    # may leave it out or not
    reach_ft = tolerance_ft + EPSILON_FT + FOOT_SLACK * limit_ft
    uncovered_parts = []
    for g, (lines, heights) in (facts.fence_lines or {}).items():
        ok = np.ones(len(lines), dtype=bool) if min_height_ft is None else heights >= min_height_ft
        if unknown_counts:
            ok |= np.isnan(heights)
        ok &= reach_ft >= 0  # (the tolerance less an accuracy larger than it: no fence serves)
        rg = np.flatnonzero(ring_group == g)
        key = (g, min_height_ft, unknown_counts, reach_ft)
        if key not in facts.fence_reach:
            facts.fence_reach[key] = fence_zone(lines[ok], reach_ft, around=rings.geometry[rg])
        pieces = facts.fence_reach[key]
        if except_water and facts.water is not None:
            # the boundary formed by water (its stretches, each a hair wide), not all that lies
            # within the tolerance of water: where a creek crosses the line, or the line passes
            # near a pond, it is formed by none, and needs a fence like any other
            wet = facts.water.geometry[ring_group[facts.water.ring] == g]
            if len(wet):
                wet = shapely.buffer(wet, WATER_HAIR_FT, cap_style="flat")
                pieces = zone(np.concatenate([pieces, wet]), 0.0)
        rest = rings.geometry[rg].copy()
        dims = shapely.get_dimensions(pieces)
        for dim in (2, 1):  # areas, then lines (water within 0 ft); a point covers no length
            if (dims == dim).any():  # (GEOS's overlay takes no collection of mixed dimensions)
                rest = _less(rest, pieces[dims == dim])  # (disjoint: zone's parts)
        parts, owner = shapely.get_parts(shapely.line_merge(rest), return_index=True)
        length = shapely.length(parts)
        # a gate is an opening under gate_ft: the reach stops FENCE_END_FT short of each of
        # its ends, so a 19.999 ft one between two fence ends leaves 20.001 ft unreached
        keep = (length >= gate_ft + 2 * FENCE_END_FT) | shapely.is_closed(parts)  # closed: whole
        uncovered_parts.append(
            (rg[owner][keep], np.full(keep.sum(), -1), parts[keep], length[keep])
        )
    gaps = _concat(uncovered_parts)
    return gaps.total_by(rings.parcel, n), gaps
