"""The ``posting`` command: a thin click layer over the library.

Library errors (:class:`~posting.errors.PostingError`) become a one-line message and exit
status 2, here and only here. Data goes to stdout only when asked (``--json -``); the summary and
messages go to stderr.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click

from posting import __name__ as _pkg
from posting import outputs
from posting.errors import PostingError
from posting.gdal import show_gdal_warnings
from posting.options import as_job, context_options, input_options, settings_options
from posting.scale_cli import Scale, scale_options

if TYPE_CHECKING:
    from posting.job import Job
    from posting.report import Report

__all__ = ["main", "run"]


class UserError(click.ClickException):
    """A problem the user can fix: exit status 2, no traceback."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"posting: error: {self.format_message()}", err=True)


FLAGS: dict[str, str] = {"parcel_field": "--sign-parcel-field"}
"""Library parameters whose flag is not ``--`` and the name with hyphens."""


def flag(parameter: str) -> str:
    """The command-line flag that sets a library parameter (``setback_ft`` -> ``--setback-ft``).

    >>> flag("id_field")
    '--id-field'
    """
    return FLAGS.get(parameter) or "--" + parameter.replace("_", "-")


def _user_errors(f: Callable[..., Any]) -> Callable[..., Any]:
    """Turn library errors and unwritable outputs into :class:`UserError`, once, at the edge.

    The command runs with Python's cyclic garbage collector paused: a county builds millions of
    long-lived objects (report rows, their lists) that hold no cycles, and the collector would
    walk all of them again and again (1.5 s of 12 s on the benchmark county, with the same peak
    memory). Reference counting still frees everything else at once. GDAL's warnings are shown
    as :func:`show_gdal_warnings` says.
    """

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            with warnings.catch_warnings():  # entered once, before any thread starts
                show_gdal_warnings()
                return f(*args, **kwargs)
        except PostingError as exc:
            raise UserError(exc.worded(flag)) from None
        except BrokenPipeError:  # stdout closed by its reader (`posting rules list | head`)
            from posting.outputs import stdout_gone

            stdout_gone()
            return None
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            raise UserError(f"{where}{exc.strerror or exc}") from None
        finally:
            # the collector stays paused when the process ends right after (see run): enabled
            # again, its first collection would walk every object made meanwhile (0.1 to 0.3 s
            # on a county), all still young
            if was_enabled and _KEPT is None:
                gc.enable()

    return wrapper


class _Commands(click.Group):
    """The group of commands, with a ``KeyboardInterrupt`` that did not come through the
    command's own handler (:func:`_stop_on_signals`: a library that put Python's back, a
    writer interrupted) taken as Ctrl-C, :class:`Stopped`: click said "Aborted!" and exited 1,
    the verdict "a parcel is not compliant"."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            import signal

            raise Stopped(signal.SIGINT) from None


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(None, "--version", package_name=_pkg, message="%(version)s")
def main() -> None:
    """Is this land legally posted against trespass?

    Measures parcel boundaries and surveyed signs against the posting statute of the state each
    parcel lies in (found offline; --rules names another profile), in true feet.
    """


def _inputs(job: Job) -> dict[str, Any]:
    """The job's input files by the setting that names each (no output may be one of them)."""
    c = job.context
    files = {"parcels": job.parcels, "signs": job.signs, "rules": job.rules}
    for name in ("access", "landcover", "water", "dwellings", "fences", "easements"):
        files[name] = getattr(c, name)
    files.update(places=c.places, registry=c.registry)
    return files


_KEPT: list[Report] | None = None
"""The reports made, kept to the end when :func:`run` ends the process at once (a list then):
freeing a county's report object by object as the command returns (its records alone are
millions of small objects) costs up to a second and serves nothing."""


def _run(job: Job) -> Report:
    """Check what the job names (``check``, ``map`` and ``plan``)."""
    from posting.prefetch import Prefetch

    prefetch = Prefetch([job.parcels, *job.signs])  # read while the rest of posting loads
    from posting.engine import run

    try:
        report = run(job, prefetch=prefetch)
    finally:
        prefetch.close()
    if _KEPT is not None:
        _KEPT.append(report)
    return report


