"""Mistakes that only the parcels and the markers together reveal, caught before the check.

Each file is sound on its own, yet the answer would be wrong:

* **longitude and latitude swapped** in a marker file (a CSV whose ``lon`` column holds the
  latitude): every marker lands far from every parcel, and every parcel would be reported
  unposted. It is caught by trying the swap against the parcels' extent: when no marker of a
  file falls within it as given, and most would with x and y swapped, the file is refused;
* **the minus sign of a western longitude left out** (``81.3`` for ``-81.3`` in Florida, as a
  spreadsheet of a GPS's ``W 81.3`` is often typed): every marker lands in China, and every
  parcel would be reported unposted. Caught alike, by trying each longitude of a file in
  degrees with its sign changed;
* **both at once** (the columns swapped, and the longitude, now in the ``lat`` column, typed
  without its minus sign): neither slip alone puts the markers near the parcels; the two
  together are tried alike, and named together;
* **a point file's numbers in another unit than its CRS's** (State Plane metres given
  ``--crs`` of the zone in US survey feet, or the reverse): every marker lands 3.28 times too
  near the CRS's origin (or too far), and every parcel would be reported unposted. Caught
  alike, by trying the file's numbers scaled from each other unit (metres, feet, US survey
  feet) to its CRS's;
* **adjoining parcels of one owner**, checked one by one: the line between them must then be
  posted like any other, which is rarely what the owner of one property meant. A warning names
  them and says how to check them as one property.

:func:`check_inputs` runs both; the command line calls it once the inputs are read, and adds
the warnings to the report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
from pyproj import CRS

from posting.assign import parcels_extent as usable_extent
from posting.crs import (
    UNIT_PLURALS,
    UNITS_M,
    from_lonlat,
    lon_meets,
    same_zone,
    to_lonlat,
    unit_ratios,
)
from posting.errors import InputError, python_name
from posting.io import MarkerLayer
from posting.prepare import PreparedParcels, adjoining_pairs

__all__ = [
    "check_inputs",
    "flipped_files",
    "looks_swapped",
    "owner_codes",
    "padded",
    "parcels_extent",
    "parcels_unit_slips",
    "refuse_flipped",
    "refuse_parcels_unit_slip",
    "refuse_swapped",
    "refuse_swapped_flipped",
    "refuse_unit_slip",
    "same_owner_notes",
    "same_owner_pairs",
    "same_owner_warning",
    "swap_counts",
    "swapped_files",
    "swapped_flipped_files",
    "swapped_parcels_state",
    "unit_counts",
    "unit_slip",
    "unit_slip_files",
]

MARGIN_DEG = 0.01
"""How far beyond the parcels' extent (degrees, about 0.7 mile of latitude; plus a tenth of the
extent itself) a marker still counts as near them: signs stand within a few feet of a line."""


def parcels_extent(prepared: PreparedParcels) -> tuple[float, float, float, float] | None:
    """(west, south, east, north) in degrees of the parcels with usable geometry
    (:func:`posting.assign.parcels_extent`), grown by the margin (:func:`padded`); None when no
    parcel has any."""
    box = usable_extent(prepared)
    return None if box is None else padded(box)


def padded(extent: Sequence[float]) -> tuple[float, float, float, float]:
    """The parcels' (west, south, east, north) grown by :data:`MARGIN_DEG` and a tenth of
    itself: where a marker still counts as near them."""
    west, south, east, north = (float(v) for v in extent)
    pad_x = MARGIN_DEG + 0.1 * (east - west)
    pad_y = MARGIN_DEG + 0.1 * (north - south)
    return west - pad_x, south - pad_y, east + pad_x, north + pad_y


def _inside(lon: np.ndarray, lat: np.ndarray, extent: tuple[float, ...]) -> np.ndarray:
    west, south, east, north = extent
    with np.errstate(invalid="ignore"):  # (east beyond 180: round the antimeridian)
        return lon_meets(lon, lon, west, east) & (lat >= south) & (lat <= north)


def swap_counts(
    markers: MarkerLayer,
    extent: tuple[float, float, float, float] | None,
    *,
    always: bool = False,
) -> list[tuple[int, int, int, int, int, int]]:
    """For each marker file (its number in ``markers.files``): how many of its markers have a
    position, how many fall within ``extent`` (:func:`parcels_extent`) as given, how many
    would with x and y swapped, how many (of a file in degrees) with the sign of their
    longitude changed, and how many (in degrees) with both: x and y swapped, then the sign of
    the longitude (the ``lat`` column's value) changed. Counts add up over pieces of a file
    (the partitioned check counts each piece where it was read, ``always`` trying all three: a
    piece cannot tell whether its file is mostly off the parcels)."""
    if extent is None or not len(markers):
        return []
    out = []
    usable = pd.isna(markers.reason) & np.isfinite(markers.x) & np.isfinite(markers.y)
    for k, (_, crs) in enumerate(markers.files):
        sel = (markers.file_index == k) & usable
        n = int(sel.sum())
        if not n:
            continue
        given = int(_inside(markers.lon[sel], markers.lat[sel], extent).sum())
        swapped = flipped = both = 0
        if always or given * 10 <= n:  # otherwise tried only for a file off the parcels
            lon, lat = to_lonlat(markers.y[sel], markers.x[sel], crs)
            swapped = int(_inside(lon, lat, extent).sum())
            if crs is not None and crs.is_geographic:
                # the longitude's sign changed: on WGS 84 (a few metres from the file's datum)
                flipped = int(_inside(-markers.lon[sel], markers.lat[sel], extent).sum())
                both = int(_inside(-lon, lat, extent).sum())
        out.append((k, n, given, swapped, flipped, both))
    return out


def looks_swapped(n: int, given: int, swapped: int) -> bool:
    """At most a tenth of a file's ``n`` markers fall near the parcels as ``given``, and at
    least half (and more than as given) would ``swapped``."""
    return given * 10 <= n and swapped * 2 >= n and swapped > given


def swapped_parcels_state(extent: Sequence[float]) -> str | None:
    """The state the middle of the parcels' (west, south, east, north) ``extent`` would lie in
    with longitude and latitude swapped, where as given it lies in none; else None.

    Markers that fall near the parcels only with x and y swapped may be right and the parcels
    swapped (a GeoJSON file written as [lat, lon]): Florida's parcels at (28.7, -81.1), off
    Antarctica, and their signs where they stand. The swap is the parcels' when they lie in no
    state as given and in one swapped: that is only ever so for a place in Antarctica's
    latitudes, where no parcel lies.

    >>> swapped_parcels_state((28.69, -81.11, 28.71, -81.09))
    'Florida'
    >>> swapped_parcels_state((-81.11, 28.69, -81.09, 28.71)) is None  # as given, in Florida
    True
    """
    from posting.states import state_of

    west, south, east, north = (float(v) for v in extent)
    lon, lat = (west + east) / 2, (south + north) / 2
    if not (np.isfinite(lon) and np.isfinite(lat) and abs(lon) <= 90 and abs(lat) <= 90):
        return None
    found = state_of([lon, lat], [lat, lon])
    if found.loc[0, "state"] is not None or found.loc[1, "state"] is None:
        return None
    return str(found.loc[1, "name"])


def refuse_swapped(
    path: str,
    n: int,
    given: int,
    swapped: int,
    *,
    parcels: str | None = None,
    extent: Sequence[float] | None = None,
) -> None:
    """Raise the error for a marker file whose x and y look swapped (:func:`looks_swapped`);
    for the ``parcels`` file instead where theirs are (:func:`swapped_parcels_state` of their
    ``extent``), the markers standing where they are."""
    state = swapped_parcels_state(extent) if extent is not None and parcels else None
    if state is not None:
        raise InputError(
            f"the parcels lie in no state (off Antarctica), but would lie in {state} with "
            "longitude and latitude swapped, where the markers of "
            f"{path} stand as given: the parcels' longitude and latitude are swapped; write "
            "each position as longitude, then latitude (x, y: a GeoJSON position is [lon, "
            "lat])",
            path=parcels,
        )
    raise InputError(
        f"{'none' if not given else f'only {given:,}'} of its {n:,} markers fall near the "
        f"parcels, but {swapped:,} would with x and y swapped: longitude and latitude are "
        "swapped (lon holds the latitude). Swap the columns, or name them for what they "
        "hold (lon, lat)",
        path=path,
    )


def _sign_slip(extent: Sequence[float]) -> tuple[str, str]:
    """What a longitude's wrong sign is, and its fix, for parcels of (west, south, east,
    north) ``extent``: its middle gives the example (a longitude west of Greenwich is
    negative)."""
    west, _, east, _ = (float(v) for v in extent)
    mid = (west + east) / 2
    if mid < 0:
        why = f"the minus sign of a longitude west of Greenwich was left out ({mid:.1f} here, not "
        fix = "write the longitudes negative"
    else:
        why = f"a longitude east of Greenwich has no minus sign ({mid:.1f} here, not "
        fix = "write the longitudes without the minus sign"
    return f"{why}{-mid:.1f})", fix


def refuse_flipped(path: str, n: int, given: int, flipped: int, extent: Sequence[float]) -> None:
    """Raise the error for a marker file whose longitudes look to have lost (or gained) their
    minus sign (:func:`looks_swapped` of the counts with the sign changed), the parcels'
    (west, south, east, north) ``extent`` giving the example: a longitude west of Greenwich
    is negative."""
    why, fix = _sign_slip(extent)
    raise InputError(
        f"{'none' if not given else f'only {given:,}'} of its {n:,} markers fall near the "
        f"parcels, but {flipped:,} would with the sign of their longitude changed: {why}; {fix}",
        path=path,
    )


def refuse_swapped_flipped(
    path: str, n: int, given: int, both: int, extent: Sequence[float]
) -> None:
    """Raise the error for a marker file whose x and y look swapped and whose longitudes (in
    the ``lat`` column) look to have lost (or gained) their minus sign: :func:`looks_swapped`
    of the counts with both slips mended, where neither alone puts them near the parcels."""
    why, fix = _sign_slip(extent)
    raise InputError(
        f"{'none' if not given else f'only {given:,}'} of its {n:,} markers fall near the "
        f"parcels, but {both:,} would with x and y swapped and the sign of their longitude "
        "changed: longitude and latitude are swapped (lon holds the latitude), and "
        f"{why}. Swap the columns, or name them for what they hold (lon, lat), and {fix}",
        path=path,
    )


_SLIPS = ("swapped", "flipped", "both")
"""The slips :func:`swap_counts` counts after the markers as given, in its columns' order: x and
y swapped, the longitude's sign changed, and the two at once."""


