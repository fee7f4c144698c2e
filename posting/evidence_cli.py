"""``posting evidence`` (a record an officer can print) and ``posting verify`` (a court checks it).

``posting evidence`` takes every option of ``posting check``, checks, and writes a folder: one
printable page per parcel asked for (``posting.evidence``), ``index.html``, the JSON report
(``report.json``), PDFs with ``--pdf``, and ``manifest.json``: every input file with its size
and SHA-256, the rule profiles' files with theirs, the tool's version and the SHA-256 of its
files (its build), the options and settings, the check date, each parcel's verdict and each
output's SHA-256.

``posting verify DIR`` reads the manifest, checks that every input is there (exit 2 when one is
missing) and unchanged, that the record's own files are as made, then checks again with the
same options and the same check date and compares every verdict and every output (exit 1 naming
the first difference; 0 when all are the same).

Outputs are reproducible: nothing in them depends on the clock (the check date comes from the
manifest, and the report's ``generated`` is that date), so a record made again from the same
inputs with the same build of the tool is the same, byte for byte; ``verify`` refuses (exit 1) to
check a record with another version or build, whose verdicts may differ for that reason alone.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import functools
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from posting.job import CONTEXT_LAYERS
from posting.options import context_options, input_options, settings_options

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np
    import pandas as pd

    from posting.evidence import RecordPage
    from posting.report import Report

# The standard library's json, shutil, tempfile, pathlib ... are imported where they are used:
# this module is imported by every ``posting`` command (``posting --help`` starts in 0.1 s).

__all__ = ["SCHEMA", "Record", "evidence_cmd", "make_record", "verify_cmd", "verify_record"]

SCHEMA = "posting-evidence/1"
MANIFEST = "manifest.json"
_EVIDENCE_KEYS = ("parcel", "all", "photos", "pdf", "paper", "checked_by")
_SHAPEFILE_SIDECARS = (".shx", ".dbf", ".prj", ".cpg", ".qix", ".sbn", ".sbx")


def _edge(f: Callable[..., Any]) -> Callable[..., Any]:
    """The ``posting`` command's error handling (library errors -> one line, exit 2), taken
    from :mod:`posting.cli` when the command runs (that module imports this one)."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from posting.cli import _user_errors

        return _user_errors(f)(*args, **kwargs)

    return wrapper


@dataclass
class Record:
    """An evidence record made in memory: file name -> bytes, the manifest, the report."""

    outputs: dict[str, bytes]
    manifest: dict[str, Any]
    report: Any
    rows: Any
    notes: list[str] = field(default_factory=list)


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in options.items():
        if isinstance(v, tuple):
            v = list(v)
        elif isinstance(v, _dt.datetime | _dt.date):
            v = v.strftime("%Y-%m-%d")
        out[k] = v
    return out


def _sidecars(path: str) -> list[str]:
    """A shapefile's companion files (its attributes, index, projection), which are inputs too."""
    from pathlib import Path

    p = Path(path)
    if p.suffix.lower() != ".shp":
        return []
    found = []
    for suffix in _SHAPEFILE_SIDECARS:
        for cand in (p.with_suffix(suffix), p.with_suffix(suffix.upper())):
            if cand.exists():
                found.append(str(cand))
                break
    return found


def _folder_files(path: str) -> list[str]:
    """The files of an input given as a folder: a GeoParquet dataset's Parquet files (those it
    is read from), or every file of another folder (a file geodatabase), by path; the files a
    system or ArcGIS leaves there (``.DS_Store``, a geodatabase's ``.lock`` files) left out.

    Raises
    ------
    InputError
        A dataset folder that cannot be read as one (:func:`posting.dataset.files_of`).
    """
    from posting.dataset import files_of, is_dataset
    from posting.outputs import IGNORED

    if is_dataset(path):
        return files_of(path)
    found = []
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        found += [
            os.path.join(dirpath, n)
            for n in sorted(filenames)
            if n not in IGNORED and not n.lower().endswith(".lock")
        ]
    return found


def input_files(options: dict[str, Any]) -> list[tuple[str, str]]:
    """Every input file the options name, as ``(role, path)``, in a fixed order: the parcels
    (a shapefile's companion files, a folder's files), the markers (each photo of a folder),
    the photos to attach, the context layers (``--places`` and ``--registry`` too).

    Raises
    ------
    InputError
        A folder of photos holds none, the photos to attach are a file that is no photo, or a
        path does not exist.
    """
    from posting.dataset import is_dataset
    from posting.photos import is_photo_source, list_photos, photos_to_attach

    out: list[tuple[str, str]] = []

    def add(role: str, path: str) -> None:
        if os.path.isdir(path):  # a GeoParquet dataset, a file geodatabase
            out.extend((role, f) for f in _folder_files(path))
            return
        out.append((role, path))
        for extra in _sidecars(path):
            out.append((role, extra))

    add("parcels", options["parcels"])
    for s in options.get("signs") or ():
        if is_photo_source(s) and os.path.isdir(s) and not is_dataset(s):
            out += [("signs (photo)", p) for p in list_photos(s)]
        else:
            add("signs", s)
    if options.get("photos"):
        out += [("photo", p) for p in photos_to_attach(options["photos"])]
    for key in CONTEXT_LAYERS:
        if options.get(key):
            add(key, options[key])
    return out


