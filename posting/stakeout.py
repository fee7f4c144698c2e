"""A surveyor's point file of a :class:`~posting.planning.Plan`: PNEZD, for a data collector.

A land surveyor stakes the new marker positions out with a data collector (Trimble Access,
Carlson SurvCE/SurvPC, Leica Captivate), which imports a point file in the job's projected
CRS: one line per point, ``point,northing,easting,elevation,description``. The file written
here:

* **header** ``point,northing,easting,elevation,description`` first (posting reads a point file
  only with one: :func:`posting.read_markers`), so that the file is read back as it is
  written (``--signs FILE --crs CRS``); ``header=False`` leaves it out for a collector that
  would read it as a point (Carlson's *Coordinate Order* import wants none; its *Import
  Formatter*, Leica's and Trimble's imports take a number of lines to skip, or refuse a line
  whose coordinates are not numbers);
* **point** numbers from ``start_point`` on, one per marker in the plan's order (by parcel,
  ring and position): a job's own points are usually numbered from 1, so a plan numbered
  from 5001 adds to it without a clash;
* **northing, easting** in the stakeout CRS's own unit (US survey feet in a ``ftUS`` State
  Plane zone, international feet, metres in UTM) with :data:`DECIMALS` (3) decimals: 0.001 ft
  is the resolution collectors keep and far below what a stake is set to (0.01 to 0.05 ft);
  the 7-decimal longitudes and latitudes of the other exports are 0.036 ft apart;
* **elevation** empty: the plan knows no height. Trimble Access imports an empty field as a
  null elevation, Leica imports "coordinates but no heights" as points without height;
  posting's reader ignores the column. (Carlson SurvPC's *Skip Empty Columns* must stay off,
  or the description moves into the elevation's place.)
* **description** ``SIGN NEW CORNER N08``: the marker's kind, ``NEW`` (or ``EXISTING``), its
  role and its parcel id, in capitals but for the id, in ASCII letters, digits, spaces and
  ``- . _ / #`` only (no comma, no quote: a comma would split the line), at most
  :data:`DESCRIPTION_MAX_CHARS` characters (the role shortened, ``SIGN NEW INT 12-345``, where
  the whole would cut the id). ``--signs-where "description=SIGN*"`` reads the
  signs back from a job that holds monuments too.

Positions are the plan's longitudes and latitudes (the 7-decimal values the plan was checked
with, which every other export writes) projected into the stakeout CRS by PROJ
(``always_xy``), vectorised, then settled so that PROJ's way back from the stakeout CRS finds
them (it may shift the datum otherwise: :func:`_as_read_back`): a marker read back from the
point file stands within 0.0005 ft (the rounding to 3 decimals) of the very position the plan
checked. The default stakeout CRS
is the parcels' own CRS where it is projected: then the point file and the parcel layer agree
exactly, whatever PROJ's datum shifts. Lines end with CR LF, as the Windows programs that
collectors run expect; the text is ASCII.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from pyproj import CRS

from posting.crs import (
    WGS84,
    _transform,
    _transformer,
    datum_warnings,
    parse_crs,
    stakeout_hint,
)
from posting.errors import CRSError, InputError
from posting.planning import EXISTING, Plan
from posting.render import register

__all__ = [
    "DECIMALS",
    "DESCRIPTION_MAX_CHARS",
    "PNEZD_COLUMNS",
    "POINT_MAX",
    "ROLE_SHORT",
    "Stakeout",
    "northing_easting",
    "parse_start_point",
    "pnezd_descriptions",
    "to_pnezd",
    "with_stakeout",
]

PNEZD_COLUMNS = ("point", "northing", "easting", "elevation", "description")
"""The header line of the point file (posting reads a point file by it)."""
DECIMALS = 3
"""Decimals of northing and easting, in the CRS's unit (0.001 US survey foot, 0.3 mm)."""
DESCRIPTION_MAX_CHARS = 31
"""Longest description written: the shortest limit among collectors' point descriptions we
know of (a Carlson coordinate file, ``.crd``, keeps 31 characters; its ``.crdb`` 255)."""
ROLE_SHORT = {"corner": "COR", "interval": "INT", "access": "ACC"}
"""A role as a description shortens it, where the whole would cut the parcel id."""
POINT_MAX = 999_999_999
"""The highest point number written: 9 digits, as many as a Carlson coordinate file's point
numbers hold."""
_EOL = "\r\n"
_PLURAL = {"US survey foot": "US survey feet", "foot": "feet", "metre": "metres"}


