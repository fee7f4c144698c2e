"""Folder outputs (``check --parquet DIR``, ``evidence -o DIR``): each takes the place of its
folder whole, so a folder that holds anything else, an input above all, is refused before
anything is read, and the folder is left as it was."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers import SAMPLE, one_line_error
from test_cli import Runner

from posting.cli import main
from posting.errors import InputError
from posting.outputs import Output, folder_in_place, real_target, resolve_folder
from posting.stream import earlier_parquet


@pytest.fixture
def runner() -> Runner:
    return Runner()


@pytest.fixture
def data(tmp_path) -> Path:
    """A copy of the sample's parcels and signs."""
    d = tmp_path / "data"
    d.mkdir()
    for name in ("parcels.geojson", "signs.csv"):
        shutil.copy(SAMPLE / name, d / name)
    return d


def _args(d: Path, parcels: str = "parcels.geojson") -> list[str]:
    return [
        "check",
        str(d / parcels),
        "--signs",
        str(d / "signs.csv"),
        "--id-field",
        "parcel_id",
        "--owner-field",
        "owner",
        "-q",
    ]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_parquet_into_the_folder_of_the_parcels_isone_line_error_and_they_are_kept(runner, data):
    """`--parquet DIR` replaces DIR whole: given the folder of its own parcels, it used to
    delete them (and everything else there) and write its results in their place."""
    before = _files(data)
    res = runner.invoke(main, [*_args(data), "--parquet", str(data)])
    one_line_error(res, "--parquet would replace the folder holding the parcels", "parcels.geojson")
    assert _files(data) == before


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_parquet_into_a_folder_of_other_files_isone_line_error(runner, data, tmp_path, workers):
    out = tmp_path / "results"
    (out / "notes").mkdir(parents=True)
    (out / "notes" / "todo.txt").write_text("keep me")
    (out / "summary.json").write_text("{}")  # (as if an earlier output, but with more)
    res = runner.invoke(main, [*_args(data), *workers, "--parquet", str(out)])
    one_line_error(res, "holds notes, summary.json, not GeoParquet results written earlier")
    assert _files(out) == {"notes/todo.txt": b"keep me", "summary.json": b"{}"}


def test_the_folder_is_checked_before_the_parcels_are_read(runner, data, tmp_path):
    """The parcels file is garbage: the refusal is the output's, so nothing was read (a
    state's check would otherwise run for an hour first)."""
    (data / "bad.geojson").write_text("not a geojson file")
    (tmp_path / "results").write_text("a file")
    res = runner.invoke(main, [*_args(data, "bad.geojson"), "--parquet", str(tmp_path / "results")])
    one_line_error(res, "results: --parquet: is a file; --parquet writes a folder (GeoParquet")
    res = runner.invoke(main, [*_args(data, "bad.geojson"), "--parquet", "-"])
    one_line_error(res, "--parquet writes a folder (GeoParquet results), not to stdout")
    res = runner.invoke(main, [*_args(data, "bad.geojson"), "--parquet", str(tmp_path / "a/b")])
    one_line_error(res, "--parquet: folder", "does not exist")


def test_an_earlier_parquet_output_is_replaced(runner, data, tmp_path):
    """A folder of an earlier run (and a file browser's .DS_Store) is replaced whole."""
    out = tmp_path / "results"
    assert runner.invoke(main, [*_args(data), "--parquet", str(out)]).exit_code == 1
    first = json.loads((out / "summary.json").read_text())
    assert first["summary"]["parcels"] == 29
    (out / ".DS_Store").write_bytes(b"\0")
    res = runner.invoke(main, [*_args(data), "--parquet", str(out), "--accuracy-ft", "16"])
    assert res.exit_code == 1, res.stderr
    second = json.loads((out / "summary.json").read_text())
    assert second["settings"]["accuracy_ft"] == 16 != first["settings"]["accuracy_ft"]
    assert sorted(p.name for p in out.iterdir()) == [
        "corners",
        "gaps",
        "markers",
        "parcels",
        "summary.json",
    ]


def test_a_file_output_inside_the_parquet_folder_isone_line_error(runner, data, tmp_path):
    """`--json DIR/r.json --parquet DIR`: the JSON report, written first, would have gone
    with the folder it was in."""
    out = tmp_path / "results"
    out.mkdir()
    res = runner.invoke(main, [*_args(data), "--parquet", str(out), "--json", str(out / "r.json")])
    one_line_error(res, "--json (", "is inside the folder --parquet replaces whole")
    scratch = ["--workers", "1", "--scratch", str(out)]
    res = runner.invoke(main, [*_args(data), "--parquet", str(out), *scratch])
    one_line_error(res, "--scratch (", "is inside the folder --parquet replaces whole")
    assert list(out.iterdir()) == []


