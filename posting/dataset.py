"""A folder of GeoParquet files as one layer: a partitioned dataset (hive-style ``key=value/``
folders included), read whole or piece by piece.

A state's parcels come as many files (a county per file, or a dataset written by dask, Spark or
GDAL), each of many row groups. The files are taken in the natural order of their paths within
the folder (``part.2`` before ``part.10``), and the rows in file order: that is the dataset's
input order, and a row's number is its position in it. A ``key=value`` folder adds a text
column ``key`` to its files' rows (unless a file has that column itself).

:func:`pieces` cuts a dataset (or one large GeoParquet file) into pieces of whole row groups
with their first row's number, so that workers can each read one piece and nothing reads the
whole dataset into one process; :func:`read_layer` reads a dataset whole, for the
single-process check (the same rows, in the same order, with the same columns).
"""

from __future__ import annotations

import itertools
import json
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from posting import jsonslices
from posting.csvslices import TextSlice, cut
from posting.errors import InputError
from posting.jsonslices import FeatureSlice
from posting.photos import PHOTO_SUFFIXES

if TYPE_CHECKING:
    import pyarrow as pa
    from pyproj import CRS

    from posting.io import Layer

__all__ = [
    "Piece",
    "dataset_schema",
    "files_of",
    "is_dataset",
    "piece_table",
    "pieces",
    "read_layer",
    "read_table",
]

SUFFIXES = (".parquet", ".geoparquet", ".pq")
SLICED_SUFFIXES = (".gpkg", ".shp", ".gdb", ".fgb", ".zip")
"""Files of GDAL formats read in slices of features (``skip_features``, ``max_features``):
formats whose layer counts its features without reading them and reaches a feature without
reading the ones before it (on a GeoPackage of 197,940 parcels: 48,000 of them read in
0.08-0.14 s, the whole file in 0.33 s; in a File Geodatabase, 50,000 in 0.19 s at its start
and at its end, the whole layer in 0.69 s). A FlatGeobuf file only with a spatial index: GDAL
skips features only by reading those before (0.7 µs each: the last slices of a file of ten
million would cost seconds each), but the index holds where each feature starts, so a slice
is read by its features' ids (:func:`posting.io.feature_spans`; 4,000 of 197,920 parcels in
0.02 s wherever they lie, against 0.14 s skipped to at the end). Without an index, the file
is read whole, by one worker. A zip file (a zipped Shapefile, GDAL's ``/vsizip/``) is sliced
where GDAL says its layer can be so (a Shapefile's can): a slice near its end costs the
inflating of the text before it, so the slices of a zipped Shapefile of 197,940 parcels read
in 0.64-0.80 s each (start and end), the file whole in 1.9 s."""
PIECE_ROWS = 100_000
"""Rows per piece (whole row groups are never split): small enough for a worker to read and
prepare beside others, large enough that reading is not dominated by opening files."""


@dataclass(frozen=True)
class Piece:
    """Row groups of one file of a dataset (or of one large file).

    Attributes
    ----------
    source
        The dataset (the folder, or the file) as given: what rows are numbered within.
    path
        The file holding the piece.
    row_groups
        Its row groups (None: the whole file, for formats other than Parquet).
    offset
        Number of the piece's first row in the dataset.
    rows
        Number of rows.
    hive
        ``(key, value)`` of each ``key=value`` folder between the dataset and the file.
    rows_of_groups
        A slice of one large row group: its rows ``[a, b)``.
    features
        A slice of a file of a GDAL format (:data:`SLICED_SUFFIXES`): its features ``[a, b)``.
    text
        A slice of a CSV file's records (:mod:`posting.csvslices`).
    feature_text
        A slice of a GeoJSON file's features (:mod:`posting.jsonslices`).
    schema
        A dataset's columns, of all its files (:func:`dataset_schema`): each piece's table has
        them, as the dataset read whole has (null where a file has not the column).
    """

    source: str
    path: str
    row_groups: tuple[int, ...] | None
    offset: int
    rows: int
    hive: tuple[tuple[str, str], ...] = ()
    rows_of_groups: tuple[int, int] | None = None
    features: tuple[int, int] | None = None
    text: TextSlice | None = None
    schema: pa.Schema | None = None
    feature_text: FeatureSlice | None = None

    @property
    def sliced(self) -> bool:
        """True for a slice of one file that is not Parquet (read as a part of that file)."""
        return self.features is not None or self.text is not None or self.feature_text is not None

    @property
    def of_one_file(self) -> bool:
        """True for a piece of one file (not of a dataset's files): that file can be read
        whole to settle what only the whole file settles."""
        return self.sliced or self.path == self.source


