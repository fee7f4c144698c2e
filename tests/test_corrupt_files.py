"""Corrupt and awkward files on the command line (issue 13, part 4): a file that cannot be used
ends the command with status 2 and one line that names the file, before any output is written;
a file that can be read right (a byte-order mark, semicolons, Latin-1, unicode names) is read
right, with a warning where something was assumed.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import geopandas as gpd
import pytest
from helpers import SAMPLE
from test_cli import Runner

from posting.cli import main

PARCELS = SAMPLE / "parcels.geojson"
SIGNS = SAMPLE / "signs.csv"
GPX = SAMPLE / "signs-added.gpx"


@pytest.fixture
def runner() -> Runner:
    return Runner()


def _exit_2_naming(res, path: Path | str, *needles: str) -> str:
    assert res.exit_code == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(f"posting: error: {path}: "), lines[0]
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert "Traceback" not in res.stderr and res.stdout == ""
    return lines[0]


def _truncated(src: Path, dst: Path, keep: float = 0.5) -> Path:
    data = src.read_bytes()
    dst.write_bytes(data[: int(len(data) * keep)])
    return dst


# -- files that cannot be used: exit 2, one line naming the file ------------------------------


def _parquet(tmp: Path) -> Path:
    gpd.read_file(PARCELS).to_parquet(tmp / "full.parquet")
    return _truncated(tmp / "full.parquet", tmp / "cut.parquet")


def _fgb(tmp: Path) -> Path:
    gdf = gpd.read_file(PARCELS)
    gdf[gdf.geometry.notna()].to_file(tmp / "full.fgb")
    return _truncated(tmp / "full.fgb", tmp / "cut.fgb", 0.6)


def _shapefile(tmp: Path) -> Path:
    import pandas as pd

    table = pd.read_csv(SIGNS).dropna(subset=["lon", "lat"])
    gdf = gpd.GeoDataFrame(
        table[["sign_id"]], geometry=gpd.points_from_xy(table["lon"], table["lat"]), crs=4326
    )
    gdf.to_file(tmp / "signs.shp")
    _truncated(tmp / "signs.shp", tmp / "cut.shp", 0.1)
    for ext in (".shx", ".dbf", ".prj"):
        shutil.copy(tmp / f"signs{ext}", tmp / f"cut{ext}")
    return tmp / "cut.shp"


def _signs_shapefile(tmp: Path, name: str, rows: slice = slice(None)) -> Path:
    import pandas as pd

    table = pd.read_csv(SIGNS).dropna(subset=["lon", "lat"]).iloc[rows]
    gdf = gpd.GeoDataFrame(
        table[["sign_id"]], geometry=gpd.points_from_xy(table["lon"], table["lat"]), crs=4326
    )
    gdf.to_file(tmp / f"{name}.shp")
    return tmp / f"{name}.shp"


def _dbf_of_another(tmp: Path) -> Path:
    """A Shapefile whose .dbf was saved apart, with its last two rows gone."""
    shp = _signs_shapefile(tmp, "signs")
    shutil.copy(
        _signs_shapefile(tmp, "fewer", slice(None, -2)).with_suffix(".dbf"), shp.with_suffix(".dbf")
    )
    return shp


def _dbf_cut(tmp: Path) -> Path:
    shp = _signs_shapefile(tmp, "signs")
    _truncated(shp.with_suffix(".dbf"), tmp / "cut.dbf", 0.7)
    shutil.move(tmp / "cut.dbf", shp.with_suffix(".dbf"))
    return shp


def _zipped_dbf_of_another(tmp: Path) -> Path:
    import zipfile

    shp = _dbf_of_another(tmp)
    with zipfile.ZipFile(tmp / "signs.zip", "w") as z:
        for ext in (".shp", ".shx", ".dbf", ".prj"):
            z.write(shp.with_suffix(ext), f"signs/signs{ext}")
    return tmp / "signs.zip"


def _without_shx(tmp: Path, zipped: bool = False) -> Path:
    """A Shapefile copied without its index (.shx): GDAL's own words told the user to set a
    configuration option of GDAL's that the command has no way to set."""
    import zipfile

    shp = _signs_shapefile(tmp, "signs")
    shp.with_suffix(".shx").unlink()
    if not zipped:
        return shp
    with zipfile.ZipFile(tmp / "signs.zip", "w") as z:
        for ext in (".shp", ".dbf", ".prj"):
            z.write(shp.with_suffix(ext), f"signs{ext}")
    return tmp / "signs.zip"


