"""Test helpers: a local CRS in international feet, tiny geometries built in code, and the
real public layers in ../shared/data (mandatory when POSTING_REQUIRE_REAL_DATA=1, as in CI)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import shapely
from pyproj import CRS

from posting.io import MarkerLayer, ParcelLayer

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data"
SHARED_DATA = ROOT.parent / "shared" / "data"

# A transverse Mercator in international feet with scale 1 at the origin (central Florida):
# coordinates are feet on the ground, so hand-computed figures hold exactly.
LOCAL_FT = CRS.from_proj4(
    "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
)


def parcels(*geoms, ids=None, owners=None, crs=LOCAL_FT) -> ParcelLayer:
    """A parcel layer from shapely geometries (feet around the local origin by default)."""
    return ParcelLayer.from_geometries(list(geoms), crs, ids=ids, owners=owners)


def markers(points, crs=LOCAL_FT, **kw) -> MarkerLayer:
    """A marker layer from (x, y) pairs."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    return MarkerLayer.from_points(pts[:, 0], pts[:, 1], crs, **kw)


def square(side: float = 1000.0, x0: float = 0.0, y0: float = 0.0) -> shapely.Polygon:
    return shapely.box(x0, y0, x0 + side, y0 + side)


def require_real_data(path: Path) -> Path:
    """The path of a shared real layer; a failure in CI, a skip elsewhere, when it is missing."""
    if path.exists():
        return path
    if os.environ.get("POSTING_REQUIRE_REAL_DATA") == "1":
        pytest.fail(f"real data layer {path} is missing, and CI requires it")
    pytest.skip(f"real data layer {path} is not here")
    raise AssertionError  # unreachable
