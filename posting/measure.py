"""The measurements every rule profile is judged on, made once per check.

Preparing the parcels and assigning the markers do not depend on the rules; neither do the
markers' kinds and attributes, the access points where roads cross a boundary, the outward
direction at each marker, or what the context layers say about the land. They are gathered here
once; each kind of rule (:mod:`posting.kinds`) then reads them under each profile.
"""

from __future__ import annotations

import datetime as _dt
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from posting.assign import Assignment
from posting.attributes import kind_text
from posting.boundary import interpolate, outward_normals
from posting.checks.access import boundary_crossings
from posting.crs import azimuth_deg
from posting.elevation import GroundBand
from posting.index import expand_counts, unique_ints
from posting.io import FeatureLayer, MarkerLayer
from posting.job import CONTEXT_LAYERS
from posting.land import PER_ROW, LandFacts, land_facts, layer_in_group, properties_context
from posting.partition import take
from posting.prepare import PreparedParcels
from posting.settings import Settings

__all__ = [
    "CROSSING_COLUMNS",
    "Context",
    "Measurements",
    "measure",
    "outward_azimuth",
    "restrict",
]

CROSSING_COLUMNS = [
    "parcel",
    "ring",
    "position_ft",
    "x_ft",
    "y_ft",
    "lon",
    "lat",
    "feature",
    "type",
]
"""Columns of the access points found where a road or track crosses a boundary."""


@dataclass(frozen=True)
class Context:
    """What the rules may need beyond parcels and markers. Everything is optional.

    Attributes
    ----------
    access
        Roads, driveways and trails (lines) and gates (points); ``values`` holds each
        feature's type (``road``, ``driveway``, ``trail``, ``gate``, ...).
    landcover
        Land-cover polygons; ``values`` is ``forest`` for forest land.
    parcel_landcover
        Per parcel: True for forest land, False for other land, None unknown (from a parcel
        attribute, when there is no land-cover layer).
    public
        Per parcel: True where the public is invited part of the day (a park, a business).
    today
        The date of the check (for the renewal of postings); default today.
    water
        Water polygons and lines (already filtered to open water).
    dwellings, dwelling
        Building footprints or address points; or, per parcel, True where the attributes say
        there is a dwelling.
    fences
        Fence lines; ``values`` holds each fence's height in feet.
    cultivated
        Per parcel: True where the attributes say the land is cultivated (a land-cover layer
        whose value is ``cultivated`` says it too).
    easements
        Easement polygons; ``values`` holds each easement's holder.
    recorded_acres
        Per parcel, the acreage its attributes record (compared with the measured area).
    sight_ft
        How far a marker can be seen on this land, in feet (for the rules that markers be in
        sight of each other; None: the rule's own figures).
    places, parcel_place
        Places (municipalities, counties; ``values`` holds each one's name), or per parcel
        the name of the place it lies in (for rules that do not apply in some places).
    registry, registered
        Land recorded as posted in a registry (``values`` holds each record's year, None
        unknown), or per parcel True where the attributes say it is recorded.
    """

    access: FeatureLayer | None = None
    landcover: FeatureLayer | None = None
    parcel_landcover: np.ndarray | None = None
    public: np.ndarray | None = None
    today: _dt.date | None = None
    water: FeatureLayer | None = None
    dwellings: FeatureLayer | None = None
    dwelling: np.ndarray | None = None
    fences: FeatureLayer | None = None
    cultivated: np.ndarray | None = None
    easements: FeatureLayer | None = None
    recorded_acres: np.ndarray | None = None
    sight_ft: float | None = None
    places: FeatureLayer | None = None
    parcel_place: np.ndarray | None = None
    registry: FeatureLayer | None = None
    registered: np.ndarray | None = None

    def forest_by_parcel(self) -> np.ndarray | None:
        """Per parcel, from the parcel attribute: 1.0 for forest land, 0.0 for other land,
        NaN where the attribute is blank; None without the attribute.

        >>> Context(parcel_landcover=[True, None, False]).forest_by_parcel()
        array([ 1., nan,  0.])
        """
        if self.parcel_landcover is None:
            return None
        values = pd.Series(self.parcel_landcover, dtype=object)
        return values.map({True: 1.0, False: 0.0}).to_numpy(dtype=float)

    def warnings(self) -> list[str]:
        """What the report says of the context layers (:data:`posting.job.CONTEXT_LAYERS`, in
        order): each one's notes and the features it leaves out
        (:meth:`posting.io.FeatureLayer.warnings`)."""
        layers = [getattr(self, k) for k in CONTEXT_LAYERS]
        return [w for x in layers if x is not None for w in x.warnings()]


