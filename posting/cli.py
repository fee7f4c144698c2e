"""The ``posting`` command: a thin click layer over the library.

Library errors (:class:`~posting.errors.PostingError`) become a one-line message and exit
status 2, here and only here. Data goes to stdout only when asked (``--json -``); the summary and
messages go to stderr.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from posting import __name__ as _pkg
from posting.errors import PostingError
from posting.options import input_options, settings_from, settings_options

if TYPE_CHECKING:
    from posting.report import Report

__all__ = ["main"]


class UserError(click.ClickException):
    """A problem the user can fix: exit status 2, no traceback."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"posting: error: {self.format_message()}", err=True)


def _user_errors(f: Callable[..., Any]) -> Callable[..., Any]:
    """Turn library errors and unwritable outputs into :class:`UserError`, once, at the edge."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except PostingError as exc:
            raise UserError(str(exc)) from None
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            raise UserError(f"{where}{exc.strerror or exc}") from None

    return wrapper


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(_pkg)
    except PackageNotFoundError:  # pragma: no cover
        return "unknown"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(_version(), "--version", message="%(version)s")
def main() -> None:
    """Is this land legally posted against trespass?

    Measures parcel boundaries and surveyed signs against a jurisdiction's posting statute
    (Florida's by default), in true feet.
    """


def _outputs_distinct(outputs: dict[str, str | None]) -> None:
    dashes = [k for k, v in outputs.items() if v == "-"]
    if len(dashes) > 1:
        raise click.UsageError(f"only one output can go to stdout; got - for {', '.join(dashes)}")


def _run_check(
    parcels: str,
    signs: tuple[str, ...],
    rules: str,
    id_field: str | None,
    owner_field: str | None,
    sign_parcel_field: str | None,
    crs: str | None,
    layer: str | None,
    **kwargs: Any,
) -> Report:
    """Read the inputs named by the shared options and check them (``check`` and ``map``)."""
    from posting.engine import check as run_check
    from posting.io import read_markers, read_parcels
    from posting.rules import load_rules

    settings = settings_from(kwargs)
    profile = load_rules(rules)
    parcel_layer = read_parcels(
        parcels, id_field=id_field, owner_field=owner_field, crs=crs, layer=layer
    )
    markers = read_markers(list(signs), crs=crs, parcel_field=sign_parcel_field)
    return run_check(parcel_layer, markers, profile, settings=settings)


_no_tiles_option = click.option(
    "--no-tiles",
    is_flag=True,
    help="Leave out the online background map (the map works offline either way).",
)


@main.command()
@input_options
@settings_options
@click.option("--json", "json_out", metavar="PATH|-", help="Write the JSON report (- for stdout).")
@click.option(
    "--geojson",
    "geojson_out",
    metavar="PATH|-",
    help="Write a GeoJSON of parcels, markers, gaps and corners.",
)
@click.option("--csv", "csv_out", metavar="PATH|-", help="Write one CSV row per parcel.")
@click.option(
    "--map", "map_out", metavar="PATH|-", help="Write the self-contained HTML map (works offline)."
)
@_no_tiles_option
@click.option("-q", "--quiet", is_flag=True, help="No summary on stderr.")
@_user_errors
def check(
    json_out: str | None,
    geojson_out: str | None,
    csv_out: str | None,
    map_out: str | None,
    no_tiles: bool,
    quiet: bool,
    **kwargs: Any,
) -> None:
    """Check PARCELS and their signs against the posting rule.

    Exit status: 0 when every parcel is compliant or exempt, 1 when any is not, 2 for bad
    usage or unreadable input. The outputs asked for are written in every case but the last.
    """
    from posting.io import write_text

    outputs = {"--json": json_out, "--geojson": geojson_out, "--csv": csv_out, "--map": map_out}
    _outputs_distinct(outputs)
    report = _run_check(**kwargs)
    rendered = {}
    if json_out:
        rendered[json_out] = report.to_json()
    if geojson_out:
        rendered[geojson_out] = report.to_geojson()
    if csv_out:
        rendered[csv_out] = report.to_csv()
    if map_out:
        from posting.maps import to_html

        rendered[map_out] = to_html(report, tiles=not no_tiles)
    for path, text in rendered.items():
        write_text(path, text)
    if not quiet:
        for line in report.summary_lines():
            click.echo(line, err=True)
    sys.exit(report.exit_code)


@main.command("map")
@input_options
@settings_options
@click.option(
    "-o", "--output", "out", required=True, metavar="PATH|-", help="The HTML file to write."
)
@_no_tiles_option
@click.option("-q", "--quiet", is_flag=True, help="No summary on stderr.")
@_user_errors
def map_cmd(out: str, no_tiles: bool, quiet: bool, **kwargs: Any) -> None:
    """Check PARCELS and their signs, and draw the verdict as a self-contained HTML map.

    Takes the inputs and settings of `check`. The map needs no network: open it in any browser,
    offline too. Exit status: 0 when the map is written, 2 for bad usage or unreadable input.
    """
    from posting.io import write_text
    from posting.maps import to_html

    report = _run_check(**kwargs)
    text = to_html(report, tiles=not no_tiles)
    write_text(out, text)
    if not quiet:
        for line in report.summary_lines():
            click.echo(line, err=True)
        if out != "-":
            click.echo(f"  map: {out} ({len(text.encode()) / 1e6:.1f} MB)", err=True)


@main.command("rules")
@click.argument("name", required=False)
@_user_errors
def rules_cmd(name: str | None) -> None:
    """List the shipped rule profiles, or show one as JSON."""
    import json

    from posting.rules import available, load_rules

    if name:
        click.echo(json.dumps(load_rules(name).summary(), indent=2))
        return
    for n in available():
        p = load_rules(n)
        click.echo(f"{n:16} {p.citation:32} {p.verification:10} {p.title}")


if __name__ == "__main__":  # pragma: no cover
    main()