def _slipped(
    prepared: PreparedParcels, markers: MarkerLayer, counts: list | None, slip: str
) -> list[tuple[str, int, int, int]]:
    """The marker files that ``slip`` (of :data:`_SLIPS`) brings near the parcels where none
    of the slips before it does (:func:`looks_swapped`): for each, its path, how many of its
    markers have a position, how many fall near the parcels as given, and how many would with
    the slip mended. ``counts``: :func:`swap_counts` of them, if known."""
    if counts is None:
        counts = swap_counts(markers, parcels_extent(prepared))
    k = _SLIPS.index(slip)
    return [
        (markers.files[row[0]][0], row[1], row[2], row[3 + k])
        for row in counts
        if looks_swapped(row[1], row[2], row[3 + k])
        and not any(looks_swapped(row[1], row[2], row[3 + j]) for j in range(k))
    ]


def swapped_files(
    prepared: PreparedParcels, markers: MarkerLayer, counts: list | None = None
) -> list[tuple[str, int, int, int]]:
    """The marker files whose x and y look swapped (:func:`looks_swapped`): for each, its path,
    how many of its markers have a position, how many fall near the parcels as given, and how
    many would with x and y swapped. ``counts``: :func:`swap_counts` of them, if known."""
    return _slipped(prepared, markers, counts, "swapped")