def test_a_parquet_folder_inside_a_dataset_read_as_input_isone_line_error(runner, data, tmp_path):
    """Results written into a dataset folder would be read as its parcels by the next run."""
    dataset = tmp_path / "parcels"
    (dataset / "county=A").mkdir(parents=True)
    import geopandas as gpd

    gpd.read_file(data / "parcels.geojson").to_parquet(dataset / "county=A" / "part.parquet")
    args = [*_args(data), "--water", str(dataset), "--parquet", str(dataset / "out")]
    one_line_error(runner.invoke(main, args), "--parquet is inside the water layer", "outside it")
    assert not (dataset / "out").exists()


def test_resolve_folder_itself(tmp_path):
    def never(folder, names):
        return False

    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "Thumbs.db").write_bytes(b"")
    assert resolve_folder(empty, "parquet", {}, earlier=never, what="x") == Output(
        "parquet", str(empty), "folder"
    )
    assert resolve_folder(tmp_path / "new", "parquet", {}, earlier=never, what="x").path == str(
        tmp_path / "new"
    )
    many = tmp_path / "many"
    many.mkdir()
    for k in range(5):
        (many / f"f{k}").write_text("")
    with pytest.raises(InputError, match=r"holds f0, f1, f2 and 2 more, not x written earlier"):
        resolve_folder(many, "parquet", {}, earlier=never, what="x")
    link = tmp_path / "link"
    link.symlink_to(many, target_is_directory=True)
    with pytest.raises(InputError, match="would replace the folder holding the parcels"):
        resolve_folder(link, "parquet", {"parcels": [str(many / "f1")]}, earlier=never, what="x")
    # a sibling whose name starts alike is not inside
    (tmp_path / "results-old").mkdir()
    given = {"parcels": [str(tmp_path / "results-old")]}
    assert resolve_folder(tmp_path / "results", "parquet", given, earlier=never, what="x")


def test_earlier_parquet():
    assert earlier_parquet("d", ["summary.json", "parcels", "gaps"])
    assert not earlier_parquet("d", ["parcels", "gaps"])  # no summary: not surely ours
    assert not earlier_parquet("d", ["summary.json", "parcels", "mine.txt"])


def test_an_evidence_record_over_its_photos_isone_line_error(runner, data, tmp_path):
    """`evidence --photos rec/photos -o rec`, rec an earlier record: replacing it whole
    would have deleted the photos it was to attach."""
    rec = tmp_path / "rec"
    photos = rec / "photos"
    photos.mkdir(parents=True)
    (photos / "sign.jpg").write_bytes(b"\xff\xd8 a photo")
    (rec / "manifest.json").write_text("{}")
    res = runner.invoke(
        main, ["evidence", *_args(data)[1:], "--photos", str(photos), "-o", str(rec)]
    )
    one_line_error(res, "--output would replace the folder holding the photos")
    assert (photos / "sign.jpg").read_bytes() == b"\xff\xd8 a photo"


# -- a full disk ---------------------------------------------------------------------------------

_LIMITED = (  # the command with its files limited in size: a disk that fills up, in a test
    "import os, resource, sys; limit = int(sys.argv[1]); "
    "resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)); "
    "os.execv(sys.executable, [sys.executable, '-c', 'from posting.cli import run; run()', "
    "*sys.argv[2:]])"
)