@dataclass(frozen=True)
class Stakeout:
    """How a plan's point file is written: its projected ``crs``, the first point number, and
    whether the file starts with a header line."""

    crs: CRS
    start_point: int = 1
    header: bool = True

    @property
    def label(self) -> str:
        """``EPSG:6438 (NAD83(2011) / Florida East (ftUS))``, or the CRS's name."""
        code = self.crs.to_epsg()
        return f"EPSG:{code} ({self.crs.name})" if code else self.crs.name

    @property
    def unit_name(self) -> str:
        """The CRS's length unit, as PROJ names it (``US survey foot``, ``foot``, ``metre``)."""
        return str(self.crs.axis_info[0].unit_name)

    def as_dict(self) -> dict[str, Any]:
        """For the plan's summary JSON."""
        return {
            "format": "pnezd",
            "crs": self.label,
            "unit": self.unit_name,
            "decimals": DECIMALS,
            "start_point": self.start_point,
            "header": self.header,
            "columns": list(PNEZD_COLUMNS),
        }

    def summary_line(self) -> str:
        """What the point file holds, for the plan's summary on stderr."""
        unit = _PLURAL.get(self.unit_name, self.unit_name)
        return (
            f"  point file (PNEZD): northing and easting in {unit} of {self.label}, "
            f"{DECIMALS} decimals, points numbered from {self.start_point}, no elevation"
        )


def parse_start_point(value: Any) -> int:
    """The first point number: a whole number from 1 to :data:`POINT_MAX` (``5001``).

    Raises
    ------
    InputError
        Otherwise (``0``, ``-3``, ``x``, ``1.5``, ``²``, ``10000000000``), naming the setting.

    Examples
    --------
    >>> parse_start_point("5001"), parse_start_point(1)
    (5001, 1)
    """
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= POINT_MAX:
        raise InputError(
            f"{{option}} {value!r}: a point number is a whole number from 1 to {POINT_MAX:,} "
            "(e.g. 5001, to follow a job's own points)",
            parameter="start_point",
        )
    return int(text)


def _numbered(first: int, n: int) -> None:
    """Refuse points numbered from ``first`` whose last (of ``n``) has over 9 digits."""
    if n and first + n - 1 > POINT_MAX:
        raise InputError(
            f"{{option}} {first}: the plan's {n:,} points would be numbered up to "
            f"{first + n - 1:,}, past {POINT_MAX:,} (9 digits); start from at most "
            f"{POINT_MAX - n + 1:,}",
            parameter="start_point",
        )


def _given_crs(crs: str | int | CRS, box: np.ndarray) -> CRS:
    given = parse_crs(crs, parameter="stakeout_crs", projected=True)
    if not given.is_projected:
        raise CRSError(
            f"{{option}} {crs}: {given.name} is geographic (degrees); a surveyor's point file "
            f"holds northings and eastings in a projected CRS: give one, e.g. "
            f"{stakeout_hint(box)}",
            parameter="stakeout_crs",
        )
    return given


def _default_crs(plan: Plan, box: np.ndarray) -> CRS:
    own = plan.report.parcels_crs
    if own is not None and own.is_projected:
        return own
    what = f"in {own.name} (longitude/latitude)" if own is not None else "of an unknown CRS"
    raise CRSError(
        f"the parcels are {what}, and a surveyor's point file holds northings and eastings in "
        f"a projected CRS: give it with {{option}}, e.g. {stakeout_hint(box)}",
        parameter="stakeout_crs",
    )


def _outside_area(
    stakeout: Stakeout, lon: np.ndarray, lat: np.ndarray, box: np.ndarray
) -> str | None:
    area = stakeout.crs.area_of_use
    if area is None or area.west > area.east or not len(lon):
        return None
    out = ~((lon >= area.west) & (lon <= area.east) & (lat >= area.south) & (lat <= area.north))
    n = int(out.sum())
    if not n:
        return None
    return (
        f"{n:,} of {len(lon):,} markers lie outside the area of use of the point file's CRS "
        f"{stakeout.label} ({area.west:g}° to {area.east:g}° of longitude, {area.south:g}° to "
        f"{area.north:g}° of latitude): its northings and eastings are distorted there; a CRS "
        f"of these lots is {stakeout_hint(box)}"
    )