def flipped_files(
    prepared: PreparedParcels, markers: MarkerLayer, counts: list | None = None
) -> list[tuple[str, int, int, int]]:
    """The marker files in degrees whose longitudes look to have the wrong sign, where x and y
    swapped do not explain them: as :func:`swapped_files`, with the sign of their longitude
    changed."""
    return _slipped(prepared, markers, counts, "flipped")


def swapped_flipped_files(
    prepared: PreparedParcels, markers: MarkerLayer, counts: list | None = None
) -> list[tuple[str, int, int, int]]:
    """The marker files in degrees whose x and y look swapped and whose longitudes the wrong
    sign, both, where neither slip alone explains them: as :func:`swapped_files`, with both
    mended."""
    return _slipped(prepared, markers, counts, "both")


UNIT_MARGIN_DEG = 0.1
"""How far (degrees, about 7 miles) beyond the parcels' padded extent a marker file's markers
still count as near them as given, for the unit slips (:func:`unit_counts`): a slip of unit
moves a marker by 2.3 times its distance from its CRS's origin (hundreds of miles in State
Plane); a file a mile off in a frame whose origin is by the parcels comes near them read in
another unit by chance (one marker 3,900 ft off a lot at 5,000 ft from the origin: 1,200 ft
off read as metres)."""