def _file_entry(role: str, path: str) -> dict[str, Any]:
    from posting.evidence import sha256_file

    return {"role": role, "path": path, "size": os.path.getsize(path), "sha256": sha256_file(path)}


def _profile_entries(report: Any) -> list[dict[str, Any]]:
    from pathlib import Path

    from posting.evidence import sha256_file
    from posting.rules import available, load_rules

    shipped = set(available())
    out = []
    for p in report.profiles:
        is_shipped = p.name in shipped and (
            Path(load_rules(p.name).path).resolve() == Path(p.path).resolve()
        )
        given = p.name if is_shipped else p.path
        out.append(
            {
                "name": p.name,
                "given": given,
                "citation": p.citation,
                "title": p.title,
                "verification": p.verification,
                "verification_note": p.verification_note,
                "standard": p.standard,
                "file": (f"(shipped) {Path(p.path).name}" if given == p.name else p.path),
                "size": os.path.getsize(p.path),
                "sha256": sha256_file(p.path),
            }
        )
    return out


def _environment(chromium: str | None) -> dict[str, str]:
    import platform
    from importlib.metadata import PackageNotFoundError, version

    import shapely

    out = {"python": platform.python_version(), "geos": shapely.geos_version_string}
    for pkg in (
        "numpy",
        "pandas",
        "shapely",
        "pyproj",
        "pyogrio",
        "pillow",
        "pillow-heif",
        "pygeomag",
    ):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:  # pragma: no cover
            out[pkg] = "not installed"
    import pyproj

    out["proj"] = pyproj.proj_version_str
    if chromium:
        from posting.evidence import chromium_version

        out["chromium"] = chromium_version(chromium)
    return out


def command_line(options: dict[str, Any]) -> str:
    """The ``posting evidence`` command that the options stand for (for the reader).

    >>> command_line({"parcels": "p.geojson", "signs": ["a b.csv"], "all": True, "pdf": False})
    "posting evidence p.geojson --signs 'a b.csv' --all -o DIR"
    """
    import shlex

    from posting.cli import flag

    words = ["posting", "evidence", options["parcels"]]
    for k, v in options.items():
        if k == "parcels" or v is None or v is False or v == [] or v == ():
            continue
        if k == "paper" and not options.get("pdf"):
            continue
        name = flag(k)
        if v is True:
            words.append(name)
        elif isinstance(v, list | tuple):
            for x in v:
                words += [name, str(x)]
        else:
            words += [name, str(v)]
    return shlex.join(words) + " -o DIR"


def make_record(options: dict[str, Any], *, print_pdf: bool | None = None) -> Record:
    """Check and render a record in memory, from the ``posting evidence`` options.

    Parameters
    ----------
    options
        The command's options by parameter name (JSON values: lists, ``YYYY-MM-DD``); the
        check date defaults to today and is recorded.
    print_pdf
        Print the PDFs (default: as ``options["pdf"]`` says).
    """
    from posting.cli import flag
    from posting.evidence import (
        RecordPage,
        photo_paths,
        print_pdfs,
        render_record,
        select_parcels,
        thumbnails,
    )
    from posting.records import _tool_version, tool_files_sha256
    from posting.render import render

    opts, want_pdf, chromium = _record_options(options, print_pdf)
    inputs = [_file_entry(role, p) for role, p in input_files(opts)]
    report = _check_on_date(opts)
    rows = select_parcels(report, opts.get("parcel") or (), every=bool(opts.get("all")))
    attached, unattached, notes = _attached_photos(opts, report)
    uris, problems = thumbnails(photo_paths(report, rows, attached))
    notes += [f"warning: {p}" for p in problems]
    page = RecordPage(
        check_date=opts["check_date"],
        checked_by=opts.get("checked_by"),
        tool_version=_tool_version(),
        tool_sha256=tool_files_sha256(),
        inputs=inputs,
        profiles=_profile_entries(report),
        thumbnails=uris,
        name=flag,
    )
    pages = render_record(report, rows, page, attached=attached, unattached=unattached)
    outputs = {name: text.encode("utf-8") for name, text in pages.items()}
    outputs["report.json"] = b"".join(bytes(b) for b in render(report, "json", name=flag))
    if want_pdf:
        outputs.update(
            print_pdfs(
                pages,
                chromium,
                paper=opts["paper"],
                check_date=opts["check_date"],
            )
        )
    manifest = _manifest(opts, report, rows, page, chromium, outputs)
    return Record(outputs, manifest, report, rows, notes)


