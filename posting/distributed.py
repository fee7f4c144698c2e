"""The check on dask.distributed: a state's parcels in spatial partitions, in bounded memory,
with the verdicts of one run.

A county fits one process; a state (ten million parcels) does not. Here the check runs as dask
tasks on a cluster (a local one, started by the command, or any dask scheduler), each task on
one thread and on one partition's worth of data, so that no process ever holds more than a few
partitions, whatever the size of the state. The steps, each a set of tasks that dask schedules
(and runs again elsewhere when a worker dies):

1. **scan**: each piece of the parcels (:func:`posting.dataset.pieces`: row groups of a file,
   files of a dataset) gives its parcels' centres and boxes in longitude/latitude, and, with
   ``merge_owner``, their owners; nothing else of the parcels is kept.
2. **plan**, on the client: the working CRSs of the whole layer
   (:class:`posting.partition.WorkingPlan`); each parcel's Hilbert distance (dask-geopandas'
   function, on the workers, piece by piece) and the cuts that make partitions of about
   ``partition_parcels`` parcels along the curve (:func:`_cuts`, from the pieces' histograms;
   by default :func:`partition_size` of the parcels and the cluster's worker threads)
   (one owner's parcels, with ``merge_owner``, share a key and so a partition); the grid cells
   each partition's boxes cover, padded by the halo (:class:`posting.partition.Reach`).
3. **distribute**: each piece of the parcels, the markers and the context layers is read once
   more and its rows are written, by partition, to a scratch folder (markers and context
   features to every partition whose reach they touch).
4. **prepare**: each partition's parcels are prepared (repaired, projected in the plan's CRSs,
   merged by owner, split into rings, corners found) and, with ``auto`` or a state's profile
   given by name, each property's state looked up (:func:`posting.jurisdiction.parcel_state_table`);
   the properties near other partitions are written to them, with their states, as their halo.
   With ``auto``, the client chooses the profiles for the whole run from the partitions'
   :class:`~posting.jurisdiction.StateFacts` as one run chooses them
   (:func:`posting.jurisdiction.decide`), or refuses as one run refuses.
5. **check**: each partition assigns its markers, measures and evaluates its own properties
   and its halo together (the halo only takes part: markers near a shared line go to the
   parcel they would go to in one run), and keeps its own properties' results; it writes its
   part of every output, each line with its place in the input order.
6. **reasons**: a marker that no partition assigns is unassigned; why (the parcel it stands
   in, the nearest boundary within 5,000 ft) is found from the partitions near it and put
   together as one run would word it.
7. **outputs**: the parts are merged in input order (:mod:`posting.stream`) into the JSON,
   GeoJSON and CSV that one run writes, byte for byte, and into partitioned GeoParquet
   datasets; the summary is the whole run's.
"""

from __future__ import annotations

import collections
import contextlib
import copyreg
import errno
import functools
import gc
import glob
import math
import operator
import os
import pickle
import shutil
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from pyproj import CRS

from posting import dataset, dates, io, jsonslices, parallel
from posting.crs import bowed, crs_of
from posting.errors import InputError, PostingError
from posting.index import unique_ints
from posting.io import (
    LeftOut,
    MarkerLayer,
    ParcelLayer,
    no_markers,
    no_parcel_field,
    no_where_column,
    require_polygons,
    unnamed_layers,
)
from posting.job import CONTEXT_LAYERS, ContextFiles, Job
from posting.jurisdiction import Choice, StateFacts
from posting.partition import (
    Halo,
    Reach,
    WorkingPlan,
    boxes_near,
    concat,
    extremes,
    take,
    take_geometry,
)
from posting.prepare import ParcelGeometry, PreparedParcels

if TYPE_CHECKING:
    from distributed import Client

    from posting.jurisdiction import Applied
    from posting.report import Report

__all__ = [
    "CONNECT_S",
    "DEFAULT_PARTITION_PARCELS",
    "MAX_DEFAULT_PARTITION_PARCELS",
    "Block",
    "Plan",
    "Run",
    "cluster",
    "connect_timeout",
    "partition_size",
    "run_partitioned",
]

DEFAULT_PARTITION_PARCELS = 20_000
"""Parcels per partition at least, by default (:func:`partition_size`; see ``docs/scale.md``:
a partition's cost is nearly proportional to its parcels and markers beyond a fixed cost of
about 0.1 s; at 20,000 parcels and their 200,000 markers a task holds about 0.4 GB and the halo
adds a few per cent)."""

MAX_DEFAULT_PARTITION_PARCELS = 50_000
"""Parcels per partition at most, by default: on the benchmark state (1,000,000 parcels of real
shapes, 10 million markers, two workers) partitions of 50,000 took 89-93 s of CPU where
partitions of 20,000 took 96-104 s (a halo of 24,284 properties instead of 50,368, 20 tasks a
step instead of 50), and its largest process 1.21-1.35 GB instead of 0.85 (a task holds about
1 GB; the bound is 2.5)."""

TASKS_PER_WORKER = 4
"""Partitions per worker that the default size aims at, so that a step's last tasks do not
leave most workers idle (a step ends with its slowest task)."""


def partition_size(parcels: int, workers: int) -> int:
    """The default number of parcels per partition: ``parcels`` spread over
    :data:`TASKS_PER_WORKER` tasks for each of ``workers``, within
    [:data:`DEFAULT_PARTITION_PARCELS`, :data:`MAX_DEFAULT_PARTITION_PARCELS`]: few large
    partitions for a state on a few workers (less halo, fewer tasks), more for many workers.

    >>> partition_size(1_000_000, 2), partition_size(1_000_000, 10), partition_size(100_000, 2)
    (50000, 25000, 20000)
    """
    wanted = math.ceil(parcels / (TASKS_PER_WORKER * max(workers, 1)))
    return int(min(MAX_DEFAULT_PARTITION_PARCELS, max(DEFAULT_PARTITION_PARCELS, wanted)))


HILBERT_LEVEL = 16
CELL_HALOS = 6
"""Side of a cell of the routing grid, in halos (:class:`posting.partition.Reach`): what is sent
to a partition beyond its halo is at most a cell wide."""
MAX_CELLS = 4_000_000
"""At most this many cells (a state: cells of about a third of a mile)."""

_SPAWN_ENV = "distributed.nanny.pre-spawn-environ"
"""The environment dask's nanny gives the worker processes it starts (:func:`cluster`)."""

_LAYER_SETTINGS = {
    "access": ("access", "access_type_field"),
    "landcover": ("landcover", "landcover_field", "forest_where", "cultivated_where"),
    "water": ("water", "water_where"),
    "dwellings": ("dwellings",),
    "fences": ("fences", "fence_height_field"),
    "easements": ("easements", "easement_holder_field"),
    "places": ("places", "place_field"),
    "registry": ("registry",),
}
"""Each context layer, read piece by piece (:func:`_distribute_context`) and sent to the
partitions it reaches, with the settings it is read with (:class:`posting.job.ContextFiles`)."""
_CONTEXT_LAYERS = tuple(_LAYER_SETTINGS)
_PER_ROW = (
    "landcover_field",
    "forest_where",
    "public_where",
    "check_date",
    "dwelling_where",
    "cultivated_where",
    "acres_field",
    "sight_ft",
    "place_field",
    "registry_where",
)
"""The other context settings: read of each partition's parcels' columns, or plain values.
With :data:`_LAYER_SETTINGS`, every setting of :class:`posting.job.ContextFiles` (a test holds
it so: the partitioned check once left out the registry, the places and the sight distance,
and judged without them)."""


# -- small helpers ---------------------------------------------------------------------------
def _geometries(wkb: np.ndarray, rings: np.ndarray) -> np.ndarray:
    """Geometries from WKB, the LinearRings among them made LinearRings again (WKB has no
    ring type)."""
    import shapely

    with np.errstate(invalid="ignore"):  # a coordinate not a number: its row's problem
        out = shapely.from_wkb(wkb)
    if len(rings):
        xy, idx = shapely.get_coordinates(out[rings], return_index=True)
        out[rings] = shapely.linearrings(xy, indices=idx)
    return out


def _rings_made_odd(geo: ParcelGeometry) -> np.ndarray:
    """The rings of ``geo`` that its vertex table does not give back as they are: fewer than
    three vertices, or a last vertex equal to the first (a closing vertex given twice), which
    :func:`shapely.linearrings` would take for the closing one."""
    v = geo.vertices
    odd = v.count < 3
    full = np.flatnonzero(~odd)
    first, last = v.start[full], v.start[full] + v.count[full] - 1
    odd[full] = (v.xy[first] == v.xy[last]).all(axis=1)
    return np.flatnonzero(odd)


def _with_ring_geometry(
    geo: ParcelGeometry, odd: np.ndarray, odd_rings: np.ndarray
) -> ParcelGeometry:
    """``geo`` saved without its rings' geometries (:class:`_Pickler`) with them again: each
    ring made from its vertices in the vertex table, closed by its first (a ring's coordinates
    as they were, to the bit), ``odd_rings`` (rings ``odd``) as saved."""
    import shapely

    v = geo.vertices
    n = len(v.count)
    out = np.empty(n, dtype=object)
    made = np.ones(n, dtype=bool)
    made[odd] = False
    rows = made[v.ring]
    if rows.any():
        rank = np.cumsum(made) - 1
        out[made] = shapely.linearrings(v.xy[rows], indices=rank[v.ring[rows]])
    out[odd] = odd_rings
    return replace(geo, rings=replace(geo.rings, geometry=out))


def _reduce_crs(crs: CRS) -> tuple[Callable[[str], CRS], tuple[str]]:
    return crs_of, (crs.srs,)


# every pickle of a CRS, dask's included (the plan, a task's arguments, the lost markers sent
# for their reasons), loads as the process's one object for its definition: each unpickled
# CRS object was parsed afresh on first use (the county's unassigned markers' reasons: 0.7 s
# of CPU comparing the CRSs of the markers sent to each partition)
copyreg.pickle(CRS, _reduce_crs)


class _Pickler(pickle.Pickler):
    """Pickles arrays of shapely geometries as one WKB array (in C), not geometry by geometry
    (a partition's rings and parcels: three times faster to save and to load), the rings of
    prepared parcels not at all when their vertex table is saved with them (made from it
    again), and a CRS as its definition, loaded as the process's one object for it
    (:func:`posting.crs.crs_of`)."""

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is CRS:
            return crs_of, (obj.srs,)
        if (
            type(obj) is ParcelGeometry
            and obj.vertices is not None
            and obj.rings.geometry is not None
        ):
            # the rings' coordinates are in the vertex table: made from it again when loaded
            odd = _rings_made_odd(obj)
            bare = replace(obj, rings=replace(obj.rings, geometry=None))
            return _with_ring_geometry, (bare, odd, obj.rings.geometry[odd])
        if type(obj) is np.ndarray and obj.dtype == object and obj.ndim == 1 and len(obj) > 8:
            import shapely

            geo = shapely.is_geometry(obj)
            if geo.any() and all(x is None for x in obj[~geo]):
                kind = shapely.get_type_id(obj)
                return _geometries, (shapely.to_wkb(obj), np.flatnonzero(kind == 2))
        return NotImplemented


def _task(func: Callable[..., Any]) -> Callable[..., Any]:
    """A task run on one thread, with Python's cyclic garbage collector paused.

    One thread: each worker runs one task at a time on one thread (:func:`cluster`), so the
    process's :func:`posting.parallel.pmap` and its writing aside (:mod:`posting.stream`)
    would put more threads than cores on the machine (the state with ``--workers 2``: 1-3 %
    more CPU, and 0.15 GB more in each worker). The collector paused, as the command pauses
    it for one process's check (:func:`posting.cli._user_errors`: a check's many objects hold
    no cycles, and reference counting frees them); both are restored when the task ends. A
    user's mistake (:class:`~posting.errors.PostingError`) leaves it detached from the
    exceptions it was raised while handling, so that it reaches the command as itself."""

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            with parallel.threads(1):
                return func(*args, **kwargs)
        except PostingError as exc:
            mistake = exc.detached()
        finally:
            if was_enabled:
                gc.enable()
        # a user's mistake reaches the command as itself, raised here, outside the handler:
        # dask sends an error with the ones it was raised while handling (tblib), and a GDAL
        # error among them did not load again, so the command got a bare Exception and took
        # a missing --layer for an internal error (exit 3, a traceback)
        raise mistake

    return run


RUN_MARK = ".posting-run"
"""A file in a run's scratch folder from its start (:func:`run_partitioned`): a task makes its
folders only within a folder that holds it (:func:`_room`)."""


def _room(path: str) -> None:
    """Make the folders of ``path``, a file of a run's scratch folder, but never the run's
    folder itself: a task that a cluster which outlives the command (``--scheduler``) still
    runs once a refused run has removed its folder fails (nobody awaits it) instead of making
    the folder again and leaving it behind (``posting-run-*``, in the scratch folder or the
    system's temporary one)."""
    folder = os.path.dirname(path)
    if os.path.isdir(folder):  # (nothing to make)
        return
    run = folder  # (a folder that is gone holds no mark: the walk passes it)
    while not os.path.exists(os.path.join(run, RUN_MARK)):
        if os.path.dirname(run) == run:
            raise FileNotFoundError(
                errno.ENOENT, "the run's scratch folder is gone (the run has ended)", folder
            )
        run = os.path.dirname(run)
    os.makedirs(folder, exist_ok=True)