def _grown(extent: tuple[float, float, float, float], by: float) -> tuple[float, ...]:
    """``extent`` (west, south, east, north) grown by ``by`` degrees each way."""
    west, south, east, north = extent
    return west - by, south - by, east + by, north + by


def unit_counts(
    markers: MarkerLayer,
    extent: tuple[float, float, float, float] | None,
    *,
    parcels_crs: CRS | None = None,
    always: bool = False,
) -> list[tuple[int, ...]]:
    """For each marker file (its number in ``markers.files``) off the parcels (at most a tenth
    of its markers within ``extent`` grown by :data:`UNIT_MARGIN_DEG` as given, or ``always``:
    a piece of a file cannot tell): how many of its markers have a position, how many fall
    within ``extent`` (:func:`parcels_extent`) so grown as given, how many would with the
    file's numbers read in each unit of :data:`UNITS_M` (0 for its CRS's own unit, and for a
    file in degrees), and how many would with the parcels' numbers so read (in the projected
    ``parcels_crs``: a marker stands where the parcels read in their CRS's unit would put it,
    at its place in their CRS times the unit's length over the CRS's). Counts add up over
    pieces of a file, as :func:`swap_counts`'s do."""
    if extent is None or not len(markers):
        return []
    out = []
    usable = pd.isna(markers.reason) & np.isfinite(markers.x) & np.isfinite(markers.y)
    theirs = unit_ratios(parcels_crs)
    for k, (_, crs) in enumerate(markers.files):
        ratios = unit_ratios(crs)
        sel = (markers.file_index == k) & usable
        n = int(sel.sum())
        if not n:
            continue
        lon, lat = markers.lon[sel], markers.lat[sel]
        # near as given: within a wider margin, since a marker a mile off in a CRS whose
        # origin is by the parcels (a local frame) is that near them read in any unit
        given = int(_inside(lon, lat, _grown(extent, UNIT_MARGIN_DEG)).sum())
        near = [0] * (2 * len(UNITS_M))
        if always or given * 10 <= n:
            x, y = markers.x[sel], markers.y[sel]
            for j, r in enumerate(ratios):
                if not np.isnan(r):
                    near[j] = int(_inside(*to_lonlat(x * r, y * r, crs), extent).sum())
            if not all(np.isnan(theirs)):
                px, py = from_lonlat(lon, lat, parcels_crs)
                for j, r in enumerate(theirs):
                    if not np.isnan(r):
                        moved = to_lonlat(px / r, py / r, parcels_crs)
                        near[len(UNITS_M) + j] = int(_inside(*moved, extent).sum())
        out.append((k, n, given, *near))
    return out


