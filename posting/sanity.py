"""Mistakes that only the parcels and the markers together reveal, caught before the check.

Each file is sound on its own, yet the answer would be wrong:

* **longitude and latitude swapped** in a marker file (a CSV whose ``lon`` column holds the
  latitude): every marker lands far from every parcel, and every parcel would be reported
  unposted. It is caught by trying the swap against the parcels' extent: when no marker of a
  file falls within it as given, and most would with x and y swapped, the file is refused;
* **adjoining parcels of one owner**, checked one by one: the line between them must then be
  posted like any other, which is rarely what the owner of one property meant. A warning names
  them and says how to check them as one property.

:func:`check_inputs` runs both; the command line calls it once the inputs are read, and adds
the warnings to the report.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import pandas as pd

from posting.crs import to_lonlat
from posting.errors import InputError, python_name
from posting.io import MarkerLayer
from posting.prepare import PreparedParcels, adjoining_pairs

__all__ = ["check_inputs", "parcels_extent", "same_owner_notes", "swapped_files"]

MARGIN_DEG = 0.01
"""How far beyond the parcels' extent (degrees, about 0.7 mile of latitude; plus a tenth of the
extent itself) a marker still counts as near them: signs stand within a few feet of a line."""


def parcels_extent(prepared: PreparedParcels) -> tuple[float, float, float, float] | None:
    """(west, south, east, north) in degrees of the parcels with usable geometry, grown by the
    margin; None when no parcel has any."""
    b = prepared.bounds_lonlat[pd.isna(prepared.invalid)]
    b = b[np.isfinite(b).all(axis=1)] if len(b) else b
    if not len(b):
        return None
    west, south = b[:, 0].min(), b[:, 1].min()
    east, north = b[:, 2].max(), b[:, 3].max()
    pad_x = MARGIN_DEG + 0.1 * (east - west)
    pad_y = MARGIN_DEG + 0.1 * (north - south)
    return west - pad_x, south - pad_y, east + pad_x, north + pad_y


def _inside(lon: np.ndarray, lat: np.ndarray, extent: tuple[float, ...]) -> np.ndarray:
    west, south, east, north = extent
    with np.errstate(invalid="ignore"):
        return (lon >= west) & (lon <= east) & (lat >= south) & (lat <= north)


def swapped_files(
    prepared: PreparedParcels, markers: MarkerLayer
) -> list[tuple[str, int, int, int]]:
    """The marker files whose x and y look swapped: for each, its path, how many of its
    markers have a position, how many fall near the parcels as given, and how many would with
    x and y swapped.

    A file counts as swapped when at most a tenth of its markers fall near the parcels as
    given, and at least half (and more than as given) would swapped.
    """
    extent = parcels_extent(prepared)
    if extent is None or not len(markers):
        return []
    out = []
    usable = pd.isna(markers.reason) & np.isfinite(markers.x) & np.isfinite(markers.y)
    for k, (path, crs) in enumerate(markers.files):
        sel = (markers.file_index == k) & usable
        n = int(sel.sum())
        if not n:
            continue
        given = int(_inside(markers.lon[sel], markers.lat[sel], extent).sum())
        if given * 10 > n:
            continue
        lon, lat = to_lonlat(markers.y[sel], markers.x[sel], crs)
        swapped = int(_inside(lon, lat, extent).sum())
        if swapped * 2 >= n and swapped > given:
            out.append((path, n, given, swapped))
    return out


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
    owners = prepared.layer.owners
    if owners is None or prepared.source_rows is not None:
        return []
    # owners compared without case and surrounding spaces: the few distinct names normalised,
    # not every row (a county has 100,000 rows and 7,000 owners)
    raw, names = pd.factorize(pd.Series(owners, dtype=object))
    text = pd.Series(names, dtype="string").str.strip().str.casefold()
    same, _ = pd.factorize(text.where(text != "", None))
    key = np.where(raw >= 0, np.append(same, -1)[raw], -1).astype(np.int64)
    a, b = adjoining_pairs(
        prepared.geometry_ft,
        key,
        prepared.group,
        prepared.invalid,
        prepared.settings.merge_snap_ft,
    )
    if not len(a):
        return []
    ids = prepared.layer.ids
    examples = ", ".join(
        f"{ids[i]!r} and {ids[j]!r} ({owners[i]})"
        for i, j in zip(a[:shown], b[:shown], strict=True)
    )
    more = f" and {len(a) - shown:,} more" if len(a) > shown else ""
    return [
        f"{prepared.layer.source}: {len(a):,} pair(s) of adjoining parcels have the same owner: "
        f"{examples}{more}. Each parcel is checked on its own, so the line between them must be "
        f"posted too; if they are one property, {option('merge_owner')} "
        f"{owner_field if owner_field else 'with the owner column'} checks only its outer "
        "boundary"
    ]


def check_inputs(
    prepared: PreparedParcels,
    markers: MarkerLayer,
    *,
    same_owner: bool = False,
    owner_field: str | None = None,
    option: Callable[[str], str] = python_name,
) -> Future[list[str]]:
    """Refuse marker files whose x and y are swapped; with ``same_owner``, find the adjoining
    parcels that share an owner (``owner_field``, the owner column, for the hint).

    Returns
    -------
    Future
        The warnings for the report. The adjoining parcels are looked for in a thread of their
        own, while the check runs (0.1 s on a county of 100,000 parcels).

    Raises
    ------
    InputError
        For the first marker file that looks swapped, naming it and the fix.
    """
    for path, n, given, swapped in swapped_files(prepared, markers):
        raise InputError(
            f"{'none' if not given else f'only {given:,}'} of its {n:,} markers fall near the "
            f"parcels, but {swapped:,} would with x and y swapped: longitude and latitude are "
            "swapped (lon holds the latitude). Swap the columns, or name them for what they "
            "hold (lon, lat)",
            path=path,
        )
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="posting-same-owner")
    try:
        if same_owner:
            return pool.submit(same_owner_notes, prepared, option, owner_field=owner_field)
        return pool.submit(list)
    finally:
        pool.shutdown(wait=False)  # the thread ends with its one job
