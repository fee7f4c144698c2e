"""Shared click options (cligj style): every command that reads parcels and markers takes these.

Three groups: the inputs (``input_options``), the measurement settings (``settings_options``)
and the context layers the rules may need (``context_options``). ``settings_from`` and
``context_from`` turn the parsed options into library objects.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import Any

import click

from posting.settings import Settings

__all__ = [
    "context_from",
    "context_options",
    "input_options",
    "settings_from",
    "settings_options",
]

_defaults = Settings()

_FT = click.FloatRange(min=0)


def _compose(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def apply(f: Any) -> Any:
        for d in reversed(decorators):
            f = d(f)
        return f

    return apply


input_options = _compose(
    click.argument("parcels", type=click.Path(allow_dash=False)),
    click.option(
        "--signs",
        "signs",
        multiple=True,
        type=click.Path(),
        metavar="FILE",
        help="Surveyed markers (signs, paint marks, posts); repeat for several files.",
    ),
    click.option(
        "--rules",
        "rules",
        multiple=True,
        metavar="NAME|FILE",
        help="Rule profile: a shipped name (see `posting rules list`) or a .toml file; repeat "
        "for alternatives (a parcel complies if it meets any). Default: florida.",
    ),
    click.option("--id-field", metavar="COL", help="Parcel id column (default: row number)."),
    click.option("--owner-field", metavar="COL", help="Parcel owner column."),
    click.option(
        "--sign-parcel-field",
        metavar="COL",
        help="Marker column naming the parcel a marker posts (overrides position).",
    ),
    click.option(
        "--crs",
        metavar="CRS",
        help="CRS for layers that have none and for x/y CSV columns, e.g. EPSG:2236.",
    ),
    click.option("--layer", metavar="NAME", help="Layer of a multi-layer parcel file."),
)

settings_options = _compose(
    click.option(
        "--tolerance-ft",
        type=click.FloatRange(min=0, min_open=True),
        default=_defaults.tolerance_ft,
        show_default=True,
        help="Largest distance from a marker to the boundary it posts.",
    ),
    click.option(
        "--corner-tolerance-ft",
        type=_FT,
        default=_defaults.corner_tolerance_ft,
        show_default=True,
        help="A corner is marked by a marker within this distance.",
    ),
    click.option(
        "--corner-angle-deg",
        type=click.FloatRange(min=0, max=180, min_open=True, max_open=True),
        default=_defaults.corner_angle_deg,
        show_default=True,
        help="Smallest turn of the boundary that makes a corner.",
    ),
    click.option(
        "--corner-noise-ft",
        type=_FT,
        default=_defaults.corner_noise_ft,
        show_default=True,
        help="Digitising noise ignored when looking for corners.",
    ),
    click.option(
        "--corner-merge-ft",
        type=_FT,
        default=_defaults.corner_merge_ft,
        show_default=True,
        help="Turning within this length of boundary is one corner (chamfers).",
    ),
    click.option(
        "--access-tolerance-ft",
        type=_FT,
        default=_defaults.access_tolerance_ft,
        show_default=True,
        help="An access point is marked by a marker within this distance.",
    ),
    click.option(
        "--accuracy-ft",
        type=_FT,
        default=_defaults.accuracy_ft,
        show_default=True,
        help="Stated survey accuracy: findings this close to a limit are 'uncertain'. "
        "Phone ~16, handheld GPS ~10, mapping-grade ~3, RTK ~0.1.",
    ),
)

context_options = _compose(
    click.option(
        "--access",
        "access",
        type=click.Path(),
        metavar="FILE",
        help="Roads, driveways, trails (lines) and gates (points): where they cross a boundary, "
        "profiles that require it need a marker.",
    ),
    click.option(
        "--access-type-field",
        metavar="COL",
        help="Column of --access with the feature type (road, driveway, trail, gate); "
        "default: a column named 'type' if there is one.",
    ),
    click.option(
        "--landcover",
        "landcover",
        type=click.Path(),
        metavar="FILE",
        help="Land-cover polygons, for profiles with a forest spacing and another.",
    ),
    click.option(
        "--landcover-field",
        metavar="COL",
        help="Column whose value 'forest' marks forest land: of --landcover, or of the parcels "
        "when no --landcover layer is given.",
    ),
    click.option(
        "--public-where",
        metavar="COL=V1,V2,...",
        help="Parcels open to the public part of the day (parks, businesses), by attribute.",
    ),
    click.option(
        "--check-date",
        type=click.DateTime(formats=["%Y-%m-%d"]),
        metavar="YYYY-MM-DD",
        help="Date of the check, for the renewal of postings (default: today).",
    ),
    click.option(
        "--water",
        "water",
        type=click.Path(),
        metavar="FILE",
        help="Water polygons and lines: boundaries formed by water are reported and ruled on.",
    ),
    click.option(
        "--water-where",
        metavar="EXPR",
        help="Which --water features are water: COL=V1,V2 or \"COL in ('V1','V2')\".",
    ),
    click.option(
        "--dwellings",
        "dwellings",
        type=click.Path(),
        metavar="FILE",
        help="Building footprints or address points (for the small-dwelling exemption).",
    ),
    click.option(
        "--dwelling-where",
        metavar="COL=V1,V2,...",
        help="Parcels with a dwelling, by attribute (e.g. LUCat=O-SFD,R-SFD).",
    ),
    click.option(
        "--fences",
        "fences",
        type=click.Path(),
        metavar="FILE",
        help="Fence lines; land fenced all round by a high enough fence counts as posted.",
    ),
    click.option(
        "--fence-height-field",
        metavar="COL",
        help="Column of --fences with the height in feet (default: height_ft).",
    ),
    click.option(
        "--cultivated-where", metavar="COL=V1,V2,...", help="Cultivated parcels, by attribute."
    ),
    click.option(
        "--easements",
        "easements",
        type=click.Path(),
        metavar="FILE",
        help="Easement polygons: boundary stretches inside them are reported.",
    ),
    click.option(
        "--easement-holder-field",
        metavar="COL",
        help="Column of --easements naming the holder (default: holder or owner).",
    ),
    click.option(
        "--acres-field",
        metavar="COL",
        help="Parcel column with the recorded acreage, compared with the measured area.",
    ),
    click.option(
        "--merge-owner",
        metavar="COL",
        help="Merge adjoining parcels with the same value of COL (one owner's property) "
        "and measure only their outer boundary.",
    ),
)


def settings_from(kwargs: dict[str, Any]) -> Settings:
    """Pop the settings options out of a command's keyword arguments."""
    names = (
        "tolerance_ft",
        "corner_tolerance_ft",
        "corner_angle_deg",
        "corner_noise_ft",
        "corner_merge_ft",
        "access_tolerance_ft",
        "accuracy_ft",
    )
    return Settings(**{k: kwargs.pop(k) for k in names})