def _save(path: str, obj: Any) -> None:
    """Pickle ``obj`` to ``path`` whole or not at all (a task run again overwrites it)."""
    _room(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as fh:
        _Pickler(fh, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    os.replace(tmp, path)


def _load(path: str) -> Any:
    # (shapely unpickles from WKB: a coordinate that is not a number is its row's problem)
    with open(path, "rb") as fh, np.errstate(invalid="ignore"):
        return pickle.load(fh)


def _numbered(pattern: str) -> list[str]:
    """The files ``pattern`` names (``.../<number>.<suffix>``: every scratch file), by their
    number (not their names' text order, where 10 comes before 2)."""
    return sorted(glob.glob(pattern), key=lambda p: int(os.path.basename(p).split(".")[0]))


def _loads(pattern: str) -> list[Any]:
    """The scratch files ``pattern`` names, loaded, by their number."""
    return [_load(p) for p in _numbered(pattern)]


def _lat_range(bounds: Sequence[float]) -> tuple[float, float]:
    return float(bounds[1]), float(bounds[3])


# -- reading a piece -------------------------------------------------------------------------
def _bad_wkb_row(table: Any, piece: dataset.Piece) -> None:
    """Raise naming the file and row (of the file) of the first geometry that is not readable
    WKB, as one run names it."""
    import shapely

    geo = io.geo_metadata(table.schema.metadata or {}, piece.path)
    col = (geo or {}).get("primary_column")
    if not col or col not in table.column_names:
        return
    values = table.column(col).to_numpy(zero_copy_only=False)
    try:
        with np.errstate(invalid="ignore"):  # (a coordinate not a number is a row's problem)
            shapely.from_wkb(values)
    except (shapely.errors.ShapelyError, TypeError):
        row = _file_row(piece, io.first_not_wkb(values))
        raise InputError(io.not_wkb(row), path=piece.path, row=row) from None


def _file_row(piece: dataset.Piece, row: int) -> int:
    """The row number within its file of row ``row`` of a piece."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(piece.path).metadata
    before = sum(meta.row_group(g).num_rows for g in range(min(piece.row_groups or (0,))))
    return before + (piece.rows_of_groups or (0, 0))[0] + row


def _piece_table(piece: dataset.Piece) -> Any:
    return dataset.piece_table(piece)


@contextlib.contextmanager
def _named_row(table: Any, piece: dataset.Piece) -> Iterator[None]:
    """Reading ``table`` failed: name the file and row of the first unreadable geometry."""
    try:
        yield
    except InputError:
        _bad_wkb_row(table, piece)
        raise


class _Given(dataset.Given):
    def __init__(self, path: str, table: Any, meta_from: str) -> None:
        super().__init__({path: table})
        self.meta_from = meta_from


@contextlib.contextmanager
def _given(piece: dataset.Piece) -> Iterator[dataset.Given]:
    """What the readers are handed for ``piece``: its slice of features or records, or its
    table (a Parquet piece, read here, a geometry that is not WKB named with its file and
    row)."""
    if piece.features is not None:
        yield dataset.Given(features={piece.source: piece.features})
        return
    if piece.text is not None:
        yield dataset.Given(texts={piece.source: piece.text})
        return
    if piece.feature_text is not None:
        yield dataset.Given(feature_texts={piece.source: piece.feature_text})
        return
    table = _piece_table(piece)
    with _named_row(table, piece):
        yield _Given(piece.source, table, piece.path)


def _read_slice(piece: dataset.Piece, read: Callable[..., Any], whole: Callable[[], Any]) -> Any:
    """``read(prefetch)``: ``piece`` read as a part of its file. A piece of one file that is
    refused may only look wrong on its own (most of its rows swapped, or in another CRS, where
    the file's are not): the file read whole (``whole()``) gives one run's error, if it has
    one, and the piece is read again without the checks that the whole file passed. A piece of
    a dataset (which no process reads whole) is read as a part at once: what only the whole
    dataset settles is judged on the client from every piece's tallies (:func:`_tallies_of`,
    :func:`posting.io.refuse_as_whole`)."""
    if not piece.of_one_file:
        with _given(piece) as prefetch, io.part_of_file():
            return read(prefetch)
    try:
        with _given(piece) as prefetch:
            return read(prefetch)
    except PostingError:
        pass
    whole()
    with _given(piece) as prefetch, io.part_of_file():
        return read(prefetch)


@contextlib.contextmanager
def _tallies_of(piece: dataset.Piece) -> Iterator[list[io.WholeTally]]:
    """The tallies of the reading in the block (:func:`posting.io.tallies`) that the client
    judges the whole layer by: a dataset's piece's (a piece of one file is judged where it is
    read, against its file read whole: :func:`_read_slice`)."""
    with io.tallies() as seen:
        mine: list[io.WholeTally] = []
        yield mine
    if not piece.of_one_file:
        mine.extend(seen)


def _refuse_as_whole(pieces: Sequence[dataset.Piece], tallies: Sequence[Any]) -> None:
    """Refuse a layer read in ``pieces`` (in order) as one run reading it whole would, from
    each piece's tallies (:func:`_tallies_of`)."""
    io.refuse_as_whole([(p.offset, t) for p, t in zip(pieces, tallies, strict=True)])


def read_parcel_piece(job: Job, piece: dataset.Piece) -> tuple[ParcelLayer, np.ndarray]:
    """The parcels of one piece, as :func:`posting.io.read_parcels` reads a file, with ids and
    row numbers those of the whole layer; and each one's row number."""
    from posting.io import _as_id_strings, _require_column, read_parcels

    given = {"id_field": job.id_field, "owner_field": job.owner_field, "crs": job.crs}
    given |= {"layer": job.layer, "closed_lines": job.closed_lines}
    given |= {"id_notes_of_layer": False}  # (worded from every piece's)
    if piece.row_groups is None and not piece.sliced:  # another file: read whole
        layer = read_parcels(job.parcels, **given)
        return layer, np.arange(len(layer), dtype=np.int64)
    layer = _read_slice(
        piece,
        lambda prefetch: read_parcels(piece.source, **given, prefetch=prefetch, piece=True),
        lambda: read_parcels(job.parcels, **given),
    )
    n = len(layer)
    rows = piece.offset + np.arange(n, dtype=np.int64)
    ids = layer.ids.copy()
    if job.id_field:
        col = _require_column(layer.attributes, job.id_field, layer.source, "id_field")
        missing = np.flatnonzero(pd.isna(_as_id_strings(layer.attributes[col])))
        ids[missing] = [f"#{r}" for r in rows[missing]]
    else:
        ids = rows.astype(str).astype(object)
    return replace(layer, ids=ids), rows


def read_marker_piece(job: Job, entry: int, piece: dataset.Piece) -> MarkerLayer:
    """The markers of one piece of marker file ``entry``, with row numbers those of the whole
    file (or dataset)."""
    from posting.io import read_markers

    def read(prefetch: Any = None) -> MarkerLayer:
        paths = [job.signs[entry]]  # (a piece's source: its file or dataset, as given)
        return read_markers(
            paths,
            crs=job.crs,
            parcel_field=job.sign_parcel_field,
            prefetch=prefetch,
            piece=True,
            where=job.signs_where,
        )

    if piece.row_groups is None and not piece.sliced:
        markers = read()
        offset = 0
    else:
        markers = _read_slice(piece, read, read)
        offset = piece.offset
    markers.row = markers.row + offset
    markers.file_index = np.full(len(markers), entry, dtype=np.int64)
    return markers


def markers_take(m: MarkerLayer, idx: np.ndarray) -> MarkerLayer:
    """Markers ``idx`` of a marker layer (a piece's: its ``type`` columns judged as the
    layer's are, ``type_kinds`` as it was)."""
    return replace(m.take(idx), type_kinds=m.type_kinds)


def markers_concat(parts: list[MarkerLayer], files: list[Any]) -> MarkerLayer:
    """Markers of several pieces as one layer, in input order (file, then row)."""
    if not parts:
        out = MarkerLayer.empty()
        out.files = list(files)
        return out
    attrs = [p.attributes for p in parts]
    cat = MarkerLayer(
        source=np.concatenate([p.source for p in parts]),
        row=np.concatenate([p.row for p in parts]),
        x=np.concatenate([p.x for p in parts]),
        y=np.concatenate([p.y for p in parts]),
        lon=np.concatenate([p.lon for p in parts]),
        lat=np.concatenate([p.lat for p in parts]),
        file_index=np.concatenate([p.file_index for p in parts]),
        files=list(files),
        reason=np.concatenate([p.reason for p in parts]),
        attributes=(
            pd.concat(attrs, ignore_index=True)
            if any(len(a.columns) for a in attrs)
            else pd.DataFrame(index=range(sum(len(p) for p in parts)))
        ),
        parcel_ref=(
            None if parts[0].parcel_ref is None else np.concatenate([p.parcel_ref for p in parts])
        ),
    )
    key = (cat.file_index.astype(np.int64) << 40) | cat.row.astype(np.int64)
    if len(key) < 2 or bool((key[1:] > key[:-1]).all()):  # pieces given in order (the usual)
        return cat
    return markers_take(cat, np.argsort(key, kind="stable"))


# -- step 1: scan ----------------------------------------------------------------------------
@_task
def _scan(job: Job, piece: dataset.Piece) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Each parcel's row, centre and box in longitude/latitude (as :func:`prepare_parcels`
    places it) and owner key; and what the plan needs of the piece."""
    import shapely

    from posting.closedlines import closed_lines
    from posting.crs import every_ring_bounds, lon_range, to_lonlat
    from posting.io import (
        _as_id_strings,
        _require_column,
        geometry_kinds,
        inexact_ids,
        owner_keys,
        tally_rows,
    )
    from posting.prepare import across_antimeridian

    with _tallies_of(piece) as tallies:
        layer, rows = read_parcel_piece(job, piece)
    geometry = np.asarray(layer.geometry, dtype=object)
    n = len(geometry)
    types = shapely.get_type_id(geometry)
    empty = (types >= 0) & shapely.is_empty(geometry)
    polygonal = np.isin(types, (3, 6)) & ~empty
    if layer.closed_lines:  # as prepare_parcels reads them
        polygonal |= closed_lines(geometry)
    b = shapely.bounds(geometry)
    cx = (b[:, 0] + b[:, 2]) / 2
    cy = (b[:, 1] + b[:, 3]) / 2
    cx[~polygonal] = np.nan
    cy[~polygonal] = np.nan
    lon, lat = to_lonlat(cx, cy, layer.crs)
    lon, lat = lon.copy(), lat.copy()
    across = polygonal & across_antimeridian(b, layer.crs)  # placed nowhere, as one run
    bad = ~(np.isfinite(lon) & np.isfinite(lat)) | across
    lon[bad] = np.nan
    lat[bad] = np.nan
    box = every_ring_bounds(geometry, b)  # as prepare_parcels boxes them
    box[across] = np.nan
    clon, clat = to_lonlat(
        np.r_[box[:, 0], box[:, 2], box[:, 0], box[:, 2]],
        np.r_[box[:, 1], box[:, 1], box[:, 3], box[:, 3]],
        layer.crs,
    )
    clon, clat = clon.reshape(4, n), clat.reshape(4, n)
    west, east = lon_range(clon)  # (the short way round, as prepare_parcels boxes them)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN boxes: rows without geometry
        frame = pd.DataFrame(
            {
                "row": rows,
                "lon": lon,
                "lat": lat,
                "west": west if n else np.empty(0),
                "south": np.nanmin(clat, axis=0) if n else np.empty(0),
                "east": east if n else np.empty(0),
                "north": np.nanmax(clat, axis=0) if n else np.empty(0),
            }
        )
    frame["mkey"] = (
        pd.Series(owner_keys(layer, job.merge_owner, "merge_owner"), dtype=object)
        if job.merge_owner
        else pd.Series(np.full(n, None, dtype=object), dtype=object)
    )
    missing: np.ndarray = np.empty(0, dtype=np.int64)
    inexact: np.ndarray = np.empty(0, dtype=np.int64)
    id_col = None
    if job.id_field:
        id_col = _require_column(layer.attributes, job.id_field, layer.source, "id_field")
        missing = rows[pd.isna(_as_id_strings(layer.attributes[id_col]))]
        inexact = rows[inexact_ids(layer.attributes[id_col])]
    ext = extremes(lon, lat)
    info = {
        "rows": n,
        "crs": layer.crs,
        "source": layer.source,
        "id_field": layer.id_field,
        "id_col": id_col,
        "notes": list(layer.notes),
        "columns": jsonslices.columns_of(layer.attributes),
        "missing_ids": tally_rows(missing),
        "inexact_ids": tally_rows(inexact),
        "extreme_lon": lon[ext],
        "extreme_lat": lat[ext],
        "box": _extent(frame[["west", "south", "east", "north"]].to_numpy(dtype=float))
        if n
        else [np.nan] * 4,
        "any_owner": layer.owners is not None and bool(pd.notna(layer.owners).any()),
        "kinds": geometry_kinds(geometry),
        "tallies": tallies,
        "cover": _parcel_cover(job, layer),
    }
    return frame, info


def _parcel_cover(job: Job, layer: ParcelLayer) -> Any:
    """The values of the parcels' land-cover column (without a land-cover layer), if the piece
    has it (:class:`posting.cover.CoverValues`), else None."""
    from posting.cover import CoverValues

    c = job.context
    if c.landcover or not c.cover_field:
        return None
    col = io._column(layer.attributes, [c.cover_field.strip().lower()])
    return None if col is None else CoverValues.of(layer.attributes[col])


def _require_parcel_columns(job: Job, info: list[dict[str, Any]]) -> None:
    """Refuse, once the parcels are scanned, a column that a setting names (``--public-where``,
    ``--acres-field``, ...) and that no piece has, with one run's message: not only once the
    partitions are checked, after most of a state's run."""
    from posting.job import require_parcel_columns

    names = list(dict.fromkeys(c for x in info for c, _, _ in x["columns"]))
    require_parcel_columns(job.context, pd.DataFrame(columns=names), info[0]["source"])


# -- step 2: plan ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """What every task is told: the job, its profiles, the CRS plan, the partitions' reach, the
    halo and the scratch folder; whether the parcels' states are looked up (``states``: with
    ``auto`` or a state's profile given by name) and, with ``auto``, the whole layer's choice
    of profiles (``choice``, made once the partitions are prepared)."""

    job: Job
    profiles: tuple[Any, ...]
    working: WorkingPlan
    reach: Reach
    halo: Halo
    scratch: str
    partitions: int
    lat_range: tuple[float, float]
    marker_files: tuple[tuple[str, Any], ...] = ()
    marker_starts: tuple[tuple[int, int], ...] = ()  # (file, first row) of each marker piece
    # each marker piece's attribute columns (no rows), in input order: a partition's markers
    # have the whole run's columns, though some file has none of its markers
    marker_columns: tuple[pd.DataFrame, ...] = ()
    # the marker files whose type column gives their kinds, judged on the whole file (a
    # partition holds some rows of each)
    marker_type_kinds: frozenset[int] = frozenset()
    # each marker file's order of day and month in its date columns, decided on the whole
    # file: (file, column, order) (:func:`_date_orders`)
    marker_date_orders: tuple[tuple[int, str, str], ...] = ()
    group_extents: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)
    states: bool = False
    choice: Choice | None = None
    context_warnings: tuple[str, ...] = ()  # what one run says of the context layers


def _hilbert(frame: pd.DataFrame, curve: tuple[float, float, float, float]) -> np.ndarray:
    """Each parcel's distance along the Hilbert curve over ``curve`` (of its centre; a parcel
    without one at the curve's south-west corner): geopandas' ``hilbert_distance``, the
    function dask-geopandas maps over a dask GeoDataFrame's partitions, on this piece (the
    same numbers; a dask collection of the pieces only to map it cost more than it does)."""
    import geopandas
    import shapely

    x = frame["lon"].fillna(curve[0]).to_numpy(dtype=float)
    if curve[2] > 180:  # a layer astride the antimeridian: its west longitudes beyond 180
        x = np.where(x < curve[0], x + 360, x)
    y = frame["lat"].fillna(curve[1]).to_numpy(dtype=float)
    points = geopandas.GeoSeries(shapely.points(x, y))
    hd = points.hilbert_distance(total_bounds=np.asarray(curve), level=HILBERT_LEVEL)
    return hd.to_numpy(dtype=np.float64)


def _owner_min(frame: pd.DataFrame, hd: np.ndarray) -> pd.Series:
    """Each owner's smallest Hilbert distance in a piece (parcels without one left out)."""
    return pd.Series(hd, index=frame.index).groupby(frame["mkey"].to_numpy()).min()


def _plan_key(frame: pd.DataFrame, hd: np.ndarray, owner_min: pd.Series | None) -> np.ndarray:
    """Each parcel's partitioning key: its Hilbert distance, or its owner's smallest one."""
    if owner_min is None:
        return hd
    return _owner_key(frame, pd.Series(hd, index=frame.index), owner_min)


_BIN = 1 << 16
"""A bin of the keys' histogram (:func:`_cuts`): 65,536 distances along the curve (whose
level 16 makes 2**32 of them)."""