@dataclass
class Measurements:
    """What every profile is judged on.

    Attributes
    ----------
    prep, asg, markers, settings, context
        The prepared parcels, where each marker went, the markers as read, the settings and
        the context layers.
    am
        The assigned markers (indices into ``markers``).
    kinds, attrs
        Kind and attributes of each assigned marker (aligned with ``am``).
    all_kinds
        Kind of every marker, assigned or not.
    crossings
        Access points (:data:`CROSSING_COLUMNS`), or None without an access layer.
    outward_az
        Per assigned marker, the azimuth (degrees) of the outward normal of the boundary where
        it stands; None unless a profile checks facing.
    land
        What the context layers say about the land (:mod:`posting.land`).
    origin
        Where markers count for more than one parcel (:mod:`posting.ambiguity`), the assignment
        has a row for each extra count: the input marker of every row (None: row = marker).
    doubtful
        Per input marker, True where GPS error could put it across a line shared with a parcel
        of another (or an unknown) owner, and nothing settles which (None: no doubt).
    warnings
        Problems found while measuring (markers of an unknown kind).
    own
        Per parcel, True where its figures count in the notes' counts (a partition's own
        parcels, not its halo's: the run sums the partitions'); None: every parcel, and a note
        is made only where its counts give cause.
    ground
        Per parcel, how much longer on the ground its lengths may be than as measured (the
        land's elevation not given: :class:`posting.elevation.GroundBand`); None: the working
        frame's lengths are the ground's (``elevation_ft`` given).
    """

    prep: PreparedParcels
    asg: Assignment
    markers: MarkerLayer
    settings: Settings
    context: Context
    am: np.ndarray
    kinds: np.ndarray
    attrs: pd.DataFrame
    all_kinds: np.ndarray
    crossings: pd.DataFrame | None = None
    outward_az: np.ndarray | None = None
    land: LandFacts = field(default_factory=LandFacts)
    origin: np.ndarray | None = None
    doubtful: np.ndarray | None = None
    warnings: list[str] = field(default_factory=list)
    own: np.ndarray | None = None
    ground: GroundBand | None = None
    _masks: dict[tuple[str, ...], Any] = field(default_factory=dict, repr=False)

    @property
    def n(self) -> int:
        """Number of parcels (or merged properties)."""
        return len(self.prep)

    @property
    def today(self) -> pd.Timestamp:
        """The date of the check."""
        return pd.Timestamp(self.context.today or _dt.date.today())

    def mask(self, kinds: tuple[str, ...]) -> np.ndarray:
        """Assigned markers (positions into ``am``) of the given kinds (kept: asked often)."""
        key = tuple(sorted(set(kinds)))
        if key not in self._masks:
            hit = np.zeros(len(self.kinds), dtype=bool)
            for k in key:  # a few kinds: one comparison each, faster than np.isin on text
                hit |= self.kinds == k
            self._masks[key] = np.flatnonzero(hit)
        return self._masks[key]

    def beside_corners(
        self, kinds: tuple[str, ...]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The markers of ``kinds`` before and after each corner along its ring, and how far
        along (:func:`posting.checks.corners.ring_neighbours`; marker indices are positions in
        ``am[mask(kinds)]``). Kept: the corner rule and the spacing rule ask it alike."""
        from posting.checks.corners import ring_neighbours

        key = ("beside_corners", *sorted(set(kinds)))
        # the two rules are measured side by side: the first to ask finds them, the other
        # waits for its answer (setdefault is one step: only one of them puts its Future)
        mine: Future = Future()
        held = self._masks.setdefault(key, mine)
        if held is not mine:
            return held.result() if isinstance(held, Future) else held
        try:
            c, mk = self.prep.corners, self.am[self.mask(kinds)]
            found = ring_neighbours(
                c.ring, c.position_ft, self.asg.ring[mk], self.asg.position_ft[mk],
                self.prep.rings.length_ft,
            )  # fmt: skip
        except BaseException as e:
            del self._masks[key]
            mine.set_exception(e)
            raise
        self._masks[key] = found
        mine.set_result(found)
        return found

    @property
    def banded(self) -> bool:
        """The land's elevation not given: figures judged on a band of elevations, whose close
        calls have words of their own (given, :attr:`ground` is one factor per parcel, the
        working frame's scale divided out: no band)."""
        return self.ground is not None and not self.ground.given

    def scale(self, parcel: np.ndarray) -> tuple[Any, Any]:
        """The ground's scale (lo, hi) for figures of ``parcel`` (one parcel number per
        figure), as :func:`posting.checks.against_max` takes it: (1, 1) where the frame is
        the ground's."""
        if self.ground is None:
            return 1.0, 1.0
        return self.ground.at(parcel)

    def area_scale(self, parcel: np.ndarray) -> tuple[Any, Any]:
        """The ground's scale (lo, hi) for the areas of ``parcel`` (``prep.area_acres``), as
        :func:`posting.checks.acres_at_most` takes it: the elevation's alone, since an area
        is equal-area already (the frame's scale divided out); (1, 1) where the frame is the
        ground's."""
        if self.ground is None:
            return 1.0, 1.0
        return self.ground.area_at(parcel)

    def counted(self, sel: np.ndarray) -> np.ndarray:
        """Per parcel, how many of the assigned markers ``sel`` (positions into ``am``) it has."""
        return np.bincount(self.asg.parcel[self.am[sel]], minlength=self.n)


def measure(
    prep: PreparedParcels,
    asg: Assignment,
    markers: MarkerLayer,
    settings: Settings,
    context: Context,
    *,
    facing: bool,
) -> Measurements:
    """Gather the rule-independent measurements (``facing``: some profile checks facing);
    the context's per-row parcel attributes taken per property (:func:`properties_context`)."""
    context = properties_context(prep, context)
    am = np.flatnonzero(asg.assigned)
    attrs_all = markers.attributes
    if len(attrs_all.columns) and len(attrs_all) == len(markers):
        attrs = attrs_all.iloc[am].reset_index(drop=True)
    else:
        attrs = pd.DataFrame(index=range(len(am)))
    kinds_all = markers.kinds()
    m = Measurements(
        prep, asg, markers, settings, context, am, kinds_all[am], attrs, all_kinds=kinds_all
    )
    other = kinds_all == "other"
    if other.any():
        recorded = kind_text(attrs_all, markers.typed())[other]
        shown = ", ".join(sorted({str(v) for v in recorded.head(50)})[:5])
        m.warnings.append(
            f"{int(other.sum())} marker(s) have a kind that is not sign, paint or post ({shown}); "
            "they are assigned to their parcel but count for no rule"
        )
    if context.access is not None:
        m.crossings = _crossings(prep, context.access, settings)
    if facing and len(am):
        m.outward_az = outward_azimuth(prep, asg, am)
    m.land = land_facts(prep, context, settings)
    return m


def restrict(m: Measurements, parcels: np.ndarray) -> tuple[Measurements, np.ndarray]:
    """The measurements of ``parcels`` alone (places, ascending), numbered ``0, 1, ...`` in
    that order, as :func:`measure` would have made them for those parcels with the same
    assignment; and the old number of each row of their assignment (ascending).

    Their prepared parcels (:func:`posting.partition.take`), rings renumbered with them; the
    markers assigned to them, and the markers their extra counts stand for, in order (a marker
    assigned to another parcel is unassigned here); their access points, land facts (fence
    covers already measured kept) and per-parcel context. A parcel's verdict reads only its
    own markers, boundary and land, so each profile judges these parcels here as it judges
    them among all (:func:`posting.ambiguity.bounds`: the parcels a doubtful marker concerns
    judged again, not the whole layer).
    """
    idx = np.asarray(parcels, dtype=np.int64)
    prep = m.prep
    # per old parcel and ring (and -1 at the end: an unassigned marker's), the new number
    parcel_new = np.full(m.n + 1, -1, dtype=np.int64)
    parcel_new[idx] = np.arange(len(idx))
    pair, rank = expand_counts(prep.ring_count[idx])
    ring_new = np.full(len(prep.rings) + 1, -1, dtype=np.int64)
    ring_new[prep.ring_start[idx][pair] + rank] = np.arange(len(pair))

    # the assignment's rows kept: the input markers they stand for, then the extra counts
    asg, n_in = m.asg, len(m.markers)
    parcel = parcel_new[asg.parcel]
    kept = np.flatnonzero(parcel >= 0)
    inputs = unique_ints(kept if m.origin is None else m.origin[kept])
    rows = np.r_[inputs, kept[kept >= n_in]]
    row_new = np.full(len(asg.parcel), -1, dtype=np.int64)
    row_new[rows] = np.arange(len(rows))
    sub_asg = Assignment(
        **{f: getattr(asg, f)[rows] for f in Assignment.__dataclass_fields__},
    )
    p = parcel[rows]
    sub_asg = replace(sub_asg, parcel=p, ring=np.where(p >= 0, ring_new[asg.ring[rows]], -1))
    keep = np.flatnonzero(parcel[m.am] >= 0)
    crossings = m.crossings
    if crossings is not None:
        at = parcel_new[crossings["parcel"].to_numpy(dtype=np.int64)]
        crossings = crossings.iloc[np.flatnonzero(at >= 0)].reset_index(drop=True)
        crossings["parcel"] = at[at >= 0]
        crossings["ring"] = ring_new[crossings["ring"].to_numpy(dtype=np.int64)]
    per_parcel = {
        name: _take_values(getattr(m.context, name), idx)
        for name in PER_ROW
        if getattr(m.context, name) is not None
    }
    sub = replace(
        m,
        prep=take(prep, idx),
        asg=sub_asg,
        markers=m.markers.take(inputs),
        context=replace(m.context, **per_parcel),
        am=row_new[m.am[keep]],
        kinds=m.kinds[keep],
        attrs=m.attrs.iloc[keep].reset_index(drop=True),
        all_kinds=m.all_kinds[rows],
        crossings=crossings,
        outward_az=None if m.outward_az is None else m.outward_az[keep],
        land=m.land.take(idx, ring_new),
        origin=None if m.origin is None else np.searchsorted(inputs, m.origin[rows]),
        doubtful=None if m.doubtful is None else m.doubtful[inputs],
        warnings=list(m.warnings),
        own=None if m.own is None else m.own[idx],
        ground=None if m.ground is None else m.ground.take(idx),
        _masks={},
    )
    return sub, rows


def _take_values(values: Any, idx: np.ndarray) -> np.ndarray:
    """Per-parcel ``values`` (an array, or a list as :func:`posting.job.read_context` gives
    it: as numpy would make it an array, or of objects where its values are tuples) of
    parcels ``idx``."""
    if not isinstance(values, np.ndarray):
        arr = np.asarray(values)
        values = arr if arr.ndim == 1 else pd.Series(list(values), dtype=object).to_numpy()
    return values[idx]


def outward_azimuth(prep: PreparedParcels, asg: Assignment, am: np.ndarray) -> np.ndarray:
    """Azimuth of the boundary's outward normal where each assigned marker stands."""
    nx, ny = outward_normals(prep.rings.geometry, asg.ring[am], asg.position_ft[am])
    x0, y0 = interpolate(prep.rings.geometry, asg.ring[am], asg.position_ft[am])
    group = prep.group[asg.parcel[am]]
    lon0, lat0 = prep.ft_to_lonlat(group, x0, y0)
    lon1, lat1 = prep.ft_to_lonlat(group, x0 + 10 * nx, y0 + 10 * ny)
    return azimuth_deg(lon0, lat0, lon1, lat1)


def _crossings(prep: PreparedParcels, layer: FeatureLayer, settings: Settings) -> pd.DataFrame:
    rings = prep.rings
    ring_group = prep.group[rings.parcel]
    frames = []
    for g in range(len(prep.crss)):
        near, geoms = layer_in_group(layer, prep, g, settings.access_tolerance_ft)
        rg = np.flatnonzero(ring_group == g)
        c = boundary_crossings(rings.geometry[rg], geoms, gate_snap_ft=settings.tolerance_ft)
        ring = rg[c.ring]
        lon, lat = prep.crss[g].ft_to_lonlat(c.x, c.y)
        frames.append(
            pd.DataFrame(
                {
                    "parcel": rings.parcel[ring],
                    "ring": ring,
                    "position_ft": c.position_ft,
                    "x_ft": c.x,
                    "y_ft": c.y,
                    "lon": lon,
                    "lat": lat,
                    "feature": near[c.feature],
                    "type": layer.values[near[c.feature]],
                }
            )
        )
    if not frames:
        return pd.DataFrame(columns=CROSSING_COLUMNS)
    return pd.concat(frames, ignore_index=True)