def _record_options(
    options: dict[str, Any], print_pdf: bool | None
) -> tuple[dict[str, Any], bool, str | None]:
    """The options as the manifest records them (JSON values, the check date, the paper),
    whether to print the PDFs, and the Chromium that prints them.

    Raises
    ------
    UserError
        PDFs are asked for and no Chromium is found.
    """
    from posting.cli import UserError
    from posting.evidence import check_date_text, find_chromium

    opts = _jsonable(options)
    if opts.get("elevation_ft") is None:  # not given: the manifest and command of before it came
        opts.pop("elevation_ft", None)
    opts["check_date"] = check_date_text(opts.get("check_date"))
    opts.setdefault("paper", "letter")
    want_pdf = bool(opts.get("pdf")) if print_pdf is None else print_pdf
    chromium = find_chromium() if (want_pdf or opts.get("pdf")) else None
    if want_pdf and chromium is None:
        raise UserError(
            "--pdf needs Chromium to print, and none was found (install it: apt-get install "
            "chromium; or name it with POSTING_CHROMIUM). Leave out --pdf to write the HTML "
            "record: its pages print to PDF from any browser."
        )
    return opts, want_pdf, chromium


def _check_on_date(opts: dict[str, Any]) -> Report:
    """The Report of the check the record's options ask for, dated by its check date (the
    JSON report's date too: the check's, not the clock's)."""
    from posting.cli import _run
    from posting.options import job_of

    kw = {k: v for k, v in opts.items() if k not in _EVIDENCE_KEYS}
    kw["check_date"] = _dt.datetime.strptime(opts["check_date"], "%Y-%m-%d")
    kw["signs"] = tuple(kw.get("signs") or ())
    kw["rules"] = tuple(kw.get("rules") or ())
    report = _run(job_of(kw))
    report.generated = opts["check_date"]
    return report


def _attached_photos(
    opts: dict[str, Any], report: Report
) -> tuple[dict[int, list[str]], pd.DataFrame | None, list[str]]:
    """The photos of ``--photos`` attached to the report's markers: the files by marker, the
    photos attached to none (None without photos) and the note that counts them.

    Raises
    ------
    InputError
        None of the photos can be read (:func:`posting.photos.no_photo_read`).
    """
    if not opts.get("photos"):
        return {}, None, []
    from posting.evidence import marker_attributes
    from posting.photos import attach_photos, no_photo_read, photos_to_attach

    m = report.markers
    matches = attach_photos(
        photos_to_attach(opts["photos"]),
        m["lon"].to_numpy(float),
        m["lat"].to_numpy(float),
        marker_attributes(report)["surveyed"].tolist(),
    )
    refused = no_photo_read(opts["photos"], matches.photos["reason"].tolist())
    if refused is not None:
        raise refused
    unattached = matches.unattached()
    note = (
        f"photos: {len(matches.photos) - len(unattached)} attached to markers, "
        f"{len(unattached)} to none (listed in index.html with the reason)"
    )
    return matches.by_marker(), unattached, [note]


def _manifest(
    opts: dict[str, Any],
    report: Report,
    rows: np.ndarray,
    page: RecordPage,
    chromium: str | None,
    outputs: dict[str, bytes],
) -> dict[str, Any]:
    """The record's manifest: the tool, the options and settings, the rule profiles, every
    input and output with its SHA-256, the environment and each parcel's verdict."""
    import hashlib

    p = report.parcels
    return {
        "schema": SCHEMA,
        "tool": {"name": "posting", "version": page.tool_version, "sha256": page.tool_sha256},
        "check_date": opts["check_date"],
        "checked_by": opts.get("checked_by"),
        "created": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
        "working_directory": os.getcwd(),
        "command": command_line(opts),
        "options": opts,
        "settings": report.settings.as_dict(),
        "crs": report.crs,
        "rules": page.profiles,
        "inputs": page.inputs,
        "environment": _environment(chromium),
        "summary": report.summary(),
        "parcels_in_record": p["id"].astype(str).to_numpy()[rows].tolist(),
        "verdicts": [
            {"id": str(i), "row": int(r), "status": str(s)}
            for i, r, s in zip(p["id"], p["row"], p["status"], strict=True)
        ],
        "outputs": [
            {"path": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            for name, data in outputs.items()
        ],
    }


def write_record(directory: str | os.PathLike[str], record: Record) -> None:
    """Write the record's files and its manifest into ``directory``, whole or not at all.

    Everything is written into a new folder beside it, which then takes its place; a folder
    already there is replaced only when it is empty or holds an earlier record (a
    ``manifest.json``).
    """
    import json
    from pathlib import Path

    from posting.errors import InputError
    from posting.outputs import folder_in_place, unwritable

    target = Path(directory)
    _writable_target(target)
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"folder {parent} does not exist", path=str(target))
    with folder_in_place(target) as tmp:
        try:
            for name, data in record.outputs.items():
                (tmp / name).write_bytes(data)
            text = json.dumps(record.manifest, indent=1, ensure_ascii=False) + "\n"
            (tmp / MANIFEST).write_text(text, encoding="utf-8")
        except OSError as exc:  # (a full disk: named, as check's outputs are)
            raise unwritable(exc, os.fspath(directory), "output") from None


