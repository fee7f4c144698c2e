"""The check, end to end: parcels, markers and context in, a :class:`~posting.report.Report` out.

files -> io -> prepare -> assign -> checks (per rule profile) -> verdict -> Report

Preparing the parcels and assigning the markers do not depend on the rules, so they are done
once; each rule profile (an alternative way to post) is then evaluated on the same measurements,
and each parcel takes the best status any profile gives it.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import shapely

from posting.assign import Assignment, assign_markers
from posting.attributes import find_column, marker_kinds
from posting.boundary import interpolate, interpolate_at, outward_normals, ring_stretches
from posting.checks import FAIL, OK, against_max
from posting.checks import content as ct
from posting.checks.access import boundary_crossings
from posting.checks.corners import ring_neighbours
from posting.checks.landcover import forest_share
from posting.checks.spacing import measured_gap, ring_gaps
from posting.crs import azimuth_deg
from posting.errors import InputError
from posting.frames import text
from posting.index import BoxGrid
from posting.io import FeatureLayer, MarkerLayer, ParcelLayer
from posting.land import LandFacts, fence_cover, land_facts, layer_in_group
from posting.parallel import background, release_memory
from posting.prepare import PreparedParcels, prepare_parcels
from posting.report import Report
from posting.rules import ContentRule, PaintRule, Profile, load_rules
from posting.settings import Settings
from posting.verdict import (
    RANK,
    access_findings,
    corner_findings,
    decide,
    empty_findings,
    findings_frame,
    item_findings,
    spacing_findings,
    water_findings,
)

__all__ = ["Context", "check"]

_CROSSING_COLUMNS = [
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

_GAP_STATUS = ["ok", "uncertain", "over", "unmarked"]
_POINT_STATUS = ["ok", "uncertain", "missing", "not required"]


def _status(codes: np.ndarray, labels: list[str]) -> pd.Categorical:
    """A status column from codes (OK, UNCERTAIN, FAIL, ...): categorical, since a county has
    a million gaps and strings would cost a conversion each way."""
    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int8), categories=labels)


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


@dataclass
class _Base:
    """Measurements shared by every profile."""

    prep: PreparedParcels
    asg: Assignment
    markers: MarkerLayer
    settings: Settings
    context: Context
    am: np.ndarray  # assigned markers
    kinds: np.ndarray  # kind of each assigned marker
    attrs: pd.DataFrame  # attributes of each assigned marker
    crossings: pd.DataFrame | None  # access points
    outward_az: np.ndarray | None = None  # per assigned marker
    all_kinds: np.ndarray | None = None  # kind of every marker, assigned or not
    land: LandFacts = field(default_factory=LandFacts)
    warnings: list[str] = field(default_factory=list)
    _masks: dict[tuple[str, ...], np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def n(self) -> int:
        return len(self.prep)

    def mask(self, kinds: tuple[str, ...]) -> np.ndarray:
        """Assigned markers (positions into ``am``) of the given kinds (kept: asked often)."""
        key = tuple(sorted(set(kinds)))
        if key not in self._masks:
            hit = np.zeros(len(self.kinds), dtype=bool)
            for k in key:  # a few kinds: one comparison each, faster than np.isin on text
                hit |= self.kinds == k
            self._masks[key] = np.flatnonzero(hit)
        return self._masks[key]

    def counted(self, sel: np.ndarray) -> np.ndarray:
        return np.bincount(self.asg.parcel[self.am[sel]], minlength=self.n)


@dataclass
class _Result:
    """One profile's verdict on every parcel."""

    profile: Profile
    status: np.ndarray
    counted: np.ndarray
    max_gap: np.ndarray
    gaps: pd.DataFrame
    corners: pd.DataFrame
    access: pd.DataFrame
    findings: pd.DataFrame
    not_checked: list[dict[str, str]]
    posted_by: np.ndarray
    exemption: np.ndarray
    fence_gaps: pd.DataFrame


def _as_profiles(rules: str | Profile | Sequence[str | Profile]) -> list[Profile]:
    items = [rules] if isinstance(rules, str | Profile) else list(rules)
    if not items:
        items = ["florida"]
    profiles = [r if isinstance(r, Profile) else load_rules(r) for r in items]
    names = [p.name for p in profiles]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        from posting.errors import RulesError

        raise RulesError(f"rule profile {dup!r} is given twice")
    return profiles


def check(
    parcels: ParcelLayer | PreparedParcels,
    markers: MarkerLayer | None = None,
    rules: str | Profile | Sequence[str | Profile] = "florida",
    *,
    settings: Settings | None = None,
    context: Context | None = None,
) -> Report:
    """Check parcels and their markers against one rule profile or several alternatives.

    Parameters
    ----------
    parcels
        From :func:`posting.io.read_parcels`, or already prepared with
        :func:`posting.prepare.prepare_parcels` (with the same settings).
    markers
        From :func:`posting.io.read_markers`; None means no markers (every parcel unposted).
    rules
        A profile name (``"florida"``), a path to a profile file, a loaded profile, or a list of
        them: alternative ways to post (a parcel complies if it meets any one).
    settings
        Tolerances and survey accuracy.
    context
        Access points, land cover, public property, the date of the check.
    """
    settings = settings or Settings()
    context = context or Context()
    profiles = _as_profiles(rules)
    markers = markers if markers is not None else MarkerLayer.empty()
    if isinstance(parcels, PreparedParcels):
        prep = parcels
        if prep.settings != settings:
            raise InputError("the parcels were prepared with other settings than the check's")
    else:
        prep = prepare_parcels(parcels, settings)
    asg = assign_markers(prep, markers, tolerance_ft=settings.tolerance_ft)
    release_memory()  # the assignment's temporaries, which the next steps would not reuse
    base = _base(prep, asg, markers, settings, context, profiles)
    base.land = land_facts(prep, context, settings)
    results = [_evaluate(p, base) for p in profiles]
    return _assemble(base, profiles, results)


