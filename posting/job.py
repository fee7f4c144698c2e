"""A check as plain data: which files, which columns, which rules and settings.

A :class:`Job` is what the command line (or a notebook, a manifest, a cluster's task) asks for,
before anything is read. It is frozen, picklable and JSON-ready (:meth:`Job.to_dict`), so the
same check can be run again elsewhere or later (``posting verify``), and :func:`read` turns it
into the library's inputs. Field names are the library's parameters; errors name them, and the
command line spells each as its flag.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from posting.errors import InputError
from posting.settings import Settings

if TYPE_CHECKING:
    import numpy as np

    from posting.io import MarkerLayer, ParcelLayer
    from posting.measure import Context
    from posting.prefetch import Prefetch

__all__ = ["CONTEXT_LAYERS", "ContextFiles", "Inputs", "Job", "read_context", "read_inputs"]

CONTEXT_LAYERS = (
    "access",
    "landcover",
    "water",
    "dwellings",
    "fences",
    "easements",
    "places",
    "registry",
)
"""The context layers a job may name, in the order they are read and their warnings go."""

POLYGON_ACCESS = (
    "a polygon, not an access feature: give roads, driveways and trails as lines (their "
    "centre lines) and gates as points; a road's or right of way's outline is not its entrance"
)
"""Why an access layer's polygons are left out: where a way enters land is where its line
crosses the boundary; the outline of a right of way drawn from another survey than the parcels
zigzags across their lines, and where it follows them is frontage, not an entrance."""


@dataclass(frozen=True)
class ContextFiles:
    """The context layers and parcel attributes the rules may need (every one optional).

    Each field is named as the library parameter (and the command-line option) that sets it:
    ``access`` (a file of roads, driveways, trails and gates) with ``access_type_field``;
    ``landcover`` with ``landcover_field`` (or ``landcover_field`` alone: a parcel column),
    whose value ``forest`` marks forest land, or with ``forest_where`` (``COL=V1,V2``: which
    values of the land-cover column are forest land; :attr:`cover_field`);
    ``public_where``, ``dwelling_where``, ``cultivated_where`` (``COL=V1,V2`` over parcel
    columns); ``check_date``; ``water`` with ``water_where``; ``dwellings``; ``fences`` with
    ``fence_height_field``; ``easements`` with ``easement_holder_field``; ``acres_field``;
    ``sight_ft``; ``places`` with ``place_field`` (or ``place_field`` alone: a parcel column);
    ``registry`` (recorded land, its ``year`` column if any) or ``registry_where``.
    """

    access: str | None = None
    access_type_field: str | None = None
    landcover: str | None = None
    landcover_field: str | None = None
    forest_where: str | None = None
    public_where: str | None = None
    check_date: _dt.date | None = None
    water: str | None = None
    water_where: str | None = None
    dwellings: str | None = None
    dwelling_where: str | None = None
    fences: str | None = None
    fence_height_field: str | None = None
    cultivated_where: str | None = None
    easements: str | None = None
    easement_holder_field: str | None = None
    acres_field: str | None = None
    sight_ft: float | None = None
    places: str | None = None
    place_field: str | None = None
    registry: str | None = None
    registry_where: str | None = None

    def __post_init__(self) -> None:
        for needs, on in (
            ("access_type_field", "access"),
            ("water_where", "water"),
            ("fence_height_field", "fences"),
            ("easement_holder_field", "easements"),
        ):
            if getattr(self, needs) and not getattr(self, on):
                raise InputError(f"{{option}} needs {{option:{on}}}", parameter=needs)
        if self.places and not self.place_field:
            raise InputError(
                "{option} needs {option:place_field} (the column naming each place)",
                parameter="places",
            )
        if self.landcover and not (self.landcover_field or self.forest_where):
            raise InputError(
                "{option} needs {option:landcover_field} (the column whose value 'forest' "
                "marks forest land) or {option:forest_where} (which values are forest land)",
                parameter="landcover",
            )
        from posting.io import parse_where

        for name in (
            "public_where",
            "water_where",
            "dwelling_where",
            "cultivated_where",
            "forest_where",
            "registry_where",
        ):
            if getattr(self, name):  # an expression that does not parse: before any reading
                parse_where(getattr(self, name), name)
        if self.forest_where and self.landcover_field:
            column = parse_where(self.forest_where, "forest_where")[0]
            if column.strip().lower() != self.landcover_field.strip().lower():
                raise InputError(
                    f"{{option}} reads the column {column!r}, and {{option:landcover_field}} "
                    f"names {self.landcover_field!r}: the land cover is one column; give "
                    "one of them, or both naming it",
                    parameter="forest_where",
                )

    @property
    def cover_field(self) -> str | None:
        """The land-cover column (of the ``landcover`` layer, else of the parcels):
        ``landcover_field``, else the column ``forest_where`` reads, else None."""
        from posting.io import parse_where

        if self.landcover_field:
            return self.landcover_field
        if self.forest_where:
            return parse_where(self.forest_where, "forest_where")[0]
        return None

    @property
    def cover_parameter(self) -> str:
        """The setting that names :attr:`cover_field` (for messages)."""
        return "landcover_field" if self.landcover_field else "forest_where"

    @property
    def cultivated_on_layer(self) -> bool:
        """Whether ``cultivated_where`` reads the ``landcover`` layer, not the parcels: its
        column is the land cover's (:attr:`cover_field`)."""
        from posting.io import parse_where

        if not (self.landcover and self.cultivated_where):
            return False
        column = parse_where(self.cultivated_where, "cultivated_where")[0]
        return column.strip().lower() == (self.cover_field or "").strip().lower()

    def cover_classes(self) -> list[tuple[str, set[str], str]]:
        """The land-cover classes the settings say the values of (for
        :func:`posting.cover.classified`): forest land by ``forest_where``, and cultivated
        land by ``cultivated_where`` where it reads the layer."""
        from posting.io import parse_where

        out = []
        if self.forest_where:
            out.append(
                ("forest", parse_where(self.forest_where, "forest_where")[1], "forest_where")
            )
        if self.cultivated_on_layer:
            wanted = parse_where(self.cultivated_where, "cultivated_where")[1]
            out.append(("cultivated", wanted, "cultivated_where"))
        return out

    def parcel_columns(self) -> list[tuple[str, str]]:
        """The parcel columns these settings read, each with the setting that names it (the
        first missing one is the one named: :func:`require_parcel_columns`)."""
        from posting.io import parse_where

        out = []
        if self.cover_field and not self.landcover:
            out.append((self.cover_field, self.cover_parameter))
        for name in ("public_where", "dwelling_where", "cultivated_where"):
            if name == "cultivated_where" and self.cultivated_on_layer:
                continue
            if getattr(self, name):
                out.append((parse_where(getattr(self, name), name)[0], name))
        if self.place_field and not self.places:
            out.append((self.place_field, "place_field"))
        if self.registry_where:
            out.append((parse_where(self.registry_where, "registry_where")[0], "registry_where"))
        if self.acres_field:
            out.append((self.acres_field, "acres_field"))
        return out

    def files(self) -> list[str]:
        """The files named (the inputs a manifest records)."""
        return [getattr(self, n) for n in CONTEXT_LAYERS if getattr(self, n)]