def _writable_target(target: str | Path, options: dict[str, Any] | None = None) -> None:
    """Refuse a record's folder that would lose something when replaced whole
    (:func:`posting.outputs.resolve_folder`): a file, a folder holding an input or anything
    but an earlier record (its ``manifest.json``)."""
    from posting import outputs

    outputs.resolve_folder(
        target,
        "output",
        outputs.inputs_of(options or {}),
        earlier=_earlier_record,
        what="an evidence record",
    )


def _earlier_record(folder: Path, names: list[str]) -> bool:
    """Whether a folder holds an evidence record and nothing else: a ``manifest.json`` of
    posting's (not another program's) and only the files it lists, so that replacing the
    folder loses nothing but that record."""
    import json

    if MANIFEST not in names:
        return False
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        made = {o["path"] for o in manifest["outputs"]} if manifest["schema"] == SCHEMA else None
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return made is not None and set(names) <= made | {MANIFEST}


@click.command("evidence")
@input_options
@settings_options
@context_options
@click.option(
    "-o", "--output", required=True, metavar="DIR", help="The folder of the record (made anew)."
)
@click.option(
    "--parcel",
    "parcel",
    multiple=True,
    metavar="ID",
    help="A parcel to include, by id; repeat for several (default: every parcel that is not "
    "compliant or exempt).",
)
@click.option("--all", "all_", is_flag=True, help="Every parcel, compliant and exempt ones too.")
@click.option(
    "--photos",
    type=click.Path(),
    metavar="DIR",
    help="Photos (a folder, searched with its subfolders, or one photo) to attach to the "
    "surveyed markers: each to the nearest marker within the "
    "photo's recorded accuracy (16 ft when not recorded), on the same survey day when both "
    "record a date.",
)
@click.option("--pdf", is_flag=True, help="Also print each page to PDF (headless Chromium).")
@click.option(
    "--paper",
    type=click.Choice(["letter", "a4"]),
    default="letter",
    show_default=True,
    help="Paper size of the PDFs.",
)
@click.option("--checked-by", metavar="NAME", help="Who made the check (printed on each page).")
@click.option("-q", "--quiet", is_flag=True, help="No summary on stderr.")
@_edge
def evidence_cmd(output: str, quiet: bool, all_: bool, **options: Any) -> None:
    """Check PARCELS and their signs, and write an evidence record into the folder DIR.

    Takes the inputs and settings of `check`. For each parcel asked for, a printable page (HTML; PDF
    with --pdf): the parcel, a map, the verdict with each violation and the words of its clause, the
    markers with their photos, the settings and the rule profile; index.html, report.json and
    manifest.json (every input and output with its SHA-256), which `posting verify DIR` checks. Exit
    status: 0 when the record is written, 2 for bad usage or unreadable input.
    """

    from posting.cli import flag

    options["all"] = all_
    _writable_target(output, options)  # (as given: "" is not ".")
    record = make_record(options)
    write_record(output, record)
    if not quiet:
        for line in record.report.summary_lines(name=flag):
            click.echo(line, err=True)
        for note in record.notes:
            click.echo(f"  {note}", err=True)
        size = sum(len(b) for b in record.outputs.values())
        n_pdf = sum(1 for k in record.outputs if k.endswith(".pdf"))
        click.echo(
            f"record: {output}: {len(record.rows):,} parcel page(s), index.html, report.json"
            f"{f', {n_pdf} PDF(s)' if n_pdf else ''}, manifest.json ({size / 1e6:.1f} MB)",
            err=True,
        )


# -- verify -----------------------------------------------------------------------------------


@dataclass
class Verification:
    """What ``posting verify`` found: the exit status and the lines it says."""

    status: int
    lines: list[str]


def _resolve(path: str, base: Path) -> Path:
    from pathlib import Path

    p = Path(path)
    return p if p.is_absolute() else base / p