_no_tiles_option = click.option(
    "--no-tiles",
    is_flag=True,
    help="Leave out the online background map (the map works offline either way).",
)


@main.command()
@input_options
@settings_options
@context_options
@click.option(
    "--json",
    "json_out",
    metavar="PATH|-",
    help="Write the JSON report (- for stdout); about 1 KB a parcel: for a state, --parquet.",
)
@click.option(
    "--geojson",
    "geojson_out",
    metavar="PATH|-",
    help="Write a GeoJSON of parcels, markers, gaps, corners and access points (as large as "
    "the inputs and the JSON together).",
)
@click.option("--csv", "csv_out", metavar="PATH|-", help="Write one CSV row per parcel.")
@click.option(
    "--map", "map_out", metavar="PATH|-", help="Write the self-contained HTML map (works offline)."
)
@_no_tiles_option
@click.option("-q", "--quiet", is_flag=True, help="No summary on stderr.")
@scale_options
@_user_errors
@as_job
def check(
    job: Job,
    json_out: str | None,
    geojson_out: str | None,
    csv_out: str | None,
    map_out: str | None,
    no_tiles: bool,
    quiet: bool,
    scale: Scale,
) -> None:
    """Check PARCELS and their signs against the posting rule.

    Exit status: 0 when every parcel is compliant or exempt, 1 when any is not, 2 for bad
    usage or unreadable input. The outputs asked for are written in every case but the last.
    """
    from posting.render import render

    out = outputs.resolve(
        {
            "json": (json_out, "json"),
            "geojson": (geojson_out, "geojson"),
            "csv": (csv_out, "csv"),
            "map": (map_out, "html"),
        },
        outputs.inputs_of(_inputs(job)),
    )
    if scale.parquet is not None:  # (--parquet "" is refused, not taken for no folder)
        from posting.stream import earlier_parquet

        outputs.resolve_folder(
            scale.parquet,
            "parquet",
            outputs.inputs_of(_inputs(job)),
            [
                *out,
                *([outputs.Output("scratch", scale.scratch, "folder")] if scale.scratch else []),
            ],
            earlier=earlier_parquet,
            what="GeoParquet results",
        )
    if scale.partitioned:  # on a dask cluster (posting.scale_cli, docs/scale.md)
        from posting.scale_cli import check_partitioned

        given = {"json": json_out, "geojson": geojson_out, "csv": csv_out, "map": map_out}
        sys.exit(check_partitioned(job, scale, given, quiet, flag))
    report = _run(job)
    made = {
        "json": lambda: render(report, "json", name=flag),
        "geojson": lambda: render(report, "geojson"),
        "csv": lambda: render(report, "csv"),
        "map": lambda: render(report, "map", tiles=not no_tiles, name=flag),
    }

    def files() -> Iterator[tuple[outputs.Output, Any]]:
        return ((o, made[o.parameter]()) for o in out)

    if scale.parquet:  # the files are written once its folder is, and renamed with it
        from posting.scale_cli import write_parquet

        write_parquet(report, scale.parquet, flag, then=lambda st: outputs.stage(files(), st))
    else:
        outputs.write_all(files())
    if not quiet:
        click.echo(render(report, "summary", name=flag), err=True, nl=False)
    sys.exit(report.exit_code)


@main.command("map")
@input_options
@settings_options
@context_options
@click.option(
    "-o", "--output", "out", required=True, metavar="PATH|-", help="The HTML file to write."
)
@_no_tiles_option
@click.option("-q", "--quiet", is_flag=True, help="No summary on stderr.")
@_user_errors
@as_job
def map_cmd(job: Job, out: str, no_tiles: bool, quiet: bool) -> None:
    """Check PARCELS and their signs, and draw the verdict as a self-contained HTML map.

    Takes the inputs and settings of `check`. The map needs no network: open it in any browser,
    offline too. Exit status: 0 when the map is written, 2 for bad usage or unreadable input.
    """
    from posting.render import render

    resolved = outputs.resolve({"output": (out, "html")}, outputs.inputs_of(_inputs(job)))
    report = _run(job)
    text = render(report, "map", tiles=not no_tiles, name=flag)
    outputs.write_all([(resolved[0], text)])
    if not quiet:
        click.echo(render(report, "summary", name=flag), err=True, nl=False)
        if out != "-":
            click.echo(f"  map: {out} ({len(text.encode()) / 1e6:.1f} MB)", err=True)


