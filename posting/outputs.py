"""The outputs of a command: all resolved and checked before anything is read, then all written
whole, or none.

A run that ends in an error must leave every file as it was: an output that would overwrite an
input (``--json parcels.geojson``, however spelt), two outputs to one file, a folder that does
not exist or cannot be written, an extension that says another format (``--geojson out.gpkg``)
are refused up front, by :func:`resolve`, before the inputs are read. :func:`write_all` then
writes each file to a temporary file beside it, and renames them into place only once every one
is complete; an output on stdout is written last, and a reader that closes the pipe early
(``--json - | head``) ends it quietly.

Errors name the setting that gave each output as ``{option}`` (``json``, ``geojson``, ``csv``,
``map``, ``output``, ``summary``), which the command line spells as its flag.

>>> [o.fmt for o in resolve({"json": ("-", "json"), "csv": (None, "csv")}, {})]
['json']
>>> resolve({"geojson": ("out.gpkg", "geojson")}, {})
Traceback (most recent call last):
...
posting.errors.InputError: out.gpkg: geojson= writes GeoJSON, not .gpkg; name the file .geojson ...
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from posting.errors import InputError

__all__ = [
    "FULL",
    "INPUTS",
    "STOPPING",
    "SUFFIXES",
    "Output",
    "Staged",
    "beside",
    "error_number",
    "file_mode",
    "folder_in_place",
    "ignores_case",
    "inputs_of",
    "real_target",
    "reason",
    "resolve",
    "resolve_folder",
    "signals_held",
    "stage",
    "stdout_gone",
    "sync_folder",
    "sync_tree",
    "temporary_file",
    "to_stdout",
    "unwritable",
    "write_all",
]

SUFFIXES: dict[str, tuple[str, ...]] = {
    "json": (".json",),
    "geojson": (".geojson", ".json"),
    "csv": (".csv", ".txt"),
    "html": (".html", ".htm"),
    "gpx": (".gpx",),
    "kml": (".kml",),
    "pnezd": (".csv", ".txt"),  # (what collectors' import dialogs list: Trimble's *.CSV, *.TXT)
}
"""The extensions a file of each output format may have (the first is the one suggested)."""

_FORMAT_NAMES = {
    "json": "JSON",
    "geojson": "GeoJSON",
    "csv": "CSV",
    "html": "HTML",
    "gpx": "GPX",
    "kml": "KML",
    "pnezd": "a PNEZD point file",
}

INPUTS: dict[str, str] = {
    "parcels": "the parcels",
    "signs": "a marker file",
    "rules": "a rule profile",
    "access": "the access layer",
    "landcover": "the land-cover layer",
    "water": "the water layer",
    "dwellings": "the dwellings layer",
    "fences": "the fences layer",
    "easements": "the easements layer",
    "places": "the places layer",
    "registry": "the registry layer",
    "photos": "the photos",
}
"""The settings of a command that name input files, and how a message calls each."""


@dataclass(frozen=True)
class Output:
    """One output of a command.

    Attributes
    ----------
    parameter
        The setting that gave it (``json``, ``output`` ...), for messages.
    path
        As given; ``-`` is stdout.
    fmt
        Its format: a key of :data:`SUFFIXES`.
    """

    parameter: str
    path: str
    fmt: str

    @property
    def stdout(self) -> bool:
        return self.path == "-"


def inputs_of(settings: Mapping[str, Any]) -> dict[str, list[str]]:
    """The input files among a command's settings (``parcels``, ``signs`` ...), by setting: a
    path or several, ``None`` left out."""
    out: dict[str, list[str]] = {}
    for name in INPUTS:
        value = settings.get(name)
        if not value:
            continue
        paths = [value] if isinstance(value, str | os.PathLike) else list(value)
        out[name] = [os.fspath(p) for p in paths if p]
    return out


def real_target(path: str | os.PathLike[str]) -> Path:
    """The file or folder an output ``path`` is written to: its absolute path with every
    symbolic link followed, also a last link whose target does not exist yet.

    Every writer puts its temporary beside this path and renames it onto this path, so an
    output that is a link (``report.json -> /shared/reports/today.json``) updates the file the
    link points to and the link is kept, as ``cp``, a shell's ``>`` and GDAL do; renaming onto
    the link itself would replace the link with a file. A loop of links resolves to one of
    its links (:func:`resolve` refuses it).

    Parameters
    ----------
    path
        The output as given (not ``-``).

    Returns
    -------
    Path
        Absolute, without links on the way.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     d = Path(d).resolve()
    ...     (d / "shared").mkdir()
    ...     (d / "report.json").symlink_to(d / "shared" / "today.json")  # (not written yet)
    ...     real_target(d / "report.json") == d / "shared" / "today.json"
    True
    """
    return Path(os.path.realpath(path))


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: the same real path (``./p.geojson``, a symbolic link),
    or, when both exist, the same file on disk (a hard link, a case-insensitive disk)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _check_folder(out: Output) -> None:
    if Path(out.path).is_dir():
        raise InputError(
            "{option}: is a folder; give a file name", path=out.path, parameter=out.parameter
        )
    _check_regular(out)
    _check_parent(out)


_SPECIAL = (
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
)


def _check_regular(out: Output) -> None:
    """Refuse an output that exists and is not a file (a device such as ``/dev/null``, a named
    pipe, a socket), also through a symbolic link: every output is written beside its file and
    renamed onto it, which would put a plain file in its place (``report.json -> /dev/null``,
    as root, replaced the system's /dev/null), and a device or a pipe cannot be written whole
    or not at all."""
    try:
        mode = os.stat(out.path).st_mode
    except OSError:  # (not there yet, or a link to nothing: written as a new file)
        return
    for test, what in _SPECIAL:
        if test(mode):
            raise InputError(
                f"{{option}}: is {what} ({real_target(out.path)}), not a file: an output is "
                "written whole beside its file and then renamed onto it; give a file's name, "
                "or - for stdout",
                path=out.path,
                parameter=out.parameter,
            )


def beside(name: str) -> str:
    """The start of the name of a temporary file or folder made beside ``name``: hidden, and
    at most 60 bytes of the name, so that a name as long as a disk allows (255 bytes) still
    has its temporary (``.{name}.k2j3x8a1.tmp`` was over the limit, and an output of 245
    bytes or more was refused, "File name too long").

    >>> beside("report.json")
    '.report.json.'
    >>> len(beside("é" * 127).encode())  # (254 bytes: cut on a whole character)
    62
    """
    short = name.encode()[:60].decode(errors="ignore")
    return f".{short}."


def _check_parent(out: Output) -> None:
    """Refuse an output whose folder does not exist or cannot be written: the folder of the
    file it is written to (:func:`real_target`), which for a symbolic link is the folder of
    the file the link points to."""
    target = Path(out.path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(
            f"{{option}}: folder {folder} {what}", path=out.path, parameter=out.parameter
        )
    real = real_target(target)
    if real.is_symlink():
        raise InputError(
            "{option}: is a loop of symbolic links (one points back to another); point the link "
            "elsewhere, or give another name",
            path=out.path,
            parameter=out.parameter,
        )
    if not real.parent.is_dir():  # (the given folder is one: a link points elsewhere)
        raise InputError(
            f"{{option}}: is a symbolic link to {real}, whose folder does not exist; make that "
            "folder, or give another name",
            path=out.path,
            parameter=out.parameter,
        )
    if real.parent != Path(os.path.abspath(folder)):
        folder = real.parent  # (named as the folder written in)
    # (a file made there: the only sure test of a folder's permissions: ACLs, read-only
    # disks, root)
    fd, probe = temporary_file(out, Path(folder) / real.name)
    os.close(fd)
    os.unlink(probe)


def _check_given(path: str, parameter: str) -> None:
    """Refuse an output given as an empty path (``--json ""``: a script's unset variable),
    which was read as not asked for, and the run wrote nothing and said nothing."""
    if not path.strip():
        raise InputError(
            f"{{option}} was given an empty path ({path!r}); give the output's name, or leave "
            "the option out",
            parameter=parameter,
        )


def _check_file_path(out: Output) -> None:
    """Refuse a file output whose path ends as a folder's does (``--json out.json/``, also
    ``out.json/.``): the user meant a folder, or slipped, and the path was read as the file
    ``out.json``, which was written."""
    seps = (os.sep, os.altsep or os.sep)
    if os.path.basename(out.path) in ("", ".", "..") or out.path.endswith(seps):
        raise InputError(
            "{option} writes a file, and this path ends as a folder's does; give a file path "
            f"(ending in {SUFFIXES[out.fmt][0]}, with no {os.sep} after it)",
            path=out.path,
            parameter=out.parameter,
        )


def resolve(
    outputs: Mapping[str, tuple[str | os.PathLike[str] | None, str]],
    inputs: Mapping[str, Iterable[str]],
) -> list[Output]:
    """Check every output of a command before anything is read.

    Parameters
    ----------
    outputs
        For each output setting (``json``, ``output`` ...): its path (``None`` when not asked,
        ``-`` for stdout) and its format (a key of :data:`SUFFIXES`).
    inputs
        The command's input files, by setting (:func:`inputs_of`).

    Returns
    -------
    list of Output
        The outputs asked for, in the order given.

    Raises
    ------
    InputError
        An empty path (``--json "$OUT"`` with ``OUT`` unset: the output was asked for, and
        nothing would be written); a path that ends as a folder's does (``out.json/``); more
        than one output on stdout; an extension that is not the
        format's; an output that is an input file, or the same file as another output (also
        a name that differs from another's only in case, on a disk that ignores case); a
        folder that does not exist or cannot be written; a folder given as the file; a device,
        a named pipe or a socket given as the file.
    """
    asked = [Output(k, os.fspath(p), fmt) for k, (p, fmt) in outputs.items() if p is not None]
    for o in asked:
        _check_given(o.path, o.parameter)
    for o in asked:
        if not o.stdout:
            _check_file_path(o)
    dashes = [o for o in asked if o.stdout]
    if len(dashes) > 1:
        names = " and ".join(f"{{option:{o.parameter}}}" for o in dashes)
        raise InputError(f"only one output can go to stdout; got - for {names}")
    files = [o for o in asked if not o.stdout]
    for o in files:
        for role, paths in inputs.items():
            for p in paths:
                if _same_file(o.path, p):
                    raise InputError(
                        f"{{option}} would overwrite {INPUTS.get(role, 'an input')} ({p}): "
                        "an output never replaces an input; choose another name",
                        path=o.path,
                        parameter=o.parameter,
                    )
    for o in files:
        suffix = Path(o.path).suffix.lower()
        allowed = SUFFIXES[o.fmt]
        if suffix not in allowed:
            name = _FORMAT_NAMES[o.fmt]
            raise InputError(
                f"{{option}} writes {name}{', not ' + suffix if suffix else ''}; name the file "
                + " or ".join(allowed),
                path=o.path,
                parameter=o.parameter,
            )
    for i, a in enumerate(files):
        for b in files[:i]:
            if _same_file(a.path, b.path):
                raise InputError(
                    f"{{option:{b.parameter}}} and {{option:{a.parameter}}} name the same file "
                    f"({b.path}); give each output its own",
                    path=a.path,
                )
    for o in files:
        _check_folder(o)
    for i, a in enumerate(files):
        for b in files[:i]:
            if _one_file_but_for_case(a.path, b.path):
                raise InputError(
                    f"{{option:{b.parameter}}} and {{option:{a.parameter}}} name the same file "
                    f"({b.path}) on this disk, which does not tell capitals from small letters; "
                    "give each output its own",
                    path=a.path,
                )
    return asked


def ignores_case(folder: str | os.PathLike[str]) -> bool:
    """Whether the disk of ``folder`` takes two names that differ only in case for one file
    (macOS's and Windows' by default): a file is made there, its name looked up with the case
    of each letter swapped, and removed.

    Parameters
    ----------
    folder
        A folder that exists and can be written.

    Examples
    --------
    >>> import sys, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     ignores_case(d) == (sys.platform in ("darwin", "win32"))  # (their usual disks)
    True
    """
    fd, probe = tempfile.mkstemp(prefix=".posting-Case.", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        swapped = os.path.join(os.path.dirname(probe), os.path.basename(probe).swapcase())
        try:
            return os.path.samefile(probe, swapped)
        except OSError:  # (not found: another name)
            return False
    finally:
        os.unlink(probe)


def _one_file_but_for_case(a: str, b: str) -> bool:
    """Whether two outputs not yet written (else :func:`_same_file` knew) are one file because
    their names differ only in case on a disk that ignores it (``R.json`` and ``r.json``: the
    second replaced the first), or their folders' names do (``Out/r.json``, ``out/r.json``:
    one folder there). The disk is asked (:func:`ignores_case`) only for such names."""
    ra, rb = real_target(a), real_target(b)
    if ra == rb or ra.name.casefold() != rb.name.casefold():
        return False
    try:
        same_folder = os.path.samefile(ra.parent, rb.parent)
    except OSError:
        return False
    return same_folder and (ra.name == rb.name or ignores_case(ra.parent))


IGNORED = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
"""Files a file browser leaves in a folder it showed: a folder holding only these is empty."""


def _inside(inner: str, outer: str) -> bool:
    """Whether ``inner`` is ``outer`` or lies within it (real paths: links followed)."""
    a, b = os.path.realpath(inner), os.path.realpath(outer)
    return a == b or a.startswith(b.rstrip(os.sep) + os.sep)


def resolve_folder(
    path: str | os.PathLike[str],
    parameter: str,
    inputs: Mapping[str, Iterable[str]],
    files: Iterable[Output] = (),
    *,
    earlier: Callable[[Path, list[str]], bool],
    what: str,
) -> Output:
    """Check a folder output before anything is read.

    A folder output is written beside its target and then takes its place whole
    (:func:`folder_in_place`): whatever the folder held is gone. So it is refused when it is
    ``-`` or a file; when it holds an input (or a file output of the same command), or lies
    inside an input folder (a dataset, whose next reading would take the outputs for input);
    when it is not empty and is not an earlier output of its kind; and when its parent does
    not exist or cannot be written.

    Parameters
    ----------
    path
        The folder as given.
    parameter
        The setting that gave it, for messages (``{option}``).
    inputs
        The command's input files and folders, by setting (:func:`inputs_of`).
    files
        The command's file outputs (:func:`resolve`).
    earlier
        Whether a folder (its path and the names of its entries, :data:`IGNORED` left out) is
        an earlier output of this kind, which may be replaced.
    what
        What the folder holds, for messages ("GeoParquet results", "evidence record").

    Raises
    ------
    InputError
        Naming the folder, the setting and what to do.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "notes.txt").write_text("mine")
    ...     resolve_folder(d, "parquet", {}, earlier=lambda p, names: False, what="results")
    Traceback (most recent call last):
    ...
    posting.errors.InputError: ...: parquet= replaces its folder whole, and this one holds ...
    """
    path = os.fspath(path)
    _check_given(path, parameter)
    out = Output(parameter, path, "folder")
    if path == "-":
        raise InputError(
            f"{{option}} writes a folder ({what}), not to stdout; give the folder's path",
            parameter=parameter,
        )
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise InputError(
            f"{{option}}: is a file; {{option}} writes a folder ({what}): give a new folder's path",
            path=path,
            parameter=parameter,
        )
    for role, given in inputs.items():
        for p in given:
            if _inside(p, path):
                raise InputError(
                    f"{{option}} would replace the folder holding {INPUTS.get(role, 'an input')} "
                    f"({p}): an output never replaces an input; choose another folder",
                    path=path,
                    parameter=parameter,
                )
            if os.path.isdir(p) and _inside(path, p):
                raise InputError(
                    f"{{option}} is inside {INPUTS.get(role, 'an input')} ({p}), a folder read "
                    "as input: choose a folder outside it",
                    path=path,
                    parameter=parameter,
                )
    for o in files:
        if not o.stdout and _inside(o.path, path):
            raise InputError(
                f"{{option:{o.parameter}}} ({o.path}) is inside the folder {{option}} replaces "
                "whole; write it elsewhere",
                path=path,
                parameter=parameter,
            )
    if target.is_dir():
        names = sorted(n for n in os.listdir(target) if n not in IGNORED)
        if names and not earlier(target, names):
            shown = ", ".join(names[:3]) + (
                f" and {len(names) - 3:,} more" if len(names) > 3 else ""
            )
            raise InputError(
                f"{{option}} replaces its folder whole, and this one holds {shown}, not {what} "
                "written earlier: name a new or empty folder",
                path=path,
                parameter=parameter,
            )
    _check_parent(out)
    return out


def reason(exc: OSError) -> str:
    """What an error of the system says, without its paths: ``No space left on device``;
    for :class:`shutil.Error` (a folder copied), its first file's; for Arrow's, the system's
    words in its message.

    >>> reason(OSError(28, "No space left on device", "/tmp/x"))
    'No space left on device'
    >>> import shutil
    >>> reason(shutil.Error([("a", "b", "[Errno 28] No space left on device: 'a' -> 'b'")]))
    'No space left on device'
    >>> reason(OSError(28, "Error writing bytes. Detail: [errno 28] No space left on device"))
    'No space left on device'
    """
    found = _ERRNO.search(_text(exc))
    if found:
        return found.group(2).strip()
    return exc.strerror or _text(exc)


def error_number(exc: OSError) -> int | None:
    """The system's error number of ``exc``, also when only its message says it (Arrow's
    errors, a folder copied by :mod:`shutil`).

    >>> error_number(OSError("Error writing bytes to file. Detail: [errno 28] No space left"))
    28
    """
    if exc.errno is not None:
        return exc.errno
    found = _ERRNO.search(_text(exc))
    return int(found.group(1)) if found else None


_ERRNO = re.compile(r"\[errno (\d+)\] ([^:\]'\"]+)", re.IGNORECASE)


def _text(exc: OSError) -> str:
    if exc.args and isinstance(exc.args[0], list) and exc.args[0]:  # shutil.Error's
        return str(exc.args[0][0][-1])
    return str(exc.strerror or exc)


FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
"""Errors of a disk that has no room left for a file: full, over its quota, or at its largest
file."""


def unwritable(exc: OSError, path: str, parameter: str) -> Exception:
    """The error of an output that could not be written for want of room (:data:`FULL`) or on
    a read-only disk, naming it; any other error as it is (a bug's traceback)."""
    if error_number(exc) not in FULL | {errno.EROFS, errno.EIO}:
        return exc
    return InputError(
        f"{{option}}: cannot be written ({reason(exc)}); free space there or write it elsewhere",
        path=path,
        parameter=parameter,
    )


def _pieces(content: Any) -> Iterable[bytes | memoryview]:
    """A string, bytes, or the pieces of either, as bytes (text is UTF-8)."""
    pieces = [content] if isinstance(content, str | bytes) else content
    return (p.encode() if isinstance(p, str) else p for p in pieces)


def to_stdout(content: Any, parameter: str | None = None) -> None:
    """Write to stdout; a reader that has gone (``| head``) ends the writing quietly, and
    stdout that cannot take it (``> /dev/full``, a full disk) is named.

    Raises
    ------
    InputError
        Stdout cannot be written (``{option}``: ``parameter``, the output that goes there).
    """
    try:
        _to_stdout(content)
    except OSError as exc:
        raise InputError(
            f"{{option}} -: stdout cannot be written ({reason(exc)})", parameter=parameter
        ) from None


def _to_stdout(content: Any) -> None:
    """Write to stdout; a reader that has gone (``| head``) ends the writing quietly."""
    out = getattr(sys.stdout, "buffer", None)
    write = out.write if out is not None else (lambda b: sys.stdout.write(bytes(b).decode()))
    last: bytes | memoryview = b""
    try:
        sys.stdout.flush()
        for piece in _pieces(content):
            write(piece)
            last = piece or last
        if bytes(last[-1:]) != b"\n":
            write(b"\n")
        (out or sys.stdout).flush()
    except BrokenPipeError:
        stdout_gone()


def stdout_gone() -> None:
    """The reader of stdout has gone (``| head`` has what it wanted): whatever is still
    buffered can never be delivered, so stdout is pointed at /dev/null, and flushing it at exit
    is not another error. The command then ends as it would have."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - a stdout without a descriptor
        pass


STOPPING = ("SIGINT", "SIGTERM", "SIGHUP")
"""The signals that stop a command (Ctrl-C, a batch system's stop, a terminal closed): held
while a run's outputs are renamed into place (:func:`signals_held`)."""

_held: list[int] = []  # the signals caught while held, for the outermost hold to deliver
_depth = 0


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold :data:`STOPPING` while the block runs, and deliver one that came meanwhile when it
    ends: the renames that put a run's outputs in place all happen, or none (Ctrl-C between
    two renames left the new JSON report beside the old CSV report, and a folder replaced
    whole half-swapped, under a hidden name).

    The handlers are swapped rather than the signals masked: a signal sent to the process is
    taken by whichever thread does not mask it, and Python runs its handler in the main thread
    all the same. Nested holds deliver at the outermost one's end. Outside the main thread
    (where handlers cannot be set) the block runs as it is.

    Examples
    --------
    >>> import os, signal
    >>> caught = []
    >>> old = signal.signal(signal.SIGTERM, lambda n, f: caught.append(len(done)))
    >>> done = []
    >>> with signals_held():
    ...     os.kill(os.getpid(), signal.SIGTERM)
    ...     done.append("renamed")
    >>> caught  # (delivered after the block: both renames done)
    [1]
    >>> _ = signal.signal(signal.SIGTERM, old)
    """
    global _depth
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved: dict[int, Any] = {}
    if _depth == 0:
        _held.clear()
        for name in STOPPING:
            signum = getattr(signal, name, None)
            if signum is None:
                continue
            handler = signal.getsignal(signum)
            if handler in (signal.SIG_IGN, None):  # (ignored as the command was told to)
                continue
            saved[signum] = signal.signal(signum, lambda n, f: _held.append(n))
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            for signum, handler in saved.items():
                signal.signal(signum, handler)
            caught = list(dict.fromkeys(_held))
            _held.clear()
            for signum in caught:
                signal.raise_signal(signum)


def temporary_file(out: Output, target: Path) -> tuple[int, str]:
    """A temporary file beside ``target`` for ``out``: a folder removed or made read-only while
    the command ran (a county's run takes minutes) is named, not a traceback."""
    try:
        return tempfile.mkstemp(prefix=beside(target.name), suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise InputError(
            f"{{option}}: cannot write in folder {target.parent} ({reason(exc)})",
            path=out.path,
            parameter=out.parameter,
        ) from None


def file_mode(target: str | os.PathLike[str]) -> int:
    """The permissions an output written onto ``target`` gets: those of the file it replaces
    (a report kept private with ``chmod 600`` stays so, as ``cp`` and a shell's ``>`` keep
    them; a rename of a new file used to make it readable by all), else an ordinary new
    file's (``0o666`` less the umask).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     kept = Path(d) / "r.json"
    ...     _ = kept.write_text("{}")
    ...     kept.chmod(0o600)
    ...     oct(file_mode(kept))
    '0o600'
    """
    try:
        st = os.stat(target)
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def sync_folder(folder: str | os.PathLike[str]) -> None:
    """Make the names a folder holds durable (a rename into it, a file made): :func:`os.fsync`
    of the folder, where the system allows it (not on Windows, nor on some network disks: then
    nothing is done)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # (EINVAL: a disk that does not sync folders)
        pass
    finally:
        os.close(fd)


def sync_tree(folder: str | os.PathLike[str]) -> None:
    """:func:`os.fsync` every file under ``folder`` and every folder in it, before the folder
    is renamed into place (:func:`folder_in_place`): the files its writers wrote (pyarrow's
    parts, an evidence record's pages) reach the disk before their new name does."""
    for root, _, names in os.walk(folder):
        for name in names:
            fd = os.open(os.path.join(root, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        sync_folder(root)


class Staged:
    """Files written whole beside their outputs (:func:`stage`), waiting to be renamed into
    place together (:meth:`commit`), or removed (:meth:`discard`).

    Attributes
    ----------
    renames
        The temporary file and the file it is renamed onto, of each output not yet in place.
    """

    def __init__(self) -> None:
        self.renames: list[tuple[str, str]] = []

    def commit(self) -> None:
        """Rename every file into place, a stop waiting for the last (:func:`signals_held`),
        then make the renames durable (:func:`sync_folder` of each folder written in)."""
        folders = list(dict.fromkeys(os.path.dirname(p) for _, p in self.renames))
        with signals_held():  # (all renamed, or none: a stop waits for the last)
            while self.renames:
                os.replace(*self.renames[0])
                del self.renames[0]
        for folder in folders:
            sync_folder(folder)

    def discard(self) -> None:
        """Remove the files not renamed into place (a second Ctrl-C leaves none behind)."""
        with signals_held():
            for tmp, _ in self.renames:
                if os.path.exists(tmp):
                    os.unlink(tmp)
            self.renames.clear()


def stage(items: Iterable[tuple[Output, Any]], into: Staged | None = None) -> Staged:
    """Write every output to a temporary file beside it, none renamed yet; the output on stdout,
    if any, last (:func:`to_stdout`).

    Each file's content (a string, bytes, or an iterable of either) goes to a temporary file
    beside it (beside the file a symbolic link points to: :func:`real_target`), with the
    permissions of the file it replaces (:func:`file_mode`), and is synced to the disk
    (:func:`os.fsync`): once renamed, a power cut cannot leave the new name on an empty or
    partial file.

    Parameters
    ----------
    items
        Each output and its content, made as it comes (a generator: one at a time in memory).
    into
        The files staged so far (by default, none); the new ones are added.

    Returns
    -------
    Staged
        ``into``, with these files: :meth:`Staged.commit` puts them in place.

    Raises
    ------
    InputError
        A file or stdout that cannot be written (a full disk); the files staged are removed.
    """
    staged = into if into is not None else Staged()
    later: list[tuple[Output, Any]] = []
    try:
        for out, content in items:
            if out.stdout:
                later.append((out, content))
                continue
            target = real_target(out.path)  # (a link's file is written, the link kept)
            fd, tmp = temporary_file(out, target)
            staged.renames.append((tmp, str(target)))
            os.fchmod(fd, file_mode(target))  # (mkstemp makes it private)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.writelines(_pieces(content))
                    fh.flush()
                    os.fsync(fh.fileno())  # (on the disk before its new name is)
            except OSError as exc:
                raise unwritable(exc, out.path, out.parameter) from None
        for out, content in later:
            to_stdout(content, out.parameter)
    except BaseException:
        staged.discard()
        raise
    return staged


def write_all(items: Iterable[tuple[Output, Any]]) -> None:
    """Write every output whole, or none.

    Each file is written to a temporary file beside it (:func:`stage`); only when all are
    written are they renamed into place (:meth:`Staged.commit`), so an error while writing (a
    full disk) leaves every existing file as it was. The output on stdout, if any, is written
    between the two (:func:`to_stdout`): stdout that cannot take it (``> /dev/full``) replaces
    no file either, and a reader that has gone (``| head``) does not stop the files.
    """
    staged = stage(items)
    try:
        staged.commit()
    finally:
        staged.discard()  # (those not renamed, if a rename failed)


@contextmanager
def folder_in_place(target: str | os.PathLike[str], files: Staged | None = None) -> Iterator[Path]:
    """A new folder beside ``target`` to write into; when the block ends, it takes the place of
    ``target`` (a folder already there is replaced whole), or, when the block fails, it is
    removed and ``target`` is left as it was. Its parent must exist. A ``target`` that is a
    symbolic link is followed (:func:`real_target`): the folder it points to is replaced and
    the link kept.

    Every file in the new folder is synced to the disk (:func:`sync_tree`) before it is
    renamed into place.

    Parameters
    ----------
    target
        The folder to replace (or make).
    files
        The run's file outputs (:func:`stage`), staged in the block: renamed into place right
        after the folder, under the same hold of signals (:func:`signals_held`), so that a
        stop leaves the folder and the files all new or all old; when a file cannot be renamed,
        the folder is put back as it was. When the block fails they are removed.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     with folder_in_place(Path(d) / "out") as tmp:
    ...         _ = (tmp / "a.txt").write_text("a")
    ...     sorted(p.name for p in Path(d).iterdir()), (Path(d) / "out" / "a.txt").read_text()
    (['out'], 'a')
    """
    target = real_target(target)
    tmp = Path(tempfile.mkdtemp(prefix=beside(target.name), dir=target.parent))
    old = Path(f"{tmp}.old")
    try:
        yield tmp
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o777 & ~mask)  # mkdtemp's folder is the owner's only
        sync_tree(tmp)  # (its files on the disk before their new names are)
        with signals_held():  # (a stop between the two renames left no folder at target)
            replaced = target.is_dir()
            if replaced:
                os.replace(target, old)
                try:
                    os.replace(tmp, target)
                except BaseException:
                    os.replace(old, target)
                    raise
            else:
                os.replace(tmp, target)
            if files is not None:
                try:
                    files.commit()
                except BaseException:  # (the folder put back: all old)
                    os.replace(target, tmp)
                    if replaced:
                        os.replace(old, target)
                    raise
        sync_folder(target.parent)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        with signals_held():  # (the new folder, or, once in place, the one it replaced)
            shutil.rmtree(tmp, ignore_errors=True)
            shutil.rmtree(old, ignore_errors=True)
            if files is not None:
                files.discard()
        raise
