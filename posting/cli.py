"""The ``posting`` command: a thin click layer over the library.

Library errors (:class:`~posting.errors.PostingError`) become a one-line message and exit
status 2, here and only here. Data goes to stdout only when asked (``--json -``); the summary and
messages go to stderr.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

import click

from posting import __name__ as _pkg
from posting.errors import PostingError
from posting.options import input_options, settings_from, settings_options

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
@click.option("-q", "--quiet", is_flag=True, help="No summary on stderr.")
@_user_errors
def check(
    parcels: str,
    signs: tuple[str, ...],
    rules: str,
    id_field: str | None,
    owner_field: str | None,
    sign_parcel_field: str | None,
    crs: str | None,
    layer: str | None,
    json_out: str | None,
    geojson_out: str | None,
    csv_out: str | None,
    quiet: bool,
    **kwargs: Any,
) -> None:
    """Check PARCELS and their signs against the posting rule.

    Exit status: 0 when every parcel is compliant or exempt, 1 when any is not, 2 for bad
    usage or unreadable input.
    """
    from posting.engine import check as run_check
    from posting.io import read_markers, read_parcels, write_text
    from posting.rules import load_rules

    outputs = {"--json": json_out, "--geojson": geojson_out, "--csv": csv_out}
    _outputs_distinct(outputs)
    settings = settings_from(kwargs)
    profile = load_rules(rules)
    parcel_layer = read_parcels(
        parcels, id_field=id_field, owner_field=owner_field, crs=crs, layer=layer
    )
    markers = read_markers(list(signs), crs=crs, parcel_field=sign_parcel_field)
    report = run_check(parcel_layer, markers, profile, settings=settings)
    rendered = {}
    if json_out:
        rendered[json_out] = report.to_json()
    if geojson_out:
        rendered[geojson_out] = report.to_geojson()
    if csv_out:
        rendered[csv_out] = report.to_csv()
    for path, text in rendered.items():
        write_text(path, text)
    if not quiet:
        for line in report.summary_lines():
            click.echo(line, err=True)
    sys.exit(report.exit_code)


@main.command("plan")
@input_options
@settings_options
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="PATH|-",
    help="Where to write the new marker positions: .gpx, .kml, .csv or .geojson (- for stdout "
    "with --format).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["gpx", "kml", "csv", "geojson"]),
    help="Output format (default: from the output's extension).",
)
@click.option(
    "--setback-ft",
    type=click.FloatRange(min=0),
    default=3.0,
    show_default=True,
    help="How far inside the boundary each new marker stands.",
)
@click.option(
    "--include-existing",
    is_flag=True,
    help="Also export the existing markers of the planned parcels (role 'existing').",
)
@click.option(
    "--summary",
    "summary_out",
    metavar="PATH|-",
    help="Write the shopping list: .json or .csv (- for JSON on stdout).",
)
@click.option("-q", "--quiet", is_flag=True, help="No shopping list on stderr.")
@_user_errors
def plan_cmd(
    parcels: str,
    signs: tuple[str, ...],
    rules: str,
    id_field: str | None,
    owner_field: str | None,
    sign_parcel_field: str | None,
    crs: str | None,
    layer: str | None,
    output: str,
    fmt: str | None,
    setback_ft: float,
    include_existing: bool,
    summary_out: str | None,
    quiet: bool,
    **kwargs: Any,
) -> None:
    """Plan where to put the missing markers, for a GPS or a phone.

    Checks PARCELS and their signs as `posting check` does, then places, for each parcel that
    is not compliant, a marker at every corner without one and the fewest markers that bring
    every gap within the spacing limit, each set back inside the line and facing out. Exit
    status: 0 when the plan brings every parcel into compliance, 1 when some parcel still would
    not comply (invalid geometry, sign content), 2 for bad usage or unreadable input.
    """
    from posting.engine import check as run_check
    from posting.export import format_of, render, summary_csv, summary_json, summary_lines
    from posting.io import read_markers, read_parcels, write_text
    from posting.plan import plan as make_plan
    from posting.rules import load_rules

    _outputs_distinct({"--output": output, "--summary": summary_out})
    if output == "-" and not fmt:
        raise click.UsageError("-o - (stdout) needs --format")
    fmt = format_of(output, fmt)
    summary_fmt = None
    if summary_out:
        summary_fmt = "json" if summary_out == "-" else summary_out.lower().rsplit(".", 1)[-1]
        if summary_fmt not in ("json", "csv"):
            raise click.UsageError(f"--summary {summary_out}: use a .json or .csv file")
    settings = settings_from(kwargs)
    profile = load_rules(rules)
    parcel_layer = read_parcels(
        parcels, id_field=id_field, owner_field=owner_field, crs=crs, layer=layer
    )
    markers = read_markers(list(signs), crs=crs, parcel_field=sign_parcel_field)
    report = run_check(parcel_layer, markers, profile, settings=settings)
    result = make_plan(report, setback_ft=setback_ft)
    rendered = {output: render(result, fmt, include_existing=include_existing)}
    if summary_out:
        rendered[summary_out] = (summary_json if summary_fmt == "json" else summary_csv)(result)
    for path, text in rendered.items():
        write_text(path, text)
    if not quiet:
        for line in summary_lines(result):
            click.echo(line, err=True)
        if output != "-":
            n = len(result.markers) + (len(result.existing()) if include_existing else 0)
            click.echo(f"wrote {output}: {n:,} markers ({fmt})", err=True)
    sys.exit(result.exit_code)


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