def verify_record(directory: str | os.PathLike[str], base: str | None = None) -> Verification:
    """Check a record: its inputs, its own files, and the verdicts and outputs made again.

    Parameters
    ----------
    directory
        The record's folder (with ``manifest.json``).
    base
        The folder the inputs' relative paths start from (default: the working folder recorded
        in the manifest when it exists, else the current one).

    Returns
    -------
    Verification
        Status 0 when everything is the same, 1 at the first difference (named), 2 when an input
        is missing or the manifest cannot be read.
    """
    from pathlib import Path

    d = Path(directory)
    manifest = _read_manifest(d)
    if isinstance(manifest, Verification):
        return manifest
    recorded_wd = Path(manifest.get("working_directory") or ".")
    root = Path(base) if base else (recorded_wd if recorded_wd.is_dir() else Path.cwd())
    found = (
        _missing_input(manifest, root)  # 1. every input is there
        or _changed_input(manifest, root)  # 2. every input is unchanged, none added
        or _changed_record_file(manifest, d)  # 3. the record's own files are as made
        or _other_version(manifest)  # 4. the same version
    )
    if found is not None:
        return found
    lines = [
        f"inputs: {len(manifest['inputs'])} files and {len(manifest['rules'])} rule "
        "profile(s) as recorded",
        *_system_files_line(d),
    ]
    # 5. check again: the same verdicts and outputs
    reprint, note = _reprint(manifest)
    lines += note
    with contextlib.chdir(root):
        again = make_record(manifest["options"], print_pdf=reprint)
    hint = _environment_hints(manifest, again)
    verdicts = _same_verdicts(manifest, again, hint)
    if verdicts.status:
        return verdicts
    outputs = _same_outputs(manifest, again, reprint, hint)
    if outputs.status:
        return outputs
    edited = _same_manifest(manifest, again, d)
    if edited is not None:
        return edited
    pdfs = sum(1 for o in manifest["outputs"] if o["path"].endswith(".pdf"))
    done = f"record {d}: verified"
    if pdfs and not reprint:  # (a PDF and its SHA-256 in the manifest could both be edited)
        done += (
            f", but for its {pdfs:,} PDF(s), which were not printed again (see above): the "
            "HTML pages they were printed from are verified"
        )
    return Verification(0, [*lines, *verdicts.lines, *outputs.lines, done])