def unit_slip(n: int, given: int, near: Sequence[int], crs: CRS) -> str | None:
    """The unit (of :data:`UNITS_M`) a marker file's numbers look to be in where its projected
    ``crs`` is in another: one whose ``near`` count (:func:`unit_counts`) :func:`looks_swapped`
    against the ``n`` markers with a position and the ``given`` near as given. Where both
    feet do (their numbers place a marker a few feet apart), the one in which EPSG has the
    same zone (:func:`_same_zone`); else the first. None where no unit does."""
    units = [u for (u, _), m in zip(UNITS_M, near, strict=True) if looks_swapped(n, given, m)]
    if len(units) > 1:
        return next((u for u in units if same_zone(crs, u)), units[0])
    return units[0] if units else None


def unit_slip_files(
    markers: MarkerLayer,
    extent: tuple[float, float, float, float] | None,
    counts: list | None = None,
) -> list[tuple[str, CRS, int, int, int, str]]:
    """The marker files whose numbers look to be in another unit than their CRS's
    (:func:`unit_slip`): for each, its path and CRS, how many of its markers have a position,
    how many fall near the parcels as given, how many would read in that unit, and the unit.
    ``counts``: :func:`unit_counts` of them, if known."""
    if counts is None:
        counts = unit_counts(markers, extent)
    out = []
    for k, n, given, *near in counts:
        path, crs = markers.files[k]
        unit = unit_slip(n, given, near[: len(UNITS_M)], crs)
        if unit is not None:
            m = near[[u for u, _ in UNITS_M].index(unit)]
            out.append((path, crs, n, given, m, unit))
    return out


def parcels_unit_slips(
    markers: MarkerLayer, parcels_crs: CRS, counts: list
) -> list[tuple[str, int, int, int, str]]:
    """The marker files that fall near the parcels only with the parcels' numbers read in
    another unit than their CRS's (:func:`unit_slip` of :func:`unit_counts`' last columns),
    where the file's own numbers so read do not explain them: for each, its path, how many of
    its markers have a position, how many fall near the parcels as given, how many would,
    and the unit."""
    out = []
    for k, n, given, *near in counts:
        if unit_slip(n, given, near[: len(UNITS_M)], markers.files[k][1]) is not None:
            continue
        unit = unit_slip(n, given, near[len(UNITS_M) :], parcels_crs)
        if unit is not None:
            m = near[len(UNITS_M) + [u for u, _ in UNITS_M].index(unit)]
            out.append((markers.files[k][0], n, given, m, unit))
    return out


def refuse_unit_slip(path: str, crs: CRS, n: int, given: int, near: int, unit: str) -> None:
    """Raise the error for a marker file whose numbers look to be in ``unit`` (of
    :data:`UNITS_M`) where its projected ``crs`` is in another (:func:`unit_slip_files`),
    naming the CRS of the same zone in that unit where EPSG has one."""
    own, ratio = _units(crs, unit)
    raise InputError(
        f"{'none' if not given else f'only {given:,}'} of its {n:,} markers fall near the "
        f"parcels, but {near:,} would with their numbers read as {unit}: the file's "
        f"coordinates are in {unit}, not in the {own} of its CRS, {crs.name} (read in {own}, "
        f"every marker lands at {1 / ratio:.4g} times its distance from that CRS's origin, "
        "far from the parcels, and every parcel would be reported unposted). Give the file "
        f"the CRS in {unit} of the same zone{_right_zone(crs, unit, path)}",
        path=path,
        parameter="crs",
    )


