"""Shared click options (cligj style): every command that reads parcels and markers takes these."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from posting.settings import Settings

__all__ = ["input_options", "settings_from", "settings_options"]

_defaults = Settings()

_FT = click.FloatRange(min=0)


def _compose(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def apply(f: Any) -> Any:
        for d in reversed(decorators):
            f = d(f)
        return f

    return apply


input_options = _compose(
    click.argument("parcels", type=click.Path(dir_okay=False, allow_dash=False)),
    click.option(
        "--signs",
        "signs",
        multiple=True,
        type=click.Path(dir_okay=False),
        metavar="FILE",
        help="Surveyed markers (signs, paint marks, posts); repeat for several files.",
    ),
    click.option(
        "--rules",
        "rules",
        default="florida",
        show_default=True,
        metavar="NAME|FILE",
        help="Rule profile: a shipped name (see `posting rules`) or a .toml file.",
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
        "--accuracy-ft",
        type=_FT,
        default=_defaults.accuracy_ft,
        show_default=True,
        help="Stated survey accuracy: findings this close to a limit are 'uncertain'. "
        "Phone ~16, handheld GPS ~10, mapping-grade ~3, RTK ~0.1.",
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
        "accuracy_ft",
    )
    return Settings(**{k: kwargs.pop(k) for k in names})