@dataclass(frozen=True)
class Job:
    """One check: the parcels, the markers, the rules, the settings and the context.

    Attributes
    ----------
    parcels
        The parcel file.
    signs
        Marker files (signs, paint marks, posts), any number.
    rules
        Rule profiles (names or ``.toml`` paths): alternative ways to post; ``auto`` (and
        empty) judges each parcel by its state's default profiles (:mod:`posting.jurisdiction`).
    id_field, owner_field
        Parcel columns of the id and the owner.
    sign_parcel_field
        Marker column naming the parcel a marker posts.
    signs_where
        Which marker rows are markers (``COL=V1,V2``): the others count for no rule.
    crs
        The CRS of layers that have none (and of x/y columns).
    layer
        The layer of a multi-layer parcel file.
    closed_lines
        Parcels drawn as closed lines are read as the polygons they bound
        (:mod:`posting.closedlines`).
    merge_owner
        Parcel column: adjoining parcels with the same value are one property.
    settings
        Tolerances and survey accuracy.
    context
        The context layers and attributes (:class:`ContextFiles`).
    """

    parcels: str
    signs: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    id_field: str | None = None
    owner_field: str | None = None
    sign_parcel_field: str | None = None
    signs_where: str | None = None
    crs: str | None = None
    layer: str | None = None
    closed_lines: bool = False
    merge_owner: str | None = None
    settings: Settings = field(default_factory=Settings)
    context: ContextFiles = field(default_factory=ContextFiles)

    def __post_init__(self) -> None:
        if self.signs_where:  # an expression that does not parse: before any reading
            from posting.io import parse_where

            parse_where(self.signs_where, "signs_where")
        seen: dict[str, str] = {}
        for path in self.signs:
            key = os.path.realpath(path)  # (./a.csv, an absolute path, a link: one file)
            if key in seen:
                also = "" if seen[key] == path else f" (also as {seen[key]})"
                raise InputError(
                    f"{{option}} names this file twice{also}: its markers would count twice; "
                    "give each marker file once",
                    path=path,
                    parameter="signs",
                )
            seen[key] = path

    def files(self) -> list[str]:
        """Every input file the job reads (parcels, markers, context layers)."""
        return [self.parcels, *self.signs, *self.context.files()]

    def to_dict(self) -> dict[str, Any]:
        """The job as JSON-ready values."""
        out = dataclasses.asdict(self)
        out["signs"], out["rules"] = list(self.signs), list(self.rules)
        date = self.context.check_date
        out["context"]["check_date"] = None if date is None else date.isoformat()
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        """The job :meth:`to_dict` wrote."""
        ctx = dict(data.get("context") or {})
        if ctx.get("check_date"):
            ctx["check_date"] = _dt.date.fromisoformat(ctx["check_date"])
        rest = {k: v for k, v in data.items() if k not in ("settings", "context")}
        rest["signs"] = tuple(rest.get("signs") or ())
        rest["rules"] = tuple(rest.get("rules") or ())
        return cls(
            **rest, settings=Settings(**(data.get("settings") or {})), context=ContextFiles(**ctx)
        )