def _key_bins(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The bins a piece's keys fall in and how many fall in each."""
    return np.unique((key // _BIN).astype(np.int64), return_counts=True)


def _keys_in(key: np.ndarray, bins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A piece's distinct keys in ``bins`` and how many of each."""
    sel = np.isin((key // _BIN).astype(np.int64), bins)
    return np.unique(key[sel], return_counts=True)


def _cuts(client: Client, keys: list[Any], n: int, k_parts: int, progress: bool) -> np.ndarray:
    """The keys that cut ``n`` parcels into ``k_parts`` runs of about equal length along the
    curve (each the key of rank ``n * j // k_parts``, ``j`` from 1), exact, without gathering
    the keys: each piece's histogram of its keys in bins of :data:`_BIN`, added up, gives the
    bin of each cut; then only the distinct keys in those bins are gathered."""
    ranks = np.arange(1, k_parts, dtype=np.int64) * n // k_parts
    if not len(ranks) or not n:
        return np.empty(0)
    hist = _progress(client.map(_key_bins, keys, pure=False), "planning partitions", progress)
    bins = np.concatenate([b for b, _ in hist])
    counts = np.concatenate([c for _, c in hist])
    bins, inverse = np.unique(bins, return_inverse=True)
    counts = np.bincount(inverse, weights=counts).astype(np.int64)
    ends = np.cumsum(counts)
    at = np.searchsorted(ends, ranks, side="right")  # the bin each rank falls in
    wanted = np.unique(bins[at])
    got = _progress(
        client.map(_keys_in, keys, bins=wanted, pure=False), "planning partitions", progress
    )
    values = np.concatenate([v for v, _ in got])
    many = np.concatenate([c for _, c in got])
    values, inverse = np.unique(values, return_inverse=True)
    many = np.bincount(inverse, weights=many).astype(np.int64)
    value_bin = (values // _BIN).astype(np.int64)
    cuts = []
    for r, b in zip(ranks, at, strict=True):
        before = ends[b] - counts[b]  # keys in the bins before this one
        mine = value_bin == bins[b]
        within = np.cumsum(many[mine])
        cuts.append(values[mine][np.searchsorted(within, r - before, side="right")])
    return np.unique(np.asarray(cuts, dtype=np.float64))


def _part_keys(key: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    return np.searchsorted(cuts, key, side="right").astype(np.int64)


def _reach_cells(
    frame: pd.DataFrame, part: np.ndarray, grid: tuple[float, ...], pad: float, parts: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (cell, partition) pairs a piece's parcels (their boxes, padded) touch, each once;
    and its parcels per partition (of ``parts``)."""
    # (bowed: a frame's straight line between two vertices far apart bows off their box)
    boxes = bowed(frame[["west", "south", "east", "north"]].to_numpy(dtype=float))
    boxes = boxes + np.array([-pad, -pad, pad, pad])
    item, cell = Reach.cells_of(grid, boxes)
    key = unique_ints(cell.astype(np.int64) * (1 << 32) + part[item])
    return key >> 32, key & 0xFFFFFFFF, np.bincount(part, minlength=parts)


# -- step 3: distribute ----------------------------------------------------------------------
@_task
def _distribute_parcels(plan: Plan, i: int, piece: dataset.Piece, part: np.ndarray) -> int:
    layer, rows = read_parcel_piece(plan.job, piece)
    for k in unique_ints(part):
        sel = np.flatnonzero(part == k)
        from posting.partition import _layer_take

        _save(f"{plan.scratch}/parcels/{k}/{i}.pkl", (_layer_take(layer, sel), rows[sel]))
    return len(rows)


def _marker_boxes(m: MarkerLayer) -> np.ndarray:
    return np.column_stack([m.lon, m.lat, m.lon, m.lat])


@_task
def _distribute_markers(plan: Plan, i: int, entry: int, piece: dataset.Piece) -> dict[str, Any]:
    from posting.attributes import kind_text, kinds_tally, marker_kinds

    with io.columns_read() as seen, _tallies_of(piece) as tallies:
        m = read_marker_piece(plan.job, entry, piece)  # (seen: a GeoJSON slice's columns)
    _save(f"{plan.scratch}/markers-all/{i}.pkl", m)
    item, part = plan.reach.parts_of(_marker_boxes(m))
    for k in unique_ints(part):
        _save(f"{plan.scratch}/markers/{k}/{i}.pkl", markers_take(m, item[part == k]))
    other_count, other_first = 0, []
    attrs = m.attributes
    if len(attrs.columns):
        kinds = marker_kinds(attrs)
        other = kinds == "other"
        other_count = int(other.sum())
        if other_count:
            other_first = [str(v) for v in kind_text(attrs)[other].head(50)]
    return {
        "entry": entry,
        "columns": m.attributes.iloc[:0],
        "markers": len(m),
        "file": m.files[0] if m.files else (piece.source, None),
        "notes": list(m.notes),
        "unusable": int((~pd.isna(m.reason)).sum()),
        "other": (other_count, other_first),
        "json_columns": seen[-1] if seen else None,
        "tallies": tallies,
        "has_parcel_field": bool(plan.job.sign_parcel_field)
        and plan.job.sign_parcel_field.strip().lower() in m.attributes.columns,
        "has_where_column": bool(plan.job.signs_where)
        and _where_column(plan.job.signs_where) in m.attributes.columns,
        # whether its type column holds a value, and one not a kind, and its descriptions
        # one, and one not a plan's point file's: the file's judgement (a type column of
        # kinds, descriptions of a plan's) is its pieces' together
        "type_tally": tuple(bool(t[0]) for t in kinds_tally(attrs, np.zeros(len(m), int), 1)),
        # what its survey dates say of the order of day and month, by column: the file's
        # order is its pieces' together (:func:`_date_orders`)
        "date_tally": {
            str(c): dates.tally(attrs[c], m.row) for c in dates.date_columns(attrs.columns)
        },
    }


def _date_orders(
    mres: list[dict[str, Any]], files: list[tuple[str, Any]]
) -> tuple[tuple[int, str, str], ...]:
    """Each marker file's order of day and month in each of its date columns, decided on the
    whole file (its pieces' tallies together, :func:`posting.dates.combine`): ``(file, column,
    order)`` where one is decided; and, in place, each piece's notes followed by what one run
    says of the file's dates (:func:`posting.dates.notes`, after the file's other notes).

    Raises
    ------
    InputError
        A file whose dates are written day first in some rows and month first in others, as
        one run refuses it.
    """
    out = []
    for e in dict.fromkeys(r["entry"] for r in mres):
        mine = [r for r in mres if r["entry"] == e]
        said: list[str] = []
        for col in dict.fromkeys(c for r in mine for c in r["date_tally"]):
            t = dates.combine(r["date_tally"][col] for r in mine if col in r["date_tally"])
            order = dates.decide(t, files[e][0], col)
            said += dates.notes(t, order, files[e][0], col)
            if order is not None:
                out.append((e, col, order))
        for r in mine:
            r["notes"] = [*r["notes"], *said]
    return tuple(out)


def _dates_settled(markers: MarkerLayer, orders: tuple[tuple[int, str, str], ...]) -> MarkerLayer:
    """Markers (some rows of some files) with each file's survey dates written year first in
    the order decided on the whole file (:func:`_date_orders`), as one run writes them."""
    attrs = markers.attributes
    todo = [(e, c, o) for e, c, o in orders if c in attrs.columns]
    if not todo or not len(markers):
        return markers
    attrs = attrs.copy()
    for e, col, order in todo:
        rows = np.flatnonzero(markers.file_index == e)
        if len(rows):
            values = dates.settle(attrs[col].iloc[rows].reset_index(drop=True), order)
            column = attrs[col].to_numpy(dtype=object, copy=True)
            column[rows] = values.to_numpy(dtype=object)
            attrs[col] = pd.Series(column, index=attrs.index, dtype=attrs[col].dtype)
    return replace(markers, attributes=attrs)


def _describe_kinds(
    mres: list[dict[str, Any]], typed: np.ndarray, files: list[tuple[str, Any]]
) -> None:
    """In place, the notes of each piece of a marker file whose descriptions are a plan's point
    file's (``typed``, judged on the whole file): the note that every row counts as a sign
    (said by each piece, from its columns) becomes the one that the kinds are read from the
    descriptions, as one process words it."""
    from posting.attributes import description_note

    for r in mres:
        e = r["entry"]
        if not typed[e]:
            continue
        cols = r["columns"].columns
        path = files[e][0]
        said, meant = description_note(cols, path), description_note(cols, path, True)
        if said is not None:
            r["notes"] = [meant if n == said else n for n in r["notes"]]


def _where_column(where: str) -> str:
    """The column a ``--signs-where`` expression names, as marker columns are named."""
    return io.parse_where(where, "signs_where")[0].strip().lower()


@_task
def _distribute_context(
    plan: Plan, name: str, i: int, piece: dataset.Piece
) -> tuple[int, tuple[Any, ...] | None, list[str], LeftOut, LeftOut, list[io.WholeTally], Any]:
    """Read piece ``i`` of one context layer (the layer, when it is one piece) and write each
    partition the features within its reach; how many it has; for a slice of a GeoJSON file,
    its columns as GDAL typed them (:func:`_json_settled`); its notes, the features it
    leaves out and the polygons it finds not valid (:func:`posting.io.left_out_summary`, by row
    of the layer) for :func:`_context_warnings`; of a dataset's piece, its tallies
    (:func:`_tallies_of`); and of the land cover's, its column's values
    (:class:`posting.cover.CoverValues`, which :func:`_refuse_cover` gathers), else None."""
    from posting.io import left_out_summary  # (posting.io: FeatureLayer is what is pickled)
    from posting.job import read_context

    job = plan.job
    only = dict.fromkeys(ContextFiles.__dataclass_fields__)
    for f in _LAYER_SETTINGS[name]:
        only[f] = getattr(job.context, f)
    files = ContextFiles(**only)
    if files.cultivated_where and not files.cultivated_on_layer:  # (the parcels': per row)
        files = replace(files, cultivated_where=None)
    empty = ParcelLayer.from_geometries([], "EPSG:4326")

    def read(prefetch: Any = None) -> Any:
        # (the land cover refused once its pieces are gathered, as one run refuses it whole)
        return getattr(read_context(files, empty, job.crs, prefetch, refuse_cover=False), name)

    whole = piece.row_groups is None and not piece.sliced
    with io.columns_read() as seen, _tallies_of(piece) as tallies:
        layer = read() if whole else _read_slice(piece, read, read)
    boxes = layer.lonlat_bounds()
    item, part = plan.reach.parts_of(bowed(boxes))
    folder = f"{plan.scratch}/context/{name}"
    if i == 0:  # what a partition that no feature reaches is given
        _save(f"{folder}/none.pkl", (_features_take(layer, item[:0]), boxes[:0]))
    for k in unique_ints(part):
        sel = item[part == k]
        _save(f"{folder}/{k}/{i}.pkl", (_features_take(layer, sel), boxes[sel]))
    left_out = left_out_summary(layer.left_out, offset=piece.offset)  # (a few rows by why)
    repaired = left_out_summary(layer.repaired, offset=piece.offset)
    cover = layer.cover if name == "landcover" else None
    return (
        len(layer),
        (seen[-1] if seen else None),
        list(layer.notes),
        left_out,
        repaired,
        tallies,
        cover,
    )


def _refuse_layer_cover(
    job: Job, context: dict[str, list[dataset.Piece]], read: dict[tuple[str, int], Any]
) -> None:
    """Refuse the land-cover layer whose pieces :func:`_distribute_context` read (``read``)
    as one run refuses it whole (:func:`_refuse_cover`), if there is one."""
    if "landcover" in context:
        tallies = [read["landcover", i][6] for i in range(len(context["landcover"]))]
        _refuse_cover(job, tallies, job.context.landcover)


def _refuse_cover(job: Job, tallies: Sequence[Any], source: str) -> None:
    """Refuse the land-cover column whose pieces' values are ``tallies`` (of the land-cover
    layer's pieces, or of the parcels' without one) as one run refuses the whole column
    (:func:`posting.job.refuse_cover_of`): with the same values named."""
    from posting.cover import CoverValues
    from posting.job import refuse_cover_of

    refuse_cover_of(job.context, CoverValues.merged(tallies), source)


def _features_take(layer: Any, idx: np.ndarray) -> Any:
    """Features ``idx`` of a :class:`posting.io.FeatureLayer` (without the layer's notes:
    :func:`_context_warnings` gathers them)."""
    return replace(
        layer,
        geometry=layer.geometry[idx],
        values=layer.values[idx],
        notes=[],
        left_out={},
        repaired={},
    )


def _context_warnings(
    job: Job, context: dict[str, list[dataset.Piece]], read: dict[tuple[str, int], Any]
) -> tuple[str, ...]:
    """What one run says of the context layers (:meth:`posting.measure.Context.warnings`),
    from what the distribution of each piece found (``read``, :func:`_distribute_context`):
    each layer's notes (once each, in the pieces' order) and the features it leaves out."""
    from posting.io import feature_warnings, merged_left_out

    out: list[str] = []
    for name in CONTEXT_LAYERS:  # (one run's order)
        if name not in context:
            continue
        found = [read[name, i] for i in range(len(context[name]))]
        notes = list(dict.fromkeys(n for r in found for n in r[2]))
        left_out = merged_left_out(r[3] for r in found)
        repaired = merged_left_out(r[4] for r in found)
        out += feature_warnings(getattr(job.context, name), notes, left_out, repaired)
    return tuple(out)


def _context_of(plan: Plan, name: str, k: int) -> tuple[Any, np.ndarray]:
    """The features of context layer ``name`` that reach partition ``k``, in the layer's order
    (its pieces', in order), with their boxes."""
    folder = f"{plan.scratch}/context/{name}"
    parts = _loads(f"{folder}/{k}/*.pkl") or [_load(f"{folder}/none.pkl")]
    layer = replace(
        parts[0][0],
        geometry=np.concatenate([p.geometry for p, _ in parts]),
        values=np.concatenate([p.values for p, _ in parts]),
    )
    return layer, np.concatenate([b for _, b in parts])


# -- step 4: prepare -------------------------------------------------------------------------
@dataclass
class Block:
    """Prepared properties of (part of) a partition, with what puts them in the whole run's
    order: ``first_row``, each property's first input row; ``rows``, the input rows they are
    made of (the parcel layer that per-row context is read from) and ``row_keys``, those rows'
    numbers. Without merging, ``rows`` is ``prep.layer`` and a property is a row. ``states``:
    each property's ``status`` and ``state`` (:func:`posting.jurisdiction.parcel_state_table`,
    looked up where it was prepared, the input geometry at hand), or None when not needed."""

    prep: PreparedParcels
    rows: ParcelLayer
    row_keys: np.ndarray
    first_row: np.ndarray
    states: pd.DataFrame | None = None

    def __len__(self) -> int:
        return len(self.prep)

    def take(self, idx: np.ndarray, vertices: bool = True) -> Block:
        from posting.partition import _layer_take

        idx = np.asarray(idx, dtype=np.int64)
        prep = take(self.prep, idx, vertices)
        states = None if self.states is None else self.states.iloc[idx].reset_index(drop=True)
        if self.prep.source_rows is None:
            return Block(prep, prep.layer, self.row_keys[idx], self.first_row[idx], states)
        used = [np.asarray(self.prep.source_rows[i], dtype=np.int64) for i in idx]
        flat = np.concatenate(used) if used else np.empty(0, np.int64)
        sizes = np.cumsum([0] + [len(u) for u in used])
        prep = replace(
            prep,
            source_rows=[list(range(sizes[j], sizes[j + 1])) for j in range(len(idx))],
        )
        return Block(
            prep, _layer_take(self.rows, flat), self.row_keys[flat], self.first_row[idx], states
        )


def _concat_blocks(blocks: list[Block]) -> tuple[Block, np.ndarray]:
    """Blocks as one, in the whole run's order; and where each block's properties went."""
    from posting.partition import _layer_concat

    if len(blocks) == 1:
        return blocks[0], np.arange(len(blocks[0]))
    merged = blocks[0].prep.source_rows is not None
    preps = []
    offset = 0
    for b in blocks:
        p = b.prep
        if merged:
            p = replace(p, source_rows=[[r + offset for r in rows] for rows in p.source_rows])
            offset += len(b.rows)
        preps.append(p)
    first = np.concatenate([b.first_row for b in blocks])
    order = np.argsort(first, kind="stable")
    prep = concat(preps, order)
    if merged:
        rows = _layer_concat([b.rows for b in blocks])
        row_keys = np.concatenate([b.row_keys for b in blocks])
    else:
        rows, row_keys = prep.layer, first[order]
    states = None
    if blocks[0].states is not None:
        states = pd.concat([b.states for b in blocks], ignore_index=True)
        states = states.iloc[order].reset_index(drop=True)
    where = np.empty(len(first), dtype=np.int64)
    where[order] = np.arange(len(first))
    return Block(prep, rows, row_keys, first[order], states), where


@_task
def _prepare(plan: Plan, k: int) -> dict[str, Any]:
    """Step 4: partition ``k``'s parcels prepared (saved as a :class:`Block`), its properties
    near other partitions written to them as their halo, its ids written for the count of ids
    found more than once; and what the whole run needs of it (:func:`_prepared_summary`)."""

    from posting.io import owner_keys
    from posting.jurisdiction import parcel_state_table
    from posting.partition import _layer_concat, _layer_take
    from posting.prepare import prepare_parcels

    job = plan.job
    parts = _loads(f"{plan.scratch}/parcels/{k}/*.pkl")
    layer = _layer_concat([p[0] for p in parts])
    rows = np.concatenate([p[1] for p in parts])
    order = np.argsort(rows, kind="stable")
    layer, rows = _layer_take(layer, order), rows[order]
    key = owner_keys(layer, job.merge_owner, "merge_owner") if job.merge_owner else None
    # corners are found in the check, on the same vertex table as the markers' positions
    # (a marker exactly at a corner is before or after it by that table's arithmetic)
    prep = prepare_parcels(layer, job.settings, merge_key=key, plan=plan.working, corners=False)
    # each property's state, as one run finds it (a parcel's does not depend on the others
    # looked up with it), while the input geometry is at hand
    table = parcel_state_table(prep) if plan.states else None
    # the input geometry is not needed once prepared (the working geometry is): not saved
    prep = replace(prep, layer=replace(prep.layer, geometry=np.full(len(prep), None, object)))
    layer = replace(layer, geometry=np.full(len(layer), None, dtype=object))
    states = None if table is None else table[["status", "state", "states"]]
    if prep.source_rows is None:
        block = Block(prep, prep.layer, rows, rows, states)
    else:
        first = np.asarray([rows[r[0]] for r in prep.source_rows], dtype=np.int64)
        block = Block(prep, layer, rows, first, states)
    _save(f"{plan.scratch}/prep/{k}.pkl", block)
    ids = np.asarray(prep.ids, dtype=object)
    bucket = _id_buckets(ids, _id_bucket_count(plan.partitions))
    for b in unique_ints(bucket):
        sel = bucket == b
        _save(f"{plan.scratch}/ids/{b}/{k}.pkl", (ids[sel], block.first_row[sel]))
    if prep.source_ids is not None:  # the names a marker may give: every lot of a property
        names = np.asarray([i for lots in prep.source_ids for i in lots], dtype=object)
        bucket = _id_buckets(names, _id_bucket_count(plan.partitions))
        for b in unique_ints(bucket):
            _save(f"{plan.scratch}/names/{b}/{k}.pkl", names[bucket == b])
    item, part = plan.reach.parts_of(bowed(prep.bounds_lonlat))  # the halo: near another's reach
    for j in unique_ints(part):
        if j != k:
            _save(f"{plan.scratch}/halo/{j}/{k}.pkl", block.take(np.sort(item[part == j])))
    summary = _prepared_summary(k, block)
    if table is not None:  # what auto's choice needs of it
        summary["states"] = StateFacts.of(table, prep.ids, block.first_row)
    return summary


def _id_bucket_count(partitions: int) -> int:
    """How many sets the ids are split into to find those given more than once (each a task
    holding a set: about ten partitions' ids)."""
    return max(1, partitions // 10)


def _id_buckets(ids: np.ndarray, count: int) -> np.ndarray:
    """Each id's set: a hash of its text (pandas', the same in every process)."""
    if not len(ids):
        return np.empty(0, dtype=np.int64)
    return (pd.util.hash_array(ids) % np.uint64(count)).astype(np.int64)


@_task
def _named_partitions(plan: Plan, b: int, refs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The partitions that own a parcel of each name ``refs`` (names of set ``b``): pairs of
    the name's place in ``refs`` and the partition (a name may be given to several parcels).
    A property merged by owner has the names of all its parcels."""
    folder = "names" if plan.job.merge_owner else "ids"
    frames = []
    for path in _numbered(f"{plan.scratch}/{folder}/{b}/*.pkl"):
        names = _load(path)
        names = names if plan.job.merge_owner else names[0]
        k = int(os.path.basename(path).split(".")[0])
        frames.append(pd.DataFrame({"id": pd.Series(names, dtype=object), "k": k}))
    if not frames:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    asked = pd.DataFrame({"i": np.arange(len(refs)), "id": pd.Series(refs, dtype=object)})
    found = asked.merge(pd.concat(frames, ignore_index=True), on="id").drop_duplicates(["i", "k"])
    return found["i"].to_numpy(np.int64), found["k"].to_numpy(np.int64)


@_task
def _duplicated_ids(plan: Plan, b: int) -> pd.DataFrame:
    """The properties of set ``b`` whose id some other property has too: id and first row."""
    parts = _loads(f"{plan.scratch}/ids/{b}/*.pkl")
    ids = np.concatenate([p[0] for p in parts]) if parts else np.empty(0, dtype=object)
    first = np.concatenate([p[1] for p in parts]) if parts else np.empty(0, dtype=np.int64)
    many = pd.Series(ids, dtype=object).duplicated(keep=False).to_numpy()
    return pd.DataFrame({"id": pd.Series(ids[many], dtype=object), "first": first[many]})


def _extent(boxes: np.ndarray) -> list[float]:
    """The (west, south, east, north) around boxes (NaN rows left out), the short way round
    (:func:`posting.crs.lonlat_box`, as one run's: east beyond 180 near the antimeridian)."""
    from posting.crs import lonlat_box

    box = lonlat_box(boxes)
    return [np.nan] * 4 if box is None else list(box)


def _prepared_summary(k: int, block: Block) -> dict[str, Any]:
    """What the whole run needs of a prepared partition: its extent and each working CRS's
    share of it, its repairs and invalid parcels (by first row), whether it has owners and
    merged properties, and, when merged, its properties' first rows (to number them)."""
    prep, first = block.prep, block.first_row
    boxes = prep.bounds_lonlat
    drawn = bowed(boxes)  # as the frames draw them (what one run's assign searches)
    valid = prep.group >= 0
    groups = {
        g: (int((prep.group == g).sum()), _extent(drawn[prep.group == g]))
        for g in range(len(prep.crss))
        if (prep.group == g).any()
    }
    return {
        "k": k,
        "properties": len(prep),
        "first_row": first if prep.source_rows is not None else None,
        "extent": _extent(boxes[valid]) if valid.any() else None,
        "drawn": _extent(drawn[valid]) if valid.any() else None,
        "groups": groups,
        "repaired": [
            (int(first[i]), prep.ids[i], prep.repaired[i])
            for i in np.flatnonzero(~pd.isna(prep.repaired))
        ],
        "invalid": [
            (int(first[i]), prep.ids[i], prep.invalid[i])
            for i in np.flatnonzero(~pd.isna(prep.invalid))
        ],
        "any_owner": prep.layer.owners is not None and bool(pd.notna(prep.layer.owners).any()),
        "merged": prep.source_rows is not None,  # (merged by owner: source_ids written)
    }


# -- step 5: check ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Facts:
    """What the whole run knows that a partition's report must carry: each core property's
    place in the input order (``index``), whose ids are duplicated, and the optional record
    keys (:attr:`posting.report.Report.record_keys`)."""

    index: np.ndarray | None  # None: each property is the input row it comes from
    duplicated: frozenset[str]  # the ids found more than once in the whole run
    record_keys: frozenset[str]
    source_ids: bool


def _local_context(plan: Plan, k: int, rows: ParcelLayer, core_boxes: np.ndarray) -> Any:
    from posting.job import read_context

    c = plan.job.context
    per_row = ContextFiles(**{f: getattr(c, f) for f in _PER_ROW})
    # a column of the parcels' only without the layer (which the partitions are sent)
    per_row = replace(
        per_row,
        landcover_field=None if c.landcover else c.landcover_field,
        forest_where=None if c.landcover else c.forest_where,
        cultivated_where=None if c.cultivated_on_layer else c.cultivated_where,
        place_field=None if c.places else c.place_field,
    )
    # (a land-cover column refused of all the parcels, when they are scanned: _refuse_cover)
    ctx = read_context(per_row, rows, plan.job.crs, refuse_cover=False)
    layers = {}
    for name in _CONTEXT_LAYERS:
        if getattr(c, name) is None:
            continue
        sub, boxes = _context_of(plan, name, k)
        near = boxes_near(bowed(boxes), core_boxes, plan.halo.context, plan.lat_range)
        near = np.flatnonzero(near)
        layers[name] = _features_take(sub, near)
    return replace(ctx, **layers)


@_task
def _check_partition(plan: Plan, k: int, facts: Facts, outputs: tuple[str, ...]) -> dict:
    """Step 5: partition ``k``'s own properties and its halo, in input order, checked by the
    engine as one run checks a layer (:func:`posting.engine.check`, on one thread); its own
    properties' report (:func:`core_report`) written as its part of every output."""
    from posting.engine import check
    from posting.jurisdiction import elsewhere_counts, placed

    job = plan.job
    core: Block = _load(f"{plan.scratch}/prep/{k}.pkl")
    valid = core.prep.group >= 0
    core_boxes = bowed(core.prep.bounds_lonlat[valid])  # (as the frame draws them)
    blocks = [core]
    halos = _loads(f"{plan.scratch}/halo/{k}/*.pkl")
    if halos:  # one search for every neighbour's halo (one tree of the core's boxes)
        boxes = bowed(np.concatenate([h.prep.bounds_lonlat for h in halos]))
        near = boxes_near(boxes, core_boxes, plan.halo.parcels, plan.lat_range)
        ends = np.cumsum([len(h) for h in halos])
        for h, sel in zip(halos, np.split(near, ends[:-1]), strict=True):
            if sel.any():
                blocks.append(h.take(np.flatnonzero(sel)))
    local, where = _concat_blocks(blocks)
    core_at = where[: len(core)]  # the core properties' places among the local ones
    # every marker sent to the partition: those beyond its reach (of its cells) assign to no
    # parcel of its own, and its report keeps only the markers assigned to those (0.1 s per
    # partition of 50,000 spent finding the 2 % farther than the tolerance from its boxes)
    pieces = _loads(f"{plan.scratch}/markers/{k}/*.pkl")
    markers = markers_concat(pieces, list(plan.marker_files))  # in input order: no sort
    markers = replace(
        _dates_settled(_with_columns(markers, plan.marker_columns), plan.marker_date_orders),
        type_kinds=plan.marker_type_kinds,
    )
    context = _local_context(plan, k, local.rows, core_boxes)
    prep = local.prep  # its corners are found by the engine, on its own vertex table
    own = np.zeros(len(local), dtype=bool)
    own[core_at] = True
    report = check(
        prep,
        markers,
        list(plan.profiles),
        settings=job.settings,
        context=context,
        threads=1,
        applied=_applied(plan, local),
        explain=False,  # which markers no partition assigns, and why: _lost and _reasons
        own=own,  # its own parcels' counts in its notes, which the run sums (stream.Totals)
    )
    from posting.stream import WORST_COLUMNS

    drawn = bool({"geojson", "parquet"} & set(outputs))  # gap lines need the vertex table
    sub, kept = core_report(report, prep, core_at, facts, core.first_row, drawn)
    # each kept marker's place in the input order: its file, then its row, in one integer
    keys = (markers.file_index[kept].astype(np.int64) << 40) | markers.row[kept].astype(np.int64)
    _save_assigned(plan, k, keys)
    out = _write_parts(plan, k, sub, outputs, keys)
    assigned = sub.markers["parcel"].to_numpy() >= 0
    out.update(
        {
            "k": k,
            "assigned": int(assigned.sum()),
            "status": sub.parcels["status"].value_counts().to_dict(),
            "compliant_by": sub.parcels.loc[sub.parcels["status"].eq("compliant"), "rules"]
            .value_counts()
            .to_dict(),
            "worst": sub.worst(5)[WORST_COLUMNS],
            "not_checked": _core_not_checked(report, core_at, len(prep)),
            "record_keys": facts.record_keys,
            "elsewhere": elsewhere_counts(
                placed(core.states["status"], core.states["state"])
                if core.states is not None and plan.choice is None
                else [],
                plan.profiles,
            ),
            "same_owner": _same_owner(plan, local, core_at),
            "keys_found": frozenset(
                name
                for name, table in (("access", sub.access), ("unfenced", sub.fence_gaps))
                if table is not None and len(table)
            ),
            "halo": len(prep) - len(core),
            "properties": len(core),
            "vertices": len(prep.vertices.s) if prep.vertices is not None else 0,
            "markers": len(markers),
        }
    )
    return out


def _with_columns(markers: MarkerLayer, columns: tuple[pd.DataFrame, ...]) -> MarkerLayer:
    """Markers with the attribute columns of the whole run, in its order and of the types one
    run's concatenation of every marker file gives them (a rule that reads a column is checked
    as in one run, though none of these markers comes from a file that has it)."""
    if not columns:
        return markers
    attrs = markers.attributes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # pandas on empty frames' types
        attrs = pd.concat(
            [*columns, attrs if len(attrs.columns) else attrs.iloc[:, :0]], ignore_index=True
        )
    return replace(markers, attributes=attrs.reset_index(drop=True))


def _applied(plan: Plan, local: Block) -> Applied | None:
    """Which profiles judge which of the local properties (the partition's and its halo's):
    with ``auto``, by the whole layer's choice; with a state's profile given by name, the
    properties' states for the warning of land in another state; without the land's
    elevation, their states for its range (every profile judges every property); else None
    (every profile judges every property)."""
    from posting.jurisdiction import Applied, named_applied, state_of, touched_array

    if local.states is None:
        return None
    status = local.states["status"].to_numpy(dtype=object)
    state = local.states["state"].to_numpy(dtype=object)
    touched = local.states["states"].to_numpy(dtype=object)
    if plan.choice is not None:
        return plan.choice.applied(status, state, touched)
    if not any(state_of(p) for p in plan.profiles):  # looked up for the elevations alone
        return Applied(list(plan.profiles), touched=touched_array(touched))
    return named_applied(plan.profiles, status, state, touched)


def _same_owner(plan: Plan, local: Block, core_at: np.ndarray) -> tuple[int, list[tuple]]:
    """The adjoining pairs of one owner whose first parcel is the partition's own (its
    neighbours are in its halo, in the whole run's order, so the pairs are one run's): their
    count and the first five as (row, id, id, owner)."""
    from posting.sanity import same_owner_pairs

    if not plan.job.owner_field or plan.job.merge_owner:
        return 0, []
    a, b = same_owner_pairs(local.prep)
    is_core = np.zeros(len(local), dtype=bool)
    is_core[core_at] = True
    a, b = a[is_core[a]], b[is_core[a]]
    ids, owners = local.prep.layer.ids, local.prep.layer.owners
    first = [
        (int(local.first_row[i]), int(local.first_row[j]), ids[i], ids[j], owners[i])
        for i, j in zip(a[:5], b[:5], strict=True)
    ]
    return len(a), first


def _core_not_checked(report: Report, core: np.ndarray, n: int) -> list[tuple[str, dict]]:
    """Each profile's rules not checked, with the counts of the land-cover note made those of
    the partition's own parcels judged by that profile (the whole run's note sums them:
    :class:`stream.Totals`)."""
    from posting.assemble import landcover_counted

    is_core = np.zeros(n, dtype=bool)
    is_core[core] = True
    judged = report.parcels["rules"].to_numpy(dtype=object)
    counted = landcover_counted(report.not_checked, report.gaps, judged, is_core)
    return [(x["profile"], {k: v for k, v in x.items() if k != "profile"}) for x in counted]


def core_report(
    report: Report,
    prep: PreparedParcels,
    core: np.ndarray,
    facts: Facts,
    first_row: np.ndarray,
    drawn: bool = True,
) -> tuple[Report, np.ndarray]:
    """The part of a partition's report about its own properties (``core``: their places,
    ascending), renumbered as the whole run numbers them: each parcel's ``row`` its place in
    the input order, its tables' ``parcel`` its place in this report, ``ring`` likewise; and
    the places in ``report.markers`` of the markers it keeps (those its own properties were
    given)."""
    n = len(report.parcels)
    new_of_old = np.full(n, -1, dtype=np.int64)
    new_of_old[core] = np.arange(len(core))
    # the own parcels' geometry (not their attributes), and their rings' old numbers
    geo, old_ring = take_geometry(prep.geometry, core, vertices=drawn)
    ring_new = np.full(len(prep.rings) + 1, -1, dtype=np.int64)
    ring_new[old_ring] = np.arange(len(old_ring))

    parcels = report.parcels.iloc[core].reset_index(drop=True)
    parcels["row"] = first_row if facts.index is None else facts.index
    parcels["duplicate_id"] = parcels["id"].isin(facts.duplicated).to_numpy()
    if facts.source_ids and "source_ids" not in parcels:
        src = prep.source_ids or [[i] for i in prep.ids]
        cols = list(parcels.columns)
        parcels["source_ids"] = [src[i] for i in core]
        parcels = parcels[[*cols, "source_ids"]]

    mk = report.markers
    mp = mk["parcel"].to_numpy(dtype=np.int64)
    keep_m = np.flatnonzero((mp >= 0) & (new_of_old[np.maximum(mp, 0)] >= 0))
    marker_new = np.full(len(mk) + 1, -1, dtype=np.int64)
    marker_new[keep_m] = np.arange(len(keep_m))
    # the markers of halo parcels that the own parcels' gaps end at (counted for both within
    # the stated accuracy): after the kept ones, as the report's signs_beyond
    g = report.gaps
    own_gap = new_of_old[g["parcel"].to_numpy(dtype=np.int64)] >= 0
    ends = np.r_[g["start_marker"].to_numpy()[own_gap], g["end_marker"].to_numpy()[own_gap]]
    ends = ends[ends >= 0].astype(np.int64)
    beyond = unique_ints(ends[marker_new[ends] < 0])
    marker_new[beyond] = len(keep_m) + np.arange(len(beyond))
    markers = mk.iloc[keep_m].reset_index(drop=True)
    markers["parcel"] = new_of_old[markers["parcel"].to_numpy(dtype=np.int64)]
    markers["ring"] = ring_new[markers["ring"].to_numpy(dtype=np.int64)]

    def sub(t: pd.DataFrame | None) -> pd.DataFrame | None:
        if t is None or "parcel" not in t:
            return t
        p = t["parcel"].to_numpy(dtype=np.int64)
        keep = np.flatnonzero(new_of_old[p] >= 0) if len(p) else np.empty(0, np.int64)
        out = t.iloc[keep].reset_index(drop=True)
        out["parcel"] = new_of_old[p[keep]]
        if "ring" in out:
            out["ring"] = ring_new[out["ring"].to_numpy(dtype=np.int64)]
        for col in ("start_marker", "end_marker"):
            if col in out:
                v = out[col].to_numpy(dtype=np.int64)
                out[col] = np.where(v >= 0, marker_new[np.maximum(v, 0)], -1)
        return out

    attrs = report.marker_attributes
    if len(attrs.columns) and len(attrs) == len(mk):
        attrs = attrs.iloc[keep_m].reset_index(drop=True)
    sub = replace(
        report,
        geometry=geo,
        parcels=parcels,
        findings=sub(report.findings),
        gaps=sub(report.gaps),
        corners=sub(report.corners),
        access=sub(report.access),
        markers=markers,
        marker_attributes=attrs,
        alternatives=sub(report.alternatives),
        all_findings=sub(report.all_findings),
        water=sub(report.water),
        easements=sub(report.easements),
        fence_gaps=sub(report.fence_gaps),
        tables={name: sub(t) for name, t in report.tables.items()},
        record_keys=facts.record_keys,
        signs_beyond=mk.iloc[beyond].reset_index(drop=True),
        gated={name: v[core] for name, v in report.gated.items()},
    )
    return sub, keep_m


def _write_parts(
    plan: Plan, k: int, sub: Report, outputs: tuple[str, ...], keys: np.ndarray
) -> dict[str, Any]:
    from posting import stream

    _room(f"{plan.scratch}/lines/{k}")  # (the run not ended: its parts' folders are made)
    return stream.write_partition(plan.scratch, k, sub, outputs, keys)


# -- step 6: unassigned markers and why ------------------------------------------------------
def _save_assigned(plan: Plan, k: int, keys: np.ndarray) -> None:
    """Write the keys of the markers partition ``k`` assigned, by the marker piece they come
    from (so that no process ever holds every assigned marker's key)."""
    starts = np.asarray([(e << 40) | off for e, off in plan.marker_starts], dtype=np.int64)
    piece = np.searchsorted(starts, keys, side="right") - 1
    for i in unique_ints(piece):
        path = f"{plan.scratch}/assigned/{i}/{k}.npy"
        _room(path)
        np.save(path, np.sort(keys[piece == i]))


@_task
def _lost(plan: Plan, i: int) -> MarkerLayer:
    """The markers of piece ``i`` that no partition assigned."""
    m: MarkerLayer = _load(f"{plan.scratch}/markers-all/{i}.pkl")
    keys = (m.file_index.astype(np.int64) << 40) | m.row.astype(np.int64)
    done = [np.load(f) for f in _numbered(f"{plan.scratch}/assigned/{i}/*.npy")]
    lost = ~np.isin(keys, np.concatenate(done)) if done else np.ones(len(m), dtype=bool)
    return markers_take(m, np.flatnonzero(lost))


@_task
def _reasons_in(plan: Plan, k: int, markers: MarkerLayer, index: np.ndarray) -> dict:
    """For markers near partition ``k``: the first of its properties each stands in (and the
    distance to its boundary), or its nearest boundary within the search distance: what
    :func:`posting.assign._far` finds, for this partition's part."""
    import shapely

    from posting import assign
    from posting.index import BoxGrid

    block: Block = _load(f"{plan.scratch}/prep/{k}.pkl")
    prep = block.prep
    n = len(markers)
    inside_parcel, inside_dist, nearest_ring, nearest_dist = assign.far_found(n)
    ring_group = prep.group[prep.rings.parcel]
    for g, wcrs in enumerate(prep.crss):
        parcels_g = np.flatnonzero(prep.group == g)
        if not len(parcels_g):
            continue
        sel = np.arange(n)
        if len(prep.crss) > 1:  # as one run: only markers near the group's whole extent
            west, south, east, north = plan.group_extents[g]
            from posting.crs import lon_meets, lonlat_margin_deg

            margin = lonlat_margin_deg(plan.job.settings.tolerance_ft, south, north)
            sel = np.flatnonzero(
                lon_meets(markers.lon, markers.lon, west - margin, east + margin)
                & (markers.lat >= south - margin)
                & (markers.lat <= north + margin)
            )
        if not len(sel):
            continue
        x, y = assign._group_xy(markers, sel, wcrs)
        pt, pb = BoxGrid(shapely.bounds(prep.geometry_ft[parcels_g])).query(x, y)
        rings_g = np.flatnonzero(ring_group == g)
        found = assign.far_found(len(sel))
        assign._far(prep, rings_g, np.arange(len(sel)), x, y, (pt, parcels_g[pb]), found)
        assign.merge_far((inside_parcel, inside_dist, nearest_ring, nearest_dist), sel, found)
    rp = prep.rings.parcel
    ring_start = prep.geometry.ring_start
    nparcel = _take(rp, nearest_ring, -1)
    none = np.zeros(n, dtype=bool)
    inner = assign._on_inner_line(
        ~none,
        none,
        np.empty((2, 0), dtype=np.int64),
        np.full(n, np.inf),
        inside_parcel,
        prep,
        markers,
        plan.job.settings.tolerance_ft,
    )
    return {
        "marker": index,
        "inside_first": _take(block.first_row, inside_parcel, -1),
        "inside_id": _take(prep.ids, inside_parcel, None),
        "inside_dist": inside_dist,
        "inside_inner": inner >= 0,  # (on an inner line of the property it stands in)
        "near_first": _take(block.first_row, nparcel, -1),
        "near_ring": np.where(nparcel >= 0, nearest_ring - _take(ring_start, nparcel, 0), -1),
        "near_id": _take(prep.ids, nparcel, None),
        "near_dist": nearest_dist,
    }


def _take(values: np.ndarray, at: np.ndarray, fill: Any) -> np.ndarray:
    """``values[at]`` where ``at`` is not negative, else ``fill`` (``values`` may be empty: a
    partition whose properties have no usable ring, where no marker found one).

    >>> _take(np.array([], dtype=np.int64), np.array([-1, -1]), -1).tolist()
    [-1, -1]
    >>> _take(np.array(["a", "b"], dtype=object), np.array([1, -1]), None).tolist()
    ['b', None]
    """
    ok = at >= 0
    out = np.full(len(at), fill, dtype=object if fill is None else np.asarray(values).dtype)
    out[ok] = np.asarray(values)[at[ok]]
    return out


def _names_parcel(m: MarkerLayer) -> np.ndarray:
    """Which markers name the parcel they post (:attr:`MarkerLayer.parcel_ref`)."""
    if m.parcel_ref is None:
        return np.zeros(len(m), dtype=bool)
    return ~pd.isna(m.parcel_ref)


@_task
def _named_in(plan: Plan, k: int, markers: MarkerLayer, index: np.ndarray) -> dict:
    """For markers that name their parcel (and were not assigned): which of them name a
    parcel of partition ``k``, and how far each stands from the nearest boundary of those it
    names there (what :func:`posting.assign.assign_markers` measures, for this partition's
    part)."""
    from posting import assign

    block: Block = _load(f"{plan.scratch}/prep/{k}.pkl")
    prep = block.prep
    n = len(markers)
    everyone = np.ones(n, dtype=bool)
    pairs = assign.named_parcels(markers.parcel_ref, everyone, prep.ids, prep.source_ids)
    dist = np.full(n, np.inf)
    for g, wcrs in enumerate(prep.crss):
        if not (prep.group[pairs[1]] == g).any():
            continue
        xs, ys = assign._group_xy(markers, np.arange(n), wcrs)
        mm, _, dd = assign.named_distance(prep, pairs, g, xs, ys, np.arange(n))
        np.minimum.at(dist, mm, dd)
    # the first property named on one of whose inner lines it stands (the pairs in its order)
    inner = assign._on_inner_line(
        everyone,
        everyone,
        pairs,
        dist,
        np.full(n, -1, dtype=np.int64),
        prep,
        markers,
        plan.job.settings.tolerance_ft,
    )
    return {
        "marker": index,
        "named": np.bincount(pairs[0], minlength=n) > 0,
        "dist": dist,
        "inner_first": _take(block.first_row, inner, -1),
        "inner_id": _take(prep.ids, inner, None),
    }


def _combine_reasons(
    lost: MarkerLayer,
    found: list[dict],
    named: list[dict],
    tolerance_ft: float,
    extent: tuple[float, ...] | None = None,
) -> np.ndarray:
    """Why each lost marker is unassigned, worded as :func:`posting.assign._explain` words it
    from the facts of every partition near it (the first parcel it stands in; else the
    nearest boundary, ties to the first in input order) and, for a marker that names its
    parcel, of every partition (whether a parcel has that id, and the distance to it)."""
    from types import SimpleNamespace

    from posting import assign

    n = len(lost)
    usable = pd.isna(lost.reason)
    in_first = np.full(n, np.iinfo(np.int64).max)
    in_id = np.full(n, None, dtype=object)
    in_dist = np.full(n, np.inf)
    in_inner = np.zeros(n, dtype=bool)
    near_key = np.full(n, np.inf)
    near_first = np.full(n, np.iinfo(np.int64).max)
    near_ring = np.full(n, np.iinfo(np.int64).max)
    near_id = np.full(n, None, dtype=object)
    for f in found:
        i = f["marker"]
        hit = f["inside_first"] >= 0
        better = hit & (f["inside_first"] < in_first[i])
        in_first[i[better]] = f["inside_first"][better]
        in_id[i[better]] = f["inside_id"][better]
        in_dist[i[better]] = f["inside_dist"][better]
        in_inner[i[better]] = f["inside_inner"][better]
        has = f["near_first"] >= 0
        d = f["near_dist"]
        better = has & (
            (d < near_key[i])
            | (
                (d == near_key[i])
                & (
                    (f["near_first"] < near_first[i])
                    | ((f["near_first"] == near_first[i]) & (f["near_ring"] < near_ring[i]))
                )
            )
        )
        j = i[better]
        near_key[j] = d[better]
        near_first[j] = f["near_first"][better]
        near_ring[j] = f["near_ring"][better]
        near_id[j] = f["near_id"][better]
    inside = in_first < np.iinfo(np.int64).max
    near = near_first < np.iinfo(np.int64).max
    inside_parcel = np.where(inside, np.arange(n), -1)
    nearest_ring = np.where(near, n + np.arange(n), -1)
    reason = np.asarray(lost.reason, dtype=object).copy()
    has_named = np.zeros(n, dtype=bool)
    named_dist = np.full(n, np.inf)
    inner_first = np.full(n, np.iinfo(np.int64).max)  # (the first property named, as one run)
    inner_id = np.full(n, None, dtype=object)
    for f in named:
        has_named[f["marker"][f["named"]]] = True
        np.minimum.at(named_dist, f["marker"], f["dist"])
        better = (f["inner_first"] >= 0) & (f["inner_first"] < inner_first[f["marker"]])
        inner_first[f["marker"][better]] = f["inner_first"][better]
        inner_id[f["marker"][better]] = f["inner_id"][better]
    is_named = usable & _names_parcel(lost)
    # the property whose inner line each stands on: the one it stands in, or names
    inner = np.where(inside & in_inner & ~is_named, np.arange(n), -1)
    inner = np.where(is_named & pd.notna(inner_id), 2 * n + np.arange(n), inner)
    ids = np.concatenate([in_id, near_id, inner_id])
    fake = SimpleNamespace(ids=ids, rings=SimpleNamespace(parcel=np.arange(3 * n)))
    assign._explain(
        reason,
        np.full(n, -1, dtype=np.int64),
        usable,
        is_named,
        np.vstack([np.flatnonzero(has_named), np.zeros(int(has_named.sum()), dtype=np.int64)]),
        named_dist,
        inside_parcel,
        np.where(inside, in_dist, np.inf),
        nearest_ring,
        near_key,
        fake,
        lost,
        tolerance_ft,
        extent,
        inner,
    )
    return reason


# -- the run ---------------------------------------------------------------------------------
@dataclass
class Run:
    """What a partitioned check found, as the outputs and the summary need it."""

    plan: Plan
    totals: Any
    parts: list[dict[str, Any]] = field(default_factory=list)
    lost: pd.DataFrame | None = None
    timings: dict[str, Any] = field(default_factory=dict)
    dropping: list[Any] = field(default_factory=list)
    """The removals of scratch folders no later step reads (:func:`_drop`) under way."""


def _drop(scratch: str, *names: str) -> Any:
    """Remove the scratch folders ``names`` in a thread of their own (a Future): folders no
    later step reads, removed while the next steps run. Removed at the end together, the
    state's 3 GB of scratch took 0.7 s after its last step."""

    def remove() -> None:
        for name in names:
            shutil.rmtree(os.path.join(scratch, name), ignore_errors=True)

    return parallel.aside(remove)


CONNECT_S = 10.0
"""Seconds to wait for the scheduler of ``--scheduler`` to answer, where dask would wait 30
(:func:`connect_timeout`). A running scheduler answers in milliseconds, on the machine or
across a cluster's network; what does not answer in 10 s is most often not there (a mistyped
address, a scheduler that has stopped), and the command said so only after 30 s."""


def connect_timeout() -> float:
    """Seconds :func:`cluster` waits for a scheduler to answer: dask's own setting
    ``distributed.comm.timeouts.connect`` where it was changed from dask's default (a dask
    configuration file, ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=60s``), else
    :data:`CONNECT_S`.

    >>> import dask
    >>> connect_timeout()
    10.0
    >>> with dask.config.set({"distributed.comm.timeouts.connect": "1 minute"}):
    ...     connect_timeout()
    60.0
    """
    import dask
    import distributed  # noqa: F401 - (registers its defaults with dask's configuration)
    from dask.utils import parse_timedelta

    given = dask.config.get("distributed.comm.timeouts.connect")
    defaults = [
        d["distributed"]["comm"]["timeouts"]["connect"]
        for d in dask.config.defaults
        if "connect" in d.get("distributed", {}).get("comm", {}).get("timeouts", {})
    ]
    if defaults and given == defaults[-1]:
        return CONNECT_S
    return float(parse_timedelta(given, default="seconds"))


def _require_scheduler(address: str, timeout: float) -> None:
    """Refuse a TCP ``address`` where a program listens that is not a dask scheduler: one that
    does not answer dask's greeting (its ``identity``) as a scheduler within ``timeout``
    seconds. Where nothing listens (yet), the client's own wait and words follow.

    dask's client bounds only the connection by its time-out: where another program listened
    (a web server on the port), the client waited for ever for a reply to its greeting, or
    read the other program's bytes as the length of a message and asked for exabytes of
    memory (a traceback). Addresses of other protocols (``tls://``, which needs the cluster's
    certificates, ``inproc://``, ``ucx://``) are left to the client.
    """
    import asyncio
    import concurrent.futures
    import socket

    from distributed.comm import connect
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, where = parse_address(address)
        host, port = parse_host_port(where, default_port=8786)
    except (ValueError, TypeError):
        return  # (not an address: the client's words)
    if scheme != "tcp":
        return
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError:
        return  # nothing listens there (yet): the client waits for it

    async def ask() -> Any:
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            await comm.close()

    def run() -> Any:  # (in a thread of its own: a library caller may be in an event loop)
        return asyncio.run(asyncio.wait_for(ask(), timeout))

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        try:
            reply = pool.submit(run).result()
        except (Exception, MemoryError):  # (another program's bytes, read as dask's)
            reply = None
    if isinstance(reply, dict) and reply.get("type") == "Scheduler":
        return
    raise InputError(
        f"{{option}} {address}: something listens there, but it is not a dask scheduler (it "
        f"did not answer dask's greeting as one in {timeout:g} s: another program, or a "
        "worker's port); give the address a running scheduler prints (tcp://host:8786), or "
        "check on a cluster of this machine's own with {option:workers} N",
        parameter="scheduler",
    )


@contextlib.contextmanager
def cluster(
    workers: int | None = None, scheduler: str | None = None, memory_limit: str | None = None
) -> Iterator[Client]:
    """A dask client: of a local cluster of ``workers`` processes of one thread each, started
    here and stopped on leaving (no more than this machine can run:
    :func:`posting.forking.check_workers`); or of the cluster at ``scheduler``, which must
    answer within :func:`connect_timeout` seconds."""
    import logging

    from distributed import Client, LocalCluster

    for name in ("distributed", "distributed.shuffle"):
        logging.getLogger(name).setLevel(logging.ERROR)
    if scheduler:
        import time

        timeout = connect_timeout()
        _require_scheduler(scheduler, timeout)
        t0 = time.monotonic()
        try:
            client = Client(scheduler, timeout=timeout)
        except OSError as exc:
            if time.monotonic() - t0 < 0.9 * timeout:  # (not a wait: dask's words for it)
                raise InputError(
                    f"{{option}} {scheduler}: no dask scheduler could be reached there ({exc}); "
                    "give the address a running scheduler prints (tcp://host:8786), or check "
                    "on a cluster of this machine's own with {option:workers} N",
                    parameter="scheduler",
                ) from None
            raise InputError(
                f"{{option}} {scheduler}: no dask scheduler answered there in {timeout:g} s; "
                "give the address a running scheduler prints (tcp://host:8786), or check on a "
                "cluster of this machine's own with {option:workers} N (to wait longer for a "
                "busy one, set DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=60s)",
                parameter="scheduler",
            ) from None
        except (ValueError, TypeError) as exc:  # (dask's words for each)
            raise InputError(
                f"{{option}} {scheduler}: no dask scheduler could be reached there ({exc}); "
                "give the address a running scheduler prints (tcp://host:8786), or check on a "
                "cluster of this machine's own with {option:workers} N",
                parameter="scheduler",
            ) from None
        with client:
            yield client
        return
    import dask

    from posting.forking import check_workers

    check_workers(workers or 1)
    # the scheduler runs here: a task given up on is the command's to report, once
    # (_workers_that_died), not the scheduler's to log on the terminal first
    logging.getLogger("distributed.scheduler").setLevel(logging.CRITICAL)

    with (
        # dask's nanny starts its workers with MALLOC_TRIM_THRESHOLD_=65536, which turns off
        # glibc's adaptive thresholds: every array over 128 KiB is then mapped and unmapped
        # afresh, and a partition's check spends a third more CPU faulting pages in (the
        # benchmark county: 3 to 5 s of system time against 1.5 s in one process). Workers
        # here allocate as one process does, and keep what a task frees for the next.
        dask.config.set({f"{_SPAWN_ENV}.MALLOC_TRIM_THRESHOLD_": None}),
        # nobody looks at the workers' statistical profiles of a run's own cluster: not taken
        # (a stack sample of the task every 10 ms)
        dask.config.set({"distributed.worker.profile.enabled": False}),
        _forked_workers(),
        LocalCluster(
            n_workers=workers or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            memory_limit=memory_limit or 0,
            silence_logs=logging.ERROR,
        ) as local,
        Client(local) as client,
    ):
        client.register_plugin(_quiet_workers())
        yield client


def _quiet_workers() -> Any:
    """A worker plugin that lets the workers of the command's own cluster log nothing: what
    goes wrong in a task reaches the command as the task's error, which it reports once (a
    user's mistake as a message, anything else with its traceback). Without it a worker logged
    the failed task with its traceback, "Compute Failed", on the user's terminal before the
    message (a parcels folder that does not exist, a bad row in a dataset's file), and a
    heartbeat caught while the scheduler closed as an error of a run that went well.

    A GDAL warning met while a worker reads a file is shown as one run shows it
    (:func:`posting.gdal.show_gdal_warnings`: a multi-layer GeoPackage's came as Python's two
    lines of source). A plugin rather than one call: a worker that replaces one that died is
    set up too.
    """
    import logging

    from distributed.diagnostics.plugin import WorkerPlugin

    class QuietWorker(WorkerPlugin):
        name = "posting-quiet"

        def setup(self, worker: Any) -> None:
            from posting.gdal import show_gdal_warnings

            logging.getLogger("distributed").setLevel(logging.CRITICAL)
            show_gdal_warnings()

    return QuietWorker()


@contextlib.contextmanager
def _forked_workers() -> Iterator[None]:
    """Start the local cluster's workers from the fork server
    (:func:`posting.forking.start_fork_server`, where the platform has one); the server
    stopped, and waited for, on leaving, with any process of it still running
    (:func:`posting.forking.stop_fork_server`)."""
    import dask

    from posting.forking import start_fork_server, stop_fork_server

    if not start_fork_server():
        yield
        return
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        try:
            yield
        finally:
            stop_fork_server()  # reaps it: its CPU counted


def _progress(futures: list[Any], label: str, show: bool) -> list[Any]:
    """The futures' results, with a progress bar on stderr. Of several errors, the first
    future's in the list is raised, as without the bar (the files and rows in the order one
    run reads them), not the first to finish: once one fails, the futures before it are
    waited for."""
    from distributed import as_completed

    if not show:
        return [f.result() for f in futures]
    from tqdm import tqdm

    place = {f.key: i for i, f in enumerate(futures)}
    with tqdm(
        total=len(futures), desc=label, unit="task", leave=False, file=sys.stderr, delay=2.0
    ) as bar:
        for f in as_completed(futures):
            if f.status != "finished":  # (an error: an earlier future's is said first)
                for g in futures[: place[f.key] + 1]:
                    g.result()
            bar.update(1)
    return [f.result() for f in futures]


def run_partitioned(
    job: Job,
    client: Client,
    *,
    partition_parcels: int | None = None,
    scratch: str | None = None,
    outputs: tuple[str, ...] = (),
    progress: bool = False,
) -> Run:
    """Check ``job`` on the cluster behind ``client``, partition by partition (see the
    module's docstring); ``outputs`` names the parts to write (``json``, ``geojson``, ``csv``,
    ``parquet``) into ``scratch``, where :mod:`posting.stream` merges them. Without
    ``scratch``, a temporary folder is made (``run.plan.scratch``): the caller removes it once
    the outputs are written (:func:`run_and_write` does). ``partition_parcels``: parcels per
    partition (None: :func:`partition_size` of the layer and the cluster's worker threads)."""
    if partition_parcels is not None and partition_parcels < 1:
        raise InputError("{option} must be at least 1", parameter="partition_parcels")
    from posting.jurisdiction import rules_spec, state_of

    spec = rules_spec(list(job.rules))
    profiles = tuple(spec.named)  # with auto, and each state's defaults once prepared
    scratch = scratch or tempfile.mkdtemp(prefix="posting-")
    os.makedirs(scratch, exist_ok=True)
    Path(scratch, RUN_MARK).touch()
    timings: dict[str, Any] = {}
    steps = _Steps(job, client, progress)

    # the marker files cut (a CSV or GeoJSON file's bytes scanned) while the parcels are
    # scanned and read: the cluster's cores idle while the command scans
    marker_cut = parallel.aside(_marker_pieces, job)
    _tick(timings, "scan")
    pieces, frames, info, working = steps.scan()
    _tick(timings, "plan")
    part_futs, k_parts, reach, lat_range = steps.plan(frames, info, partition_parcels)
    marker_pieces = marker_cut.result()
    plan = Plan(
        job,
        profiles,
        working,
        reach,
        Halo.of(job.settings),
        scratch,
        k_parts,
        lat_range,
        marker_starts=tuple((e, p.offset) for e, p in marker_pieces),
        # (the states also give the land's elevations when it is not given: posting.elevation)
        states=spec.auto or any(state_of(p) for p in profiles) or job.settings.elevation_ft is None,
    )
    _tick(timings, "distribute")
    plan, mres, marker_pieces = steps.distribute(plan, pieces, part_futs, marker_pieces)
    del frames, part_futs
    _tick(timings, "prepare")
    preps = steps.map(_prepare, plan, range(k_parts), label="preparing parcels")
    dropping = [_drop(scratch, "parcels")]
    _tick(timings, "facts")
    parcels_crs = info[0]["crs"] if info else None
    _refuse_swapped(steps, plan, preps, [e for e, _ in marker_pieces], parcels_crs)
    plan = _choose_rules(plan, preps)
    facts, totals = _facts(job, plan, info, preps, mres, client)
    plan = replace(plan, group_extents=totals.group_extents)
    _tick(timings, "check")
    checks = steps.check(plan, facts, outputs)
    dropping.append(_drop(scratch, "markers", "halo", "context"))
    _tick(timings, "unassigned")
    lost_parts = steps.map(_lost, plan, range(len(marker_pieces)), label="unassigned markers")
    dropping.append(_drop(scratch, "markers-all", "assigned"))
    lost = replace(
        _dates_settled(
            markers_concat(lost_parts, list(plan.marker_files)), plan.marker_date_orders
        ),
        type_kinds=plan.marker_type_kinds,
    )
    _tick(timings, "reasons")
    lost_table = _reasons(client, _share(client, plan), plan, preps, lost, progress)
    totals.finish(checks, lost_table)
    _tick(timings, "end")
    return Run(plan, totals, checks, lost_table, timings, dropping)


@_task
def _swap_counts(plan: Plan, i: int, extent: tuple[float, ...]) -> np.ndarray:
    """Marker piece ``i``'s :func:`posting.sanity.swap_counts` (one file's piece): how many
    markers have a position, fall near the parcels as given, would swapped, would with the
    sign of their longitude changed, and would with both."""
    from posting.sanity import swap_counts

    counts = [x[1:] for x in swap_counts(_marker_piece(plan, i), extent, always=True)]
    return np.asarray(counts, dtype=np.int64).reshape(-1, 5)


@_task
def _unit_counts(
    plan: Plan, i: int, extent: tuple[float, ...], parcels_crs: Any = None
) -> np.ndarray:
    """Marker piece ``i``'s :func:`posting.sanity.unit_counts` (of a file off the parcels):
    how many markers have a position, fall near the parcels as given, would with the file's
    numbers read in metres, feet and US survey feet, and would with the parcels' (in
    ``parcels_crs``) so read."""
    from posting.sanity import UNITS_M, unit_counts

    counts = unit_counts(_marker_piece(plan, i), extent, parcels_crs=parcels_crs, always=True)
    return np.asarray([x[1:] for x in counts], dtype=np.int64).reshape(-1, 2 + 2 * len(UNITS_M))


def _marker_piece(plan: Plan, i: int) -> MarkerLayer:
    """Marker piece ``i`` as the counts of :mod:`posting.sanity` take it: a piece is one
    file's, its file_index the run's number of that file (which they would take for a place
    in the piece's list of files, and count nothing for a second --signs file)."""
    m: MarkerLayer = _load(f"{plan.scratch}/markers-all/{i}.pkl")
    return replace(m, file_index=np.zeros(len(m), dtype=np.int64))


def _refuse_swapped(
    steps: _Steps, plan: Plan, preps: list[dict], entries: list[int], parcels_crs: Any = None
) -> None:
    """Refuse a marker file whose x and y look swapped, or whose longitudes the wrong sign, or
    both, or whose numbers are in another unit than its CRS's, or the parcels (in
    ``parcels_crs``) where theirs are, as one run does (its pieces' counts added up, against
    the whole run's extent)."""
    from posting.sanity import (
        UNITS_M,
        looks_swapped,
        padded,
        refuse_flipped,
        refuse_parcels_unit_slip,
        refuse_swapped,
        refuse_swapped_flipped,
        refuse_unit_slip,
        unit_slip,
    )

    boxes = np.asarray([p["extent"] for p in preps if p["extent"] is not None], dtype=float)
    if not len(boxes) or not entries:
        return
    extent = padded(_extent(boxes))
    counts = steps.map(_swap_counts, plan, range(len(entries)), label="markers near", extent=extent)
    totals: dict[int, np.ndarray] = {}
    for e, c in zip(entries, counts, strict=True):
        totals[e] = totals.get(e, np.zeros(5, dtype=np.int64)) + c.sum(axis=0)
    for e in sorted(totals):
        n, given, swapped = (int(v) for v in totals[e][:3])
        if n and looks_swapped(n, given, swapped):
            parcels, box = plan.job.parcels, _extent(boxes)
            refuse_swapped(plan.marker_files[e][0], n, given, swapped, parcels=parcels, extent=box)
    for e in sorted(totals):
        n, given, swapped, flipped = (int(v) for v in totals[e][:4])
        if n and looks_swapped(n, given, flipped) and not looks_swapped(n, given, swapped):
            refuse_flipped(plan.marker_files[e][0], n, given, flipped, _extent(boxes))
    for e in sorted(totals):
        n, given, swapped, flipped, both = (int(v) for v in totals[e][:5])
        alone = looks_swapped(n, given, swapped) or looks_swapped(n, given, flipped)
        if n and looks_swapped(n, given, both) and not alone:
            refuse_swapped_flipped(plan.marker_files[e][0], n, given, both, _extent(boxes))
    # the units tried on the files off the parcels alone (a piece cannot tell whether its file
    # is: all their pieces are counted, in a second round that the usual run never makes)
    off = {e for e, t in totals.items() if t[0] and t[1] * 10 <= t[0]}
    if not off:
        return
    pieces = [i for i, e in enumerate(entries) if e in off]
    counts = steps.map(
        _unit_counts,
        plan,
        pieces,
        label="markers near",
        extent=extent,
        parcels_crs=parcels_crs,
    )
    units = [u for u, _ in UNITS_M]
    sums: dict[int, np.ndarray] = {}
    for i, c in zip(pieces, counts, strict=True):
        e = entries[i]
        sums[e] = sums.get(e, np.zeros(2 + 2 * len(units), dtype=np.int64)) + c.sum(axis=0)
    for e in sorted(sums):
        n, given = (int(v) for v in sums[e][:2])
        near = sums[e][2 : 2 + len(units)].tolist()
        path, crs = plan.marker_files[e]
        unit = unit_slip(n, given, near, crs) if n else None
        if unit is not None:
            refuse_unit_slip(path, crs, n, given, near[units.index(unit)], unit)
    for e in sorted(sums):
        n, given = (int(v) for v in sums[e][:2])
        near = sums[e][2 + len(units) :].tolist()
        unit = unit_slip(n, given, near, parcels_crs) if n and parcels_crs is not None else None
        if unit is not None:
            path = plan.marker_files[e][0]
            refuse_parcels_unit_slip(
                plan.job.parcels, parcels_crs, path, n, given, near[units.index(unit)], unit
            )


def _file_pieces(path: str) -> list[dataset.Piece]:
    """The pieces of one input file or dataset: a GeoParquet file or dataset in row groups, a
    large GeoPackage, Shapefile, File Geodatabase, FlatGeobuf (with its index), CSV, GeoJSON
    or GeoJSON text sequence file in slices, any other file or a folder of photos whole (a
    marker or context GeoJSON file's slices are settled once distributed:
    :func:`_json_settled`)."""
    from posting import photos
    from posting.io import TABLE_SUFFIXES

    sliced = (
        *dataset.SUFFIXES,
        *dataset.SLICED_SUFFIXES,
        *TABLE_SUFFIXES,
        *jsonslices.SUFFIXES,
        *jsonslices.SEQUENCE_SUFFIXES,
    )
    if dataset.is_dataset(path) or (
        Path(path).suffix.lower() in sliced and not photos.is_photo_source(path)
    ):
        return dataset.pieces(path)
    return [dataset.Piece(path, path, None, 0, -1)]


def _marker_pieces(job: Job) -> list[tuple[int, dataset.Piece]]:
    """The pieces of every marker file (:func:`_file_pieces`), each with its file's number
    (a GeoJSON file's slices as cut: settled once distributed, :meth:`_Steps.distribute`)."""
    return [(e, p) for e, path in enumerate(job.signs) for p in _file_pieces(path)]


def _json_settled(
    pieces: list[dataset.Piece], columns: list[Any], notes: list[Any] | None = None
) -> list[dataset.Piece] | None:
    """The pieces of one input (a file, or a dataset of them), from the columns each was read
    with (``columns[i]``, :func:`posting.io.columns_read`: None where it was not a slice of a
    GeoJSON file) and the notes it was read with: None where nothing changes (the input is not
    a GeoJSON file cut in slices, or its slices agree as they are: the common case); else the
    pieces with those slices told their casts, or replaced by the file whole where they
    disagree (:func:`posting.jsonslices.agree`, :func:`_settle`).

    GDAL types a GeoJSON file's properties by the values it meets, so a slice can read a
    column otherwise than the whole file does. The markers' and context layers' slices are
    sent to the partitions as soon as they are read: they are compared once sent, and a file
    whose slices do not agree is sent again, settled (:meth:`_Steps.distribute`); the parcels'
    are compared before any is sent (:meth:`_Steps.scan`). Slices read with different notes
    (which the scan's UTF-8 check should leave none of) are read whole too."""
    sliced = [k for k, p in enumerate(pieces) if p.feature_text is not None]
    if not sliced:
        return None
    cols = [columns[k] for k in sliced]
    same = notes is None or all(notes[k] == notes[sliced[0]] for k in sliced)
    casts = jsonslices.agree(cols) if same and None not in cols else None
    if casts == ():
        return None
    return _settle(pieces, {pieces[sliced[0]].path: casts})


def _marker_slices_settled(
    marker_pieces: list[tuple[int, dataset.Piece]], mres: list[dict[str, Any]]
) -> list[tuple[int, dataset.Piece]] | None:
    """The marker pieces of every file (with its number) settled by :func:`_json_settled`
    from what their distribution found (``mres``, :func:`_distribute_markers`), and a CSV
    file's slices read with different notes (positions in degrees and minutes in some only:
    one run says so once for the file) replaced by the file whole; None where every file's
    slices agree as they are (the common case: nothing to send again)."""
    out: list[tuple[int, dataset.Piece]] = []
    changed = False
    for e in dict.fromkeys(e for e, _ in marker_pieces):
        idx = [k for k, (f, _) in enumerate(marker_pieces) if f == e]
        mine = [marker_pieces[k][1] for k in idx]
        notes = [mres[k]["notes"] for k in idx]
        if mine[0].text is not None and any(n != notes[0] for n in notes):
            first = mine[0]  # (the file, in its first slice's place)
            settled = [dataset.Piece(first.source, first.path, None, first.offset, -1, first.hive)]
        else:
            settled = _json_settled(mine, [mres[k]["json_columns"] for k in idx], notes)
        changed |= settled is not None
        out.extend((e, p) for p in (mine if settled is None else settled))
    return out if changed else None


def _enumerated(pieces: dict[str, list[dataset.Piece]]) -> Iterator[tuple[str, int]]:
    """(name, number) of each piece of each context layer, layer by layer."""
    for name, mine in pieces.items():
        for i in range(len(mine)):
            yield name, i


def _cast(piece: dataset.Piece, casts: tuple[tuple[str, str], ...]) -> dataset.Piece:
    """``piece``, a slice of a GeoJSON file, read with ``casts`` (:func:`jsonslices.agree`)."""
    return replace(piece, feature_text=replace(piece.feature_text, casts=casts))


def _settle(
    pieces: list[dataset.Piece], casts: dict[str, tuple[tuple[str, str], ...] | None]
) -> list[dataset.Piece]:
    """``pieces``, each slice of a GeoJSON file in ``casts`` told its casts, or, where they are
    None, the slices of its file replaced by the file whole (read by one worker)."""
    out = []
    for p in pieces:
        if p.feature_text is None or p.path not in casts:
            out.append(p)
        elif casts[p.path] is None:
            if p.feature_text.first == 0:  # the file, in the first slice's place
                out.append(dataset.Piece(p.source, p.path, None, p.offset, -1, p.hive))
        else:
            out.append(_cast(p, casts[p.path]))
    return out


@dataclass
class _Steps:
    """The steps of :func:`run_partitioned` that submit tasks, each waiting for its own."""

    job: Job
    client: Client
    progress: bool

    def map(self, func: Callable[..., Any], plan: Plan, *args: Any, label: str, **kw: Any):
        """``func(plan, *args)`` for each element of the iterables ``args``, on the cluster."""
        plan_f = _share(self.client, plan)
        items = [list(a) for a in args]
        futures = self.client.map(func, [plan_f] * len(items[0]), *items, pure=False, **kw)
        return _progress(futures, label, self.progress)

    def scan(self) -> tuple[list[dataset.Piece], list[Any], list[dict[str, Any]], WorkingPlan]:
        """Step 1: every piece's parcels' centres and boxes (kept on the workers) and what the
        working plan needs (gathered)."""
        job, client = self.job, self.client

        def scan(pieces: list[dataset.Piece]) -> tuple[list[Any], list[dict[str, Any]]]:
            scans = client.map(_scan, [job] * len(pieces), pieces, pure=False)
            infos = client.map(operator.itemgetter(1), scans, pure=False)
            frames = client.map(operator.itemgetter(0), scans, pure=False)
            return frames, _progress(infos, "reading parcels", self.progress)

        pieces = dataset.pieces(job.parcels, layer=job.layer)
        frames, info = scan(pieces)
        casts: tuple[tuple[str, str], ...] | None = ()
        if pieces[0].feature_text is not None:  # a GeoJSON file's columns, typed by GDAL
            casts = jsonslices.agree([x["columns"] for x in info])
        if pieces[0].sliced and (
            casts is None or any(x["notes"] != info[0]["notes"] for x in info)
        ):
            # slices of one file that read differently (text that is not UTF-8 in some, rings
            # the reader closed, named by row; a GeoJSON file's columns typed differently by
            # GDAL, which types each one way when it reads the whole file): the file read
            # whole, as one run reads it
            pieces = [dataset.Piece(job.parcels, job.parcels, None, 0, -1)]
            frames, info = scan(pieces)
        elif casts:  # columns with no value in some slices: read as the others' type
            pieces = [_cast(p, casts) for p in pieces]
        _refuse_as_whole(pieces, [x["tallies"] for x in info])  # (a dataset's)
        kinds: collections.Counter[int] = collections.Counter()
        for x in info:
            kinds.update(x["kinds"])
        layers = () if dataset.is_dataset(job.parcels) else unnamed_layers(job.parcels, job.layer)
        rows = sum(x["rows"] for x in info)
        require_polygons(job.parcels, rows, dict(kinds), layers, job.closed_lines)
        crs = info[0]["crs"]
        if any(x["crs"] != crs for x in info[1:]):
            raise InputError("its files are not all in one CRS", path=job.parcels)
        _require_parcel_columns(job, info)
        if job.context.cover_field and not job.context.landcover:
            _refuse_cover(job, [x["cover"] for x in info], info[0]["source"])
        working = WorkingPlan.of(
            np.concatenate([x["extreme_lon"] for x in info]),
            np.concatenate([x["extreme_lat"] for x in info]),
            crs,
            job.settings.ground_ft,
        )
        return pieces, frames, info, working

    def plan(self, frames: list[Any], info: list[dict[str, Any]], partition_parcels: int | None):
        """Step 2: each parcel's partition (futures, one per piece), their number, their reach
        and the layer's range of latitudes."""
        from posting.crs import lonlat_margin_deg

        client = self.client
        boxes = np.asarray([x["box"] for x in info], dtype=float).reshape(-1, 4)
        bounds = tuple(float(b) if np.isfinite(b) else 0.0 for b in _extent(boxes))
        # a curve over an extent of some width and height (not over a point: no parcel with
        # geometry, or every one at one place)
        curve = (*bounds[:2], max(bounds[2], bounds[0] + 1e-6), max(bounds[3], bounds[1] + 1e-6))
        hd = client.map(_hilbert, frames, curve=curve, pure=False)
        owner_min = None
        if self.job.merge_owner:  # an owner's parcels take the owner's smallest distance
            mins = client.gather(client.map(_owner_min, frames, hd, pure=False))
            owner_min = pd.concat(mins).groupby(level=0).min() if mins else pd.Series()
            owner_min = _share(client, owner_min)
        keys = hd  # without merging, the key is the distance
        if owner_min is not None:
            keys = client.map(_plan_key, frames, hd, owner_min=owner_min, pure=False)
        n = sum(x["rows"] for x in info)
        if partition_parcels is None:  # the default: by the parcels and the cluster's threads
            partition_parcels = partition_size(n, sum(client.nthreads().values()))
        k_parts = max(1, math.ceil(n / partition_parcels))
        cuts = _cuts(client, keys, n, k_parts, self.progress)
        k_parts = len(cuts) + 1
        part_futs = client.map(_part_keys, keys, cuts=cuts, pure=False)
        lat_range = _lat_range(bounds)
        pad = lonlat_margin_deg(Halo.of(self.job.settings).reach, *lat_range)
        # cells a few halos wide (what is sent beyond the halo is at most a cell wide), at most
        # MAX_CELLS of them
        area = max((bounds[2] - bounds[0]) * (bounds[3] - bounds[1]), 1e-12)
        grid = Reach.grid(bounds, int(min(MAX_CELLS, area / (CELL_HALOS * pad) ** 2)) + 1)
        placed = _progress(
            client.map(
                _reach_cells, frames, part_futs, grid=grid, pad=pad, parts=k_parts, pure=False
            ),
            "planning partitions",
            self.progress,
        )
        cell = np.concatenate([c for c, _, _ in placed])
        part = np.concatenate([p for _, p, _ in placed])
        # partitions left empty (one owner's parcels share a key) are dropped
        used = np.flatnonzero(sum(n for _, _, n in placed) > 0)
        if len(used) < k_parts:
            remap = np.full(k_parts, -1, dtype=np.int64)
            remap[used] = np.arange(len(used))
            part_futs = client.map(np.take, [remap] * len(part_futs), part_futs, pure=False)
            part = remap[part]
            k_parts = len(used)
        reach = Reach.build(grid, cell, part)
        return part_futs, k_parts, reach, lat_range

    def distribute(self, plan: Plan, pieces, part_futs, marker_pieces):
        """Step 3: the parcels, markers and context features to their partitions; the plan
        with the marker files, what each marker piece held, and the marker pieces (a GeoJSON
        file's slices settled: :func:`_marker_slices_settled`)."""
        client, job = self.client, self.job
        plan_f = _share(client, plan)
        dist_p = client.map(
            _distribute_parcels,
            [plan_f] * len(pieces),
            range(len(pieces)),
            pieces,
            part_futs,
            pure=False,
        )
        context = {
            name: _file_pieces(getattr(job.context, name))
            for name in _CONTEXT_LAYERS
            if getattr(job.context, name)
        }
        dist_c = self._distribute_context(plan_f, context)
        try:
            mres = self._distribute_markers(plan, marker_pieces)
        except PostingError:
            # one run reads the context layers while the markers are read aside, and refuses
            # a context layer before it takes the markers: that refusal is the one shown
            found = [f.result() for f in dist_c]
            _refuse_layer_cover(job, context, dict(zip(_enumerated(context), found, strict=True)))
            raise
        settled = _marker_slices_settled(marker_pieces, mres)
        if settled is not None:  # a file's slices read apart: distributed again
            marker_pieces = settled
            for name in ("markers", "markers-all"):
                shutil.rmtree(os.path.join(plan.scratch, name), ignore_errors=True)
            plan = replace(plan, marker_starts=tuple((e, p.offset) for e, p in marker_pieces))
            mres = self._distribute_markers(plan, marker_pieces)
        _progress(dist_p, "distributing parcels", self.progress)
        done = _progress(dist_c, "distributing context", self.progress)
        read = dict(zip(_enumerated(context), done, strict=True))
        again: dict[str, list[dataset.Piece]] = {}
        for name, mine in context.items():
            # a GeoJSON layer's slices typed apart, or a file's slices read with other notes
            # (text that is not UTF-8 in some, rings closed, named by row): again, settled
            notes = [read[name, i][2] for i in range(len(mine))]
            settled = _json_settled(mine, [read[name, i][1] for i in range(len(mine))], notes)
            if settled is None and mine[0].of_one_file and any(n != notes[0] for n in notes):
                first = mine[0]
                settled = [dataset.Piece(first.source, first.path, None, 0, -1, first.hive)]
            if settled is not None:
                shutil.rmtree(os.path.join(plan.scratch, "context", name), ignore_errors=True)
                again[name] = settled
        if again:
            done = _progress(
                self._distribute_context(plan_f, again), "distributing context", self.progress
            )
            read.update(dict(zip(_enumerated(again), done, strict=True)))
            context.update(again)
        # a dataset refused as one run reading it whole refuses it: the context layers' (which
        # one run reads before the markers are read), then each marker file's
        for name, mine in context.items():
            _refuse_as_whole(mine, [read[name, i][5] for i in range(len(mine))])
            if name == "landcover":
                _refuse_layer_cover(job, context, read)
        for e in range(len(job.signs)):
            idx = [k for k, (f, _) in enumerate(marker_pieces) if f == e]
            _refuse_as_whole([marker_pieces[k][1] for k in idx], [mres[k]["tallies"] for k in idx])
        # what one run says of all the marker files read together (each piece is read alone)
        from posting.stream import empty_marker_files

        no_markers(empty_marker_files(job.signs, mres), len(job.signs))
        field = job.sign_parcel_field
        if field and not any(r["has_parcel_field"] for r in mres):
            raise no_parcel_field(field, list(job.signs))
        if job.signs_where and not any(r["has_where_column"] for r in mres):
            columns = [c for r in mres for c in r["columns"].columns]
            raise no_where_column(_where_column(job.signs_where), list(job.signs), columns)
        files: list[tuple[str, Any]] = []
        for e, path in enumerate(job.signs):
            first = next((r for r in mres if r["entry"] == e), None)
            files.append(first["file"] if first else (path, None))
            if any(r["entry"] == e and r["notes"] != first["notes"] for r in mres):
                # slices of a file of a GDAL format that read differently: one run would
                # decode all its text one way, the slices two
                raise InputError(
                    "has text that is not UTF-8 in some parts only, which the workers would "
                    "read in two ways; save it as UTF-8 (or as GeoParquet), or check it in "
                    "one process",
                    path=path,
                )
        columns = tuple(r["columns"] for r in mres if len(r["columns"].columns))
        from posting.attributes import type_kinds

        tally = np.zeros((4, len(job.signs)), dtype=bool)
        for r in mres:
            tally[:, r["entry"]] |= r["type_tally"]
        typed = type_kinds(*tally)
        _describe_kinds(mres, typed, files)
        date_orders = _date_orders(mres, files)
        plan = replace(
            plan,
            marker_files=tuple(files),
            marker_columns=columns,
            marker_type_kinds=frozenset(np.flatnonzero(typed).tolist()),
            marker_date_orders=date_orders,
            context_warnings=_context_warnings(job, context, read),
        )
        return plan, mres, marker_pieces

    def _distribute_context(
        self, plan_f: Any, context: dict[str, list[dataset.Piece]]
    ) -> list[Any]:
        """The futures of :func:`_distribute_context` for each piece of each layer, in
        :func:`_enumerated`'s order."""
        items = list(_enumerated(context))
        return self.client.map(
            _distribute_context,
            [plan_f] * len(items),
            [name for name, _ in items],
            [i for (_, i) in items],
            [context[name][i] for name, i in items],
            pure=False,
        )

    def _distribute_markers(
        self, plan: Plan, marker_pieces: list[tuple[int, dataset.Piece]]
    ) -> list[dict[str, Any]]:
        return self.map(
            _distribute_markers,
            plan,
            range(len(marker_pieces)),
            [e for e, _ in marker_pieces],
            [p for _, p in marker_pieces],
            label="distributing markers",
        )

    def check(self, plan: Plan, facts: list[Facts], outputs: tuple[str, ...]):
        """Step 5: each partition's check. A key that some partition's records carry (an access
        point, a fence gap) is carried by every record: the partitions that wrote theirs
        without it write them again."""
        k_parts = plan.partitions
        checks = self.map(
            _check_partition,
            plan,
            range(k_parts),
            facts,
            label="checking partitions",
            outputs=tuple(outputs),
        )
        found = frozenset().union(*(c["keys_found"] for c in checks))
        again = [i for i, c in enumerate(checks) if not found <= c["record_keys"]]
        if again:
            redo = self.map(
                _check_partition,
                plan,
                again,
                [replace(facts[i], record_keys=facts[i].record_keys | found) for i in again],
                label="checking partitions again",
                outputs=tuple(outputs),
            )
            for i, c in zip(again, redo, strict=True):
                checks[i] = c
        return checks


def _share(client: Client, value: Any) -> Any:
    """``value`` on the cluster, for many tasks to take: a task that holds it (not scattered
    data, which is lost for good with the worker that holds it; a task's result is computed
    again elsewhere, so a run survives a lost worker). dask warns of a task's argument over 10
    MB (a state's plan, with its routing grid, is about 12): sending it once is the point."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Sending large graph", UserWarning)
        return client.submit(_held, value, pure=False)


def _held(value: Any) -> Any:
    """The value of a :func:`_share` task."""
    return value


def _tick(timings: dict[str, Any], name: str) -> None:
    """Note when a step starts (the steps' times: :attr:`Run.timings`, in seconds); with
    ``POSTING_TIMINGS`` set, also the CPU the command and its worker processes spent in each
    (``timings["_cpu"]``, :func:`_tree_cpu`)."""
    import time

    now = time.perf_counter()
    cpu = _tree_cpu()
    last = timings.pop("_at", None)
    if last is not None:
        step = timings.pop("_step")
        timings[step] = now - last
        if cpu is not None and "_cpu_at" in timings:
            timings.setdefault("_cpu", {})[step] = cpu - timings["_cpu_at"]
    timings["_at"], timings["_step"] = now, name
    if cpu is not None:
        timings["_cpu_at"] = cpu


def _tree_cpu() -> float | None:
    """With ``POSTING_TIMINGS`` set, the CPU seconds (user and system) this process and its
    live descendants (a local cluster's worker processes) have spent so far; else None."""
    if not os.environ.get("POSTING_TIMINGS"):
        return None
    import psutil

    me = psutil.Process()
    total = 0.0
    for p in (me, *me.children(recursive=True)):
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            total += t.user + t.system
    return total


def _owner_key(frame: pd.DataFrame, hd: pd.Series, owner_min: pd.Series) -> np.ndarray:
    key = hd.to_numpy(dtype=np.float64).copy()
    mk = frame["mkey"]
    has = mk.notna().to_numpy()
    if has.any():
        key[has] = owner_min.reindex(mk[has].to_numpy()).to_numpy(dtype=np.float64)
    return key


def _reasons(client, plan_f, plan: Plan, preps, lost: MarkerLayer, progress: bool) -> pd.DataFrame:
    """The lost markers, in input order, with why each is unassigned."""
    from posting.assign import REASON_SEARCH_FT
    from posting.crs import lon_meets, lonlat_margin_deg

    given = np.asarray(pd.isna(lost.reason), dtype=bool)  # no reason from reading
    named = np.flatnonzero(given & _names_parcel(lost))
    usable = np.flatnonzero(
        given & ~_names_parcel(lost) & np.isfinite(lost.lon) & np.isfinite(lost.lat)
    )
    lon, lat = lost.lon[usable], lost.lat[usable]
    # as boxes_near pads a partition's extent: within it, each marker a point
    pad = lonlat_margin_deg(REASON_SEARCH_FT + 1.0, *plan.lat_range)
    light = replace(lost, attributes=pd.DataFrame(index=range(len(lost))))  # not needed there
    # a marker that names its parcel is judged by that parcel alone, wherever it lies: asked
    # about in the partitions that have a parcel of that name (found in the sets of ids)
    asked = []
    if len(named):
        refs = np.asarray(lost.parcel_ref[named], dtype=object)
        sets = _id_buckets(refs, _id_bucket_count(plan.partitions))
        where = [
            client.submit(_named_partitions, plan_f, b, refs[sets == b], pure=False)
            for b in unique_ints(sets)
        ]
        pairs = [
            (np.flatnonzero(sets == b)[i], k)
            for b, (i, k) in zip(
                unique_ints(sets), _progress(where, "named parcels", progress), strict=True
            )
        ]
        at = np.concatenate([i for i, _ in pairs])
        part = np.concatenate([k for _, k in pairs])
        for k in unique_ints(part):
            idx = named[np.sort(at[part == k])]
            sub = markers_take(light, idx)
            asked.append(client.submit(_named_in, plan_f, int(k), sub, idx, pure=False))
    jobs = []
    for p in preps:
        if p["drawn"] is None or not len(usable) or not np.isfinite(p["drawn"]).all():
            continue
        west, south, east, north = p["drawn"]
        near = (
            lon_meets(lon, lon, west - pad, east + pad)
            & (lat >= south - pad)
            & (lat <= north + pad)
        )
        idx = usable[near]
        if len(idx):
            sub = markers_take(light, idx)
            jobs.append(client.submit(_reasons_in, plan_f, p["k"], sub, idx, pure=False))
    found = _progress(jobs + asked, "unassigned markers' reasons", progress)
    boxes = np.asarray([p["extent"] for p in preps if p["extent"] is not None], dtype=float)
    extent = tuple(_extent(boxes)) if len(boxes) else None  # as assign.parcels_extent
    reason = _combine_reasons(
        lost, found[: len(jobs)], found[len(jobs) :], plan.job.settings.tolerance_ft, extent
    )
    from posting.attributes import first_recorded

    attrs = lost.attributes
    kinds = lost.kinds()
    label = (
        first_recorded(attrs, "label")
        if len(attrs.columns)
        else np.full(len(lost), None, dtype=object)
    )
    files = {path: i for i, (path, _) in enumerate(plan.marker_files)}
    entry = np.asarray([files[s] for s in lost.source], dtype=np.int64)
    return pd.DataFrame(
        {
            "key": (entry << 40) | lost.row.astype(np.int64),
            "source": pd.Series(lost.source, dtype=object),
            "row": lost.row,
            "lon": lost.lon,
            "lat": lost.lat,
            "kind": pd.Series(kinds, dtype=object),
            "label": pd.Series(label, dtype=object),
            "reason": pd.Series(reason, dtype=object),
        }
    )


def _numbering(job: Job, preps: list[dict]) -> tuple[list[np.ndarray | None], Callable]:
    """Each partition's properties' places in the whole run (None: their first input rows),
    and the function that gives a property's place from its first input row."""
    if job.merge_owner is not None:
        first = [p["first_row"] for p in preps]
        allf = np.sort(np.concatenate(first)) if first else np.empty(0, np.int64)

        def rank(rows: np.ndarray) -> np.ndarray:
            return np.searchsorted(allf, rows)

        return [np.searchsorted(allf, f) for f in first], rank

    def same(rows: np.ndarray) -> np.ndarray:
        return np.asarray(rows, dtype=np.int64)

    return [None] * len(preps), same


def _choose_rules(plan: Plan, preps: list[dict]) -> Plan:
    """With ``auto``, the profiles of the whole layer chosen as one run chooses them
    (:func:`posting.jurisdiction.decide`, from each partition's
    :class:`~posting.jurisdiction.StateFacts`), refused as one run refuses them."""
    from posting.jurisdiction import decide, rules_spec

    spec = rules_spec(list(plan.job.rules))
    if not spec.auto:
        return plan
    _, rank = _numbering(plan.job, preps)
    facts = StateFacts.combine([p["states"] for p in preps]).numbered(rank)
    choice = decide(spec, facts)
    return replace(plan, profiles=tuple(choice.profiles), choice=choice)


def _facts(job, plan, info, preps, mres, client) -> tuple[list[Facts], Any]:
    """What each partition must be told of the whole run, and the run's totals so far.

    Nothing here holds a value per parcel of the whole run but, with ``merge_owner``, each
    property's first row (to number the properties in input order); the ids found more than
    once are found in sets of about ten partitions' ids (:func:`_duplicated_ids`)."""
    from posting import stream

    index, rank = _numbering(job, preps)
    found = _Steps(job, client, False).map(
        _duplicated_ids, plan, range(_id_bucket_count(plan.partitions)), label="ids"
    )
    dups = pd.concat(found, ignore_index=True)
    dup_ids = frozenset(dups["id"])
    dups = dups.assign(index=rank(dups["first"].to_numpy(dtype=np.int64))).sort_values("index")
    keys = set()
    if any(pr.access for pr in plan.profiles):
        keys.add("access")
    if any(pr.fence for pr in plan.profiles):
        keys.add("unfenced")
    if any(p["any_owner"] for p in preps):
        keys.add("owner")
    any_merged = any(p["merged"] for p in preps)
    facts = [
        Facts(index=ix, duplicated=dup_ids, record_keys=frozenset(keys), source_ids=any_merged)
        for ix in index
    ]
    totals = stream.Totals.start(job, plan, info, preps, mres, dups, rank)
    return facts, totals


@contextlib.contextmanager
def _scratch_room(job: Job, scratch: str | None) -> Iterator[None]:
    """Say which folder ran out of room, and how much a run needs there, when the scratch
    folder's disk fills up (in the command or in a worker's task)."""
    from posting.outputs import FULL, error_number, reason

    try:
        yield
    except OSError as exc:
        if error_number(exc) not in FULL:
            raise
        where = (
            f"the scratch folder {scratch}"
            if scratch
            else f"the temporary folder {tempfile.gettempdir()}, the default scratch folder"
        )
        size = sum(_size(p) for p in job.files())
        raise InputError(
            f"{reason(exc)} in {where}: a partitioned check keeps about twice its inputs "
            f"there while it runs (these inputs: {_bytes_text(size)}); free space there or "
            "name a folder with room with {option}",
            parameter="scratch",
        ) from None


def _workers_reach(client: Client, job: Job, scratch: str) -> None:
    """Refuse a cluster whose workers would not find the inputs or the scratch folder by the
    paths the command has: a relative path where the workers run in another folder, a file
    or a scratch folder on a disk they do not share. Said before anything is read, with what
    to do; the workers would only say "no such file" of a file the user can see."""
    from importlib.metadata import version

    ours = version("posting")
    # (what the command cannot see either is said as one run says it, by the reading)
    inputs = [p for p in [*job.files(), *job.rules] if os.path.exists(p)]
    try:
        seen = client.run(_where_am_i, [os.path.abspath(p) for p in inputs], scratch)
    except Exception as exc:  # (a worker without this function: another posting)
        said = " ".join(str(exc).split())
        raise InputError(
            f"the cluster's workers cannot run this command's code ({said}): they "
            f"must run the same posting as the command ({ours}); install it on every worker "
            "and start them again",
            parameter="scheduler",
        ) from None
    here = os.path.realpath(os.getcwd())
    relative = [p for p in inputs if not os.path.isabs(p)]
    for address, (theirs, cwd, found, has_scratch) in sorted(seen.items()):
        if theirs != ours:
            raise InputError(
                f"the cluster's worker {address} runs posting {theirs}, this command {ours}: "
                "install the same version on every worker",
                parameter="scheduler",
            )
        if relative and cwd != here:
            raise InputError(
                f"the cluster's workers run in {cwd} ({address}), not in this folder ({here}), "
                f"and {relative[0]} is a relative path: give the inputs by absolute paths, or "
                "start the workers in this folder",
                parameter="scheduler",
            )
        missing = [p for p, ok in zip(inputs, found, strict=True) if not ok]
        if missing:
            raise InputError(
                f"the cluster's worker {address} cannot reach {missing[0]}: every worker "
                "must read the inputs by the same path (a shared file system, or the same copy "
                "at the same path on every machine)",
                parameter="scheduler",
            )
        if not has_scratch:
            raise InputError(
                f"the cluster's worker {address} cannot reach the scratch folder {scratch}: "
                "give {option} a folder every worker reaches by the same path (a shared file "
                "system)",
                parameter="scratch",
            )


def _where_am_i(paths: list[str], scratch: str) -> tuple[str, str, list[bool], bool]:
    """On a worker: its posting's version, its working folder, which of ``paths`` it finds,
    and whether it finds the scratch folder."""
    from importlib.metadata import version

    return (
        version("posting"),
        os.path.realpath(os.getcwd()),
        [os.path.exists(p) for p in paths],
        os.path.isdir(scratch),
    )


_TASK_WORDS = {
    "_scan": "reading the parcels",
    "_distribute_parcels": "sending the parcels to their partitions",
    "_distribute_markers": "sending the markers to their partitions",
    "_distribute_context": "sending the context layers to their partitions",
    "_prepare": "preparing a partition's parcels",
    "_check_partition": "checking a partition",
    "_lost": "gathering the unassigned markers",
    "_reasons_in": "explaining the unassigned markers",
}
"""What a task of each function does, for a message about it."""


@contextlib.contextmanager
def _workers_that_died(workers: int | None) -> Iterator[None]:
    """Say what to do when one task killed every worker that ran it (dask gives up after a
    few): the system stops a process that takes more memory than there is (a partition too
    large for the workers' share of it); a worker that crashed says the same."""
    from distributed import KilledWorker

    try:
        yield
    except KilledWorker as exc:
        key = exc.task[0] if isinstance(exc.task, tuple) else exc.task
        name = str(key).split("-", 1)[0]  # (dask's keys: the function's name, a token)
        doing = _TASK_WORDS.get(name, name.strip("_").replace("_", " "))
        here = ""
        if workers:
            import psutil

            memory = psutil.virtual_memory().total
            many = f"{workers:,} workers" if workers > 1 else "1 worker"
            here = f" (this machine has {_bytes_text(memory)} for {many})"
        n = exc.allowed_failures + 1
        times = {1: "once", 2: "twice"}.get(n, f"{n} times")
        raise PostingError(
            f"a worker process died {times} {doing}: the system "
            f"most likely stopped it for want of memory{here}. A worker needs about 0.6 GB and "
            "50 MB for each 1,000 parcels of its partition, with their markers: give "
            "{option} a smaller number, or run fewer workers",
            parameter="partition_parcels",
        ) from None


def _bytes_text(n: int) -> str:
    """A size for people to read.

    >>> _bytes_text(1_234_567_890), _bytes_text(52_133)
    ('1.2 GB', '52 KB')
    """
    for unit, size in (("GB", 1e9), ("MB", 1e6)):
        if n >= size:
            return f"{n / size:,.1f} {unit}" if n < 10 * size else f"{n / size:,.0f} {unit}"
    return f"{max(n, 1) / 1e3:,.0f} KB"


def _size(path: str) -> int:
    """Bytes of a file, or of the files in a folder (a dataset); 0 when it cannot be read."""
    if os.path.isdir(path):
        return sum(
            os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files
        )
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def run_and_write(
    job: Job,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    partition_parcels: int | None = None,
    outputs: dict[str, str | None],
    name: Callable[[str], str] | None = None,
    progress: bool = False,
    scratch: str | None = None,
) -> Any:
    """Run the partitioned check and write ``outputs`` (``json``, ``geojson``, ``csv`` paths,
    ``parquet`` folder); return the run's totals (a report-like summary)."""
    from posting import stream

    wanted = tuple(k for k, v in outputs.items() if v)
    base = scratch or None
    try:
        work = os.path.abspath(tempfile.mkdtemp(prefix="posting-run-", dir=base))
    except OSError as exc:
        raise InputError(
            f"cannot make the run's scratch folder in {base or tempfile.gettempdir()} "
            f"({exc.strerror or exc}): give {{option}} a folder this machine and the cluster's "
            "workers can write in",
            parameter="scratch",
        ) from None
    started: dict[str, Any] = {}
    dropping: list[Any] = []
    try:
        _tick(started, "start")  # the cluster's start: its processes, until the first step
        with (
            cluster(workers, scheduler) as client,
            _scratch_room(job, scratch),
            _workers_that_died(workers),
        ):
            if scheduler:  # (a cluster of the command's own runs where it runs)
                _workers_reach(client, job, work)
            _tick(started, "")
            run = run_partitioned(
                job,
                client,
                partition_parcels=partition_parcels,
                scratch=work,
                outputs=wanted,
                progress=progress,
            )
            # what only the steps read, removed while the cluster stops and the outputs are
            # written (they read the parts in lines/ and parquet/)
            dropping = [*run.dropping, _drop(work, "prep", "ids", "names")]
        import time

        t0 = time.perf_counter()
        stream.write_outputs(run, outputs, name)
        run.timings["outputs"] = time.perf_counter() - t0
        if os.environ.get("POSTING_TIMINGS"):
            cpu = {**started.get("_cpu", {}), **run.timings.get("_cpu", {})}
            print(
                "posting: cpu: " + ", ".join(f"{k} {v:.2f} s" for k, v in cpu.items()),
                file=sys.stderr,
            )
            shown = ", ".join(f"{k} {v:.2f} s" for k, v in run.timings.items() if k[0] != "_")
            halo = sum(c["halo"] for c in run.parts)
            markers = sum(c["markers"] for c in run.parts)
            shown += f"; {len(run.parts)} partitions, halo {halo:,} properties, {markers:,} markers"
            big = max(run.parts, key=lambda c: c["properties"] + c["halo"], default=None)
            if big is not None:
                shown += (
                    f"; largest partition {big['properties']:,} properties (+{big['halo']:,} "
                    f"halo), {big['markers']:,} markers, {big['vertices']:,} vertices"
                )
            print(f"posting: steps: {shown}", file=sys.stderr)
        return run.totals
    finally:
        for removing in dropping:
            removing.exception()  # done (rmtree ignores its errors)
        shutil.rmtree(work, ignore_errors=True)