def _read_manifest(d: Path) -> dict[str, Any] | Verification:
    """The record's manifest, or the Verification (status 2) that says why it cannot be read."""
    import json

    try:
        manifest = json.loads((d / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return Verification(2, [f"{d / MANIFEST}: cannot read the record's manifest ({exc})"])
    if not isinstance(manifest, dict) or manifest.get("schema") != SCHEMA:
        return Verification(2, [f"{d / MANIFEST}: not a posting evidence manifest"])
    problem = _manifest_problem(manifest)
    if problem:
        return Verification(
            2,
            [
                f"{d / MANIFEST}: cannot read the record's manifest ({problem}); it was edited "
                "since it was made: the record cannot be verified"
            ],
        )
    return manifest


_MANIFEST_LISTS = {
    "inputs": ("role", "path", "size", "sha256"),
    "rules": ("name", "given", "sha256"),
    "outputs": ("path", "size", "sha256"),
    "verdicts": ("id", "row", "status"),
}


def _manifest_problem(manifest: dict[str, Any]) -> str | None:
    """What makes a manifest unusable by ``verify`` (a key missing, a value of the wrong kind,
    an option ``posting evidence`` does not take or whose value it would refuse), or None."""
    import click

    for key, kind in (("tool", dict), ("options", dict), *((k, list) for k in _MANIFEST_LISTS)):
        if not isinstance(manifest.get(key), kind):
            return f"no {key!r} {'table' if kind is dict else 'list'}"
    if not isinstance(manifest["tool"].get("version"), str):
        return "no tool version"
    if not isinstance(manifest["tool"].get("sha256", ""), str):
        return "a tool SHA-256 that is not text"
    for key, fields in _MANIFEST_LISTS.items():
        for k, item in enumerate(manifest[key]):
            if not isinstance(item, dict) or any(f not in item for f in fields):
                return f"{key} entry {k + 1} lacks {', '.join(fields)}"
    for o in manifest["outputs"]:
        name = o["path"]
        if not isinstance(name, str) or name in ("", ".", "..", MANIFEST) or "/" in name:
            return f"output {name!r} is not a file of the record's folder"
    params = {p.name: p for p in evidence_cmd.params if p.name not in ("output", "quiet")}
    params["all"] = params.pop("all_")
    options = manifest["options"]
    if not isinstance(options.get("parcels"), str):
        return "no parcels in its options"
    ctx = click.Context(evidence_cmd)
    for name, value in options.items():
        if name == "parcels":
            continue
        if name not in params:
            return f"option {name!r}, which posting evidence does not take"
        if value is None:
            continue
        try:
            params[name].type_cast_value(ctx, value)
        except click.BadParameter as exc:
            return f"option {name!r}: {exc.message}"
    return None


def _missing_input(manifest: dict[str, Any], root: Path) -> Verification | None:
    """Status 2 naming the first input or rule file that is not there, else None."""
    missing = [x for x in manifest["inputs"] if not _resolve(x["path"], root).is_file()]
    for pr in manifest["rules"]:
        if pr["given"] != pr["name"] and not _resolve(pr["given"], root).is_file():
            missing.append({"role": "rules", "path": pr["given"]})
    if not missing:
        return None
    first = missing[0]
    more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
    return Verification(
        2, [f"input missing: {first['path']} ({first['role']}){more}; looked in {root}"]
    )


def _changed_input(manifest: dict[str, Any], root: Path) -> Verification | None:
    """Status 1 naming the first input changed (or a photo added to a folder of photos, or a
    rule profile changed), else None."""
    from posting.evidence import sha256_file
    from posting.rules import load_rules

    for x in manifest["inputs"]:
        path = _resolve(x["path"], root)
        if path.stat().st_size != x["size"] or sha256_file(str(path)) != x["sha256"]:
            return Verification(
                1,
                [
                    f"input changed: {x['path']} ({x['role']}): {path.stat().st_size:,} bytes, "
                    f"SHA-256 {sha256_file(str(path))}; the record has {x['size']:,} bytes, "
                    f"SHA-256 {x['sha256']}{_line_endings(path, x)}"
                ],
            )
    with contextlib.chdir(root):
        now = [p for _, p in input_files(manifest["options"])]
    extra = sorted(set(now) - {x["path"] for x in manifest["inputs"]})
    if extra:
        return Verification(1, [f"input not in the record: {extra[0]} (added since)"])
    for pr in manifest["rules"]:
        if pr["given"] != pr["name"]:  # a file of one's own: its path (not parsed: it may not)
            path = str(_resolve(pr["given"], root))
        else:  # a shipped profile, by name
            path = load_rules(pr["given"]).path
        if sha256_file(path) != pr["sha256"]:
            return Verification(
                1,
                [f"rule profile changed: {pr['name']} ({path}): SHA-256 differs from the record's"],
            )
    return None


_LINE_ENDINGS_BYTES = 256 << 20
"""The largest input whose line endings ``verify`` compares (read whole, in memory)."""


def _line_endings(path: Path, recorded: dict[str, Any]) -> str:
    """What to say of a file changed only in its line endings (the file the record has,
    with each LF written CRLF or the other way round: git on Windows does it to a text file
    it checks out, and some editors on saving), else ''. The file is still not the record's:
    its SHA-256 differs."""
    import hashlib

    size = path.stat().st_size
    if size == recorded["size"] or size > _LINE_ENDINGS_BYTES:
        return ""
    data = path.read_bytes()
    lf = data.replace(b"\r\n", b"\n")
    for was, now, text in ((lf, "CRLF", "LF"), (lf.replace(b"\n", b"\r\n"), "LF", "CRLF")):
        if len(was) == recorded["size"] and hashlib.sha256(was).hexdigest() == recorded["sha256"]:
            return (
                f". Only its line endings differ: {now} where the record's file has {text}, as "
                "git on Windows writes a text file it checks out (core.autocrlf): check out the "
                "file as it was committed (git config core.autocrlf false, then git checkout "
                "again), or copy the original, and verify again"
            )
    return ""


def _changed_record_file(manifest: dict[str, Any], d: Path) -> Verification | None:
    """Status 1 naming the first of the record's files missing or changed, else None."""
    from posting.evidence import sha256_file

    for o in manifest["outputs"]:
        f = d / o["path"]
        if not f.is_file():
            return Verification(1, [f"record file missing: {f}"])
        if f.stat().st_size != o["size"] or sha256_file(str(f)) != o["sha256"]:
            return Verification(
                1, [f"record file changed since it was made: {f}{_line_endings(f, o)}"]
            )
    made = {o["path"] for o in manifest["outputs"]} | {MANIFEST}
    # a page added beside the record's (hidden files and the operating system's are not pages)
    system = {n.rstrip("/") for n in _system_files(d)}
    added = sorted(n for n in os.listdir(d) if n not in made | system and not n.startswith("."))
    if added:
        return Verification(
            1, [f"file not in the record: {d / added[0]} (added to the record's folder since)"]
        )
    return None


_SYSTEM_FOLDERS = frozenset({"__MACOSX"})
"""Folders an operating system adds to a record's: ``__MACOSX``, where a zip made on a Mac
keeps each file's Finder data, unzipped as a folder by other tools."""


def _system_files(d: Path) -> list[str]:
    """The entries of a record's folder that an operating system left there, not the record's
    (a folder's name ends with ``/``): ``__MACOSX/`` (a zip made on a Mac, unzipped elsewhere),
    a Mac's ``.DS_Store`` and ``._`` files (its Finder data on a drive that cannot hold it),
    Windows' ``Thumbs.db`` and ``desktop.ini``."""
    from posting.outputs import IGNORED

    out = []
    for n in sorted(os.listdir(d)):
        if (d / n).is_dir():
            if n in _SYSTEM_FOLDERS:
                out.append(n + "/")
        elif n in IGNORED or n.startswith("._"):
            out.append(n)
    return out


def _system_files_line(d: Path) -> list[str]:
    """The line that names the operating system's files in the record's folder, passed over
    (none when there are none)."""
    found = _system_files(d)
    if not found:
        return []
    return [
        f"passed over: {', '.join(found)} in {d}, left by the operating system (a Mac's zip, "
        "a file browser), not files of the record"
    ]


def _other_version(manifest: dict[str, Any]) -> Verification | None:
    """Status 1 when this is not the version of ``posting`` that made the record, or not its
    build (the SHA-256 of the package's files, where the record has it), else None."""
    from posting.records import _tool_version, tool_files_sha256

    version = _tool_version()
    was = manifest["tool"]["version"]
    if version != was:
        return Verification(
            1,
            [
                f"tool version: the record was made with posting {was}, this is {version}; "
                "verify with that version"
            ],
        )
    recorded = manifest["tool"].get("sha256")
    if recorded is None or recorded == tool_files_sha256():
        return None
    return Verification(
        1,
        [
            f"tool build: the record was made with another build of posting {was} (the "
            f"SHA-256 of its files {recorded[:16]}..., this one's {tool_files_sha256()[:16]}...); "
            "its verdicts and pages may differ from this one's for that reason alone: verify "
            "with the build that made it"
        ],
    )


def _reprint(manifest: dict[str, Any]) -> tuple[bool, list[str]]:
    """Whether the record's PDFs are printed again (by the Chromium that printed them), and
    the line that says why not when they are not."""
    if not manifest["options"].get("pdf"):
        return False, []
    from posting.evidence import chromium_version, find_chromium

    exe = find_chromium()
    recorded = manifest.get("environment", {}).get("chromium")
    if exe is not None and chromium_version(exe) == recorded:
        return True, []
    return False, [
        f"PDFs not printed again: the record was printed by {recorded}, and "
        f"{'no Chromium is here' if exe is None else chromium_version(exe) + ' is here'};"
        " the pages they were printed from are compared"
    ]


def _environment_hints(manifest: dict[str, Any], again: Record) -> list[str]:
    """A note for each library whose version differs from the one that made the record."""
    was = manifest.get("environment", {})
    now_env = again.manifest["environment"]
    hints = [
        f"note: {k} {was[k]} made the record, {now_env.get(k, 'none')} is here"
        for k in sorted(was)
        if k != "chromium" and was[k] != now_env.get(k)
    ]
    if "sha256" not in manifest["tool"]:  # a record made before posting named its build
        hints.append(
            f"note: the record does not say which build of posting {manifest['tool']['version']}"
            " made it (it was made before records held the SHA-256 of posting's files): the "
            "difference may come from the tool, not the inputs"
        )
    return hints


def _same_verdicts(manifest: dict[str, Any], again: Record, hint: list[str]) -> Verification:
    """Status 1 naming the first parcel whose verdict differs now, else status 0 and the line
    that says each is as recorded."""
    before = {(v["row"]): v for v in manifest["verdicts"]}
    now_v = again.manifest["verdicts"]
    if len(now_v) != len(before):
        return Verification(1, [f"verdicts: {len(now_v)} parcels now, {len(before)} in the record"])
    for v in now_v:
        b = before.get(v["row"])
        if b is None or b["id"] != v["id"] or b["status"] != v["status"]:
            recorded = f"{b['id']}: {b['status']}" if b else "none"
            return Verification(
                1,
                [
                    f"verdict of parcel {v['id']} (row {v['row']}): {v['status']} now, "
                    f"{recorded} in the record",
                    *hint,
                ],
            )
    return Verification(0, [f"verdicts: {len(now_v)} parcels, each as recorded"])


_NOT_MADE_AGAIN = ("created", "working_directory", "environment", "outputs")
"""The manifest's entries that a record made again does not give back: when and where it
was made, the versions of the libraries (compared as notes, :func:`_environment_hints`), and
the outputs (compared on their own, PDFs only when printed again: :func:`_same_outputs`)."""


def _same_manifest(manifest: dict[str, Any], again: Record, d: Path) -> Verification | None:
    """Status 1 naming the first entry of the manifest (who checked, the check date, the
    options, the rule profiles, the inputs ...) that differs from the one made again, else
    None. The outputs list their SHA-256 in the manifest, which has none of its own: this is
    what shows it was not edited."""
    import json

    made = json.loads(json.dumps(again.manifest, ensure_ascii=False))
    if "sha256" not in manifest["tool"]:  # made before records named the build
        made["tool"].pop("sha256", None)
    for key in sorted(set(manifest) | set(made)):
        if key in _NOT_MADE_AGAIN:
            continue
        was = json.dumps(manifest.get(key), sort_keys=True, ensure_ascii=False)
        now = json.dumps(made.get(key), sort_keys=True, ensure_ascii=False)
        if key == "command" and _same_command(manifest, made):
            continue
        if was != now:
            return Verification(
                1,
                [
                    f"record file changed since it was made: {d / MANIFEST} ({key}: "
                    f"{_short(was)} in it, {_short(now)} made again)"
                ],
            )
    return None


def _same_command(manifest: dict[str, Any], made: dict[str, Any]) -> bool:
    """Whether the manifest's command and the one made again give the same options, each
    with its values in the same order, whatever the order of the options: the command lists
    them in the order of the manifest's options, which a JSON tool that sorts keys
    (``jq -S``, ``python -m json.tool --sort-keys``) reorders without changing the record."""
    was = _command_options(manifest.get("command"), manifest["options"])
    return was is not None and was == _command_options(made["command"], made["options"])


def _command_options(
    command: Any, options: dict[str, Any]
) -> tuple[list[str], list[tuple[str, list[str]]]] | None:
    """A command of :func:`command_line` as its first words (``posting evidence PARCELS``) and
    its options sorted by flag, each with its values in their order; None when it is not one
    (the flags that take no value are those the options set to true).

    >>> _command_options("posting evidence p.json --signs a --all --signs b -o DIR", {"all": True})
    (['posting', 'evidence', 'p.json', '-o', 'DIR'], [('--all', []), ('--signs', ['a', 'b'])])
    """
    import shlex

    from posting.cli import flag

    try:
        words = shlex.split(command) if isinstance(command, str) else None
    except ValueError:
        return None
    if not words or len(words) < 5 or words[-2] != "-o":
        return None
    alone = {flag(k) for k, v in options.items() if v is True}
    found: dict[str, list[str]] = {}
    rest = words[3:-2]
    k = 0
    while k < len(rest):
        if rest[k] in alone:
            found.setdefault(rest[k], [])
            k += 1
        elif rest[k].startswith("--") and k + 1 < len(rest):
            found.setdefault(rest[k], []).append(rest[k + 1])
            k += 2
        else:
            return None
    return [*words[:3], *words[-2:]], sorted(found.items())


def _short(text: str, width: int = 80) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _same_outputs(
    manifest: dict[str, Any], again: Record, reprint: bool, hint: list[str]
) -> Verification:
    """Status 1 naming the first output that differs made again (PDFs only when printed
    again), else status 0 and the line that counts them."""
    made = {o["path"]: o["sha256"] for o in again.manifest["outputs"]}
    compared = 0
    for o in manifest["outputs"]:
        if o["path"].endswith(".pdf") and not reprint:
            continue
        if made.get(o["path"]) != o["sha256"]:
            return Verification(
                1, [f"output {o['path']}: made again, it differs from the record's", *hint]
            )
        compared += 1
    return Verification(0, [f"outputs: {compared} made again, each the same, byte for byte"])


@click.command("verify")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option(
    "--base-dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Where the inputs' relative paths start (default: the folder the record was made in, "
    "when it is here, else the current one).",
)
@click.option("-q", "--quiet", is_flag=True, help="Only the exit status and any difference.")
@_edge
def verify_cmd(directory: str, base_dir: str | None, quiet: bool) -> None:
    """Check an evidence record: the same inputs, checked again, give the same verdicts and
    outputs.

    Exit status: 0 when every input, verdict and output is the same; 1 at the first difference
    (named: a changed input file, a different verdict, a changed page); 2 when an input is
    missing or DIR holds no record.
    """
    result = verify_record(directory, base_dir)
    for i, line in enumerate(result.lines):
        if result.status or not quiet or i == len(result.lines) - 1:
            click.echo(line if result.status == 0 else f"posting verify: {line}", err=True)
    sys.exit(result.status)