class Inputs(NamedTuple):
    """What a job's files hold: the parcels, the markers, the context, the merge key."""

    parcels: ParcelLayer
    markers: MarkerLayer
    context: Context
    merge_key: np.ndarray | None


def read_parcels_of(job: Job, prefetch: Prefetch | None = None) -> ParcelLayer:
    """The job's parcel layer."""
    from posting.io import read_parcels

    return read_parcels(
        job.parcels,
        id_field=job.id_field,
        owner_field=job.owner_field,
        crs=job.crs,
        layer=job.layer,
        closed_lines=job.closed_lines,
        prefetch=prefetch,
    )


def read_markers_of(job: Job, prefetch: Prefetch | None = None) -> MarkerLayer:
    """The job's markers, from every marker file."""
    from posting.io import read_markers

    return read_markers(
        list(job.signs),
        crs=job.crs,
        parcel_field=job.sign_parcel_field,
        prefetch=prefetch,
        where=job.signs_where,
    )


def merge_key_of(job: Job, parcels: ParcelLayer) -> np.ndarray | None:
    """Per parcel, the owner key of the ``merge_owner`` column (:func:`posting.io.owner_keys`;
    None without it)."""
    from posting.io import owner_keys

    return owner_keys(parcels, job.merge_owner, "merge_owner") if job.merge_owner else None


def read_inputs(job: Job, prefetch: Prefetch | None = None) -> Inputs:
    """Read everything the job names, one file after another (see :func:`posting.engine.run`
    for the parallel reading)."""
    parcels = read_parcels_of(job, prefetch)
    return Inputs(
        parcels,
        read_markers_of(job, prefetch),
        read_context(job.context, parcels, job.crs),
        merge_key_of(job, parcels),
    )


def require_parcel_columns(files: ContextFiles, attributes: Any, source: str) -> None:
    """Refuse the first parcel column that ``files`` names (:meth:`ContextFiles.parcel_columns`)
    and ``attributes`` (a frame of the parcels' columns) lacks, naming ``source`` and listing
    the columns there are."""
    from posting.io import _require_column

    for column, parameter in files.parcel_columns():
        _require_column(attributes, column, source, parameter)


def refuse_cover_of(files: ContextFiles, tally: Any, source: str) -> None:
    """Refuse the land-cover column :attr:`ContextFiles.cover_field` (of ``source``: the
    land-cover layer, or the parcels without one) whose values ``tally``
    (:class:`posting.cover.CoverValues`) name forest land in other words than ``forest`` and
    no ``forest_where`` says which are; and a layer's that name cultivated land so, where no
    ``cultivated_where`` gives it (:func:`posting.cover.refuse_unread`)."""
    from posting.cover import refuse_unread

    if tally is None or files.cover_field is None:
        return
    refuse_unread(
        tally,
        source,
        files.cover_field,
        forest=not files.forest_where,
        cultivated=bool(files.landcover) and not files.cultivated_where,
        parameter=files.cover_parameter,
    )