@main.command("plan")
@input_options
@settings_options
@context_options
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
    type=click.Choice(["gpx", "kml", "csv", "geojson", "pnezd"]),
    help="Output format (default: from the output's extension; a .csv is lon/lat). pnezd: a "
    "surveyor's point file for a data collector, point,northing,easting,elevation,description "
    "in --stakeout-crs.",
)
@click.option(
    "--stakeout-crs",
    metavar="CRS",
    help="pnezd: the point file's projected CRS, as the collector's job (EPSG:6438 for "
    "NAD83(2011) Florida East, US survey feet); northing and easting in its unit, 3 decimals "
    "(default: the parcels' CRS, when projected).",
)
@click.option(
    "--start-point",
    metavar="N",
    default="1",
    show_default=True,
    help="pnezd: the first point number (5001 to follow a job's own points).",
)
@click.option(
    "--no-header",
    is_flag=True,
    help="pnezd: leave out the header line point,northing,easting,elevation,description, for "
    "a collector that takes it for a point (posting reads the file back only with it).",
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
@click.option(
    "--map",
    "map_out",
    metavar="PATH|-",
    help="Also write the officer's map with the planned markers as a layer of their own.",
)
@_no_tiles_option
@click.option("-q", "--quiet", is_flag=True, help="No shopping list on stderr.")
@_user_errors
@as_job
def plan_cmd(
    job: Job,
    output: str,
    fmt: str | None,
    stakeout_crs: str | None,
    start_point: str,
    no_header: bool,
    setback_ft: float,
    include_existing: bool,
    summary_out: str | None,
    map_out: str | None,
    no_tiles: bool,
    quiet: bool,
) -> None:
    """Plan where to put the missing markers, for a GPS or a phone.

    Checks PARCELS and their signs as `posting check` does (it takes the inputs and settings of
    check), then places, for each parcel that is not compliant, a marker at every corner without one
    and the fewest markers that bring every gap within the spacing limit, each set back inside the
    line and facing out. For a surveyor's data collector, --format pnezd writes the points'
    northings and eastings in --stakeout-crs (a State Plane zone). Exit status: 0 when the plan
    brings every parcel into compliance, 1 when some parcel still would not comply (invalid
    geometry, sign content), 2 for bad usage or unreadable input.
    """
    from posting.export import format_of, summary_lines
    from posting.planning import plan as make_plan
    from posting.render import render

    if output == "-" and not fmt:
        raise click.UsageError("-o - (stdout) needs --format")
    fmt = format_of(output, fmt)
    if fmt != "pnezd":
        given = [
            name
            for name, value in (
                ("--stakeout-crs", stakeout_crs),
                ("--start-point", start_point != "1"),
                ("--no-header", no_header),
            )
            if value
        ]
        if given:
            raise UserError(f"{given[0]} is for a point file (--format pnezd), not {fmt}")
    else:  # (refused before the check runs; a geographic CRS once the lots are known)
        from posting.crs import parse_crs
        from posting.stakeout import parse_start_point

        parse_start_point(start_point)
        if stakeout_crs is not None:
            parse_crs(stakeout_crs, parameter="stakeout_crs", projected=True)
    summary_fmt = None
    if summary_out:
        # (the extension as a file's: `s.json/` is then refused as a folder, by outputs.resolve)
        suffix = os.path.splitext(os.path.normpath(summary_out))[1]
        summary_fmt = "json" if summary_out == "-" else suffix.lower().lstrip(".")
        if summary_fmt not in ("json", "csv"):
            raise click.UsageError(f"--summary {summary_out}: use a .json or .csv file")
    out = outputs.resolve(
        {
            "output": (output, fmt),
            "summary": (summary_out, summary_fmt),
            "map": (map_out, "html"),
        },
        outputs.inputs_of(_inputs(job)),
    )
    report = _run(job)
    result = make_plan(report, setback_ft=setback_ft, sight_ft=job.context.sight_ft)
    if fmt == "pnezd":
        from posting.stakeout import with_stakeout

        result = with_stakeout(result, stakeout_crs, start_point, header=not no_header)
    made = {
        "output": lambda: render(result, fmt, include_existing=include_existing),
        "summary": lambda: render(result, f"summary-{summary_fmt}"),
        "map": lambda: render(report, "map", tiles=not no_tiles, planned=result.markers, name=flag),
    }
    outputs.write_all((o, made[o.parameter]()) for o in out)
    if not quiet:
        for line in summary_lines(result, name=flag):
            click.echo(line, err=True)
        if output != "-":
            n = len(result.markers) + (len(result.existing()) if include_existing else 0)
            what = f"{n:,} markers ({fmt})"
            if result.stakeout is not None and n:
                first = result.stakeout.start_point
                what = f"{n:,} points {first}-{first + n - 1} (pnezd, {result.stakeout.label})"
            click.echo(f"wrote {output}: {what}", err=True)
    sys.exit(result.exit_code)


@main.group("rules")
def rules_group() -> None:
    """The rule profiles: one per jurisdiction and way of posting."""


@rules_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="An array of objects instead of a table.")
@_user_errors
def rules_list(as_json: bool) -> None:
    """List the shipped profiles: name, verification status, whether `--rules auto` applies it
    in its state, citation, title."""
    import json

    from posting.jurisdiction import state_of
    from posting.rules import available, load_rules

    profiles = [load_rules(n) for n in available()]
    if as_json:
        click.echo(
            json.dumps(
                [
                    {
                        "name": p.name,
                        "title": p.title,
                        "citation": p.citation,
                        "status": p.verification,
                        "standard": p.standard,
                        "jurisdiction": p.jurisdiction,
                        "purpose": p.purpose,
                        "state": state_of(p),
                        "auto": p.auto,
                        "clauses": {
                            name: {"clause": rule.clause, "verified": rule.verified}
                            for name, rule in p.rules()
                        },
                    }
                    for p in profiles
                ],
                indent=2,
            )
        )
        return
    width = max(len(p.name) for p in profiles) + 2
    for p in profiles:
        std = " (guidance)" if p.standard == "guidance" else ""
        auto = "auto " if p.auto else "     "
        click.echo(f"{p.name:{width}}{p.verification:11}{auto}{p.citation}{std}: {p.title}")