def context_from(kwargs: dict[str, Any], parcels: Any, crs: str | None) -> Any:
    """Pop the context options out of a command's keyword arguments and read the layers."""
    from posting.engine import Context
    from posting.io import parcel_values, parcel_where, read_features

    access = kwargs.pop("access")
    access_field = kwargs.pop("access_type_field")
    landcover = kwargs.pop("landcover")
    landcover_field = kwargs.pop("landcover_field")
    public_where = kwargs.pop("public_where")
    check_date = kwargs.pop("check_date")
    if access_field and not access:
        raise click.UsageError("--access-type-field needs --access")
    ctx: dict[str, Any] = {}
    if access:
        ctx["access"] = read_features(
            access,
            field=access_field,
            default_field="type",
            crs=crs,
            field_parameter="access_type_field",
        )
    if landcover:
        if not landcover_field:
            raise click.UsageError(
                "--landcover needs --landcover-field (the column whose "
                "value 'forest' marks forest land)"
            )
        ctx["landcover"] = read_features(
            landcover, field=landcover_field, crs=crs, field_parameter="landcover_field"
        )
    elif landcover_field:
        values = parcel_values(parcels, landcover_field, "landcover_field")
        ctx["parcel_landcover"] = [None if v is None else v == "forest" for v in values]
    if public_where:
        ctx["public"] = parcel_where(parcels, public_where, "public_where")
    if check_date:
        ctx["today"] = check_date.date() if isinstance(check_date, _dt.datetime) else check_date
    water, water_where = kwargs.pop("water"), kwargs.pop("water_where")
    if water_where and not water:
        raise click.UsageError("--water-where needs --water")
    if water:
        ctx["water"] = read_features(
            water, crs=crs, where=water_where, where_parameter="water_where"
        )
    dwellings, dwelling_where = kwargs.pop("dwellings"), kwargs.pop("dwelling_where")
    if dwellings:
        ctx["dwellings"] = read_features(dwellings, crs=crs)
    if dwelling_where:
        ctx["dwelling"] = parcel_where(parcels, dwelling_where, "dwelling_where")
    fences, height_field = kwargs.pop("fences"), kwargs.pop("fence_height_field")
    if height_field and not fences:
        raise click.UsageError("--fence-height-field needs --fences")
    if fences:
        ctx["fences"] = read_features(
            fences,
            field=height_field,
            default_field="height_ft",
            crs=crs,
            field_parameter="fence_height_field",
        )
    cultivated_where = kwargs.pop("cultivated_where")
    if cultivated_where:
        ctx["cultivated"] = parcel_where(parcels, cultivated_where, "cultivated_where")
    easements, holder_field = kwargs.pop("easements"), kwargs.pop("easement_holder_field")
    if holder_field and not easements:
        raise click.UsageError("--easement-holder-field needs --easements")
    if easements:
        ctx["easements"] = read_features(
            easements,
            field=holder_field,
            default_field=("holder", "owner", "grantee"),
            crs=crs,
            field_parameter="easement_holder_field",
            casefold=False,
        )
    acres_field = kwargs.pop("acres_field")
    if acres_field:
        import pandas as pd

        ctx["recorded_acres"] = pd.to_numeric(
            pd.Series(parcel_values(parcels, acres_field, "acres_field")), errors="coerce"
        ).to_numpy(dtype=float)
    return Context(**ctx)