def read_context(
    files: ContextFiles,
    parcels: ParcelLayer,
    crs: str | None,
    prefetch: Any = None,
    *,
    refuse_cover: bool = True,
) -> Context:
    """Read the context layers and parcel attributes that ``files`` names (``prefetch``: as
    for :func:`posting.io.read_layer`, a piece of a layer on the partitioned path).

    A land-cover column whose classes name forest land in other words than ``forest`` (NLCD's
    "Deciduous Forest"), with no ``forest_where`` to say which values are forest land, is
    refused (:func:`refuse_cover_of`), unless ``refuse_cover`` is false: a piece of the
    layer or of the parcels, whose values the partitioned path gathers first."""
    import pandas as pd

    from posting.cover import CoverValues
    from posting.io import (
        _require_column,
        parcel_values,
        parcel_where,
        parse_where,
        read_features,
        where_match,
    )
    from posting.measure import Context

    f = files
    require_parcel_columns(f, parcels.attributes, parcels.source)
    ctx: dict[str, Any] = {}
    if f.access:
        ctx["access"] = read_features(
            f.access,
            field=f.access_type_field,
            default_field="type",
            crs=crs,
            field_parameter="access_type_field",
            prefetch=prefetch,
            no_polygons=POLYGON_ACCESS,
        )
    if f.landcover:
        ctx["landcover"] = read_features(
            f.landcover,
            field=f.cover_field,
            crs=crs,
            field_parameter=f.cover_parameter,
            prefetch=prefetch,
            classes=f.cover_classes(),
            cover=True,
        )
        if refuse_cover:
            refuse_cover_of(f, ctx["landcover"].cover, ctx["landcover"].source)
    elif f.cover_field:
        values = parcel_values(parcels, f.cover_field, f.cover_parameter)
        column = parcels.attributes[
            _require_column(parcels.attributes, f.cover_field, parcels.source, f.cover_parameter)
        ]
        if refuse_cover:
            refuse_cover_of(f, CoverValues.of(column), parcels.source)
        forest = values == "forest"
        if f.forest_where:  # (as read: numbers match as numbers)
            forest = where_match(column, parse_where(f.forest_where, "forest_where")[1])
        ctx["parcel_landcover"] = [
            None if v is None else bool(x) for v, x in zip(values, forest, strict=True)
        ]
    if f.public_where:
        ctx["public"] = parcel_where(parcels, f.public_where, "public_where")
    if f.check_date:
        d = f.check_date
        ctx["today"] = d.date() if isinstance(d, _dt.datetime) else d
    if f.water:
        ctx["water"] = read_features(
            f.water, crs=crs, where=f.water_where, where_parameter="water_where", prefetch=prefetch
        )
    if f.dwellings:
        ctx["dwellings"] = read_features(f.dwellings, crs=crs, prefetch=prefetch)
    if f.dwelling_where:
        ctx["dwelling"] = parcel_where(parcels, f.dwelling_where, "dwelling_where")
    if f.fences:
        ctx["fences"] = read_features(
            f.fences,
            field=f.fence_height_field,
            default_field=("height_ft", "height_m", "height_in", "height_cm"),
            crs=crs,
            field_parameter="fence_height_field",
            prefetch=prefetch,
        )
    if f.cultivated_where and not f.cultivated_on_layer:
        ctx["cultivated"] = parcel_where(parcels, f.cultivated_where, "cultivated_where")
    if f.easements:
        ctx["easements"] = read_features(
            f.easements,
            field=f.easement_holder_field,
            default_field=("holder", "owner", "grantee"),
            crs=crs,
            field_parameter="easement_holder_field",
            casefold=False,
            prefetch=prefetch,
        )
    if f.sight_ft is not None:
        ctx["sight_ft"] = float(f.sight_ft)
    if f.places:
        ctx["places"] = read_features(
            f.places,
            field=f.place_field,
            crs=crs,
            field_parameter="place_field",
            casefold=False,
            prefetch=prefetch,
        )
    elif f.place_field:
        ctx["parcel_place"] = parcel_values(parcels, f.place_field, "place_field")
    if f.registry:
        ctx["registry"] = read_features(
            f.registry, default_field=("year", "posting_year", "season"), crs=crs, prefetch=prefetch
        )
    if f.registry_where:
        ctx["registered"] = parcel_where(parcels, f.registry_where, "registry_where")
    if f.acres_field:
        # (+ 0.0: a recorded "-0" is 0 acres, as a merged property's sum of lots gives it,
        # or not, as pandas' sum happens to run: a -0.0 printed "-0.0" in one output only)
        ctx["recorded_acres"] = (
            pd.to_numeric(
                pd.Series(parcel_values(parcels, f.acres_field, "acres_field")), errors="coerce"
            ).to_numpy(dtype=float)
            + 0.0
        )
    return Context(**ctx)