@rules_group.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="The profile as a JSON object.")
@_user_errors
def rules_show(name: str, as_json: bool) -> None:
    """Show every rule of a profile (a name or a .toml file): value, unit, clause."""
    import json

    from posting.rules import load_rules

    p = load_rules(name)
    summary = p.summary()
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(f"{p.name}: {p.title}")
    click.echo(f"  jurisdiction: {p.jurisdiction}; purpose: {p.purpose}")
    click.echo(f"  citation: {p.citation}  ({p.source_url})")
    click.echo(
        f"  status: {p.verification}{' - ' + p.verification_note if p.verification_note else ''}"
    )
    click.echo(f"  standard: {p.standard}; effective: {p.effective_date or 'not established'}")
    if p.penalty:
        click.echo(f"  penalty: {p.penalty}")
    click.echo(f"  marker kinds: {', '.join(p.kinds)}")
    for rule_name, values in summary["rules"].items():
        _show_rule(rule_name, values)
    if p.notes:
        click.echo(f"  notes: {p.notes}")


def _show_rule(rule_name: str, values: dict[str, Any]) -> None:
    """One rule's line (its figures, clause, whether unverified) and its words; a rule made of
    rules (``[when]``'s gates, one per rule it makes conditional) as one such line each."""
    parts = {
        k: v
        for k, v in values.items()
        if isinstance(v, list) and v and all(isinstance(x, dict) and "clause" in x for x in v)
    }
    if parts:
        for items in parts.values():
            for item in items:
                _show_rule(f"{rule_name}.{item.pop('rule', '')}".rstrip("."), item)
        return
    clause = values.pop("clause")
    text = values.pop("text", "")
    verified = values.pop("verified", True)
    shown = ", ".join(f"{k} = {_show(v)}" for k, v in values.items())
    flag = "" if verified else "  [unverified]"
    click.echo(f"  {rule_name}: {shown or '(no figure)'}  [{clause}]{flag}")
    if text:
        click.echo(f'      "{text}"')