# -- shared measurements ---------------------------------------------------------------------


def _base(prep, asg, markers, settings, context, profiles) -> _Base:
    am = np.flatnonzero(asg.assigned)
    attrs_all = markers.attributes
    if len(attrs_all.columns) and len(attrs_all) == len(markers):
        attrs = attrs_all.iloc[am].reset_index(drop=True)
    else:
        attrs = pd.DataFrame(index=range(len(am)))
    kinds_all = (
        marker_kinds(attrs_all)
        if len(attrs_all.columns)
        else np.full(len(markers), "sign", dtype=object)
    )
    base = _Base(
        prep, asg, markers, settings, context, am, kinds_all[am], attrs, None, all_kinds=kinds_all
    )
    other = kinds_all == "other"
    if other.any():
        col = find_column(attrs_all.columns, "kind")
        shown = ", ".join(sorted({str(v) for v in attrs_all.loc[other, col].head(50)})[:5])
        base.warnings.append(
            f"{int(other.sum())} marker(s) have a kind that is not sign, paint or post ({shown}); "
            "they are assigned to their parcel but count for no rule"
        )
    if context.access is not None:
        base.crossings = _crossings(prep, context.access, settings)
    if any(p.facing is not None for p in profiles) and len(am):
        nx, ny = outward_normals(prep.rings.geometry, asg.ring[am], asg.position_ft[am])
        x0, y0 = interpolate(prep.rings.geometry, asg.ring[am], asg.position_ft[am])
        group = prep.group[asg.parcel[am]]
        lon0, lat0 = prep.ft_to_lonlat(group, x0, y0)
        lon1, lat1 = prep.ft_to_lonlat(group, x0 + 10 * nx, y0 + 10 * ny)
        base.outward_az = azimuth_deg(lon0, lat0, lon1, lat1)
    return base


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
        return pd.DataFrame(columns=_CROSSING_COLUMNS)
    return pd.concat(frames, ignore_index=True)


# -- one profile -----------------------------------------------------------------------------


def _evaluate(profile: Profile, base: _Base) -> _Result:
    prep, _asg, _s = base.prep, base.asg, base.settings
    valid = prep.group >= 0
    findings: list[pd.DataFrame] = [empty_findings()]
    not_checked: list[dict[str, str]] = []
    kinds_used = set(profile.kinds)
    for rule in (profile.spacing, profile.corners, profile.access):
        if rule is not None:
            kinds_used |= set(rule.kinds)
    counted = base.counted(base.mask(tuple(kinds_used)))

    # the corner check needs nothing from the spacing check: it runs beside it
    corner_findings: list[pd.DataFrame] = []
    corners_job = background(_corners, profile, base, corner_findings)
    gaps, max_gap = _spacing(profile, base, findings, not_checked)
    corners = corners_job.result()
    findings.extend(corner_findings)
    access = _access(profile, base, findings, not_checked)
    banks = _water_banks(profile, base, findings, not_checked)
    if len(banks):
        access = pd.concat([access, banks], ignore_index=True)
    _attributes(profile, base, findings, not_checked)
    if profile.visibility is not None:
        not_checked.append(
            {
                "rule": "visibility",
                "clause": profile.visibility.clause,
                "reason": f"{profile.visibility.text or 'visibility'}: line of sight cannot be "
                "judged from surveyed positions",
            }
        )
    f = pd.concat(findings, ignore_index=True).sort_values("parcel", kind="stable")
    f = f.reset_index(drop=True)
    f["profile"] = profile.name
    f["basis"] = _basis(profile, f["rule"].to_numpy())
    status = decide(prep.invalid, np.where(valid, counted, 0), f)
    posted_by, exemption, fence_gaps = _land_rules(profile, base, status, not_checked)
    overridden = np.flatnonzero(pd.notna(exemption) | np.isin(posted_by, ("fence", "cultivation")))
    if len(overridden):  # the signs' findings still shown, as notes: not needed there
        hit = (
            np.isin(f["parcel"].to_numpy(), overridden)
            & f["level"].isin(["violation", "uncertain"]).to_numpy()
        )
        why = np.where(pd.notna(exemption), "exempt", "posted by " + posted_by.astype(str))
        f.loc[hit, "message"] = [
            f"(not needed: {why[p]}) {m}"
            for p, m in zip(f.loc[hit, "parcel"], f.loc[hit, "message"], strict=True)
        ]
        f.loc[hit, "level"] = "note"
        status[overridden] = np.where(pd.notna(exemption[overridden]), "exempt", "compliant")
    posted_by[(status == "compliant") & pd.isna(posted_by)] = "signs"
    return _Result(
        profile,
        status,
        counted,
        max_gap,
        gaps,
        corners,
        access,
        f,
        not_checked,
        posted_by,
        exemption,
        fence_gaps,
    )