def with_stakeout(
    plan: Plan,
    crs: str | int | CRS | None = None,
    start_point: Any = 1,
    header: bool = True,
) -> Plan:
    """``plan`` with a point file's settings (:class:`Stakeout`) and their warnings.

    Parameters
    ----------
    crs
        The point file's projected CRS (``EPSG:6438``); None takes the parcels' own CRS where
        it is projected.
    start_point
        The first point number (a whole number from 1).
    header
        Whether the file starts with the line ``point,northing,easting,elevation,description``.

    Raises
    ------
    CRSError
        A geographic CRS given, or none given for parcels in longitude/latitude: the message
        names a State Plane zone (or UTM zone) whose area holds the lots.
    InputError
        A first point number that is not a whole number from 1.

    The warnings added: the stakeout CRS on another datum than the parcels' (whatever the
    accuracy of PROJ's shift between the two here: a stake is set to hundredths of a foot), and
    markers outside its area of use.
    """
    first = parse_start_point(start_point)
    box = plan.report.geometry.bounds_lonlat
    target = _given_crs(crs, box) if crs is not None else _default_crs(plan, box)
    stakeout = Stakeout(target, first, bool(header))
    notes: list[str] = []
    own = plan.report.parcels_crs
    if own is not None:
        source = plan.report.inputs.get("parcels", {}).get("path", "parcels")
        notes += datum_warnings(
            (source, own), [(f"the point file's CRS {stakeout.label}", target)], box, within_m=0
        )
    m = plan.markers
    outside = _outside_area(
        stakeout, m["lon"].to_numpy(dtype=float), m["lat"].to_numpy(dtype=float), box
    )
    notes += [outside] if outside else []
    cut = _descriptions(m)[1]
    if cut.any():
        ids = m["parcel_id"].to_numpy(dtype=object)[cut]
        notes.append(
            f"{int(cut.sum()):,} point(s) of {len(pd.unique(ids)):,} parcel(s) (as "
            f"{ids[0]}) have their parcel id cut in the description, to "
            f"{DESCRIPTION_MAX_CHARS} characters: it may read as another parcel's; the "
            "point numbers follow the plan's order, whose other exports hold the whole id"
        )
    return dataclasses.replace(plan, stakeout=stakeout, warnings=[*plan.warnings, *notes])