def _show(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


from posting.evidence_cli import evidence_cmd, verify_cmd  # noqa: E402  (the evidence record)

main.add_command(evidence_cmd)
main.add_command(verify_cmd)


INTERNAL_ERROR = 3
"""The exit status of an error that is not the user's (0 and 1 are verdicts, 2 bad input)."""

STOPPING_SIGNALS = outputs.STOPPING
"""Signals that stop the command cleanly (:func:`run`): Ctrl-C, a batch system's or
``timeout``'s stop, a terminal closed (held while outputs are renamed into place:
:func:`posting.outputs.signals_held`)."""


class Stopped(BaseException):
    """Raised in the main thread by a signal of :data:`STOPPING_SIGNALS`, so that the command
    unwinds: a partitioned check stops its cluster and removes its scratch folder, outputs half
    written are dropped. A ``BaseException``, as ``KeyboardInterrupt`` is, so that no handler
    of errors takes it for one (nor click, which would say "Aborted!" and exit 1, the verdict
    "a parcel is not compliant")."""

    def __init__(self, signum: int) -> None:
        import signal

        super().__init__(signum)
        self.signum = signum
        self.name = signal.Signals(signum).name


def _stop_on_signals() -> None:
    """Raise :class:`Stopped` on each of :data:`STOPPING_SIGNALS` not ignored (a command run in
    the background of a script, or under ``nohup``, keeps ignoring what it was told to)."""
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise Stopped(signum)

    for name in STOPPING_SIGNALS:
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, stop)


def run() -> None:
    """The ``posting`` command: :func:`main`, then a quick exit.

    A county's run leaves millions of objects behind; freeing them one by one as the
    interpreter shuts down takes 0.2 s and serves nothing once the outputs are written and
    closed. So, once ``main`` is done, stdout and stderr are flushed and the process ends at
    once with its exit status (mypy does the same). An error that is not the user's (a bug,
    a cluster that cannot start) ends with its traceback and a line saying so, and exit status
    :data:`INTERNAL_ERROR`, not Python's 1, which is the verdict "a parcel is not compliant".
    Ctrl-C and the other :data:`STOPPING_SIGNALS` stop it cleanly (:class:`Stopped`), with a
    line and the shell's status for the signal (130 for Ctrl-C, 143 for SIGTERM).
    """
    from posting.memory import arrow_allocator, share_allocator, small_pages

    global _KEPT
    _KEPT = []  # the process ends below, the reports with it
    share_allocator()  # before any thread starts (see its docstring)
    arrow_allocator()
    small_pages()
    _stop_on_signals()
    try:
        main()
        code: int = 0
    except Stopped as exc:
        print(
            f"posting: stopped by {exc.name}; outputs not yet written in full were left as "
            "they were",
            file=sys.stderr,
        )
        code = 128 + exc.signum
    except SystemExit as exc:
        if isinstance(exc.code, int) or exc.code is None:
            code = exc.code or 0
        else:  # a message instead of a status
            print(exc.code, file=sys.stderr)
            code = 1
    except Exception:
        import traceback

        traceback.print_exc()
        print(
            "posting: internal error: the command failed, not on a verdict nor, as far as it "
            "can tell, on the inputs (exit status 3); please report it with the traceback above",
            file=sys.stderr,
        )
        code = INTERNAL_ERROR
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can reach it
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