def _land_rules(profile: Profile, base: _Base, status: np.ndarray, not_checked):
    """Exemption, fence and cultivation: land that needs no signs, under this profile."""
    prep, land = base.prep, base.land
    n = base.n
    valid = prep.group >= 0
    posted_by = np.full(n, None, dtype=object)
    exemption = np.full(n, None, dtype=object)
    fence_gaps = pd.DataFrame(columns=["parcel", "length_ft", "geometry"])
    fenced = np.zeros(n, dtype=bool)
    if profile.fence is not None:
        if land.fence_lines is None:
            not_checked.append(
                {
                    "rule": "fence",
                    "clause": profile.fence.clause,
                    "reason": "no fence layer (--fences)",
                }
            )
        else:
            fenced, _, gaps = fence_cover(
                prep,
                land,
                profile.fence.min_height_ft,
                base.settings.tolerance_ft,
                profile.fence.water_excepted,
            )
            posted_by[fenced & valid] = "fence"
            ring_parcel = prep.rings.parcel[gaps.ring]
            geo = prep.geoms_to_lonlat(prep.group[ring_parcel], gaps.geometry)
            fence_gaps = pd.DataFrame(
                {"parcel": ring_parcel, "length_ft": gaps.length_ft, "geometry": geo}
            )
    c = profile.cultivation
    if c is not None and c.counts_as_posted:
        if land.cultivated is None:
            not_checked.append(
                {
                    "rule": "cultivation",
                    "clause": c.clause,
                    "reason": "which land is cultivated is unknown (give "
                    "--cultivated-where, or a --landcover layer)",
                }
            )
        else:
            cult = pd.Series(land.cultivated, dtype=object).fillna(False).astype(bool).to_numpy()
            posted_by[cult & valid & pd.isna(posted_by)] = "cultivation"
    d = profile.dwelling
    if d is not None:
        if land.dwelling is None:
            not_checked.append(
                {
                    "rule": "dwelling",
                    "clause": d.clause,
                    "reason": "where the dwellings are is unknown (give --dwellings "
                    "or --dwelling-where)",
                }
            )
        else:
            small = valid & (prep.area_acres <= d.max_acres) & land.dwelling.astype(bool)
            for p in np.flatnonzero(small):
                needs = []
                for cond in d.requires:
                    if cond == "enclosed" and (fenced[p] or posted_by[p] == "fence"):
                        needs.append("enclosed (it is fenced all round)")
                    else:
                        needs.append(f"{cond} (not shown by the data: check it on the ground)")
                exemption[p] = (
                    f"land of {prep.area_acres[p]:.2f} acres (not more than {d.max_acres:g}) with "
                    f"a dwelling ({land.dwelling_source}), {d.clause}"
                    + (f"; the land must also be {', '.join(needs)}" if needs else "")
                )
    return posted_by, exemption, fence_gaps


def _water_banks(profile: Profile, base: _Base, findings, not_checked) -> pd.DataFrame:
    """Where water crosses a boundary, a marker on each bank (Montana's rule)."""
    w = profile.water
    if w is None or w.mode != "both_banks":
        return pd.DataFrame()
    water = base.land.water
    if water is None:
        not_checked.append(
            {
                "rule": "water",
                "clause": w.clause,
                "reason": "no water layer (--water) to find where water crosses the boundary",
            }
        )
        return pd.DataFrame()
    prep = base.prep
    rings = prep.rings
    ends = np.concatenate(
        [shapely.get_point(water.geometry, 0), shapely.get_point(water.geometry, -1)]
    )
    ring = np.r_[water.ring, water.ring]
    pos = shapely.line_locate_point(rings.geometry[ring], ends)
    parcel = rings.parcel[ring]
    x, y = shapely.get_x(ends), shapely.get_y(ends)
    lon, lat = prep.ft_to_lonlat(prep.group[parcel], x, y)
    pts = pd.DataFrame(
        {
            "parcel": parcel,
            "ring": ring,
            "position_ft": pos,
            "x_ft": x,
            "y_ft": y,
            "lon": lon,
            "lat": lat,
            "feature": -1,
            "type": "bank",
        }
    )
    out = _points_check(base, pts, profile.kinds, "at_corner", base.settings.access_tolerance_ft)
    counted = base.counted(base.mask(profile.kinds))
    findings.append(
        water_findings(
            out, counted, w, base.settings.access_tolerance_ft, base.settings.accuracy_ft
        )
    )
    out["status"] = _status(out["status"].to_numpy(), _POINT_STATUS)
    return out


def _basis(profile: Profile, rule_names: np.ndarray) -> np.ndarray:
    """``statute``, ``statute (unverified)`` or ``guidance`` for each finding's rule."""
    out = np.full(
        len(rule_names), "guidance" if profile.standard == "guidance" else "statute", dtype=object
    )
    if profile.standard != "guidance":
        for name, rule in profile.rules():
            if not rule.verified or profile.verification == "unverified":
                out[np.char.startswith(rule_names.astype(str), name)] = "statute (unverified)"
    return out