def is_dataset(path: str | os.PathLike[str]) -> bool:
    """True for a folder (not a file geodatabase) that holds Parquet files, at any depth."""
    p = Path(path)
    if not p.is_dir() or p.suffix.lower() == ".gdb":
        return False
    for _dirpath, dirnames, filenames in os.walk(p):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "_"))]
        if any(n.lower().endswith(SUFFIXES) and not n.startswith((".", "_")) for n in filenames):
            return True
    return False


def _natural(text: str) -> list[Any]:
    """Sort key: digits compared as numbers (``part.2`` before ``part.10``).

    >>> sorted(["p.10.parquet", "p.2.parquet"], key=_natural)
    ['p.2.parquet', 'p.10.parquet']
    """
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


OTHER_DATA = (
    ".geojson",
    ".geojsonl",
    ".geojsons",
    ".gpkg",
    ".shp",
    ".fgb",
    ".kml",
    ".kmz",
    ".gpx",
    ".gdb",
    *sorted(PHOTO_SUFFIXES - {".tif", ".tiff"}),
)
"""Files of the formats the check reads elsewhere (vector layers, geotagged photos), which a
dataset, read from its Parquet files alone, would leave out: a folder that holds them beside
Parquet files is refused (:func:`files_of`). Text, tables, metadata and rasters
(``README.txt``, a data dictionary's ``.csv``, ``.xml``, ``.tif``) are passed over: such files
sit beside datasets, and a table of signs is rarely kept in the folder of their Parquet."""


def files_of(folder: str | os.PathLike[str]) -> list[str]:
    """The Parquet files of a dataset folder, in their natural order; hidden files and folders
    (``.x``, ``_x``: ``_SUCCESS``, ``_metadata``, temporary files) are left out.

    A folder that also holds data of another format the check reads (:data:`OTHER_DATA`: a
    GeoJSON or GeoPackage export beside the Parquet files, the photos of a folder of signs) is
    refused, naming them, rather than read without their features: a dataset is read from its
    Parquet files only, in one run and in the partitions alike."""
    root = Path(folder)
    found, others = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "_"))]
        others += [
            os.path.join(dirpath, d) for d in dirnames if d.lower().endswith(OTHER_DATA)
        ]  # (a file geodatabase is a folder)
        for name in filenames:
            if name.startswith((".", "_")):
                continue
            if name.lower().endswith(OTHER_DATA):
                others.append(os.path.join(dirpath, name))
            elif name.lower().endswith(SUFFIXES):
                found.append(os.path.relpath(os.path.join(dirpath, name), root))
    found.sort(key=lambda rel: [_natural(part) for part in Path(rel).parts])
    if not found:
        raise InputError(
            "is a folder with no Parquet files (a dataset is a folder of GeoParquet files)",
            path=str(folder),
        )
    if others:
        others.sort(key=_natural)
        shown = ", ".join(os.path.relpath(o, root) for o in others[:3])
        more = f" and {len(others) - 3} more" if len(others) > 3 else ""
        raise InputError(
            f"is read as a dataset of its {len(found)} Parquet file(s), but it also holds "
            f"data of another format ({shown}{more}), which would be left out: move those "
            "out of the folder, convert them to GeoParquet beside the others, or give the "
            "file you mean to check instead of the folder",
            path=str(folder),
        )
    return [str(root / rel) for rel in found]


