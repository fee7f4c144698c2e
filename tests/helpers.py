"""Test helpers: a local CRS in international feet, tiny geometries built in code, and the
real public layers in ../shared/data (mandatory when POSTING_REQUIRE_REAL_DATA=1, as in CI)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import shapely
from pyproj import CRS

from posting import dissolve as dissolve_module
from posting.io import MarkerLayer, ParcelLayer
from posting.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data"
SHARED_DATA = ROOT.parent / "shared" / "data"

# A transverse Mercator in international feet with scale 1 at the origin (central Florida):
# coordinates are feet on the ground, so hand-computed figures hold exactly.
LOCAL_FT = CRS.from_proj4(
    "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
)


# Land at sea level (coastal Florida): the lengths measured are the ground's. Without it (the
# land's elevation not given), a parcel's land may lie anywhere between its state's lowest and
# highest points, and a gap of exactly 500 ft in Florida (0-345 ft: up to 500.008 ft on the
# ground) is uncertain; the tests whose hand figures sit exactly at a limit give it.
AT_SEA = Settings(elevation_ft=0)


# A 1,000 ft square's four corners and four side midpoints: 500 ft apart all round.
CORNERS_AND_MIDPOINTS = [
    (0, 0),
    (500, 0),
    (1000, 0),
    (1000, 500),
    (1000, 1000),
    (500, 1000),
    (0, 1000),
    (0, 500),
]


def parcels(*geoms, ids=None, owners=None, crs=LOCAL_FT) -> ParcelLayer:
    """A parcel layer from shapely geometries (feet around the local origin by default)."""
    return ParcelLayer.from_geometries(list(geoms), crs, ids=ids, owners=owners)


def markers(points, crs=LOCAL_FT, **kw) -> MarkerLayer:
    """A marker layer from (x, y) pairs."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    return MarkerLayer.from_points(pts[:, 0], pts[:, 1], crs, **kw)


def square(side: float = 1000.0, x0: float = 0.0, y0: float = 0.0) -> shapely.Polygon:
    return shapely.box(x0, y0, x0 + side, y0 + side)


def flag_lot() -> tuple[shapely.Polygon, list[tuple[float, float]]]:
    """A flag lot (a 25 ft pole from the road, 200 ft long, to a 300 by 300 ft body) and its
    signs: one at each corner and along the sides, but one sign alone in the middle of the
    road frontage, 12.5 ft from both road corners (it serves one of them)."""
    lot = shapely.Polygon([(0, 0), (25, 0), (25, 200), (300, 200), (300, 500), (0, 500)])
    rest = [(300, 200), (300, 500), (0, 500), (25, 200), (0, 250), (150, 500), (300, 350)]
    rest += [(150, 200), (25, 100), (0, 100)]
    return lot, [(12.5, 0.0), *rest]


def content_violations(parcel: dict) -> dict[str, dict]:
    """The violations of one parcel of ``Report.to_dict()`` by rule, after checking that it is
    the one the sign-content tests build: noncompliant through one sign of 1.75-inch letters,
    one without the words and one without the name (eight signs at the square's corners and
    midpoints, each 500 ft apart)."""
    assert parcel["status"] == "noncompliant"
    v = {x["rule"]: x for x in parcel["violations"]}
    assert v["letter_height"]["count"] == 1 and v["letter_height"]["measured"] == 1.75
    assert v["sign_text"]["count"] == 1 and v["name_on_sign"]["count"] == 1
    return v


def require_real_data(path: Path) -> Path:
    """The path of a shared real layer; a failure in CI, a skip elsewhere, when it is missing."""
    if path.exists():
        return path
    if os.environ.get("POSTING_REQUIRE_REAL_DATA") == "1":
        pytest.fail(f"real data layer {path} is missing, and CI requires it")
    pytest.skip(f"real data layer {path} is not here")
    raise AssertionError  # unreachable


def combine_markers(*layers: MarkerLayer) -> MarkerLayer:
    """Several marker layers as one, as if read from several files."""
    import pandas as pd

    layers = [m for m in layers if len(m.files)]
    if not layers:
        return MarkerLayer.empty()
    offsets = np.cumsum([0] + [len(m.files) for m in layers[:-1]])
    return MarkerLayer(
        source=np.concatenate([m.source for m in layers]),
        row=np.concatenate([m.row for m in layers]),
        x=np.concatenate([m.x for m in layers]),
        y=np.concatenate([m.y for m in layers]),
        lon=np.concatenate([m.lon for m in layers]),
        lat=np.concatenate([m.lat for m in layers]),
        file_index=np.concatenate([m.file_index + k for m, k in zip(layers, offsets, strict=True)]),
        files=[f for m in layers for f in m.files],
        reason=np.concatenate([m.reason for m in layers]),
        attributes=pd.concat([m.attributes for m in layers], ignore_index=True),
    )


def planned_markers(plan) -> MarkerLayer:
    """A plan's new markers as a marker layer (source ``<plan>``, row = row of plan.markers)."""
    import pandas as pd

    m = plan.markers
    return MarkerLayer.from_points(
        m["lon"].to_numpy(dtype=float),
        m["lat"].to_numpy(dtype=float),
        "EPSG:4326",
        source="<plan>",
        # what the plan's exports carry, as a survey of the placed signs records them
        attributes=pd.DataFrame(
            {
                "kind": m["kind"].to_numpy(dtype=object),
                "name_on_sign": m["name_on_sign"].to_numpy(dtype=object),
            }
        ),
    )


PROFILE_HEAD = """schema = 1
name = "{name}"
title = "A profile of the tests"
jurisdiction = "{jurisdiction}"
citation = "Test Code 1"
source_url = "https://example.org/test"
purpose = "test"
verification = "unverified"
kinds = {kinds}
"""


def profile_file(
    tmp_path: Path,
    tables: str,
    *,
    name: str = "own",
    kinds=("sign",),
    jurisdiction: str = "Nowhere",
) -> str:
    """A rule profile of one's own: the common keys, then ``tables`` (TOML), in ``tmp_path``."""
    path = tmp_path / f"{name}.toml"
    head = PROFILE_HEAD.format(
        name=name, jurisdiction=jurisdiction, kinds="[" + ", ".join(f'"{k}"' for k in kinds) + "]"
    )
    path.write_text(head + "\n" + tables)
    return str(path)


def gpkg_sql(path: Path | str, *statements: str) -> None:
    """Run SQL ``statements`` on a GeoPackage written by GDAL, its triggers dropped first
    (they call SpatiaLite's functions, which Python's sqlite3 lacks): to damage a geometry
    as a broken tool would (``UPDATE t SET geom = X'00112233' ...``)."""
    import contextlib
    import sqlite3

    with contextlib.closing(sqlite3.connect(path)) as db:
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"):
            db.execute(f'DROP TRIGGER "{name}"')
        for sql in statements:
            db.execute(sql)
        db.commit()


def one_line_error(res, *needles: str) -> str:
    """The one line a command refusing its input printed (exit status 2, ``posting: error:``,
    no traceback), checked to hold each of ``needles``."""
    assert res.exit_code == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("posting: error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def tiled(f, *args, **kwargs):
    """``f`` with every piece of more than 4 vertices cut into tiles (boxes once, hulls and
    grown lines until no cut helps): the county's rivers are cut so, at 500 vertices."""
    saved = dissolve_module.MAX_TILE_VERTICES
    dissolve_module.MAX_TILE_VERTICES = 4
    try:
        return f(*args, **kwargs)
    finally:
        dissolve_module.MAX_TILE_VERTICES = saved