def _spacing(profile, base: _Base, findings, not_checked):
    prep, asg, s = base.prep, base.asg, base.settings
    rings, n = prep.rings, base.n
    rule = profile.spacing
    if rule is None:
        return _empty_gaps(), np.full(n, np.nan)
    sel = base.mask(rule.kinds)
    m = base.am[sel]
    gaps = ring_gaps(asg.ring[m], asg.position_ft[m], rings.length_ft)
    sm, em = gaps.start_marker, gaps.end_marker
    mx, my = asg.x_ft[m], asg.y_ft[m]
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
            "start_marker": np.where(sm >= 0, m[np.maximum(sm, 0)] if len(m) else -1, -1),
            "end_marker": np.where(em >= 0, m[np.maximum(em, 0)] if len(m) else -1, -1),
        },
        copy=False,  # this function's own arrays: a million gaps need no second copy
    )
    df["forest"], df["limit_ft"] = _spacing_limits(profile, base, df, not_checked)
    along = gaps.length_ft
    w = profile.water
    if w is not None and w.mode == "exempt" and base.land.water is not None:
        # boundaries formed by water need no posting: their length does not count in a gap
        df["water_ft"] = _water_overlap(prep, df, base.land)
        along = np.maximum(gaps.length_ft - df["water_ft"].to_numpy(), 0.0)
    df["measured_ft"] = measured_gap(along, straight, rule.metric)
    code = against_max(df["measured_ft"].to_numpy(), df["limit_ft"].to_numpy(), s.accuracy_ft)
    code[gaps.unmarked & (along > 1.0)] = FAIL
    counted = base.counted(sel)
    findings.append(
        spacing_findings(
            df.assign(status=code), counted, prep.perimeter_ft, prep.group >= 0, rule, s.accuracy_ft
        )
    )
    df["status"] = _status(np.where(gaps.unmarked, 3, code), _GAP_STATUS)
    max_gap = np.full(n, np.nan)
    if len(gaps):
        np.fmax.at(max_gap, parcel, gaps.length_ft)
    max_gap[counted == 0] = np.nan
    _gap_ends(prep, df)
    return df, max_gap


def _water_overlap(prep: PreparedParcels, df: pd.DataFrame, land: LandFacts) -> np.ndarray:
    """Length of each gap that runs along water."""
    out = np.zeros(len(df))
    if not len(df):
        return out
    lines = ring_stretches(
        prep.rings.geometry,
        df["ring"].to_numpy(),
        df["start_ft"].to_numpy(),
        df["length_ft"].to_numpy(),
        vertices=prep.vertices,
    )
    group = prep.group[df["parcel"].to_numpy(dtype=np.int64)]
    for g, pieces in land.water_zone.items():
        at = group == g
        if at.any() and len(pieces):
            out[at] = forest_share(lines[at], pieces) * df["length_ft"].to_numpy()[at]
    return out