def refuse_parcels_unit_slip(
    parcels: str, crs: CRS, path: str, n: int, given: int, near: int, unit: str
) -> None:
    """Raise the error for a ``parcels`` file whose numbers look to be in ``unit`` (of
    :data:`UNITS_M`) where its projected ``crs`` is in another, as the markers of ``path``
    show (:func:`parcels_unit_slips`), naming the CRS of the same zone in that unit."""
    own, ratio = _units(crs, unit)
    raise InputError(
        f"{'none' if not given else f'only {given:,}'} of the {n:,} markers of {path} fall "
        f"near the parcels, but {near:,} would with the parcels' numbers read as {unit}: "
        f"the parcels' coordinates are in {unit}, not in the {own} of their CRS, {crs.name} "
        f"(read in {own}, every length would be measured {ratio:.4g} times too "
        f"{'short' if ratio > 1 else 'long'}). Give the parcels the CRS in {unit} of the same "
        f"zone{_right_zone(crs, unit, parcels)}",
        path=parcels,
        parameter="crs",
    )


def _units(crs: CRS, unit: str) -> tuple[str, float]:
    """The name of a projected ``crs``'s unit in the plural (``US survey feet``), and how many
    of them one ``unit`` (of :data:`UNITS_M`) is."""
    axis = crs.axis_info[0]
    return UNIT_PLURALS.get(axis.unit_name, axis.unit_name), (
        dict(UNITS_M)[unit] / axis.unit_conversion_factor
    )


def _right_zone(crs: CRS, unit: str, path: str) -> str:
    """The CRS of ``crs``'s zone in ``unit`` (:func:`posting.crs.same_zone`) and how to give
    it to the file at ``path``: ``, EPSG:26958 (NAD83 / Florida East) (--crs EPSG:26958)``."""
    from posting.io import TABLE_SUFFIXES

    same = same_zone(crs, unit)
    code = same[0].split(" ", 1)[0] if same else "<its code>"
    name = Path(path).name
    if Path(name).suffix.lower() in TABLE_SUFFIXES:  # (its CRS given by --crs)
        fix = f"{{option}} {code}"
    else:
        fix = f"ogr2ogr -a_srs {code} fixed{Path(name).suffix} {name}"
    return f"{', ' + same[0] if same else ''} ({fix})"


def owner_codes(owners: np.ndarray) -> np.ndarray:
    """Owners as integer codes, compared as :func:`posting.io.owner_keys` compares them
    (:func:`posting.io.owner_names`: case, spaces and punctuation aside); -1 for none, and for
    a name of no owner (``UNKNOWN``, ``N/A``: :data:`posting.io.NO_OWNER`)."""
    from posting.io import owner_names

    # the few distinct names normalised, not every row (a county has 100,000 rows and 7,000
    # owners)
    raw, names = pd.factorize(pd.Series(owners, dtype=object))
    text = owner_names(pd.Series(names, dtype=object))
    same, _ = pd.factorize(text)
    return np.where(raw >= 0, np.append(same, -1)[raw], -1).astype(np.int64)


def same_owner_pairs(prepared: PreparedParcels) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of parcels (rows ``a < b`` of ``prepared``) that adjoin and have the same
    owner (:func:`owner_codes`); none when the parcels have no owners or were merged."""
    owners = prepared.layer.owners
    empty = np.empty(0, dtype=np.int64)
    if owners is None or prepared.source_rows is not None:
        return empty, empty
    return adjoining_pairs(
        prepared.geometry_ft,
        owner_codes(owners),
        prepared.group,
        prepared.invalid,
        prepared.settings.merge_snap_ft,
        prepared.rings,
        prepared.geometry.vertices,
    )


def same_owner_warning(
    source: str,
    count: int,
    examples: list[tuple[object, object, object]],
    option: Callable[[str], str] = python_name,
    owner_field: str | None = None,
) -> str:
    """The warning for ``count`` pairs of adjoining parcels of one owner; ``examples`` are the
    first pairs' (id, id, owner)."""
    shown = ", ".join(f"{a!r} and {b!r} ({owner})" for a, b, owner in examples)
    more = f" and {count - len(examples):,} more" if count > len(examples) else ""
    return (
        f"{source}: {count:,} pair(s) of adjoining parcels have the same owner: "
        f"{shown}{more}. Each parcel is checked on its own, so the line between them must be "
        f"posted too; if they are one property, {option('merge_owner')} "
        f"{owner_field if owner_field else 'with the owner column'} checks only its outer "
        "boundary"
    )