CASES = {
    # name: (role, how to make the file, what the line says)
    "truncated GeoJSON": (
        "parcels",
        lambda t: _truncated(PARCELS, t / "cut.geojson"),
        "not a readable geospatial file",
    ),
    "truncated GPX": ("signs", lambda t: _truncated(GPX, t / "cut.gpx"), "XML parsing"),
    "truncated GeoParquet": ("parcels", _parquet, "not a readable Parquet file"),
    "truncated FlatGeobuf": ("parcels", _fgb, "is it complete?"),
    "truncated Shapefile": ("signs", _shapefile, "is cut short"),
    # GDAL reads such a pair only as far as the shorter, without a word
    "Shapefile with another .dbf": ("signs", _dbf_of_another, "holds 227 shapes and its .dbf 225"),
    "zipped, with another .dbf": ("signs", _zipped_dbf_of_another, "signs/signs.shp: its .shp"),
    "truncated .dbf": ("signs", _dbf_cut, "its .dbf is cut short"),
    "Shapefile without its .shx": (
        "signs",
        _without_shx,
        "signs.shp: its index, signs.shx, is missing: a Shapefile is several files side by side",
    ),
    "zipped, without its .shx": (
        "signs",
        lambda t: _without_shx(t, zipped=True),
        "signs.zip: signs.shp: its index, signs.shx, is missing",
    ),
    "PNG named .geojson": (
        "parcels",
        lambda t: _write(t / "img.geojson", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
        "its content is none of GeoJSON, GeoPackage",
    ),
    "JSON that is not GeoJSON": (
        "parcels",
        lambda t: _write(t / "list.geojson", b"[1, 2, 3]"),
        "its content is none of GeoJSON, GeoPackage",
    ),
    "CSV without coordinates": (
        "signs",
        lambda t: _write(t / "names.csv", b"name,owner\nA,B\n"),
        "no coordinate columns",
    ),
    "broken XML (KML)": (
        "signs",
        lambda t: _write(t / "broken.kml", b"<kml><Document><Placemark><Point><coordinates>1,2"),
        "not a readable geospatial file",
    ),
    "broken XML (KML parcels)": (
        "parcels",
        lambda t: _write(t / "broken.kml", b"<kml><Document><Placemark><Polygon>"),
        "not a readable geospatial file",
    ),
    "GeoParquet whose 'geo' metadata is a list": (
        "parcels",
        lambda t: _geoparquet_with_geo(t, b"[1, 2]"),
        "is not GeoParquet's",
    ),
    "GeoParquet whose CRS is unknown": (
        "parcels",
        lambda t: _geoparquet_with_geo(
            t,
            b'{"version": "1.0.0", "primary_column": "geometry", "columns": {"geometry": '
            b'{"encoding": "WKB", "crs": "EPSG:99999999"}}}',
        ),
        "its GeoParquet metadata gives a CRS that cannot be read",
    ),
    "0 bytes (GeoJSON)": ("parcels", lambda t: _write(t / "zero.geojson", b""), "empty"),
    "0 bytes (CSV)": ("signs", lambda t: _write(t / "zero.csv", b""), "empty"),
    "0 bytes (GPX)": ("signs", lambda t: _write(t / "zero.gpx", b""), "empty"),
    "0 bytes (GeoParquet)": ("parcels", lambda t: _write(t / "zero.parquet", b""), "empty"),
    "a folder as parcels": ("parcels", lambda t: _folder(t / "parcels.geojson"), "is a folder"),
    # a folder of signs is read as photos of signs: this one holds none
    "a folder as signs": ("signs", lambda t: _folder(t / "signs.csv"), "the folder holds no photo"),
    "no such file (unicode name)": (
        "signs",
        lambda t: t / "données été" / "panneaux 標識.csv",
        "no such file",
    ),
}


def _geoparquet_with_geo(tmp: Path, geo: bytes) -> Path:
    """The sample's parcels as GeoParquet, their 'geo' metadata replaced by ``geo``."""
    import pyarrow.parquet as pq

    gpd.read_file(PARCELS).to_parquet(tmp / "lots.parquet")
    table = pq.read_table(tmp / "lots.parquet")
    pq.write_table(table.replace_schema_metadata({b"geo": geo}), tmp / "lots.parquet")
    return tmp / "lots.parquet"


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


@pytest.mark.parametrize("name", list(CASES))
def test_an_unusable_file_exits_2_with_one_line_naming_it(runner, tmp_path, name):
    role, make, needle = CASES[name]
    bad = make(tmp_path)
    out = tmp_path / "report.json"
    if role == "parcels":
        args = ["check", str(bad), "--signs", str(SIGNS)]
    else:
        args = ["check", str(PARCELS), "--signs", str(SIGNS), "--signs", str(bad)]
    res = runner.invoke(main, [*args, "--json", str(out)])
    _exit_2_naming(res, bad, needle)
    assert not out.exists()


# -- a dataset (a folder of GeoParquet files) with one bad file: the file named --------------


def _dataset(tmp: Path, role: str, second: Callable[[Any], Any] | None = None) -> Path:
    """The sample's parcels or signs as a folder of two GeoParquet files, ``part.1`` and
    ``part.2``; ``second(table)`` makes the second's Arrow table (None: as written)."""
    import pandas as pd
    import pyarrow.parquet as pq

    if role == "parcels":
        gdf = gpd.read_file(PARCELS)
    else:
        table = pd.read_csv(SIGNS, dtype={"sign_id": str}).dropna(subset=["lon", "lat"])
        gdf = gpd.GeoDataFrame(
            table[["sign_id", "kind"]],
            geometry=gpd.points_from_xy(table["lon"], table["lat"]),
            crs=4326,
        )
    folder = tmp / role
    folder.mkdir()
    gdf.iloc[:10].to_parquet(folder / "part.1.parquet")
    gdf.iloc[10:].to_parquet(folder / "part.2.parquet")
    if second is not None:
        path = folder / "part.2.parquet"
        pq.write_table(second(pq.read_table(path)), path)
    return folder


def _with_geo(geo: bytes) -> Callable[[Any], Any]:
    return lambda t: t.replace_schema_metadata({**(t.schema.metadata or {}), b"geo": geo})


def _geometry_at(row: int, value: Any) -> Callable[[Any], Any]:
    import pyarrow as pa

    def change(t: Any) -> Any:
        values = t.column("geometry").to_pylist()
        values[row] = value
        i = t.column_names.index("geometry")
        return t.set_column(i, "geometry", pa.array(values, pa.binary()))

    return change


def _column_as_numbers(name: str) -> Callable[[Any], Any]:
    import pyarrow as pa

    def change(t: Any) -> Any:
        i = t.column_names.index(name)
        return t.set_column(i, name, pa.array(range(t.num_rows), pa.int64()))

    return change


def _in_crs(epsg: int) -> Callable[[Any], Any]:
    import pyarrow.parquet as pq

    def change(t: Any) -> Any:
        buffer = io.BytesIO()
        pq.write_table(t, buffer)
        buffer.seek(0)
        out = io.BytesIO()
        gpd.read_parquet(buffer).to_crs(epsg).to_parquet(out)
        out.seek(0)
        return pq.read_table(out)

    return change


def _geometry_named(name: str) -> Callable[[Any], Any]:
    def change(t: Any) -> Any:
        geo = json.loads(t.schema.metadata[b"geo"])
        geo["columns"] = {name: geo["columns"]["geometry"]}
        geo["primary_column"] = name
        t = t.rename_columns([name if c == "geometry" else c for c in t.column_names])
        return _with_geo(json.dumps(geo).encode())(t)

    return change


DATASETS = {
    # name: (role, the second file's table, what the line says after the file's name)
    "'geo' metadata not JSON": ("parcels", _with_geo(b"{not json"), "'geo' key) is not JSON"),
    "'geo' metadata a list": ("signs", _with_geo(b"[1, 2]"), "is not GeoParquet's"),
    "'geo' columns not objects": (
        "parcels",
        _with_geo(b'{"primary_column": "geometry", "columns": {"geometry": "wkb"}}'),
        "is not GeoParquet's",
    ),
    "geometry not WKB at row 7": (
        "parcels",
        _geometry_at(7, b"\x01\x03\x00not wkb"),
        "the geometry of row 7 of this file is not WKB",
    ),
    "empty WKB at row 4 of the signs": (
        "signs",
        _geometry_at(4, b""),
        "the geometry of row 4 of this file is not WKB",
    ),
    "a column of numbers where the first file's is text": (
        "parcels",
        _column_as_numbers("owner"),
        "its column 'owner' holds whole numbers (int64) where the dataset's files before it",
    ),
    "another geometry column": (
        "parcels",
        _geometry_named("geom"),
        "its geometry column is 'geom' where the dataset's first file",
    ),
    "a plain Parquet table": (
        "signs",
        lambda t: t.replace_schema_metadata({}),
        "has no GeoParquet metadata (no 'geo' key: a plain Parquet table)",
    ),
    "another CRS": ("parcels", _in_crs(3857), "its CRS (WGS 84 / Pseudo-Mercator, EPSG:3857)"),
}


@pytest.mark.parametrize("name", list(DATASETS))
def test_a_bad_file_of_a_dataset_is_named_with_what_to_do(runner, tmp_path, name):
    """One run: exit 2, one line naming the file of the folder (and the row, for a geometry),
    no traceback, no output. Until 2026-12-05 'geo' metadata that was not GeoParquet's ended
    in a traceback (exit 3), a geometry that was not WKB was named by the folder alone, and a
    column typed otherwise than in the first file by the folder, Arrow's words."""
    role, second, needle = DATASETS[name]
    folder = _dataset(tmp_path, role, second)
    out = tmp_path / "report.json"
    if role == "parcels":
        args = ["check", str(folder), "--signs", str(SIGNS)]
    else:
        args = ["check", str(PARCELS), "--signs", str(folder)]
    res = runner.invoke(main, [*args, "--rules", "florida", "--json", str(out)])
    _exit_2_naming(res, folder / "part.2.parquet", needle)
    assert not out.exists()


@pytest.mark.parametrize(
    ("role", "other"),
    [("parcels", "export/parcels.geojson"), ("signs", "IMG_0001.jpg"), ("parcels", "lots.gdb")],
)
def test_a_dataset_folder_with_data_of_another_format_is_refused(runner, tmp_path, role, other):
    """A dataset is read from its Parquet files: a GeoJSON export beside them (in a sub-folder
    too), a photo in a folder of signs or a file geodatabase was left out without a word, its
    features in no output. Refused, naming it (exit 2, no output); files that are not data the
    check reads (a README, Spark's ``_SUCCESS`` and ``.crc`` files) are passed over."""
    folder = _dataset(tmp_path, role)
    for name in ("README.txt", "_SUCCESS", ".part.1.parquet.crc"):
        (folder / name).write_text("x")
    args = ["check", str(folder), "--signs", str(SIGNS)]
    if role == "signs":
        args = ["check", str(PARCELS), "--signs", str(folder)]
    out = tmp_path / "report.json"
    res = runner.invoke(main, [*args, "--rules", "florida", "--json", str(out)])
    assert res.exit_code == 1 and out.exists(), res.stderr  # (a verdict: read)
    out.unlink()
    (folder / other).parent.mkdir(exist_ok=True)
    if other.endswith(".gdb"):
        (folder / other).mkdir()
    else:
        (folder / other).write_text("{}")
    res = runner.invoke(main, [*args, "--rules", "florida", "--json", str(out)])
    _exit_2_naming(
        res, folder, f"2 Parquet file(s), but it also holds data of another format ({other})"
    )
    assert not out.exists()


# -- XML with external entities ----------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".kml", ".gpx"])
def test_external_entities_never_read_local_files(runner, tmp_path, suffix):
    """A DOCTYPE declaring an entity that points at a local file (XXE): the file's text must
    appear nowhere; the KML reader refuses the file, the GPX reader leaves the entity out."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-4711")
    root, point = (
        (
            "kml",
            "<Placemark><name>&xxe;</name><Point><coordinates>-81.1201322,28.7450931"
            "</coordinates></Point></Placemark>",
        )
        if suffix == ".kml"
        else ("gpx", '<wpt lat="28.7450931" lon="-81.1201322"><name>&xxe;</name></wpt>')
    )
    ns = (
        'xmlns="http://www.opengis.net/kml/2.2"><Document>' + point + "</Document>"
        if suffix == ".kml"
        else 'version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">' + point
    )
    xml = (
        f'<?xml version="1.0"?>\n<!DOCTYPE {root} [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
        f"<{root} {ns}</{root}>\n"
    )
    f = tmp_path / f"xxe{suffix}"
    f.write_text(xml)
    res = runner.invoke(
        main,
        [
            "check",
            str(PARCELS),
            "--signs",
            str(f),
            "--geojson",
            "-",
            "--map",
            str(tmp_path / "m.html"),
        ],
    )
    assert "TOP-SECRET" not in res.stdout + res.stderr
    if (tmp_path / "m.html").exists():
        assert "TOP-SECRET" not in (tmp_path / "m.html").read_text()
    if suffix == ".kml":
        _exit_2_naming(res, f, "not a readable geospatial file")
    else:
        assert res.exit_code == 1
        markers = [
            x for x in json.loads(res.stdout)["features"] if x["properties"].get("source") == str(f)
        ]
        assert len(markers) == 1


# -- files that are read right -------------------------------------------------------------------


def _statuses(runner, *args: str) -> list[str]:
    res = runner.invoke(main, ["check", *args, "--json", "-", "-q"])
    assert res.exit_code == 1, res.stderr
    return [p["status"] for p in json.loads(res.stdout)["parcels"]]


@pytest.mark.parametrize(
    ("name", "write", "warning"),
    [
        ("BOM", lambda t: t.encode("utf-8-sig"), None),
        ("UTF-16", lambda t: t.encode("utf-16"), None),
        ("semicolons", lambda t: t.replace(",", ";").encode(), None),
        (
            "semicolons and decimal commas",
            lambda t: "\n".join(
                ";".join(
                    c.replace(".", ",") if c.replace(".", "").lstrip("-").isdigit() else c
                    for c in line.split(",")
                )
                for line in t.splitlines()
            ).encode(),
            None,
        ),
        ("tabs", lambda t: t.replace(",", "\t").encode(), None),
        ("Latin-1", lambda t: t.replace("Harney", "Härney").encode("latin-1"), "not UTF-8"),
    ],
)
def test_awkward_csv_files_are_read_right(runner, tmp_path, name, write, warning):
    """The sample's signs, saved as a spreadsheet might: the same verdicts as the clean file."""
    f = tmp_path / "signs.csv"
    f.write_bytes(write(SIGNS.read_text(encoding="utf-8")))
    want = _statuses(runner, str(PARCELS), "--signs", str(SIGNS))
    assert _statuses(runner, str(PARCELS), "--signs", str(f)) == want
    res = runner.invoke(main, ["check", str(PARCELS), "--signs", str(f)])
    assert "markers: 228 read, 226 assigned, 2 unassigned" in res.stderr
    if warning:
        assert f"warning: {f}: is not UTF-8 text" in res.stderr


def test_a_flatgeobuf_row_without_geometry_is_an_invalid_parcel_not_a_crash(runner, tmp_path):
    """A FlatGeobuf file without a spatial index (the only kind that can hold a row without
    geometry) read through GDAL's Arrow reader crashed the command (a segmentation fault, no
    message): in a process of its own, as a user runs it."""
    parcels = gpd.read_file(PARCELS)
    parcels.loc[3, "geometry"] = None
    path = tmp_path / "parcels.fgb"
    parcels.to_file(path, driver="FlatGeobuf", engine="pyogrio", SPATIAL_INDEX="NO")
    out = tmp_path / "report.json"
    script = Path(sys.executable).parent / "posting"
    args = ["check", str(path), "--signs", str(SIGNS), "--json", str(out), "-q"]
    res = subprocess.run(
        [str(script), *args],
        capture_output=True,
        check=False,
    )
    assert res.returncode == 1, (res.returncode, res.stderr.decode()[-2000:])
    got = json.loads(out.read_text())["parcels"]
    assert got[3]["status"] == "invalid" and "no geometry" in got[3]["invalid_reason"]
    # every other parcel as the GeoJSON gives it
    want = _statuses(runner, str(PARCELS), "--signs", str(SIGNS))
    assert [p["status"] for p in got[:3] + got[4:]] == want[:3] + want[4:]


def test_unicode_names_in_and_out(runner, tmp_path):
    folder = tmp_path / "données été"
    folder.mkdir()
    parcels = folder / "土地 台帳.geojson"
    signs = folder / "panneaux à vérifier.csv"
    shutil.copy(PARCELS, parcels)
    shutil.copy(SIGNS, signs)
    out = folder / "rapport é.json"
    res = runner.invoke(main, ["check", str(parcels), "--signs", str(signs), "--json", str(out)])
    assert res.exit_code == 1
    assert json.loads(out.read_text())["summary"]["parcels"] == 29
    same = runner.invoke(
        main, ["check", str(parcels), "--signs", str(signs), "--geojson", str(parcels)]
    )
    _exit_2_naming(same, parcels, "would overwrite the parcels")


def test_an_output_path_equal_to_an_input_path(runner, tmp_path):
    parcels = tmp_path / "p.geojson"
    shutil.copy(PARCELS, parcels)
    before = parcels.read_bytes()
    res = runner.invoke(
        main, ["check", str(parcels), "--signs", str(SIGNS), "--geojson", str(parcels)]
    )
    _exit_2_naming(res, parcels, "--geojson would overwrite the parcels")
    assert parcels.read_bytes() == before


def test_a_read_only_output_folder(runner, tmp_path):
    """Refused before reading, in one line. Root writes in any folder whatever its mode, so
    as root the folder is made immutable (chattr +i) instead; a disk without that attribute
    skips the test there."""
    ro = tmp_path / "read-only"
    ro.mkdir()
    ro.chmod(0o555)
    immutable = os.geteuid() == 0
    if immutable:
        made = subprocess.run(["chattr", "+i", str(ro)], capture_output=True, check=False)
        if made.returncode != 0:
            pytest.skip(f"root, and chattr +i is not available here: {made.stderr!r}")
    try:
        out = ro / "r.json"
        res = runner.invoke(
            main, ["check", str(PARCELS), "--signs", str(SIGNS), "--json", str(out)]
        )
        line = _exit_2_naming(res, out, f"--json: cannot write in folder {ro} (")
        assert line.endswith(("(Permission denied)", "(Operation not permitted)"))
        assert list(ro.iterdir()) == []
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(ro)], check=True)
        ro.chmod(0o755)