def _spacing_limits(
    profile, base: _Base, df: pd.DataFrame, not_checked
) -> tuple[np.ndarray, np.ndarray]:
    """Per gap: forest land or not (NaN unknown), and the spacing limit that applies."""
    rule = profile.spacing
    n = len(df)
    forest = np.full(n, np.nan)
    if not rule.by_landcover:
        return forest, np.full(n, rule.max_ft)
    ctx = base.context
    if ctx.landcover is not None:
        prep = base.prep
        lines = ring_stretches(
            prep.rings.geometry,
            df["ring"].to_numpy(),
            df["start_ft"].to_numpy(),
            df["length_ft"].to_numpy(),
            vertices=prep.vertices,
        )
        group = prep.group[df["parcel"].to_numpy(dtype=np.int64)]
        is_forest = ctx.landcover.values == "forest"
        for g in range(len(prep.crss)):
            at = group == g
            if not at.any():
                continue
            near, polys = layer_in_group(ctx.landcover, prep, g, 0.0)
            share = forest_share(lines[at], polys[is_forest[near]])
            forest[at] = (share >= 0.5).astype(float)
    elif ctx.parcel_landcover is not None:
        per_parcel = np.array(
            [np.nan if v is None else float(bool(v)) for v in ctx.parcel_landcover], dtype=float
        )
        forest = per_parcel[df["parcel"].to_numpy(dtype=np.int64)] if n else forest
    unknown = np.isnan(forest)
    limit = np.where(forest == 1.0, rule.forest_ft, rule.other_ft)
    limit[unknown] = rule.strictest_ft
    if unknown.any() or (ctx.landcover is None and ctx.parcel_landcover is None):
        not_checked.append(
            {
                "rule": "landcover",
                "clause": rule.clause,
                "reason": f"land cover unknown for {int(unknown.sum())} of {n} gaps (no "
                "--landcover layer or parcel attribute): the stricter spacing, "
                f"{rule.strictest_ft:,.0f} ft, applied there",
            }
        )
    return forest, limit


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
    no marker). The same points as the ends of the gap's line (:meth:`Report.gap_lines`), made
    without the line: most runs never draw one."""
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


def _points_check(base: _Base, pts: pd.DataFrame, kinds, mode: str, tol: float) -> pd.DataFrame:
    """Status of places that need a marker (corners, access points).

    The markers that can serve a place are first the two beside it along its ring: the last one
    at or before it and the first one after it. ``at_corner``: the nearer of the two, in a
    straight line, must be within ``tol`` (or, failing that, any marker of the parcel).
    ``each_side``: both must be within ``tol`` along the ring, and be two different markers.
    """
    asg, rings = base.asg, base.prep.rings
    m = base.am[base.mask(kinds)]
    b, a, bft, aft = ring_neighbours(
        pts["ring"].to_numpy(),
        pts["position_ft"].to_numpy(),
        asg.ring[m],
        asg.position_ft[m],
        rings.length_ft,
    )
    has = b >= 0
    if mode == "each_side":
        figure = np.where(has & (b != a), np.maximum(bft, aft), np.inf)
        neighbour = np.where(has, np.maximum(bft, np.where(b == a, bft, aft)), np.inf)
    else:
        figure = np.full(len(pts), np.inf)
        if has.any():
            px, py = pts["x_ft"].to_numpy()[has], pts["y_ft"].to_numpy()[has]
            mx, my = asg.x_ft[m], asg.y_ft[m]
            figure[has] = np.minimum(
                np.hypot(mx[b[has]] - px, my[b[has]] - py),
                np.hypot(mx[a[has]] - px, my[a[has]] - py),
            )
        neighbour = figure.copy()
        # Any marker of the parcel within the tolerance serves: one of another ring (where a
        # hole touches the exterior, or two parts meet), or one the ring's order puts further
        # away (on a spike). Looked up only for the places still unserved, among the markers of
        # their parcels.
        tol_all = tol + base.settings.accuracy_ft
        loose = np.flatnonzero(figure > tol_all)
        wanted = np.zeros(base.n, dtype=bool)
        wanted[pts["parcel"].to_numpy(dtype=np.int64)[loose]] = True
        others = m[wanted[asg.parcel[m]]]
        if len(loose) and len(others):
            ox, oy = asg.x_ft[others], asg.y_ft[others]
            px, py = pts["x_ft"].to_numpy()[loose], pts["y_ft"].to_numpy()[loose]
            # the places in each marker's box grown by the reach (bare coordinates, no Points)
            reach = np.column_stack([ox - tol_all, oy - tol_all, ox + tol_all, oy + tol_all])
            qi, ti = BoxGrid(reach).query(px, py)
            d = np.hypot(ox[ti] - px[qi], oy[ti] - py[qi])
            ok = (pts["parcel"].to_numpy()[loose][qi] == asg.parcel[others][ti]) & (d <= tol_all)
            best = np.full(len(loose), np.inf)
            np.minimum.at(best, qi[ok], d[ok])
            figure[loose] = np.minimum(figure[loose], best)
    out = pts.copy()
    out["nearest_ft"] = figure
    out["neighbour_ft"] = neighbour
    out["status"] = against_max(figure, tol, base.settings.accuracy_ft)
    return out


def _corners(profile, base: _Base, findings) -> pd.DataFrame:
    prep = base.prep
    c = prep.corners
    parcel = prep.rings.parcel[c.ring]
    lon, lat = prep.corner_lonlat
    pts = pd.DataFrame(
        {
            "parcel": parcel,
            "ring": c.ring,
            "part": prep.rings.part[c.ring],
            "hole": prep.rings.hole[c.ring],
            "position_ft": c.position_ft,
            "x_ft": c.x,
            "y_ft": c.y,
            "lon": lon,
            "lat": lat,
            "turn_deg": c.turn_deg,
        }
    )
    rule = profile.corners
    if rule is None or rule.mode == "none":
        return pts.assign(
            nearest_ft=np.nan,
            neighbour_ft=np.nan,
            status=_status(np.full(len(pts), 3), _POINT_STATUS),
        )
    out = _points_check(base, pts, rule.kinds, rule.mode, base.settings.corner_tolerance_ft)
    counted = base.counted(base.mask(rule.kinds))
    findings.append(
        corner_findings(
            out, counted, rule, base.settings.corner_tolerance_ft, base.settings.accuracy_ft
        )
    )
    out["status"] = _status(out["status"].to_numpy(), _POINT_STATUS)
    return out


def _access(profile, base: _Base, findings, not_checked) -> pd.DataFrame:
    rule = profile.access
    cols = [*_CROSSING_COLUMNS, "nearest_ft", "neighbour_ft", "status"]
    if rule is None:
        return pd.DataFrame(columns=cols)
    if base.crossings is None:
        not_checked.append(
            {
                "rule": "access",
                "clause": rule.clause,
                "reason": "no access layer (--access) to find the entrances, gates and roads",
            }
        )
        return pd.DataFrame(columns=cols)
    pts = base.crossings
    if rule.types:
        t = pts["type"].astype("string").str.strip().str.casefold()
        keep = (t.isna() | t.isin(rule.types)).to_numpy(dtype=bool)
        pts = pts[keep].reset_index(drop=True)
    out = _points_check(base, pts, rule.kinds, "at_corner", base.settings.access_tolerance_ft)
    counted = base.counted(base.mask(rule.kinds))
    findings.append(
        access_findings(
            out, counted, rule, base.settings.access_tolerance_ft, base.settings.accuracy_ft
        )
    )
    out["status"] = _status(out["status"].to_numpy(), _POINT_STATUS)
    return out[cols]


@dataclass(frozen=True)
class _Item:
    rule: str
    clause: str
    kinds: tuple[str, ...]
    columns: tuple[str, ...]
    fn: Callable[..., np.ndarray]
    what: str
    limit: float | None = None
    unit: str | None = None
    worst: str = "min"
    level: str = "violation"
    value: str | None = None  # column whose value is reported as measured


def _at_least_in(rule: str, spec: Any, column: str, limit: float, what: str) -> _Item:
    """An item that fails markers whose ``column`` (inches) is under ``limit``."""
    return _Item(
        rule,
        spec.clause,
        spec.kinds,
        (column,),
        lambda v: ct.at_least(v, limit),
        what,
        limit,
        "in",
        value=column,
    )


def _lettering(spec: ContentRule | PaintRule, letters_rule: str, words_rule: str) -> list[_Item]:
    """The letter-height and required-words items of a sign or paint rule (both have them)."""
    out: list[_Item] = []
    if spec.letter_min_in is not None:
        out.append(
            _at_least_in(
                letters_rule,
                spec,
                "letter_height_in",
                spec.letter_min_in,
                f"have letters under {spec.letter_min_in:g} in",
            )
        )
    if spec.required_words:
        words = " and ".join(f'"{w}"' for w in spec.required_words)
        out.append(
            _Item(
                words_rule,
                spec.clause,
                spec.kinds,
                ("text",),
                lambda v: ct.words_status(v, spec.required_words),
                f"do not show {words}",
            )
        )
    return out


def _items(profile: Profile, base: _Base) -> list[_Item]:
    out: list[_Item] = []
    c = profile.content
    if c is not None:
        k = c.kinds
        out += _lettering(c, "letter_height", "sign_text")
        if c.required_any:
            words = " or ".join(f'"{w}"' for w in c.required_any)
            out.append(
                _Item(
                    "sign_text",
                    c.clause,
                    k,
                    ("text",),
                    lambda v: ct.any_words_status(v, c.required_any),
                    f"show none of {words}",
                )
            )
        if c.name:
            out.append(
                _Item(
                    "name_on_sign",
                    c.clause,
                    k,
                    ("name_on_sign",),
                    ct.name_status,
                    f"show no name (the {c.name} must be named)",
                )
            )
        if c.address:
            out.append(
                _Item(
                    "address_on_sign",
                    c.clause,
                    k,
                    ("address_on_sign",),
                    ct.name_status,
                    "show no address",
                )
            )
        if c.phone:
            out.append(
                _Item(
                    "phone_on_sign",
                    c.clause,
                    k,
                    ("phone_on_sign",),
                    ct.name_status,
                    "show no phone number",
                )
            )
        if c.sign_min_in is not None:
            a, b = c.sign_min_in
            out.append(
                _Item(
                    "sign_size",
                    c.clause,
                    k,
                    ("width_in", "length_in"),
                    lambda w, h: ct.size_status(w, h, c.sign_min_in),
                    f"are smaller than {a:g} x {b:g} in",
                )
            )
    p = profile.paint
    if p is not None:
        k = p.kinds
        if p.colors:
            out.append(
                _Item(
                    "paint_color",
                    p.clause,
                    k,
                    ("color",),
                    lambda v: ct.color_status(v, p.colors),
                    f"are not {' or '.join(p.colors)}",
                )
            )
        if p.min_length_in is not None:
            out.append(
                _at_least_in(
                    "paint_length",
                    p,
                    "length_in",
                    p.min_length_in,
                    f"are shorter than {p.min_length_in:g} in",
                )
            )
        if p.min_width_in is not None:
            out.append(
                _at_least_in(
                    "paint_width",
                    p,
                    "width_in",
                    p.min_width_in,
                    f"are narrower than {p.min_width_in:g} in",
                )
            )
        if p.min_area_sqin is not None:
            out.append(
                _Item(
                    "paint_area",
                    p.clause,
                    k,
                    ("width_in", "length_in"),
                    lambda w, h: ct.area_status(w, h, p.min_area_sqin),
                    f"cover less than {p.min_area_sqin:g} sq in",
                )
            )
        if p.bottom_min_ft is not None or p.bottom_max_ft is not None:
            out.append(
                _Item(
                    "paint_height",
                    p.clause,
                    k,
                    ("height_ft",),
                    lambda v: ct.within(v, p.bottom_min_ft, p.bottom_max_ft),
                    f"have their bottom outside {_range_text(p.bottom_min_ft, p.bottom_max_ft)} "
                    "above the ground",
                    None,
                    "ft",
                )
            )
        out += _lettering(p, "paint_letters", "paint_text")
    q = profile.post
    if q is not None:
        k = q.kinds
        if q.colors:
            out.append(
                _Item(
                    "post_color",
                    q.clause,
                    k,
                    ("color",),
                    lambda v: ct.color_status(v, q.colors),
                    f"are not {' or '.join(q.colors)}",
                )
            )
        if q.min_length_in is not None:
            out.append(
                _at_least_in(
                    "post_top",
                    q,
                    "length_in",
                    q.min_length_in,
                    f"have less than {q.min_length_in:g} in of the top painted",
                )
            )
        if q.bottom_min_ft is not None or q.bottom_max_ft is not None:
            out.append(
                _Item(
                    "post_height",
                    q.clause,
                    k,
                    ("height_ft",),
                    lambda v: ct.within(v, q.bottom_min_ft, q.bottom_max_ft),
                    f"have the bottom of the painted top outside "
                    f"{_range_text(q.bottom_min_ft, q.bottom_max_ft)} above the ground",
                    None,
                    "ft",
                )
            )
    fr = profile.facing
    if fr is not None and base.outward_az is not None:
        az = base.outward_az
        out.append(
            _Item(
                "facing",
                fr.clause,
                fr.kinds,
                ("facing_deg",),
                lambda v, sel: ct.facing_status(v, az[sel], fr.tolerance_deg),
                f"face more than {fr.tolerance_deg:g}° away from outward (they face "
                "into the parcel)",
                fr.tolerance_deg,
                "deg",
            )
        )
    rn = profile.renewal
    if rn is not None:
        today = pd.Timestamp(base.context.today or _dt.date.today())
        out.append(
            _Item(
                "renewal",
                rn.clause,
                KINDS_ALL,
                ("surveyed",),
                lambda v: ct.age_status(v, today, rn.days),
                f"were surveyed more than {rn.days:g} days ago (posting is renewed "
                "yearly): survey them again",
                level="note",
            )
        )
    return out


KINDS_ALL = ("sign", "paint", "post")


def _range_text(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"{lo:g}-{hi:g} ft"
    return f"at least {lo:g} ft" if lo is not None else f"at most {hi:g} ft"


def _attributes(profile: Profile, base: _Base, findings, not_checked) -> None:
    """Per-marker attribute rules: content, paint, posts, facing, renewal, public notice."""
    asg, attrs = base.asg, base.attrs
    parcel = asg.parcel[base.am]
    items = _items(profile, base)
    on_public = np.zeros(len(parcel), dtype=bool)
    if profile.public is not None:
        pub = base.context.public
        if pub is None:
            not_checked.append(
                {
                    "rule": "public_notice",
                    "clause": profile.public.clause,
                    "reason": "which parcels the public is invited to is unknown "
                    "(give --public-where)",
                }
            )
        else:
            on_public = np.asarray(pub, dtype=bool)[parcel]
            words = profile.public.offence_words
            items.append(
                _Item(
                    "public_notice",
                    profile.public.clause,
                    KINDS_ALL,
                    ("text",),
                    lambda v: ct.hours_status(v, words),
                    "do not state the days and hours entry is prohibited and that "
                    "entry then is an offence (property open to the public)",
                )
            )
    missing_reported: set[tuple[str, str]] = set()
    for item in items:
        sel = np.flatnonzero(np.isin(base.kinds, item.kinds))
        if item.rule == "public_notice":
            sel = sel[on_public[sel]]
        if len(sel) == 0:
            continue
        cols = [find_column(attrs.columns, c) for c in item.columns]
        if any(c is None for c in cols):
            miss = next(c for c, got in zip(item.columns, cols, strict=True) if got is None)
            if (item.rule, miss) not in missing_reported:
                missing_reported.add((item.rule, miss))
                not_checked.append(
                    {
                        "rule": item.rule,
                        "clause": item.clause,
                        "reason": f"the marker data has no {miss} column",
                    }
                )
            continue
        values = [attrs[c].iloc[sel].reset_index(drop=True) for c in cols]
        status = item.fn(*values, sel) if item.rule == "facing" else item.fn(*values)
        shown = (
            attrs[find_column(attrs.columns, item.value)].iloc[sel].to_numpy()
            if item.value
            else None
        )
        noun = {"sign": "signs", "paint": "paint marks", "post": "painted posts"}.get(
            item.kinds[0] if len(item.kinds) == 1 else "", "markers"
        )
        findings.append(
            item_findings(
                parcel[sel],
                status,
                shown,
                rule=item.rule,
                clause=item.clause,
                what=item.what,
                limit=item.limit,
                unit=item.unit,
                level=item.level,
                noun=noun,
            )
        )
        if item.rule == "name_on_sign" and base.prep.layer.owners is not None:
            owners = pd.Series(base.prep.layer.owners[parcel[sel]])
            named = (status == OK) & owners.notna().to_numpy()
            differ = named & ~ct.names_agree(values[0], owners)
            if differ.any():
                k = pd.Series(parcel[sel][differ]).value_counts().sort_index()
                findings.append(
                    findings_frame(
                        k.index,
                        "name_on_sign",
                        "note",
                        item.clause,
                        [
                            f"{c} {'signs name' if c > 1 else 'sign names'} someone other than the "
                            "owner of record (lawful if it is the lessee or occupant)"
                            for c in k
                        ],
                        np.nan,
                        None,
                        None,
                        k.to_numpy(),
                    )
                )
    c = profile.content
    if c is not None and c.statement_min_sqin is not None:
        not_checked.append(
            {
                "rule": "statement_size",
                "clause": c.clause,
                "reason": f"the area of the statement (at least {c.statement_min_sqin:g} sq in) is "
                "not a column of the marker data",
            }
        )


# -- several profiles ------------------------------------------------------------------------


def _assemble(base: _Base, profiles: list[Profile], results: list[_Result]) -> Report:
    prep, asg, markers = base.prep, base.asg, base.markers
    n = base.n
    rank = (
        np.vstack([[RANK[s] for s in r.status] for r in results])
        if n
        else np.zeros((len(results), 0), int)
    )
    choice = np.argmin(rank, axis=0) if n else np.empty(0, dtype=np.int64)

    def pick(attr: str) -> np.ndarray:
        stacked = np.vstack([getattr(r, attr) for r in results])
        return stacked[choice, np.arange(n)] if n else stacked[:, :0].ravel()

    def rows(attr: str) -> pd.DataFrame:
        if len(results) == 1:  # one profile: every row is the chosen profile's
            return getattr(results[0], attr).reset_index(drop=True)
        parts = []
        for k, r in enumerate(results):
            t = getattr(r, attr)
            if len(t):
                parts.append(t[choice[t["parcel"].to_numpy(dtype=np.int64)] == k])
        return (
            pd.concat(parts, ignore_index=True)
            if parts
            else getattr(results[0], attr).iloc[:0].reset_index(drop=True)
        )

    status = pick("status")
    ids = prep.layer.ids
    dup = text(ids).duplicated(keep=False).to_numpy()
    warnings = list(prep.layer.notes) + list(markers.notes) + base.warnings
    _input_warnings(prep, markers, ids, dup, warnings)
    labels = np.asarray([c.label for c in prep.crss] + [None], dtype=object)
    names = np.asarray([p.name for p in profiles], dtype=object)
    parcels_df = pd.DataFrame(
        {
            "id": text(ids),
            "row": np.arange(n),
            "owner": text(prep.layer.owners if prep.layer.owners is not None else np.full(n, None)),
            "status": text(status),
            "rules": text(names[choice] if n else np.empty(0, dtype=object)),
            "signs": np.bincount(asg.parcel[base.am], minlength=n),
            "markers_counted": pick("counted"),
            "rings": prep.ring_count,
            "perimeter_ft": prep.perimeter_ft,
            "area_acres": prep.area_acres,
            "max_gap_ft": pick("max_gap"),
            "corners": np.bincount(prep.rings.parcel[prep.corners.ring], minlength=n),
            "repaired": text(prep.repaired),
            "invalid_reason": text(prep.invalid),
            "duplicate_id": dup,
            "working_crs": text(labels[prep.group]),
            "exemption": text(pick("exemption")),
            "posted_by": text(pick("posted_by")),
        }
    )
    land = base.land
    rp = prep.rings.parcel
    if land.water is not None:
        parcels_df["water_frontage_ft"] = land.water.total_by(rp, n)
    if land.dwelling is not None:
        parcels_df["dwelling"] = land.dwelling
    if land.recorded_acres is not None:
        parcels_df["recorded_acres"] = land.recorded_acres
    if land.easements is not None:
        parcels_df["easement_ft"] = land.easements.total_by(rp, n)
    if prep.source_rows is not None and any(len(r) > 1 for r in prep.source_rows):
        parcels_df["source_ids"] = prep.source_ids
    stretches = {}
    for name, st, extra in (
        ("water", land.water, None),
        ("easements", land.easements, land.easement_holder),
    ):
        if st is None:
            continue
        parcel = rp[st.ring]
        table = pd.DataFrame(
            {
                "parcel": parcel,
                "ring": st.ring,
                "length_ft": st.length_ft,
                "geometry": prep.geoms_to_lonlat(prep.group[parcel], st.geometry),
            }
        )
        if extra is not None:
            table["holder"] = pd.Series(extra, dtype=object)
        stretches[name] = table
    alternatives = pd.DataFrame(
        {
            "parcel": np.tile(np.arange(n), len(results)),
            "profile": text(np.repeat(names, n)),
            "status": text(
                np.concatenate([r.status for r in results]) if n else np.empty(0, dtype=object)
            ),
        }
    )
    all_findings = pd.concat([r.findings for r in results], ignore_index=True)
    not_checked = []
    for r in results:
        not_checked += [{**x, "profile": r.profile.name} for x in r.not_checked]
    return Report(
        profile=profiles[0],
        profiles=profiles,
        settings=base.settings,
        prepared=prep,
        assignment=asg,
        marker_layer=markers,
        parcels=parcels_df,
        findings=rows("findings"),
        gaps=rows("gaps"),
        corners=rows("corners"),
        access=rows("access"),
        markers=_marker_table(base, ids),
        not_checked=not_checked,
        warnings=warnings,
        alternatives=alternatives,
        all_findings=all_findings,
        water=stretches.get("water"),
        easements=stretches.get("easements"),
        fence_gaps=rows("fence_gaps"),
        generated=_dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
    )


def _input_warnings(prep, markers, ids, dup, warnings: list[str]) -> None:
    source = prep.layer.source
    if dup.any():
        dups = pd.Series(ids[dup]).unique()
        shown = ", ".join(repr(x) for x in dups[:5])
        warnings.append(
            f"{source}: {len(dups)} parcel id(s) appear more than once ({shown}"
            f"{', ...' if len(dups) > 5 else ''}); each row is checked on its own, not merged"
        )
    for i in np.flatnonzero(~pd.isna(prep.repaired)):
        warnings.append(f"{source}: parcel {ids[i]!r} (row {i}): {prep.repaired[i]}")
    for i in np.flatnonzero(~pd.isna(prep.invalid)):
        warnings.append(f"{source}: parcel {ids[i]!r} (row {i}) is invalid: {prep.invalid[i]}")
    unusable = ~pd.isna(markers.reason)
    if unusable.any():
        warnings.append(
            f"{int(unusable.sum())} marker row(s) have no usable position; they are listed "
            "among the unassigned signs with the reason"
        )


def _marker_table(base: _Base, ids: np.ndarray) -> pd.DataFrame:
    markers, asg, prep = base.markers, base.asg, base.prep
    p = asg.parcel
    ok = p >= 0
    ring = asg.ring
    has_rings = len(prep.rings) > 0
    part = np.where(ok, prep.rings.part[np.maximum(ring, 0)] if has_rings else -1, -1)
    hole = np.where(ok, prep.rings.hole[np.maximum(ring, 0)] if has_rings else -1, -1)
    parcel_id = np.full(len(p), None, dtype=object)
    parcel_id[ok] = ids[p[ok]]
    kind = base.all_kinds
    # the columns as they are (copy=False): a million rows, consolidated into blocks, would be
    # copied once more for nothing
    return pd.DataFrame(
        {
            "source": text(markers.source),
            "row": markers.row,
            "lon": markers.lon,
            "lat": markers.lat,
            "kind": text(kind),
            "parcel": p,
            "parcel_id": text(parcel_id),
            "ring": ring,
            "part": part,
            "hole": hole,
            "assigned_by": text(asg.how),
            "distance_ft": asg.distance_ft,
            "position_ft": asg.position_ft,
            "reason": text(asg.reason),
        },
        copy=False,
    )
