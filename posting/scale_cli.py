"""The command line's options for a check that outgrows one process: ``--workers``,
``--scheduler``, ``--partition-parcels``, ``--parquet``, ``--scratch`` (see ``docs/scale.md``).

Kept apart from :mod:`posting.cli` so that the command stays a thin layer: ``check`` takes
:data:`scale_options` and hands the partitioned run to :func:`check_partitioned`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from posting.job import Job
    from posting.outputs import Staged

__all__ = ["Scale", "check_partitioned", "scale_options", "write_parquet"]


@dataclass(frozen=True)
class Scale:
    """Where and how to run: ``workers`` (a local cluster of that many processes), or the
    cluster at ``scheduler``; ``partition_parcels``; the ``parquet`` output folder; the
    ``scratch`` folder."""

    workers: int | None = None
    scheduler: str | None = None
    partition_parcels: int | None = None
    parquet: str | None = None
    scratch: str | None = None

    @property
    def partitioned(self) -> bool:
        """True when the check runs on a dask cluster."""
        return bool(self.workers or self.scheduler)


def scale_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Add the options of :class:`Scale` to a command, which receives them as ``scale=``."""
    options = [
        click.option(
            "--workers",
            type=click.IntRange(min=1),
            metavar="N",
            help="Check in spatial partitions on a local dask cluster of N worker processes "
            "(one thread each), started and stopped here: for a state's parcels. At most 4 "
            "per CPU, and 0.25 GB of memory each.",
        ),
        click.option(
            "--scheduler",
            metavar="ADDRESS",
            help="Check in spatial partitions on the dask cluster at ADDRESS "
            "(tcp://host:8786); its workers must read the inputs and the scratch folder.",
        ),
        click.option(
            "--partition-parcels",
            type=click.IntRange(min=1),
            metavar="K",
            help="Parcels per partition with --workers or --scheduler (default: the parcels "
            "spread over four partitions per worker thread, from 20,000 to 50,000 each).",
        ),
        click.option(
            "--parquet",
            metavar="DIR",
            help="Write the results as GeoParquet datasets: DIR/parcels/, DIR/gaps/, "
            "DIR/corners/, DIR/markers/ and DIR/summary.json (for a state, instead of "
            "--json, --geojson and --csv, which get as large as the state). DIR is replaced "
            "whole: a new or empty folder, or an earlier --parquet output.",
        ),
        click.option(
            "--scratch",
            metavar="DIR",
            type=click.Path(file_okay=False, exists=True),
            help="Where a partitioned check keeps its intermediate files (default: a "
            "temporary folder; a cluster of several machines needs one they all reach).",
        ),
    ]
    for option in reversed(options):
        f = option(f)

    def wrapper(**kwargs: Any) -> Any:
        if kwargs["scheduler"] is not None and not kwargs["scheduler"].strip():
            # (an unset variable, `--scheduler "$SCHEDULER"`: not a run in one process)
            raise click.UsageError("--scheduler needs an address (tcp://host:8786)")
        if kwargs["workers"] and kwargs["scheduler"]:
            raise click.UsageError(
                "--workers starts a cluster here, --scheduler uses one that is running: "
                "give one of them"
            )
        if not (kwargs["workers"] or kwargs["scheduler"]):
            for name in ("partition_parcels", "scratch"):
                if kwargs[name] is not None:
                    flag = "--" + name.replace("_", "-")
                    raise click.UsageError(f"{flag} needs --workers or --scheduler")
        scale = Scale(
            kwargs.pop("workers"),
            kwargs.pop("scheduler"),
            kwargs.pop("partition_parcels"),
            kwargs.pop("parquet"),
            kwargs.pop("scratch"),
        )
        return f(scale=scale, **kwargs)

    wrapper.__name__ = f.__name__
    wrapper.__doc__ = f.__doc__
    wrapper.__click_params__ = f.__click_params__  # type: ignore[attr-defined]
    del f.__click_params__  # type: ignore[attr-defined]
    return wrapper


def check_partitioned(
    job: Job,
    scale: Scale,
    outputs: dict[str, str | None],
    quiet: bool,
    flag: Callable[[str], str],
) -> int:
    """Run ``posting check`` on a dask cluster; return the exit status."""
    if scale.workers and not scale.scheduler:  # the workers' server imports while we do
        from posting.forking import check_workers, start_fork_server

        check_workers(scale.workers)  # (not N processes started for a slip of the keyboard)
        start_fork_server()
    from posting import distributed
    from posting.errors import InputError
    from posting.render.summary import summary_text

    if outputs.get("map"):
        raise InputError(
            "a map of every parcel of a partitioned check would be as large as the state; "
            "draw one county's instead (check its file or folder alone with {option})",
            parameter="map",
        )
    totals = distributed.run_and_write(
        job,
        workers=scale.workers,
        scheduler=scale.scheduler,
        partition_parcels=scale.partition_parcels,
        outputs={
            "json": outputs.get("json"),
            "geojson": outputs.get("geojson"),
            "csv": outputs.get("csv"),
            "parquet": scale.parquet,
        },
        name=flag,
        progress=not quiet and sys.stderr.isatty(),
        scratch=scale.scratch,
    )
    if not quiet:
        click.echo(summary_text(totals, name=flag), err=True, nl=False)
    return totals.exit_code


def write_parquet(
    report: Any,
    folder: str,
    name: Callable[[str], str],
    then: Callable[[Staged], object] | None = None,
) -> None:
    """The GeoParquet datasets of a single-process check (one part each), and ``then`` the
    other outputs, staged (:func:`posting.outputs.stage`) before the folder takes its place and
    renamed with it (none written when one fails)."""
    from posting import stream

    stream.write_parquet_report(report, folder, name, then)