def _hive(folder: str, file: str) -> tuple[tuple[str, str], ...]:
    rel = Path(os.path.relpath(file, folder)).parts[:-1]
    out = []
    for part in rel:
        key, sep, value = part.partition("=")
        if sep and key:
            out.append((key, value))
    return tuple(out)


def _metadata(path: str) -> Any:
    import pyarrow.parquet as pq

    if os.path.getsize(path) == 0:  # as one run says it (posting.io.read_layer)
        raise InputError("the file is empty (0 bytes)", path=path)
    try:
        return pq.ParquetFile(path).metadata
    except (OSError, ValueError) as exc:  # Arrow's errors
        raise InputError(f"not a readable Parquet file ({exc})", path=path) from None


def pieces(
    path: str | os.PathLike[str], rows: int | None = None, layer: str | None = None
) -> list[Piece]:
    """The pieces of a dataset folder or of one file, in input order.

    A Parquet file is cut between row groups into pieces of about ``rows`` rows (by default
    :data:`PIECE_ROWS`; a row group of more than twice that is cut into slices); a file of a
    GDAL format of :data:`SLICED_SUFFIXES` with more than twice that many features (of its
    ``layer``) into slices of features, a CSV file of more than twice that many records
    that every reader cuts alike (:func:`posting.csvslices.cut`) into slices of records, and a
    GeoJSON file or text sequence of more than twice that many features (no ``layer`` given)
    that every reader reads alike (:func:`posting.jsonslices.cut`,
    :func:`posting.jsonslices.cut_sequence`) into slices of features; any other file is one
    piece.
    """
    from posting.io import TABLE_SUFFIXES

    path = os.fspath(path)
    rows = rows or PIECE_ROWS
    files = files_of(path) if is_dataset(path) else [path]
    out: list[Piece] = []
    offset = 0
    for f in files:
        hive = _hive(path, f) if is_dataset(path) else ()
        if Path(f).suffix.lower() in TABLE_SUFFIXES and (texts := cut(f, rows)):
            for t in texts:
                out.append(Piece(path, f, None, offset, t.rows, hive, text=t))
                offset += t.rows
            continue
        suffix = Path(f).suffix.lower()
        if layer is None and (  # (a GeoJSON file's one layer is named by the file)
            (suffix in jsonslices.SUFFIXES and (parts := jsonslices.cut(f, rows)))
            or (
                suffix in jsonslices.SEQUENCE_SUFFIXES
                and (parts := jsonslices.cut_sequence(f, rows))
            )
        ):
            for t in parts:
                out.append(Piece(path, f, None, offset, t.rows, hive, feature_text=t))
                offset += t.rows
            continue
        if not f.lower().endswith(SUFFIXES):  # one file (a dataset holds only Parquet files)
            n = _feature_count(f, layer)
            if n <= 2 * rows:
                out.append(Piece(path, f, None, offset, -1, hive))  # rows known once read
                continue
            cuts = np.linspace(0, n, -(-n // rows) + 1).astype(int)
            for a, b in itertools.pairwise(cuts):
                out.append(Piece(path, f, None, int(a), int(b - a), hive, None, (int(a), int(b))))
            continue
        meta = _metadata(f)
        groups: list[int] = []
        count = 0
        for g in range(meta.num_row_groups):
            n = meta.row_group(g).num_rows
            if n > 2 * rows:  # one large row group: in slices (each reads the group)
                if groups:
                    out.append(Piece(path, f, tuple(groups), offset, count, hive))
                    offset += count
                    groups, count = [], 0
                cuts = np.linspace(0, n, -(-n // rows) + 1).astype(int)
                for a, b in itertools.pairwise(cuts):
                    out.append(Piece(path, f, (g,), offset, int(b - a), hive, (int(a), int(b))))
                    offset += int(b - a)
                continue
            if groups and count + n > rows:
                out.append(Piece(path, f, tuple(groups), offset, count, hive))
                offset += count
                groups, count = [], 0
            groups.append(g)
            count += n
        if groups or not out or out[-1].path != f:
            out.append(Piece(path, f, tuple(groups), offset, count, hive))
            offset += count
    if is_dataset(path):
        schema = dataset_schema(path, files)
        out = [replace(p, schema=schema) for p in out]
    return out


def dataset_schema(folder: str, files: list[str] | None = None) -> pa.Schema:
    """The columns of a dataset read whole (:func:`read_table`): every file's, with its
    ``key=value`` folders' (the first file's first, then each new one in order), from the files'
    footers; refused as :func:`read_table` refuses them when the files disagree on the geometry
    column or its CRS, or on a column's type."""
    import pyarrow as pa

    schemas = []
    first_geo: dict[str, Any] | None = None
    files = files or files_of(folder)
    for k, f in enumerate(files):
        schema = _metadata(f).schema.to_arrow_schema()
        geo = _geo(schema.metadata or {}, f)
        if k == 0:
            first_geo = geo
        else:
            _same_geometry(first_geo, geo, f, files[0])
        for key, _value in _hive(folder, f):
            if key not in schema.names:
                schema = schema.append(pa.field(key, pa.string()))
        schemas.append(schema)
    try:
        return pa.unify_schemas(schemas, promote_options="default")
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        pass
    widened = _widened(schemas)
    try:
        if widened is not None:
            return pa.unify_schemas(widened, promote_options="default")
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        pass
    raise _schema_apart(schemas, files) from None


def _widest(types: list[pa.DataType]) -> pa.DataType | None:
    """The one type that holds every value of ``types`` as it is, where they are of one kind
    but of other widths (text and large text, as writers of different versions of Arrow and
    pandas give it; 32- and 64-bit numbers); None where they are of different kinds.

    >>> import pyarrow as pa
    >>> _widest([pa.string(), pa.large_string()]), _widest([pa.int32(), pa.float64()])
    (DataType(large_string), None)
    """
    import pyarrow as pa
    import pyarrow.types as at

    kinds = (
        (lambda t: at.is_string(t) or at.is_large_string(t), pa.large_string()),
        (lambda t: at.is_binary(t) or at.is_large_binary(t), pa.large_binary()),
        (at.is_signed_integer, pa.int64()),
        (at.is_unsigned_integer, pa.uint64()),
        (at.is_floating, pa.float64()),
    )
    for kind, widest in kinds:
        if all(kind(t) for t in types):
            return widest
    return None


def _widened(schemas: list[pa.Schema]) -> list[pa.Schema] | None:
    """``schemas`` with each column whose files give it types of one kind but of other widths
    (:func:`_widest`) given the widest in each; None where some column's types are of
    different kinds (no file's column is then read otherwise: the dataset is refused)."""
    import pyarrow as pa

    types: dict[str, list[pa.DataType]] = {}
    for schema in schemas:
        for f in schema:
            if not pa.types.is_null(f.type):
                types.setdefault(f.name, []).append(f.type)
    wide = {}
    for name, ts in types.items():
        if len(set(ts)) > 1:
            if (widest := _widest(ts)) is None:
                return None
            wide[name] = widest
    out = []
    for schema in schemas:
        for name, t in wide.items():
            i = schema.get_field_index(name)
            if i >= 0 and not pa.types.is_null(schema.field(i).type):
                schema = schema.set(i, schema.field(i).with_type(t))
        out.append(schema)
    return out


def _schema_apart(schemas: list[pa.Schema], files: list[str]) -> InputError:
    """The error for a dataset whose files' columns do not unify: the first file that gives a
    column a type the files before it do not, named with that column and both types."""
    import pyarrow as pa

    for k in range(1, len(schemas)):
        try:
            pa.unify_schemas(schemas[: k + 1], promote_options="default")
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
            earlier = pa.unify_schemas(schemas[:k], promote_options="default")
            for field in schemas[k]:
                i = earlier.get_field_index(field.name)
                if i < 0:
                    continue
                try:
                    pa.unify_schemas(
                        [pa.schema([earlier.field(i)]), pa.schema([field])],
                        promote_options="default",
                    )
                except (pa.ArrowInvalid, pa.ArrowTypeError):
                    before = _type_name(earlier.field(i).type)
                    return InputError(
                        f"its column '{field.name}' holds {_type_name(field.type)} where the "
                        f"dataset's files before it ({files[0]} first) hold {before}: every file "
                        "of a dataset must give a column one type; write this file again with "
                        f"'{field.name}' as {before}, or rename the column",
                        path=files[k],
                        column=field.name,
                    )
            return InputError(
                f"its columns do not fit those of the dataset's files before it ({exc})",
                path=files[k],
            )
    return InputError("its files do not share one schema", path=os.path.dirname(files[0]))


def _type_name(t: pa.DataType) -> str:
    """An Arrow type as a person reads it, with Arrow's name.

    >>> import pyarrow as pa
    >>> _type_name(pa.large_string()), _type_name(pa.int32())
    ('text (large_string)', 'whole numbers (int32)')
    """
    import pyarrow.types as at

    kinds = (
        (at.is_string, "text"),
        (at.is_large_string, "text"),
        (at.is_integer, "whole numbers"),
        (at.is_floating, "decimals"),
        (at.is_boolean, "true/false"),
        (at.is_temporal, "dates or times"),
        (at.is_binary, "bytes"),
        (at.is_large_binary, "bytes"),
    )
    for test, kind in kinds:
        if test(t):
            return f"{kind} ({t})"
    return str(t)


def _feature_count(path: str, layer: str | None) -> int:
    """How many features a file of :data:`SLICED_SUFFIXES` holds, as its format says without
    reading them; -1 for another file, or one GDAL cannot count or reach in the middle so
    (read whole; an unreadable one's reading says why): a Shapefile with records marked
    deleted too (:func:`posting.io.deleted_records`), which GDAL skips in its count of the
    features before a slice but not in its count of them all."""
    if Path(path).suffix.lower() not in SLICED_SUFFIXES:  # (a .gdb folder: a trailing /)
        return -1
    import warnings

    from posting.gdal import pyogrio_here

    pyogrio = pyogrio_here()

    try:
        with warnings.catch_warnings():  # (a multi-layer file's: the reading shows it)
            warnings.simplefilter("ignore")
            info = pyogrio.read_info(path, layer=layer)
    except (pyogrio.errors.DataSourceError, pyogrio.errors.DataLayerError, OSError, IndexError):
        # read whole: the reading names what is wrong (IndexError: pyogrio's default layer of
        # a file with none, a zipped Shapefile without its .shx)
        return -1
    can = info["capabilities"]
    reach = can.get("fast_set_next_by_index") or (
        Path(path).suffix.lower() == ".fgb" and can.get("random_read")  # (its spatial index)
    )
    if not (can.get("fast_feature_count") and reach):
        return -1
    from posting.io import deleted_records

    if len(deleted_records(path, layer)[1]):  # (GDAL skips them: slices would not add up)
        return -1
    return int(info["features"])


def _geo(meta: Any, path: str) -> dict[str, Any] | None:
    from posting.io import geo_metadata

    return geo_metadata(meta, path)


def _with_hive(table: pa.Table, hive: tuple[tuple[str, str], ...]) -> pa.Table:
    import pyarrow as pa

    for key, value in hive:
        if key not in table.column_names:
            table = table.append_column(key, pa.array([value] * table.num_rows, pa.string()))
    return table


def piece_table(piece: Piece) -> pa.Table:
    """The rows of one Parquet piece, with its ``key=value`` folders' columns."""
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(piece.path)
        groups = list(piece.row_groups or ())
        table = pf.read_row_groups(groups) if groups else pf.schema_arrow.empty_table()
        if piece.rows_of_groups is not None:
            a, b = piece.rows_of_groups
            table = table.slice(a, b - a)
    except (OSError, ValueError) as exc:
        raise InputError(f"not a readable Parquet file ({exc})", path=piece.path) from None
    table = _with_hive(table, piece.hive)
    if piece.schema is not None:  # the dataset's columns, as read whole (nulls where missing)
        import pyarrow as pa

        for i, f in enumerate(table.schema):  # (a column widened: text as large text ...)
            j = piece.schema.get_field_index(f.name)
            if j >= 0 and not pa.types.is_null(f.type) and f.type != piece.schema.field(j).type:
                wide = piece.schema.field(j)
                table = table.set_column(i, f.with_type(wide.type), table.column(i).cast(wide.type))
        table = pa.concat_tables([piece.schema.empty_table(), table], promote_options="default")
    return table


def read_table(folder: str) -> tuple[pa.Table, dict[bytes, bytes]]:
    """Every row of a dataset folder, in input order, and the first file's metadata.

    The files must agree on the geometry column and its CRS; columns missing from some files
    are null there (:func:`dataset_schema`: the columns a piece is read with too).
    """
    import pyarrow as pa

    files = files_of(folder)
    schema = dataset_schema(folder, files)
    parts = []
    for f in files:
        meta = _metadata(f)
        piece = Piece(
            folder, f, tuple(range(meta.num_row_groups)), 0, meta.num_rows, _hive(folder, f)
        )
        parts.append(piece_table(replace(piece, schema=schema)))
    first_meta = dict(schema.metadata or {})
    return pa.concat_tables(parts).replace_schema_metadata(first_meta), first_meta


def _same_geometry(
    first: dict[str, Any] | None, geo: dict[str, Any] | None, path: str, first_path: str
) -> None:
    """Refuse a file whose geometry column or CRS differs from the dataset's first file's,
    saying which differs."""

    def key(g: dict[str, Any] | None) -> tuple[Any, Any]:
        if g is None:
            return None, None
        col = g.get("primary_column")
        return col, json.dumps(g.get("columns", {}).get(col, {}).get("crs"), sort_keys=True)

    if key(first) == key(geo):
        return
    every = "every file of a dataset must have one geometry column, in one CRS"
    if geo is None:
        raise InputError(
            "has no GeoParquet metadata (no 'geo' key: a plain Parquet table), where the "
            f"dataset's first file, {first_path}, is GeoParquet; {every}: write this file "
            "again as GeoParquet, as the others are",
            path=path,
        )
    if first is None:
        raise InputError(
            "is GeoParquet (it has a 'geo' key), where the dataset's first file, "
            f"{first_path}, is a plain Parquet table without one; {every}: write that file "
            "again as GeoParquet, as this one is",
            path=path,
        )
    if key(first)[0] != key(geo)[0]:
        raise InputError(
            f"its geometry column is '{key(geo)[0]}' where the dataset's first file, "
            f"{first_path}, has '{key(first)[0]}'; {every}: rename the column in one of them",
            path=path,
        )
    raise InputError(
        f"its CRS ({_crs_name(geo)}) differs from the dataset's first file's, {first_path} "
        f"({_crs_name(first)}); {every}: reproject this file to the others' CRS",
        path=path,
    )


def _crs_name(geo: dict[str, Any] | None) -> str:
    """A GeoParquet CRS as a person reads it: its name and code where it has them."""
    col = (geo or {}).get("primary_column")
    info = (geo or {}).get("columns", {}).get(col, {})
    if "crs" not in info:
        return "none given: OGC:CRS84, longitude/latitude"
    crs = info["crs"]
    if crs is None:
        return "none"
    if isinstance(crs, dict):
        name = crs.get("name") or "unnamed"
        code = crs.get("id") if isinstance(crs.get("id"), dict) else None
        return f"{name}, {code.get('authority')}:{code.get('code')}" if code else str(name)
    return str(crs)[:80]


def _in_its_file(folder: str, row: int) -> tuple[str, int]:
    """The file of a dataset that holds its row ``row``, and the row's number in that file."""
    start = 0
    files = files_of(folder)
    for f in files:
        n = _metadata(f).num_rows
        if row < start + n:
            return f, row - start
        start += n
    return files[-1], row - start


class Given:
    """Tables already read, handed to :mod:`posting.io`'s readers as a prefetch would be
    (:class:`posting.prefetch.Prefetch`): ``take(path)`` gives the table for ``path``; and
    slices of one file: ``features(path)``, the features ``[a, b)`` to read of a file of a GDAL
    format, ``text(path)``, the records to read of a CSV file (None: every one)."""

    def __init__(
        self,
        tables: dict[str, pa.Table] | None = None,
        features: dict[str, tuple[int, int]] | None = None,
        texts: dict[str, TextSlice] | None = None,
        feature_texts: dict[str, FeatureSlice] | None = None,
    ) -> None:
        self._tables = dict(tables or {})
        self._features = dict(features or {})
        self._texts = dict(texts or {})
        self._feature_texts = dict(feature_texts or {})

    def take(self, path: str | os.PathLike[str]) -> pa.Table | None:
        """The table given for ``path`` (once), or None."""
        return self._tables.pop(os.fspath(path), None)

    def features(self, path: str | os.PathLike[str]) -> tuple[int, int] | None:
        """The slice of features to read of ``path``, or None."""
        return self._features.get(os.fspath(path))

    def text(self, path: str | os.PathLike[str]) -> TextSlice | None:
        """The slice of records to read of the CSV file ``path``, or None."""
        return self._texts.get(os.fspath(path))

    def feature_text(self, path: str | os.PathLike[str]) -> FeatureSlice | None:
        """The slice of features to read of the GeoJSON file ``path``, or None."""
        return self._feature_texts.get(os.fspath(path))


def read_layer(
    path: str,
    crs: CRS | None,
    kind: str,
    prefetch: Any = None,
    *,
    meta_from: str | None = None,
) -> Layer:
    """A dataset folder (or one piece of it, when ``prefetch`` holds the piece's table under
    ``path``) as one :class:`~posting.io.Layer` named ``path``.

    ``meta_from`` names the file whose metadata (geometry column, CRS) applies (default: the
    dataset's first file).
    """
    from posting import io

    table = prefetch.take(path) if prefetch is not None else None
    whole = table is None
    if whole:
        table, meta = read_table(path)
    else:
        meta_file = meta_from or files_of(path)[0]
        meta = _metadata(meta_file).schema.to_arrow_schema().metadata or {}
    if b"geo" not in meta:
        frame = table.to_pandas(types_mapper=io._exact_ints().get)  # (as posting.io reads one)
        return io._points_from_table(frame, path, crs, kind=kind)
    try:
        layer = io._read_geoparquet(path, meta, crs, kind, Given({path: table}))
    except InputError as exc:
        if whole and exc.row is not None and exc.message == io.not_wkb(exc.row):
            file, row = _in_its_file(path, exc.row)  # named as a piece names it
            raise InputError(io.not_wkb(row), path=file, row=row) from None
        raise
    except (OSError, ValueError) as exc:
        raise InputError(f"not a readable GeoParquet dataset ({exc})", path=path) from None
    if layer is None:  # GeoArrow's encodings: geopandas reads them, as it reads such a file
        import geopandas as gpd

        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
        try:
            gdf = gpd.read_parquet(
                io._parquet_source(path, table),
                to_pandas_kwargs={"types_mapper": io._exact_ints().get},
            )
        except (OSError, ValueError) as exc:
            raise InputError(f"not a readable GeoParquet dataset ({exc})", path=path) from None
        layer = io._from_geodataframe(gdf, path, crs)
    return layer