def same_owner_notes(
    prepared: PreparedParcels,
    option: Callable[[str], str] = python_name,
    *,
    owner_field: str | None = None,
    shown: int = 5,
) -> list[str]:
    """A warning when adjoining parcels have the same owner (and were not merged): each is
    checked on its own, so the line between them is measured as a boundary to post.

    ``option`` spells a setting (``merge_owner``) as the front end does (``--merge-owner`` on
    the command line); ``owner_field`` is the owner column, if known, for the hint. Owners are
    compared without case and surrounding spaces; parcels adjoin as
    :func:`posting.prepare.adjoining_pairs` says (as merging them would find).
    """
    a, b = same_owner_pairs(prepared)
    if not len(a):
        return []
    ids, owners = prepared.layer.ids, prepared.layer.owners
    examples = [(ids[i], ids[j], owners[i]) for i, j in zip(a[:shown], b[:shown], strict=True)]
    return [same_owner_warning(prepared.layer.source, len(a), examples, option, owner_field)]


def check_inputs(
    prepared: PreparedParcels,
    markers: MarkerLayer,
    *,
    same_owner: bool = False,
    owner_field: str | None = None,
    option: Callable[[str], str] = python_name,
) -> Future[list[str]]:
    """Refuse marker files whose x and y are swapped, or whose longitudes have the wrong sign,
    or both, or whose numbers are in another unit than their CRS's;
    with ``same_owner``, find the adjoining parcels that share an owner (``owner_field``, the
    owner column, for the hint).

    Returns
    -------
    Future
        The warnings for the report. The adjoining parcels are looked for in a thread of their
        own, while the check runs (0.1 s on a county of 100,000 parcels).

    Raises
    ------
    InputError
        For the first marker file that looks swapped, or then the first whose longitudes
        look to have the wrong sign, or then the first with both slips, or then the first
        whose numbers are in another unit than its CRS's, naming it and the fix.
    """
    counts = swap_counts(markers, parcels_extent(prepared))  # (once, for both slips)
    for path, n, given, swapped in swapped_files(prepared, markers, counts):
        extent = usable_extent(prepared)
        refuse_swapped(path, n, given, swapped, parcels=prepared.layer.source, extent=extent)
    for path, n, given, flipped in flipped_files(prepared, markers, counts):
        refuse_flipped(path, n, given, flipped, usable_extent(prepared))
    for path, n, given, both in swapped_flipped_files(prepared, markers, counts):
        refuse_swapped_flipped(path, n, given, both, usable_extent(prepared))
    theirs = prepared.layer.crs
    units = unit_counts(markers, parcels_extent(prepared), parcels_crs=theirs)
    for path, crs, n, given, near, unit in unit_slip_files(markers, None, units):
        refuse_unit_slip(path, crs, n, given, near, unit)
    for path, n, given, near, unit in parcels_unit_slips(markers, theirs, units):
        refuse_parcels_unit_slip(prepared.layer.source, theirs, path, n, given, near, unit)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="posting-same-owner")
    try:
        if same_owner:
            return pool.submit(same_owner_notes, prepared, option, owner_field=owner_field)
        return pool.submit(list)
    finally:
        pool.shutdown(wait=False)  # the thread ends with its one job
