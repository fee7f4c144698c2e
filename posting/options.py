"""Shared click options (cligj style): every command that reads parcels and markers takes these.

Three groups: the inputs (``input_options``), the measurement settings (``settings_options``)
and the context layers the rules may need (``context_options``). ``as_job`` hands the command
their values as one typed :class:`~posting.job.Job`; nothing here reads a file.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
from collections.abc import Callable
from typing import Any

import click

from posting.job import ContextFiles, Job
from posting.settings import Settings

__all__ = [
    "as_job",
    "context_options",
    "input_options",
    "job_of",
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
        metavar="FILE|DIR",
        help="Surveyed markers (signs, paint marks, posts), or geotagged photos of signs (a "
        "folder, JPEG or HEIC files); repeat for several.",
    ),
    click.option(
        "--rules",
        "rules",
        multiple=True,
        metavar="NAME|FILE",
        help="Rule profile: a shipped name (see `posting rules list`) or a .toml file; repeat "
        "for alternatives (a parcel complies if it meets any). Default: auto, each parcel "
        "under its own state's profiles (found offline from where it lies).",
    ),
    click.option("--id-field", metavar="COL", help="Parcel id column (default: row number)."),
    click.option("--owner-field", metavar="COL", help="Parcel owner column."),
    click.option(
        "--sign-parcel-field",
        metavar="COL",
        help="Marker column naming the parcel a marker posts (overrides position).",
    ),
    click.option(
        "--signs-where",
        metavar="EXPR",
        help="Which rows of the marker files are markers: COL=V1,V2 or \"COL in ('V1','V2')\" "
        "(e.g. description=SIGN* for a surveyor's point file that holds monuments too; * and ? "
        "are wildcards); the others are listed but count for no rule.",
    ),
    click.option(
        "--crs",
        metavar="CRS",
        help="CRS for layers that have none and for x/y CSV columns, e.g. EPSG:2236 (lon/lat "
        "columns are WGS 84).",
    ),
    click.option("--layer", metavar="NAME", help="Layer of a multi-layer parcel file."),
    click.option(
        "--closed-lines",
        is_flag=True,
        help="Read parcels drawn as closed lines (a CAD drawing's lots) as the polygons they "
        "bound.",
    ),
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
        "--water-tolerance-ft",
        type=_FT,
        default=_defaults.water_tolerance_ft,
        show_default=True,
        help="A stretch of boundary within this distance of water (with --water) is formed by "
        "water; stretches shorter than three times it are where the line crosses a creek.",
    ),
    click.option(
        "--merge-snap-ft",
        type=_FT,
        default=_defaults.merge_snap_ft,
        show_default=True,
        help="With --merge-owner: lots of one owner adjoin where one's boundary runs within "
        "this distance of the other's for at least 5 ft, or 5 times it when larger "
        "(digitising slivers closed).",
    ),
    click.option(
        "--accuracy-ft",
        type=_FT,
        default=_defaults.accuracy_ft,
        show_default=True,
        help="Stated survey accuracy: findings this close to a limit are 'uncertain'. "
        "Phone ~16, handheld GPS ~10, mapping-grade ~3, RTK ~0.1.",
    ),
    click.option(
        "--elevation-ft",
        type=float,
        default=None,
        metavar="FT",
        help="The land's height above sea level: lengths and areas are then measured on the "
        "ground, longer than at sea level by (R + h) / R (1.00025 at 5,280 ft: 500 ft measures "
        "499.87 ft at sea level). Give it for land above a few hundred feet when gaps come "
        "within a fraction of a foot of the limit (RTK surveys). The geoid's height (under "
        "200 ft in the US) changes the factor by under 1e-5; 0: sea level. Not given: lengths "
        "at sea level, each parcel's land anywhere between its state's lowest and highest "
        "points; a figure that passes at one and not the other is 'uncertain'.",
    ),
)

context_options = _compose(
    click.option(
        "--access",
        "access",
        type=click.Path(),
        metavar="FILE",
        help="Roads, driveways, trails (lines) and gates (points): where they cross a boundary, "
        "profiles that require it need a marker. Polygons are left out, with a warning.",
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
        help="Column whose value 'forest' marks forest land (and 'cultivated' cultivated "
        "land): of --landcover, or of the parcels when no --landcover layer is given. A column "
        "that names forest in other words (NLCD's 'Deciduous Forest', 41-43) is refused: say "
        "which values are forest land with --forest-where.",
    ),
    click.option(
        "--forest-where",
        metavar="COL=V1,V2,...",
        help="Which values of the land cover are forest land: of --landcover, or of the "
        'parcels when no --landcover layer is given (e.g. "NLCD_Land=Deciduous Forest,'
        "Evergreen Forest,Mixed Forest\" or CLASS=41,42,43; '*' and '?' as wildcards). "
        "The others are other land. Its column is the land cover's (--landcover-field, if "
        "given, must name it).",
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
        "--cultivated-where",
        metavar="COL=V1,V2,...",
        help="Cultivated parcels, by attribute; with --landcover, a COL that is the land "
        "cover's column says which of its values are cultivated land (e.g. "
        '"NLCD_Land=Cultivated Crops").',
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
        "--sight-ft",
        type=click.FloatRange(min=0, min_open=True),
        metavar="FT",
        help="How far a marker can be seen on this land (profiles whose markers must be in "
        "sight of each other; default: the profile's, by land cover).",
    ),
    click.option(
        "--places",
        type=click.Path(dir_okay=False),
        metavar="FILE",
        help="Municipalities or counties (with --place-field), for profiles that do not apply "
        "in some places (Illinois' purple paint in Chicago).",
    ),
    click.option(
        "--place-field",
        metavar="COL",
        help="Column naming each place: of --places, or of the parcels without --places.",
    ),
    click.option(
        "--registry",
        type=click.Path(dir_okay=False),
        metavar="FILE",
        help="Land recorded as posted (a state's electronic posting, a town clerk's record); "
        "a 'year' column, if any, says for which posting year.",
    ),
    click.option(
        "--registry-where",
        metavar="COL=V1,V2,...",
        help="Parcels recorded as posted, by attribute.",
    ),
    click.option(
        "--merge-owner",
        metavar="COL",
        help="Merge adjoining parcels with the same value of COL (one owner's property) "
        "and measure only their outer boundary.",
    ),
)


SETTINGS_OPTIONS = (
    "tolerance_ft",
    "corner_tolerance_ft",
    "corner_angle_deg",
    "corner_noise_ft",
    "corner_merge_ft",
    "access_tolerance_ft",
    "water_tolerance_ft",
    "merge_snap_ft",
    "accuracy_ft",
    "elevation_ft",
)
"""The settings given by :data:`settings_options` (every field of :class:`Settings`)."""
INPUT_OPTIONS = (
    "parcels",
    "signs",
    "rules",
    "id_field",
    "owner_field",
    "sign_parcel_field",
    "signs_where",
    "crs",
    "layer",
    "closed_lines",
    "merge_owner",
)
"""The job's inputs given by :data:`input_options` (and ``merge_owner`` of the context's)."""


def job_of(values: dict[str, Any]) -> Job:
    """The :class:`~posting.job.Job` that the shared options' values describe (popped out of
    ``values``; the command's own options stay there). The job checks that the options go
    together; its errors name the options' parameters, which the command line spells as
    flags."""
    inputs = {k: values.pop(k) for k in INPUT_OPTIONS}
    inputs["signs"], inputs["rules"] = tuple(inputs["signs"] or ()), tuple(inputs["rules"] or ())
    # (a setting missing from ``values`` keeps its default: an evidence record's manifest
    # leaves out ``elevation_ft`` when not given, as the records made before it came did)
    settings = Settings(**{k: values.pop(k) for k in SETTINGS_OPTIONS if k in values})
    context = {f.name: values.pop(f.name) for f in dataclasses.fields(ContextFiles)}
    if isinstance(context["check_date"], _dt.datetime):
        context["check_date"] = context["check_date"].date()
    return Job(**inputs, settings=settings, context=ContextFiles(**context))


def as_job(f: Callable[..., Any]) -> Callable[..., Any]:
    """Give the command one typed :class:`~posting.job.Job` (``job=``) instead of the shared
    options' values (which :data:`input_options`, :data:`settings_options` and
    :data:`context_options` add to it): see :func:`job_of`."""

    @functools.wraps(f)
    def wrapper(**kwargs: Any) -> Any:
        job = job_of(kwargs)
        return f(job=job, **kwargs)

    return wrapper
