"""The landowner's plan: where to put the markers a parcel still needs.

A verdict of "noncompliant" is half an answer; this module gives the other half. It reads a
:class:`~posting.report.Report` (the gaps, the corners and the ring geometry are all there) and,
for each parcel that is not compliant, places new markers:

1. **Anchors** first, at the positions the rule fixes: every corner without a marker (role
   ``corner``). Access points (role ``access``) will be anchors too when the access rule
   exists; :data:`ANCHOR_ROLES` lists them, and they are placed before any interval marker.
2. **Interval markers** then fill what is left. Along each ring, the existing markers and the
   anchors are fixed positions; a gap of length ``g`` between two of them needs at least
   ``ceil(g / T) - 1`` more markers to bring every piece within the spacing ``T``, and that many
   evenly spaced markers suffice (``g / (k + 1) <= T``), so the plan places exactly that many:
   it is the fewest possible given the fixed positions. A ring with no fixed position at all
   (an unposted parcel without corners, a hole, a detached part) needs ``ceil(length / T)``
   markers, evenly spaced. Gaps between two existing markers that the check passed are left
   alone.

Gaps are measured along the boundary, as Florida's rule measures them; under a profile that
measures spacing in a straight line, a gap within ``T`` along the boundary is within ``T`` in a
straight line too, so the plan still complies, though on a curved boundary it may place more than
that profile's minimum.

``T`` is the rule's limit minus twice the stated survey accuracy (``--accuracy-ft``: a gap runs
between two markers, each of which may be off by it), so that a re-check with that accuracy is
not ``uncertain``, minus :data:`MARGIN_FT` (0.2 ft, 6 cm): the
plan's coordinates are exported with 7 decimals (1 cm) and read back by devices and apps; the
margin keeps every gap within the limit whatever reader rounds them, at the cost of one extra
marker only for a gap within ``k * 0.2`` ft of an exact multiple ``k`` of the limit.

**Where a marker stands.** Signs go on the posted land, just inside the line: each new marker
is set back inside the boundary by ``setback_ft`` (:data:`DEFAULT_SETBACK_FT`, 3 ft: clear of a
boundary fence whose posts stand on the line, on the owner's side, and far within the check's
30 ft tolerance). An interval marker is set back along the inward normal, so it projects back
onto the boundary where it was planned. A corner marker is set back along the inward bisector
of the corner, turned 5° (or a quarter of a narrow corner's opening) towards the side after the
corner so that which side it projects onto is never a tie, and stays within the corner
tolerance. Corners of one parcel at one point (a hole touching the exterior, two parts
meeting there) share a marker, as a check takes them for one place (within its
``corner_merge_ft``).

**Checked as the checker will.** Each planned position is rounded to 7 decimals and assigned
with the checker's own :func:`~posting.assign.assign_markers` against the report's prepared
parcels (nothing is measured again: the same rings, the same rules). A marker must stand inside
its parcel and be counted for it: an interval marker on its ring near the planned spot, a corner
marker within reach of its corner. Where one is not (a strip narrower than twice the setback,
an overlapping neighbour, a hole touching the exterior at a corner), or would leave a gap over
the limit, a corner marker first tries other directions, then any marker has its setback halved
until it is counted where it was planned; the setback used is in the plan. A parcel whose
boundary repeats an earlier one's exactly is not planned (a check counts each sign for one
parcel), and a marker that no position lets a check count for its parcel is kept, with a note
and a warning.

The outward-facing azimuth of each marker (the way its face looks, in degrees clockwise from
true north) is computed geodesically between longitude/latitude points, since the working
frame's grid north is not true north away from its central meridian.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import shapely

from posting.ambiguity import ON_LINE_FT, near_other_parcel
from posting.assign import assign_markers
from posting.boundary import arc_overlap_ft, frame
from posting.checks import EPSILON_FT, OK, apart_accuracy
from posting.checks.content import names_match, normalise_text
from posting.checks.spacing import ring_gaps
from posting.crs import WGS84, azimuth_deg
from posting.errors import InputError
from posting.index import unique_ints
from posting.io import MarkerLayer
from posting.kinds.access import UNSURE
from posting.kinds.density import FT_PER_MILE, count
from posting.kinds.points import own_markers
from posting.kinds.water import DRY_FT
from posting.records import LONLAT_DECIMALS
from posting.report import Report

__all__ = [
    "ANCHOR_ROLES",
    "DEFAULT_SETBACK_FT",
    "EXISTING",
    "MARGIN_FT",
    "PLANNED_STATUSES",
    "ROLES",
    "ROLE_LETTER",
    "Plan",
    "lonlat_text",
    "plan",
]

ROLES = ("corner", "access", "interval")
"""Roles of planned markers, in the order they are placed. ``access`` is reserved for the
access-point rule (a marker at each point of ingress); no profile uses it yet."""
ANCHOR_ROLES = ("corner", "access")
"""Roles placed at positions the rule fixes, before interval markers fill the gaps."""
EXISTING = "existing"
"""Role of an existing marker in an export (``--include-existing``)."""
ROLE_LETTER = {"corner": "C", "access": "A", "interval": "I", EXISTING: "E"}
"""First letter of a marker's short name, by role."""

DEFAULT_SETBACK_FT = 3.0
"""How far inside the boundary a new marker stands (see the module docstring)."""
MARGIN_FT = 0.2
"""Spacing and corner distances are planned this much under their limits (see above)."""
PLANNED_STATUSES = ("noncompliant", "unposted", "uncertain")
"""Parcels with these statuses get a plan."""
NAME_MAX_CHARS = 10
"""Older handheld GPS units cut waypoint names at about ten characters."""

_CHORD_FT = 5.0  # boundary length either side of a marker that sets its inward direction
_CORNER_TILT_DEG = 5.0  # a corner's setback is turned this much towards the next side
_HALVINGS = 12  # 3 ft halved 12 times is under 0.001 ft; then the line itself is tried
_ARC_SLACK_FT = 0.5  # how far a projected position may stray beyond twice the setback
_AZIMUTH_STEP_FT = 10.0


def lonlat_text(values: np.ndarray) -> np.ndarray:
    """Longitudes or latitudes as exported: fixed 7-decimal text (NaN gives ``nan``).

    Every export writes these strings (or the floats they parse to), and the plan is checked
    on the floats they parse to, so what a device reads back is what was checked.

    Examples
    --------
    >>> lonlat_text(np.array([-81.123456789, 28.5])).tolist()
    ['-81.1234568', '28.5000000']
    """
    return np.char.mod(f"%.{LONLAT_DECIMALS}f", np.asarray(values, dtype=float))


def _rounded(values: np.ndarray) -> np.ndarray:
    return lonlat_text(values).astype(float) if len(values) else np.asarray(values, float)


@dataclass(frozen=True)
class Plan:
    """New marker positions for the parcels of a report that are not compliant.

    Attributes
    ----------
    report
        The check the plan answers.
    markers
        One row per new marker, by parcel (input order), ring and position: ``name`` (short,
        unique, at most 10 characters), ``parcel`` (input row), ``parcel_id``, ``role`` (one
        of :data:`ROLES`), ``ring``, ``part``, ``hole``, ``along_ft`` (position along its
        ring from the ring's first vertex, as a check measures it), ``next_ft`` (along the
        boundary to the next marker, existing or new), ``azimuth_deg`` (outward facing,
        clockwise from true north), ``setback_ft`` (how far inside the boundary it was set:
        along the inward normal, or along the bisector at a corner), ``line_ft`` (its distance
        from the boundary line, as a check measures it), ``corner_ft``
        (corner markers: distance to the corner), ``lon``, ``lat`` (rounded to 7 decimals),
        ``x_ft``, ``y_ft`` (working frame), ``note``.
    parcels
        The shopping list: one row per parcel that is not compliant (or exempt), invalid ones
        included with the reason: ``parcel``, ``id``,
        ``status``, one count per role, ``total``, ``signs`` (existing), ``perimeter_ft``,
        ``covered_ft`` (boundary in gaps over the limit or unmarked, which the plan posts),
        ``remaining`` (violations no placement fixes, such as sign content, and what stays
        uncertain, such as signs in words a person must read), ``note``, and
        ``complete`` (True when the plan's markers bring the parcel into compliance).
    spacing_ft
        The spacing planned for (limit minus twice the accuracy minus margin), or None without
        a spacing rule.
    setback_ft, margin_ft
        The settings used.
    sight_ft
        The sight distance planned for, where a profile wants markers in sight of each other
        (None without such a rule): the spacing is at most that, less twice the accuracy, the
        margin and twice the setback.
    spacing_by_count
        True where ``spacing_ft`` is that of a count of markers the law sets (to a mile, or in
        all), not a limit's.
    ring_spacing_ft
        Per ring of the report, the spacing planned for (NaN without a spacing rule).
    ground_hi, ground_high_ft
        The land's elevation not given (:mod:`posting.elevation`): how much longer on the
        ground a length at sea level may be on the ring ``spacing_ft`` is that of, and the
        highest elevation that stands for (1 and None when the figures are the ground's).
    warnings
        Markers that could not be placed so that a check counts them for their parcel (and,
        with a stakeout, its datum and area notes).
    stakeout
        Where a surveyor's point file is asked for, its CRS, first point number and header
        (a :class:`posting.stakeout.Stakeout`, set by :func:`posting.stakeout.with_stakeout`);
        None otherwise.
    """

    RENDER_TARGET = "plan"

    report: Report
    markers: pd.DataFrame
    parcels: pd.DataFrame
    spacing_ft: float | None
    setback_ft: float
    margin_ft: float
    existing_next_ft: pd.Series = field(repr=False, default_factory=lambda: pd.Series(dtype=float))
    warnings: list[str] = field(default_factory=list)
    sight_ft: float | None = None
    spacing_by_count: bool = False
    stakeout: Any = None
    ring_spacing_ft: np.ndarray | None = field(default=None, repr=False)
    ground_hi: float = 1.0
    ground_high_ft: float | None = None

    def counts(self) -> dict[str, int]:
        """New markers per role (every role, zeros included)."""
        c = self.markers["role"].value_counts()
        return {r: int(c.get(r, 0)) for r in ROLES}

    def totals(self) -> dict[str, float | int]:
        """Totals of the shopping list."""
        p = self.parcels
        return {
            "parcels": len(p),
            "parcels_with_markers": int((p["total"] > 0).sum()) if len(p) else 0,
            **self.counts(),
            "total": len(self.markers),
            "covered_ft": float(p["covered_ft"].sum()) if len(p) else 0.0,
            "perimeter_ft": float(p["perimeter_ft"].sum()) if len(p) else 0.0,
        }

    @property
    def exit_code(self) -> int:
        """0 when, with the plan's markers, every parcel would comply; else 1.

        A parcel without usable geometry, a violation no placement fixes (sign content) or a
        marker that a check would not count for its parcel make it 1.
        """
        return 0 if bool(self.parcels["complete"].all()) else 1

    def existing(self) -> pd.DataFrame:
        """The existing markers of the planned parcels, in the columns of :attr:`markers`.

        Their ``role`` is ``existing``; ``setback_ft`` is their distance from the line and
        ``along_ft`` their position along their ring, as the check measured them.
        """
        m = self.report.markers
        planned = np.zeros(len(self.report.parcels), dtype=bool)
        planned[self.parcels["parcel"].to_numpy(dtype=np.int64)] = True
        sel = m[(m["parcel"] >= 0) & planned[np.maximum(m["parcel"].to_numpy(), 0)]]
        idx = sel.index.to_numpy()
        out = pd.DataFrame(
            {
                "name": "",
                "parcel": sel["parcel"].to_numpy(dtype=np.int64),
                "parcel_id": sel["parcel_id"].to_numpy(dtype=object),
                "role": EXISTING,
                "kind": sel["kind"].to_numpy(dtype=object),
                "name_on_sign": None,
                "ring": sel["ring"].to_numpy(dtype=np.int64),
                "part": sel["part"].to_numpy(dtype=np.int64),
                "hole": sel["hole"].to_numpy(dtype=np.int64),
                "along_ft": sel["position_ft"].to_numpy(dtype=float),
                "next_ft": self.existing_next_ft.reindex(idx).to_numpy(dtype=float),
                "azimuth_deg": np.nan,
                "setback_ft": sel["distance_ft"].to_numpy(dtype=float),
                "corner_ft": np.nan,
                "lon": _rounded(sel["lon"].to_numpy(dtype=float)),
                "lat": _rounded(sel["lat"].to_numpy(dtype=float)),
                "x_ft": sel["x_ft"].to_numpy(dtype=float),
                "y_ft": sel["y_ft"].to_numpy(dtype=float),
                "note": [
                    f"existing sign ({s}, row {r})"
                    for s, r in zip(sel["source"], sel["row"], strict=True)
                ],
            }
        )
        return out

    def with_existing(self) -> pd.DataFrame:
        """New and existing markers together, by parcel, ring and position, all named."""
        ex = self.existing()
        both = pd.concat([self.markers, ex], ignore_index=True)
        both = both.sort_values(["parcel", "ring", "along_ft"], kind="stable").reset_index(
            drop=True
        )
        return _name(both)