def northing_easting(
    stakeout: Stakeout, lon: np.ndarray, lat: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """WGS 84 longitudes and latitudes to the stakeout CRS: (northing, easting) in its unit.

    Raises
    ------
    CRSError
        Where PROJ cannot project a marker (far outside the CRS's area).

    Examples
    --------
    >>> s = Stakeout(CRS.from_epsg(2236))  # Florida East, US survey feet: its false origin
    >>> n, e = northing_easting(s, np.array([-81.0]), np.array([24.3333333333]))
    >>> round(float(n[0]), 3) + 0.0, round(float(e[0]), 3)  # (false easting 200,000 m)
    (0.0, 656166.667)
    """
    lon = np.asarray(lon, dtype=float)
    lat = np.asarray(lat, dtype=float)
    e, n = _transform(_transformer(WGS84, stakeout.crs), lon, lat)
    bad = ~(np.isfinite(e) & np.isfinite(n))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise CRSError(
            f"{{option}}: {int(bad.sum()):,} marker(s) cannot be projected into "
            f"{stakeout.label}, as ({lon[i]:.7f}, {lat[i]:.7f}): give a CRS of these lots",
            parameter="stakeout_crs",
        )
    e, n = _as_read_back(stakeout.crs, lon, lat, e, n)
    return n, e


_READ_BACK_ITERATIONS = 4
_READ_BACK_STEP_DEG = 1e-5  # (about 1 m) for the projection's derivatives


def _as_read_back(
    crs: CRS, lon: np.ndarray, lat: np.ndarray, e: np.ndarray, n: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Easting and northing ``e``, ``n`` (PROJ's, from WGS 84) moved to where a reader of the
    point file in ``crs`` (PROJ from ``crs`` to WGS 84: the parcels' own way in, and
    :func:`posting.read_markers` with ``--crs``) finds ``lon``, ``lat``.

    PROJ may choose another datum shift one way than the other: in the Aleutian Islands
    (NAD83 / Alaska Albers, west of 172.5° W, PROJ 9.5) WGS 84 to NAD83 takes the islands' own
    shift (EPSG "NAD83 to WGS 84 (2)") and NAD83 to WGS 84 the null one, 0.9 m apart, so that
    a point file written one way and read the other puts a sign set 3 ft inside the line 0.3
    ft from it. Newton's method on the way back
    (its derivatives those of the projection alone, which a datum shift hardly changes)
    settles each point to well under the file's 0.001 unit in a step or two.
    """
    if crs.geodetic_crs is None:  # pragma: no cover - a projected CRS has one
        return e, n
    back = _transformer(crs, WGS84)
    proj = _transformer(crs.geodetic_crs, crs)  # the projection alone, on the CRS's datum
    h = _READ_BACK_STEP_DEG
    e0, n0 = _transform(proj, lon, lat)
    e_lon, n_lon = _transform(proj, lon + h, lat)
    e_lat, n_lat = _transform(proj, lon, lat + h)
    # d(e, n) / d(lon, lat), units per degree
    a, b = (e_lon - e0) / h, (e_lat - e0) / h
    c, d = (n_lon - n0) / h, (n_lat - n0) / h
    ok = np.isfinite(a) & np.isfinite(b) & np.isfinite(c) & np.isfinite(d)
    e, n = e.copy(), n.copy()
    for _ in range(_READ_BACK_ITERATIONS):
        lon1, lat1 = _transform(back, e, n)
        dlon = np.mod(lon - lon1 + 180.0, 360.0) - 180.0  # (across the antimeridian)
        dlat = lat - lat1
        de, dn = a * dlon + b * dlat, c * dlon + d * dlat
        move = ok & np.isfinite(de) & np.isfinite(dn)
        e[move] += de[move]
        n[move] += dn[move]
        if not move.any() or np.abs(np.r_[de[move], dn[move]]).max() < 1e-7:
            break
    return e, n


def _descriptions(table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The descriptions (:func:`pnezd_descriptions`) and whether each one cut its parcel id."""
    if not len(table):
        return np.empty(0, dtype=object), np.zeros(0, dtype=bool)
    kind = table["kind"].astype(object).where(table["kind"].notna(), "sign").astype(str)
    role = table["role"].astype(str)
    existing = (role == EXISTING).to_numpy(dtype=bool)
    short = role.map(ROLE_SHORT).fillna(role).str.upper()
    ids = table["parcel_id"].astype(object).where(table["parcel_id"].notna(), "").astype(str)
    ids = (
        ids.str.normalize("NFKD")
        .str.encode("ascii", "ignore")
        .str.decode("ascii")
        .str.replace(r"[^A-Za-z0-9 ._/#-]+", " ", regex=True)
        .str.split()
        .str.join(" ")
    )
    kind = kind.str.upper().str.replace(r"[^A-Z0-9]+", " ", regex=True).str.strip()
    full = kind + np.where(existing, " EXISTING", " NEW " + role.str.upper()) + " " + ids
    brief = kind + np.where(existing, " EXISTING", " NEW " + short) + " " + ids
    full, brief = full.str.strip(), brief.str.strip()
    text = full.where(full.str.len() <= DESCRIPTION_MAX_CHARS, brief)
    cut = (text.str.len() > DESCRIPTION_MAX_CHARS).to_numpy(dtype=bool)
    text = text.str.slice(0, DESCRIPTION_MAX_CHARS).str.rstrip()
    return text.to_numpy(dtype=object), cut


def pnezd_descriptions(table: pd.DataFrame) -> np.ndarray:
    """Each marker's description in the point file: ``SIGN NEW CORNER N08``.

    Kind and role in capitals, ``NEW`` (or ``EXISTING`` for an existing marker), then the
    parcel id reduced to ASCII letters, digits, spaces and ``- . _ / #`` (accents dropped,
    anything else a space), at most :data:`DESCRIPTION_MAX_CHARS` characters. Where that is
    too long, the role is shortened as surveyors write it (:data:`ROLE_SHORT`: ``COR``,
    ``INT``, ``ACC``) so that the parcel id stays whole; only an id too long even so is cut
    (:func:`with_stakeout` warns of it): a cut id may be another parcel's.

    Examples
    --------
    >>> t = pd.DataFrame({"kind": ["sign", "paint", "paint"],
    ...                   "role": ["corner", "existing", "interval"],
    ...                   "parcel_id": ['12-345, "Peña"', 7, "13212951100000130"]})
    >>> pnezd_descriptions(t).tolist()
    ['SIGN NEW CORNER 12-345 Pena', 'PAINT EXISTING 7', 'PAINT NEW INT 13212951100000130']
    """
    return _descriptions(table)[0]


def to_pnezd(plan: Plan, table: pd.DataFrame) -> str:
    """The point file of the markers of ``table`` (see the module's docstring)."""
    stakeout = plan.stakeout if plan.stakeout is not None else with_stakeout(plan).stakeout
    _numbered(stakeout.start_point, len(table))
    n, e = northing_easting(
        stakeout, table["lon"].to_numpy(dtype=float), table["lat"].to_numpy(dtype=float)
    )
    points = np.arange(stakeout.start_point, stakeout.start_point + len(table), dtype=np.int64)
    rows = pd.Series(points.astype(str), dtype=object)
    rows = (
        rows
        + ","
        + np.char.mod(f"%.{DECIMALS}f", n).astype(object)
        + ","
        + np.char.mod(f"%.{DECIMALS}f", e).astype(object)
        + ",,"
        + pnezd_descriptions(table)
    )
    lines = ([",".join(PNEZD_COLUMNS)] if stakeout.header else []) + rows.tolist()
    return "".join(line + _EOL for line in lines)


@register("pnezd", "plan", (), "the new markers (a surveyor's PNEZD point file)")
def render_pnezd(plan: Plan, *, include_existing: bool = False) -> str:
    """The plan's markers (and the existing ones, if asked) as a PNEZD point file, in the
    plan's :attr:`~posting.planning.Plan.stakeout` (the parcels' own CRS where not set)."""
    table = plan.with_existing() if include_existing else plan.markers
    return to_pnezd(plan, table)