def _limited(limit: int, *args: str):
    import subprocess
    import sys

    from helpers import ROOT

    return subprocess.run(
        [sys.executable, "-c", _LIMITED, str(limit), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_an_output_the_disk_has_no_room_for_is_named_and_nothing_is_left(data, tmp_path, workers):
    """The GeoJSON report (149 KB) does not fit; the JSON report (27 KB) does: neither is
    written, the message names the one that failed ("No space left on device", without a
    path, it was), and no temporary file is left beside them (the partitioned run left
    `.r.geojson.*.tmp`)."""
    out = tmp_path / "out"
    out.mkdir()
    args = [*_args(data), "--rules", "florida", *workers]
    args += ["--json", str(out / "r.json"), "--geojson", str(out / "r.geojson")]
    res = _limited(100_000, *args)
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip().splitlines() == [
        f"posting: error: {out / 'r.geojson'}: --geojson: cannot be written (File too large); "
        "free space there or write it elsewhere"
    ]
    assert list(out.iterdir()) == []
    assert _limited(200_000, *args).returncode == 1  # (room enough: the same run writes both)
    assert sorted(p.name for p in out.iterdir()) == ["r.geojson", "r.json"]


def test_a_scratch_folder_without_room_is_named_with_what_it_needs(data, tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    res = _limited(
        2_000, *_args(data), "--rules", "florida", "--workers", "1", "--scratch", str(scratch)
    )
    assert res.returncode == 2, res.stderr
    size = sum(p.stat().st_size for p in data.iterdir())
    assert res.stderr.strip().splitlines() == [
        f"posting: error: File too large in the scratch folder {scratch}: a partitioned check "
        f"keeps about twice its inputs there while it runs (these inputs: {size / 1e3:,.0f} "
        "KB); free space there or name a folder with room with --scratch"
    ]
    assert list(scratch.iterdir()) == []


def test_no_output_is_written_when_the_parquet_folder_fails(runner, data, tmp_path):
    """One process wrote --json/--geojson/--csv first and the --parquet folder after, each
    whole: a --parquet folder the disk had no room for came after the CSV report was in
    place. Now the folder's parts are written first, the files next, and the folder takes its
    place last: the CSV report (4.6 KB) fits, the parcels' part (14 KB) does not, and neither
    the report nor the new folder is written."""
    out = tmp_path / "results"
    args = [*_args(data), "--rules", "florida", "--parquet", str(out)]
    assert runner.invoke(main, args).exit_code == 1
    before = _files(out)
    res = _limited(8_000, *args, "--accuracy-ft", "16", "--csv", str(tmp_path / "r.csv"))
    assert res.returncode == 2, res.stderr
    assert "--parquet: cannot be written (File too large)" in res.stderr
    assert _files(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "results"]


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_stdout_that_cannot_be_written_is_named_and_replaces_no_file(data, tmp_path, workers):
    """`posting check ... --geojson - --csv r.csv > /dev/full`: the message was `No space
    left on device`, naming nothing, and r.csv had been replaced already (stdout was written
    after the files were in place). Stdout is now written before the renames: the option is
    named, and r.csv is left as it was."""
    import subprocess
    import sys

    from helpers import ROOT

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full (Linux's) here")
    (tmp_path / "r.csv").write_text("old")
    args = [*_args(data), *workers, "--geojson", "-", "--csv", str(tmp_path / "r.csv")]
    with open("/dev/full", "wb") as full:
        res = subprocess.run(
            [sys.executable, "-c", "from posting.cli import run; run()", *args],
            cwd=ROOT,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip().splitlines() == [
        "posting: error: --geojson -: stdout cannot be written (No space left on device)"
    ]
    assert (tmp_path / "r.csv").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "r.csv"]


def test_an_evidence_record_the_disk_has_no_room_for_is_named_and_kept(runner, data, tmp_path):
    """A page (12 KB) does not fit in 5 KB: the message was `posting: error: File too large`,
    naming no output; now the record's folder and option, as check's outputs. The earlier
    record is left as it was, and nothing is left beside it."""
    rec = tmp_path / "rec"
    args = ["evidence", *_args(data)[1:], "-o", str(rec)]
    assert runner.invoke(main, args).exit_code == 0
    before = _files(rec)
    res = _limited(5_000, *args, "--accuracy-ft", "16")
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip().splitlines() == [
        f"posting: error: {rec}: --output: cannot be written (File too large); free space "
        "there or write it elsewhere"
    ]
    assert _files(rec) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "rec"]


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_outputs_that_are_symbolic_links_write_where_they_point(runner, data, tmp_path, workers):
    """`report.json -> /shared/reports/today.json`: the file the link points to is updated and
    the link kept, as `cp` and a shell's `>` do; the writers used to rename their temporary
    onto the link itself, which replaced the link with a file (and `--parquet` left the link,
    renamed `.pq.*.old`, beside the new folder). A link to a file not written yet (a new
    day's) writes it; a link to a folder of results replaces that folder."""
    shared, out = tmp_path / "shared", tmp_path / "out"
    shared.mkdir()
    out.mkdir()
    (shared / "today.json").write_text("yesterday's")
    (out / "report.json").symlink_to(shared / "today.json")
    (out / "report.csv").symlink_to(Path("..") / "shared" / "new.csv")  # (relative, dangling)
    assert runner.invoke(main, [*_args(data), "--parquet", str(shared / "pq")]).exit_code == 1
    (out / "pq").symlink_to(shared / "pq", target_is_directory=True)
    (out / "new-pq").symlink_to(shared / "new-pq", target_is_directory=True)
    links = {p.name: os.readlink(p) for p in out.iterdir()}
    args = [*_args(data), *workers, "--accuracy-ft", "16"]
    args += ["--json", str(out / "report.json"), "--csv", str(out / "report.csv")]
    assert runner.invoke(main, [*args, "--parquet", str(out / "pq")]).exit_code == 1
    assert (
        runner.invoke(main, [*_args(data), *workers, "--parquet", str(out / "new-pq")]).exit_code
        == 1
    )
    assert {p.name: os.readlink(p) for p in out.iterdir()} == links  # the links, and only they
    assert json.loads((shared / "today.json").read_text())["summary"]["parcels"] == 29
    assert (shared / "new.csv").read_text().startswith("id,row,owner,status,")
    summary = json.loads((shared / "pq" / "summary.json").read_text())
    assert summary["settings"]["accuracy_ft"] == 16
    assert (shared / "new-pq" / "summary.json").is_file()
    assert sorted(p.name for p in shared.iterdir()) == ["new-pq", "new.csv", "pq", "today.json"]


def test_a_symbolic_link_that_cannot_be_written_through_isone_line_error(runner, data, tmp_path):
    """A link to a file in a folder that does not exist, a loop of links: refused before
    anything is read, naming the link and what to do (renaming onto the link used to
    replace it)."""
    (tmp_path / "r.json").symlink_to(tmp_path / "gone" / "r.json")
    (tmp_path / "pq").symlink_to(tmp_path / "gone" / "pq", target_is_directory=True)
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    gone = tmp_path / "gone"
    for flag, name in (("--json", "r.json"), ("--parquet", "pq")):
        res = runner.invoke(main, [*_args(data), flag, str(tmp_path / name)])
        one_line_error(res, f"{flag}: is a symbolic link to {gone / name}, whose folder does not")
    res = runner.invoke(main, [*_args(data), "--json", str(tmp_path / "a.json")])
    one_line_error(res, "a.json: --json: is a loop of symbolic links", "give another name")
    assert all(p.is_symlink() for p in tmp_path.iterdir() if p.name != "data")


def test_folder_in_place_through_a_symbolic_link(tmp_path):
    """An evidence record's folder (`evidence -o rec`, rec a link) is replaced where the link
    points, and nothing is left beside the link."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "old.txt").write_text("old")
    (tmp_path / "rec").symlink_to(tmp_path / "real", target_is_directory=True)
    with folder_in_place(tmp_path / "rec") as tmp:
        (tmp / "new.txt").write_text("new")
    assert (tmp_path / "rec").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["real", "rec"]
    assert [p.name for p in (tmp_path / "real").iterdir()] == ["new.txt"]
    assert real_target(tmp_path / "rec") == (tmp_path / "real").resolve()


# -- outputs that are not files, not given, or whose folder went away ---------------------------


def _special(kind: str, path: Path) -> None:
    """A named pipe, or a device node that is a twin of /dev/null (character device 1, 3):
    what `report.json -> /dev/null` names, without touching /dev."""
    import stat

    if kind == "pipe":
        os.mkfifo(path)
        return
    try:
        os.mknod(path, stat.S_IFCHR | 0o644, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")


@pytest.mark.parametrize("through_link", [False, True], ids=["given", "link"])
@pytest.mark.parametrize(("kind", "what"), [("pipe", "a named pipe"), ("device", "a device")])
def test_an_output_that_is_a_device_or_a_pipe_isone_line_error_and_kept(
    runner, data, tmp_path, kind, what, through_link
):
    """Every output is written beside its file and renamed onto it: a named pipe given as
    --json was replaced by a plain file (its reader waited for ever), and a link to a device
    (`report.json -> /dev/null`, run as root) replaced the device node itself with the
    report. Refused before anything is read; the node is left as it was, and nothing else
    is written."""
    import stat

    node = tmp_path / f"node-{kind}"
    _special(kind, node)
    given = tmp_path / "report.json"
    if through_link:
        given.symlink_to(node)
    else:
        node.rename(given)
        node = given
    mode = node.stat().st_mode
    res = runner.invoke(
        main, [*_args(data), "--json", str(given), "--csv", str(tmp_path / "r.csv")]
    )
    one_line_error(res, f"report.json: --json: is {what} ({node}), not a file", "- for stdout")
    assert stat.S_IFMT(os.stat(given).st_mode) == stat.S_IFMT(mode)  # (still the pipe/device)
    assert not (tmp_path / "r.csv").exists()


@pytest.mark.parametrize(
    ("command", "option", "path", "more"),
    [
        ("check", "--json", "", []),
        ("check", "--csv", " ", []),
        ("check", "--parquet", "", []),
        ("map", "--output", "", []),
        ("evidence", "--output", "", []),
        ("plan", "--summary", "", ["-o", "plan.gpx"]),
    ],
)
def test_an_output_given_an_empty_path_isone_line_error(
    runner, data, tmp_path, monkeypatch, command, option, path, more
):
    """`--json "$OUT"` with OUT unset: the report was taken for not asked, and the run wrote
    nothing and said nothing (exit 1, as if written); `map -o ""` ran the whole check and
    ended in an internal error (IndexError); `evidence -o ""` took "" for the current folder,
    which, empty, it replaced whole with the record (the shell was left in a deleted
    folder); `plan --summary ""` wrote the plan and no summary. Nothing is written now."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    inode = os.stat(cwd).st_ino
    args = [command, *_args(data)[1:], *more, option, path]
    res = runner.invoke(main, args)
    one_line_error(res, f"{option} was given an empty path ({path!r})", "leave the option out")
    assert os.stat(cwd).st_ino == inode and list(cwd.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cwd", "data"]


def test_an_output_folder_removed_while_the_command_ran_isone_line_error(
    runner, data, tmp_path, monkeypatch
):
    """The folder was there when the outputs were checked, and gone when they were written
    (a county's run takes minutes; a share unmounted, a cleanup): the message named the
    temporary file the command had made up (`.r.json.k2j3.tmp: No such file or directory`);
    now the option and the folder. The other output, in a folder still there, is not
    written."""
    import posting.cli

    out = tmp_path / "out"
    out.mkdir()
    run = posting.cli._run

    def run_then_remove(job):
        report = run(job)
        shutil.rmtree(out)
        return report

    monkeypatch.setattr(posting.cli, "_run", run_then_remove)
    args = [*_args(data), "--csv", str(tmp_path / "r.csv"), "--json", str(out / "r.json")]
    res = runner.invoke(main, args)
    one_line_error(
        res, f"{out / 'r.json'}: --json: cannot write in folder {out} (No such file or directory)"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


# -- stopped while the outputs are put in place ---------------------------------------------------

_STOPPED_AT_RENAME = (  # the command, sent a signal right after it renamed r.json or r.csv
    "import os, signal, sys\n"
    "real, n, stop = os.replace, [], getattr(signal, sys.argv[1])\n"
    "def replace(a, b):\n"
    "    real(a, b)\n"
    "    n.append(os.path.basename(b))\n"
    "    if n.count('r.json') + n.count('r.csv') == 1 and n[-1] in ('r.json', 'r.csv'):\n"
    "        os.kill(os.getpid(), stop)\n"
    "os.replace = replace\n"
    "from posting.cli import run\n"
    "sys.argv = ['posting', *sys.argv[2:]]\n"
    "run()\n"
)


@pytest.mark.parametrize(
    ("signal_name", "status"), [("SIGINT", 130), ("SIGTERM", 143)], ids=["ctrl-c", "sigterm"]
)
@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_a_stop_while_outputs_are_renamed_leaves_all_new_or_all_old(
    data, tmp_path, signal_name, status, workers
):
    """Ctrl-C (or SIGTERM) after the JSON report was renamed into place and before the CSV
    report was: the new JSON report stood beside the old CSV report, and the line said
    "outputs not yet written in full were left as they were". The signal now waits for the
    last rename (microseconds): both reports are the new ones, the status is the signal's
    (128 + 2, 128 + 15), one line, no traceback, no temporary file."""
    import subprocess
    import sys

    from helpers import ROOT

    out = tmp_path / "out"
    out.mkdir()
    (out / "r.json").write_text("old json")
    (out / "r.csv").write_text("old csv")
    args = [*_args(data), *workers, "--json", str(out / "r.json"), "--csv", str(out / "r.csv")]
    res = subprocess.run(
        [sys.executable, "-c", _STOPPED_AT_RENAME, signal_name, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == status, res.stderr
    assert res.stderr.strip().splitlines() == [
        f"posting: stopped by {signal_name}; outputs not yet written in full were left as they were"
    ]
    assert json.loads((out / "r.json").read_text())["summary"]["parcels"] == 29
    assert (out / "r.csv").read_text().startswith("id,row,owner,status,")
    assert sorted(p.name for p in out.iterdir()) == ["r.csv", "r.json"]


_INTERRUPTED_WRITER = (  # the command, its writer interrupted after the first piece
    "import sys\n"
    "import posting.outputs as o\n"
    "real = o._pieces\n"
    "def pieces(content):\n"
    "    for i, piece in enumerate(real(content)):\n"
    "        if i == 1:\n"
    "            raise KeyboardInterrupt\n"
    "        yield piece\n"
    "o._pieces = pieces\n"
    "from posting.cli import run\n"
    "sys.argv = ['posting', *sys.argv[1:]]\n"
    "run()\n"
)


def test_a_keyboard_interrupt_while_writing_is_ctrl_c(data, tmp_path):
    """A KeyboardInterrupt that did not come through the command's own handler of Ctrl-C (a
    library that put Python's back) while the JSON report was written: click said "Aborted!"
    and exited 1, the verdict "a parcel is not compliant". Now it is Ctrl-C: 130, the line,
    the old report kept, no temporary file."""
    import subprocess
    import sys

    from helpers import ROOT

    (tmp_path / "r.json").write_text("old")
    res = subprocess.run(
        [
            sys.executable,
            "-c",
            _INTERRUPTED_WRITER,
            *_args(data),
            "--json",
            str(tmp_path / "r.json"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 130, res.stderr
    assert res.stderr.strip().splitlines() == [
        "posting: stopped by SIGINT; outputs not yet written in full were left as they were"
    ]
    assert (tmp_path / "r.json").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "r.json"]


class _Stop(BaseException):
    pass


def test_folder_in_place_stopped_between_its_two_renames_keeps_a_folder(tmp_path, monkeypatch):
    """A folder replaced whole (`--parquet`, `evidence -o`) is moved aside, then the new one
    put in its place: a stop between the two renames left no folder at all at the target (the
    new one was removed, the old one hidden as `.rec.*.old`). Now the stop waits for the
    second rename: the new folder is in place, the old one gone, nothing left beside it."""
    import signal

    (tmp_path / "rec").mkdir()
    (tmp_path / "rec" / "old.txt").write_text("old")
    real, seen = os.replace, []

    def replace(a, b):
        real(a, b)
        seen.append(b)
        if len(seen) == 1:
            os.kill(os.getpid(), signal.SIGTERM)

    def stop(signum, frame):
        raise _Stop

    saved = signal.signal(signal.SIGTERM, stop)
    monkeypatch.setattr(os, "replace", replace)
    try:
        with pytest.raises(_Stop), folder_in_place(tmp_path / "rec") as tmp:
            (tmp / "new.txt").write_text("new")
    finally:
        signal.signal(signal.SIGTERM, saved)
    assert len(seen) == 2  # (moved aside, then put in place: both before the stop)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec"]
    assert [p.name for p in (tmp_path / "rec").iterdir()] == ["new.txt"]


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_an_output_keeps_the_permissions_of_the_file_it_replaces(runner, data, tmp_path, workers):
    """A report kept private (`chmod 600 r.json`: it names the owners) was readable by all
    once the next run replaced it (0644: a new file's, with umask 022), which `cp` and a
    shell's `>` never do. A new output is an ordinary file (0666 less the umask)."""
    import stat

    (tmp_path / "r.json").write_text("old")
    (tmp_path / "r.json").chmod(0o600)
    (tmp_path / "r.csv").write_text("old")
    (tmp_path / "r.csv").chmod(0o640)
    args = [*_args(data), *workers]
    for name in ("r.json", "r.csv", "r.geojson"):
        args += [f"--{name.split('.')[1]}", str(tmp_path / name)]
    umask = os.umask(0o022)
    try:
        assert runner.invoke(main, args).exit_code == 1
    finally:
        os.umask(umask)
    modes = {
        n: stat.S_IMODE((tmp_path / n).stat().st_mode) for n in ("r.json", "r.csv", "r.geojson")
    }
    assert modes == {"r.json": 0o600, "r.csv": 0o640, "r.geojson": 0o644}
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["parcels"] == 29


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_outputs_named_as_long_as_the_disk_allows_are_written(runner, data, tmp_path, workers):
    """A file name may have 255 bytes; the temporary beside it was named `.{name}.k2j3x8a1.tmp`
    (15 bytes more), so an output named with 241 bytes or more was refused up front, "cannot
    write in folder ... (File name too long)", though the disk takes it. Now the temporary
    keeps at most 60 bytes of the name."""
    names = {"--json": "j" * 250 + ".json", "--csv": "c" * 251 + ".csv", "--parquet": "p" * 255}
    assert all(len(n.encode()) == 255 for n in names.values())
    args = [*_args(data), *workers]
    for flag, name in names.items():
        args += [flag, str(tmp_path / name)]
    res = runner.invoke(main, args)
    assert res.exit_code == 1, res.stderr
    assert json.loads((tmp_path / names["--json"]).read_text())["summary"]["parcels"] == 29
    assert (tmp_path / names["--csv"]).read_text().startswith("id,row,owner,status,")
    assert (tmp_path / names["--parquet"] / "summary.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["data", *names.values()])


# -- a file output's path that ends as a folder's does -----------------------------------------


@pytest.mark.parametrize(
    ("command", "option", "name", "more"),
    [
        ("check", "--json", "out.json/", []),
        ("check", "--geojson", "out.geojson/", []),
        ("check", "--csv", "out.csv/.", []),
        ("check", "--map", "out.html/", []),
        ("check", "--json", "out.json/", ["--workers", "1"]),
        ("map", "--output", "out.html/", []),
        ("plan", "--output", "out.gpx/", []),
        ("plan", "--summary", "out.json/", ["-o", "PLAN"]),
        ("plan", "--map", "out.html/", ["-o", "PLAN"]),
    ],
)
def test_a_file_output_ending_in_a_slash_isone_line_error(
    runner, data, tmp_path, command, option, name, more
):
    """`--json out.json/` (a folder meant, or a slip) was read as the file out.json, and the
    report written there; now it is refused before anything is read, naming the option and the
    path, and nothing is written (`plan` also writes its plan, -o, which is refused with it)."""
    out = tmp_path / "out"
    out.mkdir()
    more = [str(out / "plan.gpx") if m == "PLAN" else m for m in more]
    given = f"{out}/{name}"
    res = runner.invoke(main, [command, *_args(data)[1:], *more, option, given])
    one_line_error(res, f"{given}: {option} writes a file, and this path ends as a folder's does")
    assert list(out.iterdir()) == []


def test_a_parquet_folder_ending_in_a_slash_is_written(runner, data, tmp_path):
    """`--parquet DIR/` names a folder: the slash is welcome there."""
    res = runner.invoke(main, [*_args(data), "--parquet", f"{tmp_path / 'pq'}/"])
    assert res.exit_code == 1, res.stderr  # (the sample has noncompliant parcels)
    assert json.loads((tmp_path / "pq" / "summary.json").read_text())["summary"]["parcels"] == 29


# -- two outputs whose names differ only in case ----------------------------------------------


def test_outputs_differing_only_in_case_on_a_disk_that_ignores_case_isone_line_error(
    runner, data, tmp_path, monkeypatch
):
    """`--json R.json --geojson r.json` on a disk that does not tell capitals from small
    letters (macOS's by default): the GeoJSON replaced the JSON report, and the run said both
    were written. Now it is refused as the same output given twice; the disk is asked about
    the outputs' folder only, and nothing is written. (This machine's disk tells them apart:
    the answer is stood in for.)"""
    import posting.outputs

    asked: list[Path] = []

    def ignoring(folder):
        asked.append(Path(folder))
        return True

    monkeypatch.setattr(posting.outputs, "ignores_case", ignoring)
    out = tmp_path / "out"
    out.mkdir()
    args = [*_args(data), "--json", str(out / "R.json"), "--geojson", str(out / "r.json")]
    res = runner.invoke(main, args)
    one_line_error(
        res,
        f"{out / 'r.json'}: --json and --geojson name the same file ({out / 'R.json'}) on this "
        "disk, which does not tell capitals from small letters",
    )
    assert asked == [out.resolve()]
    assert list(out.iterdir()) == []
    args = [*_args(data), "--json", str(out / "R.json"), "--csv", str(out / "r.csv")]
    assert runner.invoke(main, args).exit_code == 1
    assert asked == [out.resolve()]  # (names apart in more than case: the disk not asked)


def test_outputs_differing_only_in_case_on_a_disk_that_tells_case_are_both_written(
    runner, data, tmp_path
):
    """On a disk that tells capitals from small letters (Linux's), R.json and r.json are two
    files, both written; asking the disk leaves nothing behind."""
    from posting.outputs import ignores_case

    assert ignores_case(tmp_path) is False
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    args = [*_args(data), "--json", str(tmp_path / "R.json"), "--geojson", str(tmp_path / "r.json")]
    assert runner.invoke(main, args).exit_code == 1
    assert json.loads((tmp_path / "R.json").read_text())["summary"]["parcels"] == 29
    assert json.loads((tmp_path / "r.json").read_text())["type"] == "FeatureCollection"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["R.json", "data", "r.json"]


# -- on the disk before the new name is ----------------------------------------------------------


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_each_output_is_synced_before_its_rename_and_its_folder_after(
    runner, data, tmp_path, monkeypatch, workers
):
    """An output was written to a temporary file and renamed onto its name with nothing
    synced: after a power cut the disk may hold the new name on an empty file (the rename
    reached it, the data not yet), the old report lost too. Now each file is synced before its
    rename, and its folder after (the renames themselves): every rename of r.json and r.csv
    has its file's sync before it, and a sync of their folder comes after both."""
    events: list[tuple[str, int]] = []
    sync, replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("sync", os.fstat(fd).st_ino))
        sync(fd)

    def renamed(a, b):
        inode = os.stat(a).st_ino
        replace(a, b)
        if os.path.basename(b) in ("r.json", "r.csv"):
            events.append(("rename", inode))

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", renamed)
    args = [*_args(data), *workers, "--json", str(tmp_path / "r.json")]
    res = runner.invoke(main, [*args, "--csv", str(tmp_path / "r.csv")])
    assert res.exit_code == 1, res.stderr
    renames = [i for i, (what, _) in enumerate(events) if what == "rename"]
    assert len(renames) == 2
    for i in renames:
        assert ("sync", events[i][1]) in events[:i]
    folder = os.stat(tmp_path).st_ino
    assert ("sync", folder) in events[renames[-1] :]
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["parcels"] == 29


# -- the --parquet folder and the files, put in place together -------------------------------

_STOPPED_AT_FIRST = (  # the command, sent a signal right after it renamed r.json or pq in place
    "import os, signal, sys\n"
    "real, n, stop = os.replace, [], getattr(signal, sys.argv[1])\n"
    "def replace(a, b):\n"
    "    real(a, b)\n"
    "    if os.path.basename(b) in ('r.json', 'pq') and not n:\n"
    "        n.append(b)\n"
    "        os.kill(os.getpid(), stop)\n"
    "os.replace = replace\n"
    "from posting.cli import run\n"
    "sys.argv = ['posting', *sys.argv[2:]]\n"
    "run()\n"
)


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_a_stop_while_the_parquet_folder_and_files_are_put_in_place_leaves_all_new(
    data, tmp_path, workers
):
    """`--parquet pq --json r.json`: the files and the folder were renamed under two holds of
    the signals, one after the other (the files first in one process, the folder first with
    --workers), and Ctrl-C between them was delivered in between: the new JSON report beside
    the old folder (or the new folder beside the old report). Now all are renamed under one
    hold: a stop after the first rename waits for the last, and all are new."""
    import subprocess
    import sys

    from helpers import ROOT

    out = tmp_path / "out"
    (out / "pq").mkdir(parents=True)
    (out / "pq" / "summary.json").write_text('"old"')  # (an earlier --parquet output)
    (out / "r.json").write_text('"old"')
    args = [*_args(data), *workers, "--json", str(out / "r.json"), "--parquet", str(out / "pq")]
    res = subprocess.run(
        [sys.executable, "-c", _STOPPED_AT_FIRST, "SIGINT", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 130, res.stderr
    assert json.loads((out / "r.json").read_text())["summary"]["parcels"] == 29
    assert json.loads((out / "pq" / "summary.json").read_text())["summary"]["parcels"] == 29
    assert sorted(p.name for p in out.iterdir()) == ["pq", "r.json"]


def test_folder_in_place_puts_the_folder_back_when_a_file_cannot_be_renamed(tmp_path):
    """The folder is renamed into place first, then the files staged with it: when a file
    cannot be (here its temporary file is gone), the folder it replaced is put back, and no
    new folder nor temporary file is left."""
    from posting.outputs import Staged

    (tmp_path / "rec").mkdir()
    (tmp_path / "rec" / "old.txt").write_text("old")
    files = Staged()
    files.renames.append((str(tmp_path / ".r.json.gone.tmp"), str(tmp_path / "r.json")))
    with pytest.raises(FileNotFoundError), folder_in_place(tmp_path / "rec", files) as tmp:
        (tmp / "new.txt").write_text("new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec"]
    assert [p.name for p in (tmp_path / "rec").iterdir()] == ["old.txt"]