# -- geometry helpers --------------------------------------------------------------------------
def _frame(
    rings: np.ndarray, length: np.ndarray, ring: np.ndarray, s: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Boundary point, inward and forward direction (:func:`posting.boundary.frame`) over
    chords of :data:`_CHORD_FT`."""
    return frame(rings, length, ring, s, chord_ft=_CHORD_FT)


# -- checking a position as the checker will ---------------------------------------------------
@dataclass
class _Placed:
    """Where a check will count planned markers (index = planned marker)."""

    lon: np.ndarray
    lat: np.ndarray
    parcel: np.ndarray
    ring: np.ndarray
    position_ft: np.ndarray
    x_ft: np.ndarray
    y_ft: np.ndarray
    setback_ft: np.ndarray  # offset used, from the boundary point along the inward direction
    line_ft: np.ndarray  # distance to the boundary line, as a check measures it
    ok: np.ndarray
    unsure: np.ndarray  # counted, but within the survey's accuracy of a shared line
    overlap: np.ndarray  # where a check counts it, it stands inside another parcel too

    COLUMNS = (
        "lon",
        "lat",
        "parcel",
        "ring",
        "position_ft",
        "x_ft",
        "y_ft",
        "setback_ft",
        "line_ft",
        "ok",
        "unsure",
        "overlap",
    )

    def take(self, mask: np.ndarray) -> _Placed:
        """The markers where ``mask`` is True."""
        return _Placed(*(getattr(self, k)[mask] for k in self.COLUMNS))

    def then(self, other: _Placed) -> _Placed:
        """These markers, then ``other``'s."""
        return _Placed(*(np.r_[getattr(self, k), getattr(other, k)] for k in self.COLUMNS))

    @classmethod
    def empty(cls, n: int) -> _Placed:
        f = np.full(n, np.nan)
        i = np.full(n, -1, dtype=np.int64)
        return cls(
            *(f.copy() for _ in range(2)),
            *(i.copy() for _ in range(2)),
            *(f.copy() for _ in range(5)),
            np.zeros(n, dtype=bool),
            np.zeros(n, dtype=bool),
            np.zeros(n, dtype=bool),
        )


@dataclass(frozen=True)
class _Marks:
    """The report's markers as arrays: the parcel and ring each posts and where along it."""

    parcel: np.ndarray
    ring: np.ndarray
    position_ft: np.ndarray

    @classmethod
    def of(cls, report: Report) -> _Marks:
        m = report.markers
        return cls(
            m["parcel"].to_numpy(dtype=np.int64),
            m["ring"].to_numpy(dtype=np.int64),
            m["position_ft"].to_numpy(dtype=float),
        )


def _counted_at(
    report: Report, group: np.ndarray, x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray, object]:
    """Round positions to the exported decimals and assign them as a check would (against the
    report's parcel geometry, with the report's tolerance)."""
    prep = report.geometry
    lon, lat = prep.ft_to_lonlat(group, x, y)
    lon, lat = _rounded(lon), _rounded(lat)
    layer = MarkerLayer.from_points(lon, lat, WGS84, source="<plan>")
    return (
        lon,
        lat,
        assign_markers(
            prep, layer, tolerance_ft=report.settings.tolerance_ft, indexes=_RING_INDEXES.get()
        ),
    )


def _arc(a: np.ndarray, b: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Distance between two arc positions along a closed ring (the shorter way)."""
    with np.errstate(invalid="ignore"):
        d = np.mod(np.abs(a - b), length)
        return np.minimum(d, length - d)


_TURNS_DEG = (30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180)
"""Directions tried, in this order, when the planned one does not work at a given setback (a
corner where a hole touches the exterior, an overlapping neighbour)."""


def _tilt_towards(inward: np.ndarray, forward: np.ndarray) -> np.ndarray:
    """A corner's inward bisector turned towards the side after the corner.

    The turn is :data:`_CORNER_TILT_DEG`, or a quarter of the corner's opening where that is
    narrower (a spike of 9° is turned 2.25°, so that the marker stays inside it).
    """
    cross = inward[:, 0] * forward[:, 1] - inward[:, 1] * forward[:, 0]
    dot = inward[:, 0] * forward[:, 0] + inward[:, 1] * forward[:, 1]
    half_opening = np.degrees(np.arctan2(np.abs(cross), dot))  # bisector to the next side
    tilt = np.minimum(_CORNER_TILT_DEG, half_opening / 2)
    return _rotate_each(inward, tilt * np.sign(cross))


def _rotate(v: np.ndarray, deg: float) -> np.ndarray:
    return _rotate_each(v, np.full(len(v), float(deg)))


def _rotate_each(v: np.ndarray, deg: np.ndarray) -> np.ndarray:
    """Each vector of ``v`` turned anticlockwise by its angle in ``deg``."""
    a = np.radians(deg)
    c, s = np.cos(a), np.sin(a)
    return np.column_stack([c * v[:, 0] - s * v[:, 1], s * v[:, 0] + c * v[:, 1]])


def _settle(
    report: Report,
    parcel: np.ndarray,
    ring: np.ndarray,
    s: np.ndarray,
    base: np.ndarray,
    direction: np.ndarray,
    setback_ft: float,
    *,
    corner_xy: np.ndarray | None = None,
    corner_reach_ft: float | np.ndarray = 0.0,
    clear_ft: float | np.ndarray = 0.0,
    extra=None,
) -> _Placed:
    """Set markers back from ``base`` along ``direction`` until a check counts each one where
    it was planned.

    An interval marker must be counted for its parcel and ring, projecting within twice its
    setback of the planned position; a corner marker (``corner_xy`` given) must be counted for
    its parcel within ``corner_reach_ft`` of its corner. Either must stand inside its parcel.
    Where a corner's planned direction fails (a hole touching the exterior at the corner),
    other directions are tried at the same setback; where none works, or ``extra`` rejects the
    marker (a gap over the limit), the setback is halved, down to the line itself. A marker
    with ``clear_ft`` must also stand that far from every other parcel's boundary (a survey of
    that accuracy could otherwise put it across a shared line): where its spot is that close to
    another parcel, it starts set back by ``clear_ft`` and is never set back less.
    """
    n = len(s)
    if n == 0:
        return _Placed.empty(n)
    st = _Settling.start(
        report, parcel, ring, s, base, direction, setback_ft, corner_xy, corner_reach_ft, clear_ft
    )
    st.out.ok &= st.halve_until_counted(extra)
    if extra is None:
        _set_back_farther(st)
    _settle_stuck(st, setback_ft, extra)
    return st.out


@dataclass(eq=False)
class _Settling:
    """Markers being set back (index = marker): where each is planned, the way and the distance
    it is set back now, and where a check counts it (``out``)."""

    report: Report
    parcel: np.ndarray
    ring: np.ndarray
    s: np.ndarray  # planned position along the ring
    base: np.ndarray  # planned boundary point (x, y in the working frame)
    direction: np.ndarray  # the way it is set back (turned where a corner's first way fails)
    d: np.ndarray  # the setback tried now
    floor: np.ndarray  # the least setback allowed (``clear`` by a shared line, else 0)
    shared: np.ndarray  # the spot is within ``clear`` of another parcel's line
    clear: np.ndarray
    reach_ft: np.ndarray
    corner_xy: np.ndarray | None
    out: _Placed
    several: np.ndarray  # a try stood inside another parcel too, which no name settles

    @classmethod
    def start(
        cls,
        report: Report,
        parcel: np.ndarray,
        ring: np.ndarray,
        s: np.ndarray,
        base: np.ndarray,
        direction: np.ndarray,
        setback_ft: float,
        corner_xy: np.ndarray | None,
        corner_reach_ft: float | np.ndarray,
        clear_ft: float | np.ndarray,
    ) -> _Settling:
        """Every marker set back ``setback_ft``, or by its ``clear_ft`` by a shared line."""
        n = len(s)
        prep = report.geometry
        reach_ft = np.broadcast_to(np.asarray(corner_reach_ft, dtype=float), (n,))
        clear = np.broadcast_to(np.asarray(clear_ft, dtype=float), (n,))
        d = np.full(n, float(setback_ft))
        # spots by a line shared with another parcel start (and stay) set back by ``clear``
        shared = (clear > 0) & near_other_parcel(
            prep, parcel, base[:, 0], base[:, 1], clear + d, *_kept_indexes(report)
        )
        # (half the margin more: the exported position is rounded to 7 decimals, about 0.04 ft)
        floor = np.where(shared, clear + MARGIN_FT / 2, 0.0)
        d = np.maximum(d, floor)
        return cls(
            report,
            parcel,
            ring,
            s,
            base,
            direction.copy(),
            d,
            floor,
            shared,
            clear,
            reach_ft,
            corner_xy,
            _Placed.empty(n),
            np.zeros(n, dtype=bool),
        )

    def attempt(
        self, idx: np.ndarray, dirs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
        """Markers ``idx`` set back along ``dirs``: whether a check counts each where it was
        planned, its rounded position and the check's assignment."""
        prep = self.report.geometry
        parcel, ring, s, d = self.parcel, self.ring, self.s, self.d
        x = self.base[idx, 0] + d[idx] * dirs[:, 0]
        y = self.base[idx, 1] + d[idx] * dirs[:, 1]
        lon, lat, sim = _counted_at(self.report, prep.group[parcel[idx]], x, y)
        if self.corner_xy is None:
            here = (sim.parcel == parcel[idx]) & (sim.ring == ring[idx])
            arc = _arc(sim.position_ft, s[idx], prep.rings.length_ft[ring[idx]])
            good = here & (arc <= 2 * d[idx] + _ARC_SLACK_FT)
        else:
            corner = self.corner_xy[idx]
            reach = np.hypot(sim.x_ft - corner[:, 0], sim.y_ft - corner[:, 1])
            good = (sim.parcel == parcel[idx]) & (reach <= self.reach_ft[idx])
        # on the posted land itself (only the last try, on the line, may not be)
        inside = shapely.contains_xy(prep.geometry_ft[parcel[idx]], sim.x_ft, sim.y_ft)
        good &= inside | (d[idx] == 0)
        good &= ~near_other_parcel(
            prep, parcel[idx], sim.x_ft, sim.y_ft, self.clear[idx], *_kept_indexes(self.report)
        )
        # inside another parcel too (they overlap), where the name on it cannot settle which
        # it posts (:func:`_clearance`): a check is in doubt (posting.ambiguity)
        several = sim.in_several & (self.clear[idx] > 0)
        self.several[idx] |= several  # (a try refused for it: settled again without, if stuck)
        return good & ~several, lon, lat, sim

    def store(
        self, idx: np.ndarray, good: np.ndarray, lon: np.ndarray, lat: np.ndarray, sim: Any
    ) -> None:
        """Record markers ``idx`` where the check counts them, and whether that is good."""
        out = self.out
        out.lon[idx], out.lat[idx] = lon, lat
        out.parcel[idx], out.ring[idx] = sim.parcel, sim.ring
        out.position_ft[idx] = sim.position_ft
        out.x_ft[idx], out.y_ft[idx] = sim.x_ft, sim.y_ft
        out.setback_ft[idx] = self.d[idx]
        out.line_ft[idx] = sim.distance_ft
        out.overlap[idx] = sim.in_several
        out.ok[idx] = good

    def turn(self, failed: np.ndarray) -> None:
        """Corner markers ``failed`` tried in the other directions of :data:`_TURNS_DEG` at
        the same setback, each kept turned where one works."""
        turns = _TURNS_DEG if self.corner_xy is not None else ()
        for deg in turns:
            if not len(failed):
                break
            turned = _rotate(self.direction[failed], deg)
            good, lon, lat, sim = self.attempt(failed, turned)
            k = np.flatnonzero(good)
            self.direction[failed[k]] = turned[k]
            self.store(failed[k], good[k], lon[k], lat[k], _take(sim, k))
            failed = failed[~good]

    def halve_until_counted(self, extra: Any) -> np.ndarray:
        """Try every marker, then halve the setback of those a check does not count where
        planned (or ``extra`` rejects), down to the line; return which are good."""
        out, d, floor = self.out, self.d, self.floor
        todo = np.arange(len(self.s))
        ok = out.ok
        for it in range(_HALVINGS + 2):
            self.store(todo, *self.attempt(todo, self.direction[todo]))
            self.turn(todo[~out.ok[todo] & (d[todo] > 0)])
            ok = out.ok.copy()
            if extra is not None:
                ok &= extra(out)
            bad = np.flatnonzero(~ok & (d > floor))  # never nearer a shared line than ``clear``
            if len(bad) == 0 or it == _HALVINGS + 1:
                break
            d[bad] = np.maximum(0.0 if it == _HALVINGS else d[bad] / 2, floor[bad])
            todo = bad
        return ok


_FARTHER = (1.5, 2.0, 3.0, 4.0)
"""How many times its least setback a corner marker with no spot clear of a shared line is set
back next (along its way, within its reach of the corner)."""


def _set_back_farther(st: _Settling) -> None:
    """Corner markers by a shared line with no spot clear of it: set back farther along their
    way, within their reach of the corner. Set back by ``clear`` along the bisector, a marker
    stands only ``clear`` x sin(half the corner's opening, less the 5° turn) from the corner's
    sides (2.0 ft of 3.1 at a square corner): the lines of the lot beside it that meet there.
    The first of :data:`_FARTHER` times the least setback that a check counts, clear, is kept.
    """
    if st.corner_xy is None:
        return
    for k in _FARTHER:
        idx = np.flatnonzero(~st.out.ok & st.shared)
        idx = idx[st.floor[idx] * k <= st.reach_ft[idx]]
        if not len(idx):
            continue
        was = st.d[idx].copy()
        st.d[idx] = st.floor[idx] * k
        good, lon, lat, sim = st.attempt(idx, st.direction[idx])
        st.d[idx[~good]] = was[~good]
        g = np.flatnonzero(good)
        st.store(idx[g], good[g], lon[g], lat[g], _take(sim, g))


def _settle_stuck(st: _Settling, setback_ft: float, extra: Any) -> None:
    """Markers with no spot clear of a shared line, or none inside their parcel alone (where
    parcels overlap): settled again without the clearance (the best spot without), and marked
    ``unsure`` where a check then counts them."""
    out = st.out
    stuck = np.flatnonzero(~out.ok & (st.shared | st.several))
    if not len(stuck):
        return
    again = _settle(
        st.report,
        st.parcel[stuck],
        st.ring[stuck],
        st.s[stuck],
        st.base[stuck],
        st.direction[stuck],
        setback_ft,
        corner_xy=None if st.corner_xy is None else st.corner_xy[stuck],
        corner_reach_ft=st.reach_ft[stuck],
        extra=None if extra is None else (lambda placed, k=stuck: _only(extra, out, k, placed)),
    )
    for c in _Placed.COLUMNS:
        getattr(out, c)[stuck] = getattr(again, c)
    out.unsure[stuck] = again.ok


def _only(extra, whole: _Placed, rows: np.ndarray, some: _Placed) -> np.ndarray:
    """``extra`` (which judges every marker of ``whole``) for ``rows`` placed as in ``some``."""
    trial = _Placed(*(getattr(whole, c).copy() for c in _Placed.COLUMNS))
    for c in _Placed.COLUMNS:
        getattr(trial, c)[rows] = getattr(some, c)
    return extra(trial)[rows]


def _take(sim, keep: np.ndarray):
    """The rows ``keep`` of an :class:`~posting.assign.Assignment`."""
    return type(sim)(*(getattr(sim, f)[keep] for f in sim.__dataclass_fields__))


# -- the plan ----------------------------------------------------------------------------------
# One function on purpose (about 230 lines): the plan's four steps (anchors, fixed positions,
# intervals, the table) share the report's arrays and each step's placements; each step is one
# block with its comment, and the work is in the helpers below.
def _ground_hi(report: Report) -> np.ndarray | float:
    """Per ring, how much longer on the ground a length may be than as measured (the land's
    elevation not given: the highest of its parcel's states, :mod:`posting.elevation`); 1
    where the figures are the ground's. A gap planned within ``limit / hi`` is within the
    limit on the ground at any of those elevations, as the re-check asks."""
    band = getattr(report, "ground", None)
    if band is None:
        return 1.0
    return band.hi[report.geometry.rings.parcel]


def plan(
    report: Report, *, setback_ft: float = DEFAULT_SETBACK_FT, sight_ft: float | None = None
) -> Plan:
    """Plan the markers that bring each parcel of ``report`` into compliance.

    Parameters
    ----------
    report
        A check's report (see :func:`posting.check`); its settings (tolerances, accuracy) and
        rule profile are the plan's.
    setback_ft
        How far inside the boundary new markers stand. It is reduced where a parcel is too
        narrow for it (the plan says so), and kept under the tolerances.
    sight_ft
        The sight distance the check was given (``--sight-ft``), for profiles whose markers
        must be in sight of each other; None: the rule's forest distance, which a check accepts
        whatever the land cover (:func:`_sight_ring`).

    Raises
    ------
    InputError
        When the settings leave no room: an accuracy as large as the spacing limit or the
        corner tolerance, or a negative setback.

    Examples
    --------
    A 900 ft square with no sign needs its four corners and one marker midway along each side
    (900 ft is under two 500 ft spacings):

    >>> import shapely
    >>> from posting import check
    >>> from posting.io import ParcelLayer
    >>> crs = "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +units=ft +datum=WGS84"
    >>> p = plan(check(ParcelLayer.from_geometries([shapely.box(0, 0, 900, 900)], crs)))
    >>> p.counts()
    {'corner': 4, 'access': 0, 'interval': 4}
    """
    token = _RING_INDEXES.set({})  # (the plan's own: dropped when it returns)
    try:
        return _planned(report, setback_ft, sight_ft)
    finally:
        _RING_INDEXES.reset(token)


_RING_INDEXES: ContextVar[dict[Any, Any] | None] = ContextVar("ring_indexes", default=None)
"""The rings' indexes of the plan being made (:func:`plan`), which every check of where its
markers would be counted (:func:`_counted_at`, a few hundred on a county) and of whether they
stand near another parcel's line (:func:`posting.ambiguity.near_other_parcel`, as many) takes
rather than builds: each index of a county's two million vertices takes 0.3 s to build."""


def _kept_indexes(report: Report) -> tuple[dict[Any, Any] | None, float]:
    """The plan's rings' indexes (:data:`_RING_INDEXES`) and the distance its checks ask of
    them (the report's tolerance): one built to ask whether a marker stands near another
    parcel's line reaches that far, so that the checks take it too."""
    return _RING_INDEXES.get(), float(report.settings.tolerance_ft)


def _planned(report: Report, setback_ft: float, sight_ft: float | None) -> Plan:
    """:func:`plan`."""
    if not (setback_ft >= 0 and np.isfinite(setback_ft)):
        raise InputError(
            f"{{option}} must be a finite number >= 0, not {setback_ft!r}", parameter="setback_ft"
        )
    st = report.settings
    acc = st.accuracy_ft
    prep = report.geometry
    # the spacing each ring is held to: the limit its parcel's profile sets (per gap, by land
    # cover), less the stated accuracy and a margin for rounding
    limit_ring = np.full(len(prep.rings), np.nan)
    g = report.gaps
    if len(g):
        np.fmin.at(limit_ring, g["ring"].to_numpy(dtype=np.int64), g["limit_ft"].to_numpy(float))
    # (a gap between two markers is judged with twice the accuracy: each may be off by it)
    apart = apart_accuracy(acc)
    spacing_ring = (limit_ring - apart) / _ground_hi(report) - MARGIN_FT
    if (spacing_ring < 1.0).any():
        worst = float(np.nanmin(limit_ring))
        raise InputError(
            f"{{option}} {acc:g} leaves no room under the {worst:g} ft spacing limit: no "
            "plan can be certain",
            parameter="accuracy_ft",
        )
    spacing = None if np.isnan(spacing_ring).all() else spacing_ring
    corners_rule = (
        bool((report.corners["status"] != "not required").any()) if len(report.corners) else False
    )
    corner_reach = st.corner_tolerance_ft - acc - MARGIN_FT
    if corners_rule and corner_reach < 0:
        raise InputError(
            f"{{option}} {acc:g} is not under {{option:corner_tolerance_ft}} "
            f"{st.corner_tolerance_ft:g} by {MARGIN_FT:g} ft: no corner marker can be certain",
            parameter="accuracy_ft",
        )
    access_reach = st.access_tolerance_ft - acc - MARGIN_FT
    reach = max(st.tolerance_ft - MARGIN_FT, 0.0)
    interval_setback = min(setback_ft, reach)
    corner_setback = min(setback_ft, reach, max(corner_reach, 0.0))
    # markers that must be in sight of each other: a straight line between two set-back
    # markers is at most the boundary between them plus both setbacks
    # (on the highest land, where its elevation is not given: the distance over hi)
    sight_all = _sight_ring(report, sight_ft)
    sight_ring = (sight_all - apart) / _ground_hi(report) - MARGIN_FT - 2 * max(interval_setback, 0)
    if (sight_ring < 1.0).any():
        raise InputError(
            f"{{option}} {acc:g} and the setback leave no room under the "
            f"{float(np.nanmin(sight_all)):g} ft sight distance: no plan can be certain",
            parameter="accuracy_ft",
        )
    spacing_ring = np.fmin(spacing_ring, sight_ring)
    # a count of markers the law sets (to a mile, or in all): rings spaced so that their
    # places add up to it (checked once the markers stand: _short_of_places)
    by_count = _density_ring(report)
    spacing_ring = np.fmin(spacing_ring, by_count)
    spacing = None if np.isnan(spacing_ring).all() else spacing_ring

    prep = report.geometry
    rings = prep.rings
    length = rings.length_ft
    n_parcels = len(report.parcels)
    status = report.parcels["status"].to_numpy(dtype=object)
    todo = np.isin(status, PLANNED_STATUSES) & (prep.group >= 0)
    notes = np.full(n_parcels, "", dtype=object)
    _skip_duplicates(report, todo, notes)
    ring_todo = todo[rings.parcel]

    # 1. anchors: corners and access points (and banks of water crossings) without a marker
    c = report.corners
    if corners_rule and len(c):
        needs = ~c["status"].isin(["ok", "not required"]).to_numpy()
        needs |= _served_by_doubt(report, c, corner_reach + MARGIN_FT, own=True)
        csel = c[needs & todo[c["parcel"].to_numpy()]]
    else:
        csel = c.iloc[:0]
    # a profile with a marker on each side of each corner (New York): two markers per corner,
    # one on each side, placed like interval markers
    each = _corner_mode(report, csel["parcel"].to_numpy(dtype=np.int64)) == "each_side"
    sides = csel[each]
    csel = csel[~each]
    a = report.access
    asel = (
        a[
            (
                (a["status"] != "ok").to_numpy()
                | _served_by_doubt(report, a, access_reach + MARGIN_FT)
            )
            & todo[a["parcel"].to_numpy(dtype=np.int64)]
        ]
        if len(a)
        else a
    )
    c_ring = np.r_[
        csel["ring"].to_numpy(dtype=np.int64),
        asel["ring"].to_numpy(dtype=np.int64) if len(asel) else [],
    ].astype(np.int64)
    c_pos = np.r_[
        csel["position_ft"].to_numpy(dtype=float),
        asel["position_ft"].to_numpy(dtype=float) if len(asel) else [],
    ]
    c_xy = np.vstack(
        [
            csel[["x_ft", "y_ft"]].to_numpy(dtype=float).reshape(-1, 2),
            asel[["x_ft", "y_ft"]].to_numpy(dtype=float).reshape(-1, 2)
            if len(asel)
            else np.empty((0, 2)),
        ]
    )
    c_role = np.r_[
        np.full(len(csel), "corner", dtype=object), np.full(len(asel), "access", dtype=object)
    ]
    c_reach = np.where(c_role == "corner", corner_reach, access_reach) + MARGIN_FT / 4
    c_parcel = rings.parcel[c_ring]
    # places at one point (a hole touching the exterior, an entrance at a corner) need one marker;
    # two corners only where a check takes them as one place (within --corner-merge-ft of each
    # other: posting.kinds.points.own_markers), else one marker would serve one of them
    one = ~_repeats(c_parcel, c_xy, MARGIN_FT / 4)
    is_corner = c_role == "corner"
    one[is_corner] = ~_repeats(
        c_parcel[is_corner], c_xy[is_corner], min(MARGIN_FT / 4, st.corner_merge_ft)
    )
    c_ring, c_pos, c_xy, c_parcel, c_role, c_reach = (
        v[one] for v in (c_ring, c_pos, c_xy, c_parcel, c_role, c_reach)
    )
    _, c_in, c_fwd = _frame(rings.geometry, length, c_ring, c_pos)
    c_dir = _tilt_towards(c_in, c_fwd)

    clear = _clearance(report)
    corners = _settle(
        report,
        c_parcel,
        c_ring,
        c_pos,
        c_xy,
        c_dir,
        min(corner_setback, max(access_reach, 0.0)),
        corner_xy=c_xy,
        corner_reach_ft=c_reach,
        clear_ft=clear[c_parcel],
    )
    # a place whose own marker cannot be counted may be in reach of another place's marker;
    # a corner only where a check, matching one marker to each corner, leaves it one
    served = _served(c_parcel, c_xy, corners, c_reach)
    served &= ~_shared_corner_markers(report, served, c_parcel, c_role, corners)
    c_ring, c_pos, c_xy, c_parcel, c_in, c_role = (
        v[~served] for v in (c_ring, c_pos, c_xy, c_parcel, c_in, c_role)
    )
    corners = corners.take(~served)
    if len(sides):
        placed, (s_ring, s_pos, s_xy, s_parcel, s_in) = _side_markers(
            report, sides, min(corner_reach, st.corner_tolerance_ft / 2), interval_setback, clear
        )
        corners = corners.then(placed)
        c_ring, c_pos, c_parcel = (
            np.r_[c_ring, s_ring],
            np.r_[c_pos, s_pos],
            np.r_[c_parcel, s_parcel],
        )
        c_xy, c_in = np.vstack([c_xy, s_xy]), np.vstack([c_in.reshape(-1, 2), s_in])
        c_role = np.r_[c_role, np.full(len(s_ring), "corner", dtype=object)]

    # 2. fixed positions: existing markers and the anchors a check will count
    asg = _Marks.of(report)
    # existing markers that GPS error could put across a shared line count for no fixed spot
    sure = ~report.markers["doubtful"].to_numpy(dtype=bool)
    # and markers of a kind the parcel's profile does not count (a sign under Texas' paint
    # rule) post nothing
    am = np.flatnonzero((asg.parcel >= 0) & sure & _counts(report))
    am = am[ring_todo[asg.ring[am]]]
    good_c = np.flatnonzero(corners.ok)
    f_ring = np.r_[asg.ring[am], corners.ring[good_c]].astype(np.int64)
    f_pos = np.r_[asg.position_ft[am], corners.position_ft[good_c]]
    f_input = np.r_[am, np.full(len(good_c), -1)].astype(np.int64)

    # 3. interval markers: the fewest evenly spaced ones in each gap that needs them
    dry = _Dry.of(report)
    if spacing is not None:
        i_ring, i_pos = _fill(report, f_ring, f_pos, f_input, ring_todo, spacing, dry)
    else:
        i_ring, i_pos = np.empty(0, np.int64), np.empty(0)
    i_parcel = rings.parcel[i_ring]
    i_base, i_dir, _ = _frame(rings.geometry, length, i_ring, i_pos)
    limit_ok = None if spacing is None else spacing + MARGIN_FT / 2  # per ring

    def gaps_ok(placed: _Placed) -> np.ndarray:
        return _gaps_within(placed, i_ring, i_pos, f_ring, f_pos, length, limit_ok, dry)

    intervals = _settle(
        report,
        i_parcel,
        i_ring,
        i_pos,
        i_base,
        i_dir,
        interval_setback,
        clear_ft=clear[i_parcel],
        extra=None if spacing is None else gaps_ok,
    )

    # 4. the table
    table, existing_next, warnings = _table(
        report,
        corners,
        c_role,
        c_parcel,
        c_ring,
        c_xy,
        intervals,
        i_parcel,
        i_ring,
        am,
        np.r_[np.full(len(c_ring), corner_setback), np.full(len(i_ring), interval_setback)],
        np.vstack([c_in.reshape(-1, 2), i_dir.reshape(-1, 2)]),
        clear,
    )
    short = _short_of_places(
        report,
        todo,
        np.r_[asg.ring[am], corners.ring[corners.ok], intervals.ring[intervals.ok]],
        np.r_[
            asg.position_ft[am],
            corners.position_ft[corners.ok],
            intervals.position_ft[intervals.ok],
        ],
        notes,
    )
    shopping = _shopping_list(report, todo, table, notes, warnings, short)
    return Plan(
        report=report,
        markers=table,
        parcels=shopping,
        spacing_ft=None if spacing is None else float(np.nanmin(spacing)),
        setback_ft=float(setback_ft),
        margin_ft=MARGIN_FT,
        existing_next_ft=existing_next,
        warnings=warnings,
        sight_ft=None if np.isnan(sight_all).all() else float(np.nanmin(sight_all)),
        spacing_by_count=spacing is not None
        and bool(np.nanmin(spacing) == np.nanmin(np.r_[by_count, np.inf])),
        ring_spacing_ft=None if spacing is None else np.asarray(spacing, dtype=float),
        **_ground_of(report, spacing),
    )


def _ground_of(report: Report, spacing: np.ndarray | None) -> dict[str, Any]:
    """The ground's factor and highest elevation on the ring whose spacing is the plan's
    (:attr:`Plan.ground_hi`), where the land's elevation is not given."""
    band = getattr(report, "ground", None)
    if band is None or spacing is None or np.isnan(spacing).all():
        return {}
    parcel = report.geometry.rings.parcel[int(np.nanargmin(spacing))]
    if band.given:  # the elevation given: the frame's scale alone, no range of elevations
        return {"ground_hi": float(band.hi[parcel])}
    return {"ground_hi": float(band.hi[parcel]), "ground_high_ft": float(band.high_ft[parcel])}


def _applies(report: Report, rule: str) -> np.ndarray:
    """Per parcel, False where the profile it is judged by applies ``rule`` only on some land
    (``[when]``: :attr:`Report.gated`) and its land is not of it: a check wants none of the
    rule's markers there. Where the data cannot tell (NaN), the rule's markers are placed:
    they settle it either way."""
    gate = report.gated.get(rule)
    if gate is None:
        return np.ones(len(report.parcels), dtype=bool)
    return np.asarray(gate, dtype=float) != 0.0


def _density_rules(report: Report) -> Iterator[tuple[np.ndarray, Any, np.ndarray]]:
    """Each profile's density rule (:mod:`posting.kinds.density`) with the parcels it judges
    and that it applies to (a mask: not where a ``[when]`` gate is off) and the rings it counts
    (a mask: the exterior ones alone where it says so)."""
    rings = report.geometry.rings
    judged = report.parcels["rules"].to_numpy(dtype=object)
    applies = _applies(report, "density")
    for prof in report.profiles:
        rule = dict(prof.rules()).get("density")
        if rule is not None:
            counted = rings.hole == 0 if rule.exterior_only else np.ones(len(rings), dtype=bool)
            yield (judged == prof.name) & applies, rule, counted


def _density_ring(report: Report) -> np.ndarray:
    """Per ring, the spacing that gives its parcel the places its profile's count of markers
    wants (NaN without such a rule): at most a mile over the markers to a mile, or the counted
    boundary over the count in all. Markers no farther apart than that along each counted ring
    are at least as many as the count (a ring of length L gets at least L / spacing of them),
    and as many places unless some stand within ``place_ft`` of each other (existing ones, a
    corner's): :func:`_short_of_places` counts them as a check does. No margin: a count does
    not move with a position's last decimal. The land's elevation not given, the count to a
    mile is that of the boundary on the highest land (``b * hi``): at most a mile over the
    markers to a mile, over ``hi`` (:func:`_ground_hi`)."""
    rings = report.geometry.rings
    out = np.full(len(rings), np.nan)
    band = getattr(report, "ground", None)
    hi = np.ones(len(report.parcels)) if band is None else band.hi
    for parcels, rule, counted in _density_rules(report):
        boundary = np.bincount(
            rings.parcel, weights=np.where(counted, rings.length_ft, 0.0), minlength=len(parcels)
        )
        cap = np.full(len(parcels), np.inf)
        if rule.per_mile is not None:
            cap = np.minimum(cap, FT_PER_MILE / rule.per_mile / hi)
        if rule.min_count is not None:
            cap = np.minimum(cap, boundary / rule.min_count)
        mine = parcels[rings.parcel] & counted
        out[mine] = np.fmax(cap[rings.parcel[mine]], 1.0)
    return out


def _short_of_places(
    report: Report, todo: np.ndarray, ring: np.ndarray, position_ft: np.ndarray, notes: np.ndarray
) -> np.ndarray:
    """Per parcel, True where the markers that will stand (existing and planned, at ``ring``
    and ``position_ft`` as a check counts them) are fewer places than its profile's count of
    markers wants, with a note saying so: the check's own count (:func:`count`: where the
    land's elevation is not given, the fewest places at any of its elevations against the
    most needed)."""
    rings = report.geometry.rings
    short = np.zeros(len(report.parcels), dtype=bool)
    band = getattr(report, "ground", None)
    scale = (1.0, 1.0) if band is None else band.at(rings.parcel)
    for parcels, rule, counted in _density_rules(report):
        c = count(
            rule, ring, position_ft, rings.length_ft, rings.parcel, counted, len(parcels), scale
        )
        few = np.flatnonzero(parcels & todo & (c.places_lo < c.need_hi))
        short[few] = True
        for i in few.tolist():
            k = int(c.places_lo[i])
            notes[i] = (
                f"the plan's markers stand at {k} {'place' if k == 1 else 'places'} where its "
                f"profile's count wants {int(c.need_hi[i])} (markers within {rule.place_ft:g} ft "
                "of each other are one place): add markers between them"
            )
    return short


def _sight_ring(report: Report, sight_ft: float | None) -> np.ndarray:
    """Per ring, the sight distance its markers must keep to (NaN where its parcel's profile
    has no in-sight rule): ``sight_ft`` where the check was given one, else the rule's forest
    distance. The plan does not read the land cover, and a check finds markers farther apart
    than the forest distance out of sight in woods, uncertain where the cover is unknown; the
    forest distance is in sight on any land. NaN too where a ``[when]`` gate says the rule
    does not apply to the parcel's land (:func:`_applies`)."""
    rings = report.geometry.rings
    by_profile = {}
    for prof in report.profiles:
        rule = dict(prof.rules()).get("in_sight")
        if rule is not None:
            by_profile[prof.name] = float(sight_ft) if sight_ft else rule.forest_sight_ft
    rules = pd.Series(report.parcels["rules"].to_numpy(dtype=object)[rings.parcel])
    out = rules.map(by_profile).to_numpy(dtype=float, na_value=np.nan, copy=True)
    out[~_applies(report, "in_sight")[rings.parcel]] = np.nan  # (a [when] gate off)
    return out


def _served_by_doubt(
    report: Report, places: pd.DataFrame, reach_ft: float, own: bool = False
) -> np.ndarray:
    """Places (corners, access points) a check found marked, but only by markers GPS error
    could put across a shared line (or standing on it): no other marker of the parcel within
    ``reach_ft``; with ``own`` (corners, where one marker serves one corner), none of the
    parcel's other markers left to it once each of its marked corners has one of its own
    (:func:`~posting.kinds.points.own_markers`, as a check matches them)."""
    m = report.markers
    out = np.zeros(len(places), dtype=bool)
    doubt = m["doubtful"].to_numpy(dtype=bool)
    ok = (places["status"] == "ok").to_numpy()
    if not doubt.any() or not ok.any():
        return out
    mparcel = m["parcel"].to_numpy(dtype=np.int64)
    sure = np.flatnonzero((mparcel >= 0) & ~doubt)
    mx, my = m["x_ft"].to_numpy(float)[sure], m["y_ft"].to_numpy(float)[sure]
    px, py = places["x_ft"].to_numpy(float), places["y_ft"].to_numpy(float)
    pp = places["parcel"].to_numpy(dtype=np.int64)
    served = np.zeros(len(places), dtype=bool)
    if len(sure):
        tree = shapely.STRtree(shapely.points(mx, my))
        qi, ti = tree.query(shapely.points(px, py), predicate="dwithin", distance=reach_ft)
        same = mparcel[sure][ti] == pp[qi]
        served[qi[same]] = True
    if own:
        # the marked corners of the parcels a doubtful marker posts, matched to their sure
        # markers as a check would: a sure marker near two corners serves one of them
        n = len(report.parcels)
        touched = np.zeros(n, dtype=bool)
        touched[mparcel[doubt & (mparcel >= 0)]] = True
        at = np.flatnonzero(ok & served & touched[pp] & (_corner_mode(report, pp) == "at_corner"))
        mine = sure[touched[mparcel[sure]]]
        st = report.settings
        status = own_markers(
            px[at],
            py[at],
            pp[at],
            m["x_ft"].to_numpy(float)[mine],
            m["y_ft"].to_numpy(float)[mine],
            mparcel[mine],
            mine,
            st.corner_tolerance_ft,
            st.accuracy_ft,
            n,
            together_ft=st.corner_merge_ft,
        )
        served[at[status != OK]] = False
    return ok & ~served


def _counts(report: Report) -> np.ndarray:
    """Per marker, True where the profile of the parcel it posts counts its kind for spacing."""
    m = report.markers
    parcel = m["parcel"].to_numpy(dtype=np.int64)
    rules = report.parcels["rules"].to_numpy(dtype=object)[np.maximum(parcel, 0)]
    kind = m["kind"].to_numpy(dtype=object)
    out = np.zeros(len(m), dtype=bool)
    for p in report.profiles:  # a few profiles, a mask each
        counted = p.spacing.kinds if p.spacing is not None else p.kinds
        sel = rules == p.name
        out[sel] = np.isin(kind[sel], counted)
    return out & (parcel >= 0)


def _corner_mode(report: Report, parcel: np.ndarray) -> np.ndarray:
    """Per parcel, how its profile wants its corners marked: ``at_corner`` (a marker of its
    own at each), ``each_side`` (one on each side of each: New York) or ``none``."""
    mode = {p.name: p.corners.mode if p.corners is not None else "none" for p in report.profiles}
    rules = pd.Series(report.parcels["rules"].to_numpy(dtype=object)[parcel], dtype=object)
    return rules.map(mode).fillna("none").to_numpy(dtype=object)


def _side_markers(
    report: Report, corners: pd.DataFrame, reach_ft: float, setback_ft: float, clear: np.ndarray
):
    """Two markers for each corner, one on each side of it along its ring (``reach_ft`` or a
    quarter of the ring away, the nearer), set back inside like interval markers; with the
    corner's ring, arc position, point (for their distance to it), parcel and inward way."""
    rings = report.geometry.rings
    length = rings.length_ft
    ring = np.repeat(corners["ring"].to_numpy(dtype=np.int64), 2)
    step = np.minimum(max(reach_ft - MARGIN_FT, 0.5), length[ring] / 4)
    s = np.mod(
        np.repeat(corners["position_ft"].to_numpy(dtype=float), 2)
        + np.tile([-1, 1], len(corners)) * step,
        length[ring],
    )
    xy = np.repeat(corners[["x_ft", "y_ft"]].to_numpy(dtype=float).reshape(-1, 2), 2, axis=0)
    parcel = rings.parcel[ring]
    base, inward, _ = _frame(rings.geometry, length, ring, s)
    placed = _settle(report, parcel, ring, s, base, inward, setback_ft, clear_ft=clear[parcel])
    return placed, (ring, s, xy, parcel, inward)


def _clearance(report: Report) -> np.ndarray:
    """Per parcel, how far new markers must stand from a line shared with another parcel.

    With a stated accuracy, a marker within it of another parcel's boundary could stand
    across the line (:mod:`posting.ambiguity`): the check cannot be sure which parcel it posts.
    The sign's name settles it where it names this parcel's owner of record and no neighbour's
    (the plan's exports carry the owner, as ``name_on_sign``, and Florida's signs must show it
    anyway): a check reads the name as it does (:func:`~posting.checks.content.names_match`),
    so an owner's name without a distinctive word ("J & B LLC") or one a neighbour's owner
    shares ("Harney Timber LLC" beside "Harney Timber Trust") settles nothing, unless the
    neighbour has the same owner. Elsewhere new markers stand the accuracy and a margin from
    shared lines. With no accuracy stated, a marker on a shared line (within
    :data:`~posting.ambiguity.ON_LINE_FT`) is in doubt: new markers stand twice that from it
    (each position is judged as exported, rounded, so no margin is needed for the rounding).
    """
    acc = report.settings.accuracy_ft
    clearance = acc + MARGIN_FT if acc > 0 else 2 * ON_LINE_FT
    owner = report.parcels["owner"].astype(object).reset_index(drop=True)
    known = owner.notna().to_numpy() & (owner.astype(str).str.strip() != "").to_numpy()
    known &= names_match(owner.where(known), owner.where(known))
    # neighbours near enough for a marker of one to be doubted by the other's line
    geo = report.geometry
    cand = np.flatnonzero(known)
    a, b = _near_pairs(geo, cand, clearance + report.settings.tolerance_ft)
    if len(a):
        sign, other = owner.iloc[a].reset_index(drop=True), owner.iloc[b].reset_index(drop=True)
        same = (normalise_text(sign) == normalise_text(other)).to_numpy(dtype=bool, na_value=False)
        shared_name = names_match(sign, other) & ~same
        known[a[shared_name]] = False
    return np.where(known, 0.0, clearance)


def _near_pairs(geo: Any, parcels: np.ndarray, within_ft: float) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (``a`` among ``parcels``, ``b`` any other parcel of its working frame) whose
    geometries are within ``within_ft`` of each other."""
    out_a, out_b = [np.empty(0, dtype=np.int64)], [np.empty(0, dtype=np.int64)]
    valid = np.flatnonzero(geo.group >= 0)
    for g in unique_ints(geo.group[parcels]).tolist():
        if g < 0:
            continue
        here = valid[geo.group[valid] == g]
        mine = parcels[geo.group[parcels] == g]
        tree = shapely.STRtree(geo.geometry_ft[here])
        qi, ti = tree.query(geo.geometry_ft[mine], predicate="dwithin", distance=within_ft)
        keep = here[ti] != mine[qi]
        out_a.append(mine[qi[keep]])
        out_b.append(here[ti[keep]])
    return np.concatenate(out_a), np.concatenate(out_b)


def _repeats(parcel: np.ndarray, xy: np.ndarray, within_ft: float) -> np.ndarray:
    """True for each point within ``within_ft`` of an earlier point of the same parcel."""
    out = np.zeros(len(parcel), dtype=bool)
    if len(parcel) < 2:
        return out
    pts = shapely.points(xy)
    a, b = shapely.STRtree(pts).query(pts, predicate="dwithin", distance=within_ft)
    later = (b < a) & (parcel[a] == parcel[b])
    out[a[later]] = True
    return out


def _served(
    parcel: np.ndarray, xy: np.ndarray, placed: _Placed, reach_ft: float | np.ndarray
) -> np.ndarray:
    """True for each place (corner, access point) whose own marker is not counted for its
    parcel but that another place's marker of the parcel, which is counted, stands within
    ``reach_ft`` (that place's own reach) of."""
    out = np.zeros(len(parcel), dtype=bool)
    lost = np.flatnonzero(~placed.ok)
    counted = np.flatnonzero(placed.ok)
    if not len(lost) or not len(counted):
        return out
    reach = np.broadcast_to(np.asarray(reach_ft, dtype=float), (len(parcel),))
    tree = shapely.STRtree(shapely.points(placed.x_ft[counted], placed.y_ft[counted]))
    a, b = tree.query(shapely.points(xy[lost]), predicate="dwithin", distance=float(reach.max()))
    d = np.hypot(placed.x_ft[counted[b]] - xy[lost[a], 0], placed.y_ft[counted[b]] - xy[lost[a], 1])
    same = (parcel[lost[a]] == parcel[counted[b]]) & (d <= reach[lost[a]])
    out[lost[a[same]]] = True
    return out


def _shared_corner_markers(
    report: Report,
    served: np.ndarray,
    parcel: np.ndarray,
    role: np.ndarray,
    placed: _Placed,
) -> np.ndarray:
    """True for each corner :func:`_served` dropped (its own marker is not counted for its
    parcel, another place's is within its reach) whose parcel a check would leave a corner
    without a marker of its own: a check matches one marker to each corner
    (:func:`~posting.kinds.points.own_markers`), so the marker of a corner 25 ft away serves
    that corner or this one, not both (unless the two are within ``--corner-merge-ft``, one
    place for a check). The parcel's corners are matched, as a check would, to its markers of
    a kind its corner rule counts: the existing ones no GPS error could put across a shared
    line, and the plan's that a check counts for it (``placed``, in the order of ``parcel``).
    Where any of its corners is left without, every corner of the parcel dropped is kept: its
    marker's row says where a check would count it instead, and the parcel is not complete.
    """
    out = np.zeros(len(served), dtype=bool)
    cand = np.flatnonzero(served & (role == "corner"))
    if not len(cand):
        return out
    n = len(report.parcels)
    mine = np.zeros(n, dtype=bool)
    mine[parcel[cand]] = True
    c = report.corners
    cp = c["parcel"].to_numpy(dtype=np.int64)
    at = np.flatnonzero(mine[cp] & (c["status"] != "not required").to_numpy())
    m = report.markers
    mparcel = m["parcel"].to_numpy(dtype=np.int64)
    e = np.flatnonzero((mparcel >= 0) & ~m["doubtful"].to_numpy(dtype=bool))
    e = e[mine[mparcel[e]]]
    e = e[_corner_kind(report, mparcel[e], m["kind"].to_numpy(dtype=object)[e])]
    new = np.flatnonzero(placed.ok & (placed.parcel >= 0))
    new = new[mine[placed.parcel[new]]]
    new = new[
        _corner_kind(report, placed.parcel[new], _kinds(report, placed.parcel[new], role[new]))
    ]
    st = report.settings
    status = own_markers(
        c["x_ft"].to_numpy(dtype=float)[at],
        c["y_ft"].to_numpy(dtype=float)[at],
        cp[at],
        np.r_[m["x_ft"].to_numpy(dtype=float)[e], placed.x_ft[new]],
        np.r_[m["y_ft"].to_numpy(dtype=float)[e], placed.y_ft[new]],
        np.r_[mparcel[e], placed.parcel[new]].astype(np.int64),
        np.r_[e, len(m) + new].astype(np.int64),
        st.corner_tolerance_ft,
        st.accuracy_ft,
        n,
        together_ft=st.corner_merge_ft,
    )
    short = np.zeros(n, dtype=bool)
    short[cp[at][status != OK]] = True
    out[cand] = short[parcel[cand]]
    return out


def _corner_kind(report: Report, parcel: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """Per marker (of ``parcel``, of ``kind``), True where its parcel's profile counts its
    kind at a corner."""
    allowed = [
        (p.name, k) for p in report.profiles if p.corners is not None for k in p.corners.kinds
    ]
    if not len(parcel) or not allowed:
        return np.zeros(len(parcel), dtype=bool)
    rules = report.parcels["rules"].to_numpy(dtype=object)[parcel]
    key = pd.MultiIndex.from_arrays([rules, np.asarray(kind, dtype=object)])
    return np.asarray(key.isin(pd.MultiIndex.from_tuples(allowed)), dtype=bool)


def _skip_duplicates(report: Report, todo: np.ndarray, notes: np.ndarray) -> None:
    """Parcels whose boundary repeats an earlier parcel's exactly are not planned.

    A check counts each sign for one parcel (the first, when two boundaries are the same), so
    no position can post the repeat apart from the original; the signs of the original post
    the same land.
    """
    prep = report.geometry
    idx = np.flatnonzero(prep.group >= 0)
    if len(idx) < 2:
        return
    wkb = shapely.to_wkb(shapely.normalize(prep.geometry_ft[idx]))
    first = pd.DataFrame({"wkb": wkb, "i": idx}).groupby("wkb", sort=False)["i"].transform("first")
    first = first.to_numpy(dtype=np.int64)
    ids = report.parcels["id"].to_numpy(dtype=object)
    for i, j in zip(idx[first != idx], first[first != idx], strict=True):
        if todo[i]:
            todo[i] = False
            notes[i] = (
                f"same boundary as parcel {ids[j]!r} (row {j}): its signs post this land, but a "
                "check counts each sign for one parcel only, so no placement can post this row "
                "apart"
            )


@dataclass(frozen=True)
class _Dry:
    """The boundary off the water, on the rings whose parcel's profile exempts boundaries
    formed by water from posting (``[water] mode = "exempt"``, its spacing measured along the
    boundary): a check leaves the water's length out of each gap there
    (:mod:`posting.kinds.spacing`), so the plan measures its gaps along the dry boundary alone
    and places no marker on the water's stretches.

    A ring's dry coordinate runs along it from its start, counting only the boundary off the
    water. ``ring``, ``start_ft`` and ``end_ft`` are the water's stretches (merged, none across
    its ring's start), sorted by ring and start; ``before_ft`` the water before each on its
    ring; ``key_ft`` each stretch's start on one line of all rings (:meth:`_key`).
    """

    length_ft: np.ndarray  # per ring
    wet: np.ndarray  # per ring: along water a profile exempts
    ring: np.ndarray
    start_ft: np.ndarray
    end_ft: np.ndarray
    before_ft: np.ndarray

    @classmethod
    def of(cls, report: Report) -> _Dry:
        """The water's stretches (:attr:`Report.water`) on the rings of parcels judged by a
        profile that exempts them."""
        length = report.geometry.rings.length_ft
        e = np.empty(0)
        none = cls(length, np.zeros(len(length), dtype=bool), e.astype(np.int64), e, e, e)
        exempt = [
            p.name
            for p in report.profiles
            if p.water is not None
            and p.water.mode == "exempt"
            and (p.spacing is None or p.spacing.metric != "straight")
        ]
        water = report.water
        if not exempt or water is None or not len(water) or "start_ft" not in water:
            return none
        ring = water["ring"].to_numpy(dtype=np.int64)
        judged = report.parcels["rules"].to_numpy(dtype=object)[report.geometry.rings.parcel]
        keep = np.isin(judged[ring], exempt)
        if not keep.any():
            return none
        ring = ring[keep]
        a = water["start_ft"].to_numpy(dtype=float)[keep]
        b = a + water["length_ft"].to_numpy(dtype=float)[keep]
        # a stretch across its ring's start is two: to the ring's end, and on from its start
        lap = length[ring]
        over = b > lap
        ring = np.r_[ring, ring[over]]
        a = np.r_[a, np.zeros(int(over.sum()))]
        b = np.r_[np.minimum(b, lap), np.minimum((b - lap)[over], lap[over])]
        # merged where they touch or overlap, in order along each ring
        order = np.lexsort((a, ring))
        ring, a, b = ring[order], a[order], b[order]
        reach = pd.Series(b).groupby(ring).cummax().to_numpy()
        first = np.r_[True, (ring[1:] != ring[:-1]) | (a[1:] > reach[:-1])]
        last = np.r_[first[1:], True]
        ring, a, b = ring[first], a[first], reach[last]
        # the water before each stretch on its ring
        wet_ft = b - a
        upto = np.cumsum(wet_ft) - wet_ft
        ring_first = np.r_[True, ring[1:] != ring[:-1]]
        before = upto - upto[np.maximum.accumulate(np.where(ring_first, np.arange(len(a)), 0))]
        wet = np.zeros(len(length), dtype=bool)
        wet[ring] = True
        return cls(length, wet, ring, a, b, before)

    def _key(self, ring: np.ndarray, s: np.ndarray) -> np.ndarray:
        """Positions on ``ring`` as one figure along all rings, one after another (ring by ring,
        in order: searched among the stretches' starts at once)."""
        offset = np.r_[0.0, np.cumsum(self.length_ft)[:-1]]
        return offset[ring] + s

    def _before(self, ring: np.ndarray, key: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """Per position (``key``), the last stretch of its ring whose ``keys`` is at most it
        (-1: none)."""
        j = np.searchsorted(keys, key, side="right") - 1
        jj = np.maximum(j, 0)
        return np.where((j >= 0) & (self.ring[jj] == ring), j, -1)

    def at(self, ring: np.ndarray, s: np.ndarray) -> np.ndarray:
        """The dry coordinate of arc positions ``s`` on ``ring``."""
        j = self._before(ring, self._key(ring, s), self._key(self.ring, self.start_ft))
        jj = np.maximum(j, 0)
        inside = np.clip(s - self.start_ft[jj], 0.0, self.end_ft[jj] - self.start_ft[jj])
        return np.where(j >= 0, s - self.before_ft[jj] - inside, s)

    def arc(self, ring: np.ndarray, u: np.ndarray) -> np.ndarray:
        """The arc position off the water at dry coordinate ``u`` on ``ring`` (where a
        stretch of water lies between, its far end)."""
        u_start = self.start_ft - self.before_ft  # each stretch's start, as a dry coordinate
        j = self._before(ring, self._key(ring, u), self._key(self.ring, u_start))
        jj = np.maximum(j, 0)
        return np.where(j >= 0, self.end_ft[jj] + (u - u_start[jj]), u)

    def dry_ft(self, ring: np.ndarray) -> np.ndarray:
        """The length of each ring off the water."""
        wet = np.bincount(self.ring, weights=self.end_ft - self.start_ft, minlength=len(self.wet))
        return np.maximum(self.length_ft[ring] - wet[ring], 0.0)

    def gap_ft(self, ring: np.ndarray, start_ft: np.ndarray, length_ft: np.ndarray) -> np.ndarray:
        """The length of each gap (along ``ring`` from ``start_ft`` for ``length_ft``) off the
        water, as a check measures it."""
        wet = self.wet[ring]
        if not wet.any():
            return length_ft
        out = np.asarray(length_ft, dtype=float).copy()
        out[wet] -= arc_overlap_ft(
            self.length_ft,
            ring[wet],
            start_ft[wet],
            out[wet],
            self.ring,
            self.start_ft,
            self.end_ft - self.start_ft,
        )
        return np.maximum(out, 0.0)


def _fill(
    report: Report,
    f_ring: np.ndarray,
    f_pos: np.ndarray,
    f_input: np.ndarray,
    ring_todo: np.ndarray,
    spacing: float | np.ndarray,
    dry: _Dry,
) -> tuple[np.ndarray, np.ndarray]:
    """Interval positions: ``ceil(g / spacing) - 1`` evenly spaced in each gap ``g`` that needs
    them; ``ceil(length / spacing)`` around a ring with no fixed position. ``spacing`` may be
    one figure or one per ring (NaN: no spacing rule there). Along water that the profile
    exempts (``dry``), ``g`` and the spacing are those of the boundary off the water, and no
    marker stands on the water; a ring with no more than :data:`~posting.kinds.water.DRY_FT`
    off it needs none."""
    length = report.geometry.rings.length_ft
    gaps = ring_gaps(f_ring, f_pos, length)
    keep = ring_todo[gaps.ring]
    ring, start, g = gaps.ring[keep], gaps.start_ft[keep], gaps.length_ft[keep]
    g = dry.gap_ft(ring, start, g)
    sm, em = gaps.start_marker[keep], gaps.end_marker[keep]
    unmarked = sm < 0
    if len(f_input):
        si, ei = f_input[np.maximum(sm, 0)], f_input[np.maximum(em, 0)]
    else:  # no fixed position anywhere (no marker, no corner rule): every ring is bare
        si = ei = np.full(len(sm), -1, dtype=np.int64)
    both_existing = ~unmarked & (si >= 0) & (ei >= 0)
    # gaps between two existing markers: as the check judged them (the same two: a marker
    # between them that the plan does not count, a doubtful one, made the check's gaps shorter)
    rep = report.gaps
    passed = pd.Series(
        rep["status"].to_numpy() == "ok",
        index=pd.MultiIndex.from_arrays(
            [rep["ring"].to_numpy(), rep["start_marker"].to_numpy(), rep["end_marker"].to_numpy()]
        ),
    )
    key = pd.MultiIndex.from_arrays([ring, si, ei])
    was_ok = passed.reindex(key).fillna(False).to_numpy(dtype=bool)
    sp = np.asarray(spacing, dtype=float)[ring] if np.ndim(spacing) else np.full(len(g), spacing)
    held = np.isfinite(sp)  # a ring whose profile has a spacing rule
    sp = np.where(held, sp, 1.0)
    k = np.ceil(g / sp - 1e-9) - 1
    k = np.where(both_existing & was_ok, 0, np.where(g > sp + EPSILON_FT, k, 0))
    k = np.where(unmarked, np.maximum(np.ceil(g / sp - 1e-9), 1), k)
    k = np.where(unmarked & dry.wet[ring] & (g <= DRY_FT), 0, k)  # (wholly along water)
    k = np.where(held, np.maximum(k, 0), 0).astype(np.int64)
    # positions: start + j * g / (k + 1) for j = 1..k; around a bare ring, j * length / k
    rep_i = np.repeat(np.arange(len(k)), k)
    j = np.arange(k.sum()) - np.repeat(np.cumsum(k) - k, k)
    step = np.where(unmarked, g / np.maximum(k, 1), g / (k + 1))
    pos = start[rep_i] + np.where(unmarked[rep_i], j, j + 1) * step[rep_i]
    r = ring[rep_i]
    wet = dry.wet[r]
    if wet.any():  # the same along the dry boundary, from the gap's start
        u = dry.at(r[wet], start[rep_i][wet])
        u = u + np.where(unmarked[rep_i], j, j + 1)[wet] * step[rep_i][wet]
        pos[wet] = dry.arc(r[wet], np.mod(u, np.maximum(dry.dry_ft(r[wet]), EPSILON_FT)))
    return r.astype(np.int64), np.mod(pos, length[r])


def _gaps_within(
    placed: _Placed,
    i_ring: np.ndarray,
    i_pos: np.ndarray,
    f_ring: np.ndarray,
    f_pos: np.ndarray,
    length: np.ndarray,
    limit: float | np.ndarray,
    dry: _Dry,
) -> np.ndarray:
    """False for interval markers that bound a gap over ``limit`` (one, or one per ring;
    along the boundary off water the profile exempts: ``dry``) where a check will count
    them (where it would not, the planned position stands in until the marker is moved)."""
    pos = np.where(placed.ok, placed.position_ft, i_pos)
    n_f = len(f_ring)
    gaps = ring_gaps(np.r_[f_ring, i_ring], np.r_[f_pos, pos], length)
    planned_end = (gaps.start_marker >= n_f) | (gaps.end_marker >= n_f)
    lim = np.asarray(limit, dtype=float)[gaps.ring] if np.ndim(limit) else limit
    long = planned_end & (dry.gap_ft(gaps.ring, gaps.start_ft, gaps.length_ft) > lim)
    ok = np.ones(len(i_ring), dtype=bool)
    for ends in (gaps.start_marker[long], gaps.end_marker[long]):
        ok[ends[ends >= n_f] - n_f] = False
    return ok


def _azimuth(
    report: Report, parcel: np.ndarray, x: np.ndarray, y: np.ndarray, inward: np.ndarray
) -> np.ndarray:
    """Outward-facing azimuth, degrees clockwise from true north, measured on the ellipsoid.

    ``inward`` is the boundary's inward direction at each marker's planned spot (the inward
    normal, or the corner's inward bisector) in the working frame; the sign faces the other
    way. The azimuth is that of the geodesic from the marker to a point 10 ft out that way,
    so the working frame's grid convergence does not enter it.
    """
    geo = report.geometry
    out = np.full(len(x), np.nan)
    group = geo.group[parcel]
    for g, wcrs in enumerate(geo.crss):
        sel = group == g
        if not sel.any():
            continue
        lon0, lat0 = wcrs.ft_to_lonlat(x[sel], y[sel])
        lon1, lat1 = wcrs.ft_to_lonlat(
            x[sel] - _AZIMUTH_STEP_FT * inward[sel, 0], y[sel] - _AZIMUTH_STEP_FT * inward[sel, 1]
        )
        out[sel] = azimuth_deg(lon0, lat0, lon1, lat1)
    return out


def _table(
    report: Report,
    corners: _Placed,
    c_role: np.ndarray,
    c_parcel: np.ndarray,
    c_ring: np.ndarray,
    c_xy: np.ndarray,
    intervals: _Placed,
    i_parcel: np.ndarray,
    i_ring: np.ndarray,
    am: np.ndarray,
    intended_ft: np.ndarray,
    facing_in: np.ndarray,
    clear: np.ndarray,
) -> tuple[pd.DataFrame, pd.Series, list[str]]:
    """The plan's table (corner markers, then interval markers, sorted along each ring), the
    gap after each existing marker ``am`` once they are placed, and the warnings."""
    rings = report.geometry.rings
    ids = report.parcels["id"].to_numpy(dtype=object)
    ni = len(i_ring)
    role = np.r_[np.asarray(c_role, dtype=object), np.full(ni, "interval", dtype=object)]
    parcel = np.r_[c_parcel, i_parcel].astype(np.int64)
    cat = {k: np.r_[getattr(corners, k), getattr(intervals, k)] for k in _Placed.COLUMNS}
    ok = cat["ok"]
    # the ring a check counts the marker on (a corner marker may serve a touching ring)
    ring = np.where(ok, cat["ring"], np.r_[c_ring, i_ring]).astype(np.int64)
    corner_ft = np.r_[
        np.hypot(corners.x_ft - c_xy[:, 0], corners.y_ft - c_xy[:, 1]), np.full(ni, np.nan)
    ]
    along = np.where(ok, cat["position_ft"], np.nan)
    next_ft, existing_next = _next_gaps(report, ring, along, ok, am)
    notes, warnings = _notes(report, cat, role, parcel, intended_ft, clear)
    table = pd.DataFrame(
        {
            "name": "",
            "parcel": parcel,
            "parcel_id": ids[parcel] if len(parcel) else np.empty(0, dtype=object),
            "role": role,
            "ring": ring,
            "part": rings.part[ring],
            "hole": rings.hole[ring],
            "along_ft": np.where(ok, cat["position_ft"], np.nan),
            "next_ft": next_ft,
            "azimuth_deg": _azimuth(report, parcel, cat["x_ft"], cat["y_ft"], facing_in),
            "setback_ft": cat["setback_ft"],
            "line_ft": cat["line_ft"],
            "corner_ft": corner_ft,
            "lon": cat["lon"],
            "lat": cat["lat"],
            "x_ft": cat["x_ft"],
            "y_ft": cat["y_ft"],
            "note": notes,
        }
    )
    table.insert(4, "kind", _kinds(report, parcel, role))
    owners = report.parcels["owner"].to_numpy(dtype=object)
    table.insert(5, "name_on_sign", owners[parcel] if len(parcel) else np.empty(0, dtype=object))
    table = table.sort_values(["parcel", "ring", "along_ft"], kind="stable").reset_index(drop=True)
    return _name(table), existing_next, warnings


def _next_gaps(
    report: Report, ring: np.ndarray, along: np.ndarray, ok: np.ndarray, am: np.ndarray
) -> tuple[np.ndarray, pd.Series]:
    """The gap to the next marker along the ring, as a check will measure it, after each new
    marker (at ``along`` on ``ring``; NaN where a check does not count it, ``ok`` False) and
    after each existing marker ``am`` (a Series indexed by marker)."""
    length = report.geometry.rings.length_ft
    asg = _Marks.of(report)
    e_ring, e_pos = asg.ring[am], asg.position_ft[am]
    good = np.flatnonzero(ok)
    gaps = ring_gaps(np.r_[e_ring, ring[good]], np.r_[e_pos, along[good]], length)
    nxt = np.full(len(am) + len(good), np.nan)
    has = gaps.start_marker >= 0
    nxt[gaps.start_marker[has]] = gaps.length_ft[has]
    next_ft = np.full(len(ring), np.nan)
    next_ft[good] = nxt[len(am) :]
    return next_ft, pd.Series(nxt[: len(am)], index=am, dtype=float)


def _what_settles(report: Report, many: bool = False) -> np.ndarray:
    """Per parcel, what settles which parcel a marker by a shared line posts, as advice.

    The owner's name on the sign settles it where the parcel has an owner of record (the
    owner column) that a neighbour's does not share (:func:`_clearance`); a column of the
    survey naming the marker's parcel (``--sign-parcel-field``) settles it always; a more
    precise survey (a smaller stated accuracy) brings fewer markers into doubt. A parcel with
    an owner of record is told why the name does not settle it, not to give the column.
    """
    owner = report.parcels["owner"].astype(object)
    known = (owner.notna() & (owner.astype(str).str.strip() != "")).to_numpy(dtype=bool)
    it, its = ("them", "their") if many else ("it", "its")
    record = (
        f"record {its} parcel in the survey (a column read with --sign-parcel-field), or "
        f"survey {it} more precisely"
    )
    return np.where(
        known,
        f"its owner's name does not tell this parcel from the neighbour's on a sign: {record}",
        f"give the owner column, whose name on the sign settles it, {record}",
    )


def _notes(
    report: Report,
    cat: dict[str, np.ndarray],
    role: np.ndarray,
    parcel: np.ndarray,
    intended_ft: np.ndarray,
    clear: np.ndarray,
) -> tuple[np.ndarray, list[str]]:
    """Each new marker's note (set back less than intended, unsure by a shared line, counted
    for another parcel) and the plan's warnings about the last two."""
    ids = report.parcels["id"].to_numpy(dtype=object)
    ok = cat["ok"]
    notes = np.full(len(ok), "", dtype=object)
    short = ok & (cat["setback_ft"] < intended_ft - 1e-9)
    notes[short] = [
        f"set back only {d:.1f} ft: the parcel is narrow or crowded here"
        for d in cat["setback_ft"][short]
    ]
    warnings = []
    acc = report.settings.accuracy_ft
    settle = _what_settles(report)
    for k in np.flatnonzero(cat["unsure"]):
        at = f"[{cat['lon'][k]:.7f}, {cat['lat'][k]:.7f}]"
        why, within = (
            (
                "no spot here stands inside this parcel alone (it overlaps another parcel "
                "here: a marker inside both could post either)",
                "inside another parcel too (they overlap)",
            )
            if cat["overlap"][k]
            else (
                f"no spot here stands {clear[parcel[k]]:.1f} ft from the line shared with "
                f"another parcel (the survey's {acc:g} ft accuracy)",
                "within the survey's accuracy of a shared line",
            )
            if acc > 0
            else (
                "no spot here stands off the line shared with another parcel (a marker on it "
                f"could post either: within {ON_LINE_FT:g} ft)",
                "on a shared line",
            )
        )
        notes[k] = (
            f"a check cannot be sure this marker posts this parcel: {why}; {settle[parcel[k]]}"
        )
        warnings.append(
            f"parcel {ids[parcel[k]]!r}: the {role[k]} marker at {at} stands {within}, so a "
            "check cannot be sure it posts this parcel"
        )
    for k in np.flatnonzero(~ok):
        at = f"[{cat['lon'][k]:.7f}, {cat['lat'][k]:.7f}]"
        where = f"parcel {ids[cat['parcel'][k]]!r}" if cat["parcel"][k] >= 0 else "no parcel"
        notes[k] = (
            f"a check would count this marker for {where}, not for this boundary: record the "
            "parcel on the sign's survey row (a column read with --sign-parcel-field)"
        )
        warnings.append(
            f"parcel {ids[parcel[k]]!r}: the {role[k]} marker at {at} cannot stand where a "
            f"check counts it for this parcel (it would go to {where})"
        )
    return notes, warnings


def _kinds(report: Report, parcel: np.ndarray, role: np.ndarray) -> np.ndarray:
    """The kind of marker each new one must be: one its parcel's profile counts for its role
    (Texas: a paint mark; Arizona: a sign at a corner or an entrance)."""
    table = {}
    for prof in report.profiles:
        for r, rule in (
            ("corner", prof.corners),
            ("access", prof.access),
            ("interval", prof.spacing),
        ):
            table[(prof.name, r)] = (rule.kinds if rule is not None else prof.kinds)[0]
    if not len(parcel):
        return np.empty(0, dtype=object)
    rules = report.parcels["rules"].to_numpy(dtype=object)[parcel]
    key = pd.MultiIndex.from_arrays([rules, np.asarray(role, dtype=object)])
    return pd.Series(table, dtype=object).reindex(key).fillna("sign").to_numpy(dtype=object)


def _name(table: pd.DataFrame) -> pd.DataFrame:
    """Short unique names: the role's letter and the marker's number in the table."""
    n = len(table)
    width = max(3, len(str(n)))
    if 1 + width > NAME_MAX_CHARS:  # pragma: no cover - a billion markers
        raise InputError(f"{n} markers cannot all have names of {NAME_MAX_CHARS} characters")
    table = table.copy()
    if n:
        letters = table["role"].map(ROLE_LETTER).to_numpy(dtype=str)
        numbers = np.char.zfill(np.arange(1, n + 1).astype(str), width)
        table["name"] = np.char.add(letters, numbers).astype(object)
    return table


def _shopping_list(
    report: Report,
    todo: np.ndarray,
    table: pd.DataFrame,
    notes: np.ndarray,
    warnings: list[str],
    short: np.ndarray | None = None,
) -> pd.DataFrame:
    """Per parcel that is not compliant: how many markers of each role, and what is left."""
    p = report.parcels
    status = p["status"].to_numpy(dtype=object)
    rows = np.flatnonzero(~np.isin(status, ("compliant", "exempt")))
    counts = (
        table.groupby(["parcel", "role"]).size().unstack(fill_value=0)
        if len(table)
        else pd.DataFrame()
    )
    g = report.gaps
    bad = g[g["status"] != "ok"]
    # (less the water a profile exempts, which a check leaves out of the gaps: the plan does
    # not post it)
    wet = bad["water_ft"].fillna(0.0).to_numpy(dtype=float) if "water_ft" in bad else 0.0
    covered = np.bincount(
        bad["parcel"].to_numpy(dtype=np.int64),
        weights=bad["length_ft"].to_numpy(dtype=float) - wet,
        minlength=len(p),
    )
    f = report.findings
    # what the plan places markers for: gaps, corners and access points (the main entrance
    # among them; the banks where water crosses the boundary, which a check lists with them),
    # markers in sight of each other, and a count of markers (to a mile, or in all)
    placed = ["spacing", "corners", "access", "entrance", "water", "in_sight", "density"]
    # and whether the land is posted otherwise (a fence, cultivation) or exempt (a dwelling),
    # which a check asks only where its markers do not post it (Land.unsure): markers that
    # comply settle it
    placed += ["fence", "cultivation", "dwelling"]
    # and what no placement settles: a violation (a sign's letters), or what stays unsure (a
    # sign in words a person must read); markers by a shared line have their own note below
    level = f["level"]
    other = f[
        ((level == "violation") | ((level == "uncertain") & (f["rule"] != "shared_line")))
        & ~f["rule"].isin(placed)
    ]
    remaining = (
        (other["rule"] + ": " + other["message"]).groupby(other["parcel"]).agg("; ".join)
        if len(other)
        else pd.Series(dtype=object)
    )
    out = pd.DataFrame(
        {
            "parcel": rows,
            "id": p["id"].to_numpy(dtype=object)[rows],
            "status": status[rows],
        }
    )
    for role in ROLES:
        col = counts[role] if role in counts else pd.Series(dtype=np.int64)
        out[role] = col.reindex(rows, fill_value=0).to_numpy(dtype=np.int64)
    out["total"] = out[list(ROLES)].sum(axis=1).astype(np.int64)
    out["signs"] = p["signs"].to_numpy(dtype=np.int64)[rows]
    out["perimeter_ft"] = p["perimeter_ft"].to_numpy(dtype=float)[rows]
    out["covered_ft"] = np.where(todo[rows], covered[rows], 0.0)
    rem = remaining.reindex(rows).fillna("").to_numpy(dtype=object)
    out["remaining"] = rem
    note = notes[rows].copy()
    invalid = p["invalid_reason"].to_numpy(dtype=object)[rows]
    bad_geom = status[rows] == "invalid"
    note[bad_geom] = [f"no plan: invalid geometry ({why})" for why in invalid[bad_geom]]
    notes_ = table["note"].str
    unplaced = table.loc[notes_.startswith("a check would count"), "parcel"]
    unsure_at = notes_.startswith("a check cannot be sure")
    overlap_at = unsure_at & notes_.contains("inside this parcel alone", regex=False)
    unsure = table.loc[unsure_at & ~overlap_at, "parcel"]
    overlap = table.loc[overlap_at, "parcel"]
    stuck = np.isin(rows, unplaced.to_numpy()) | np.isin(rows, table.loc[unsure_at, "parcel"])
    settle = _what_settles(report, many=True)
    for i in np.flatnonzero(stuck):
        n, u = int((unplaced == rows[i]).sum()), int((unsure == rows[i]).sum())
        o = int((overlap == rows[i]).sum())
        parts = [
            f"{n} marker(s) cannot stand where a check counts them for this parcel: record "
            "their parcel in the survey (a column read with --sign-parcel-field)"
        ] * (n > 0)
        clear_of = "by the survey's accuracy" if report.settings.accuracy_ft > 0 else "off it"
        parts += [
            f"{u} marker(s) cannot stand clear of a shared line {clear_of}: {settle[rows[i]]}"
        ] * (u > 0)
        parts += [
            f"{o} marker(s) cannot stand inside this parcel alone (it overlaps another parcel "
            f"there): {settle[rows[i]]}"
        ] * (o > 0)
        note[i] = "; ".join(parts)
    # a parcel whose profile wants markers at its ways in, which no access layer gave: its
    # markers there cannot be placed, and a re-check would be uncertain; but not where the
    # rule does not apply to its land (Arkansas' points of entry, on forest land:
    # Report.gated), which a bare lot has no finding to tell; where that is unknown, it may
    blind = dict.fromkeys(
        (n.get("profile"), n["rule"])
        for n in report.not_checked
        if n["rule"] in ("access", "entrance") and n["reason"].endswith(UNSURE)
    )
    judged = p["rules"].to_numpy(dtype=object)[rows]
    ways = np.zeros(len(rows), dtype=bool)
    for profile, rule in blind:
        gate = report.gated.get(rule)
        wanted = np.ones(len(rows), dtype=bool) if gate is None else gate[rows] != 0.0
        ways |= (judged == profile) & wanted
    ways &= todo[rows]
    for i in np.flatnonzero(ways & ~stuck):
        note[i] = (
            "its ways in are not known: give the access layer (roads, driveways, trails, gates) "
            "to place markers at them"
        )
    # a parcel that stays without a marker its profile counts is not done (a profile whose
    # rules place nothing here: access points without an access layer, banks without water)
    empty = todo[rows] & (out["total"].to_numpy() == 0) & (rem == "") & ~ways
    doubt = f.loc[f["rule"] == "shared_line", "parcel"].to_numpy()
    for i in np.flatnonzero(empty):
        note[i] = (
            "nothing to place: its verdict turns on markers by a line shared with another "
            "parcel, within the survey's accuracy of it: record in the survey the name on each "
            "(a name_on_sign column, read against the owner column) or its parcel (a column "
            "read with --sign-parcel-field), or survey them more precisely"
            if rows[i] in doubt
            else "nothing to place: its profile's rules give no place for a marker here (give "
            "the layers they need, such as the access points or the water)"
        )
    out["note"] = note
    few = np.zeros(len(rows), dtype=bool) if short is None else short[rows]
    out["complete"] = todo[rows] & (rem == "") & ~stuck & ~empty & ~ways & ~few
    return out
