"""The real public layers in ../shared/data: all load, every feature is accounted for, lengths
agree with geodesic lengths, and markers built independently go where they belong.

CI sets POSTING_REQUIRE_REAL_DATA=1, so a missing layer fails these tests instead of skipping.
"""

from __future__ import annotations

import collections
import json

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import SHARED_DATA, require_real_data
from pyproj import CRS, Geod, Transformer

from posting import check, read_parcels
from posting.io import MarkerLayer

pytestmark = pytest.mark.realdata

GEOD = Geod(ellps="WGS84")
LAYERS = {
    "williamsburg": ("williamsburg-va/parcels.geojson", "PID", 4464),
    "pacific": ("pacific-wa/taxlots.geojson", "ASSESSOR", 5433),
    "seminole": ("seminole-fl/parcels.geojson", "PARCEL", 50),
}


def raw_features(path):
    """The features as plain JSON: an independent reading of the file."""
    return json.loads(path.read_text())["features"]


@pytest.fixture(scope="module", params=list(LAYERS))
def layer(request):
    rel, id_field, n = LAYERS[request.param]
    path = require_real_data(SHARED_DATA / rel)
    report = check(read_parcels(path, id_field=id_field))
    return request.param, path, id_field, n, report


def test_every_feature_is_accounted_for(layer):
    _name, path, id_field, n, report = layer
    feats = raw_features(path)
    assert len(feats) == n
    d = report.to_dict()
    assert [p["row"] for p in d["parcels"]] == list(range(n))
    assert [p["id"] for p in d["parcels"]] == [str(f["properties"][id_field]) for f in feats]
    # with no markers, every parcel with usable geometry is unposted, and the rest invalid
    no_geometry = sum(f["geometry"] is None for f in feats)
    counts = d["summary"]["status"]
    assert counts["unposted"] + counts["invalid"] == n
    assert counts["invalid"] >= no_geometry
    dup = {
        k: c
        for k, c in collections.Counter(str(f["properties"][id_field]) for f in feats).items()
        if c > 1
    }
    assert {k: len(v) for k, v in d["duplicate_ids"].items()} == dup


def test_known_faults_of_each_layer(layer):
    name, path, _, _, report = layer
    d = report.to_dict()
    repaired = sum("repaired" in p for p in d["parcels"])
    invalid = [p for p in d["parcels"] if p["status"] == "invalid"]
    src = gpd.read_file(path)
    n_invalid = int((~src.geometry.is_valid & src.geometry.notna()).sum())
    assert repaired + len(invalid) == n_invalid + int(src.geometry.isna().sum())
    if name == "williamsburg":  # SOURCES.md: 2 rows share a PID, 1 has no geometry
        assert sum(len(v) for v in d["duplicate_ids"].values()) == 2
        assert [p["invalid_reason"] for p in invalid] == ["no geometry"]
    if name == "pacific":  # ASSESSOR is not unique: 3,266 rows share a value
        assert sum(len(v) for v in d["duplicate_ids"].values()) == 3266


def test_perimeters_agree_with_geodesic_lengths(layer):
    name, path, _, _, report = layer
    src = gpd.read_file(path)
    lonlat = src.to_crs(4326).geometry.to_numpy()
    p = report.parcels
    ok = p["status"].eq("unposted").to_numpy() & p["repaired"].isna().to_numpy()
    # pyproj's geometry_length of a polygon follows its exterior only: sum every ring.
    rings, owner = shapely.get_rings(
        shapely.get_parts(lonlat[ok], return_index=True)[0], return_index=True
    )
    part_owner = shapely.get_parts(lonlat[ok], return_index=True)[1]
    per_ring = np.array([GEOD.geometry_length(r) for r in rings]) / 0.3048
    geodesic = np.bincount(part_owner[owner], weights=per_ring, minlength=int(ok.sum()))
    measured = p.loc[ok, "perimeter_ft"].to_numpy()
    rel = np.abs(measured / geodesic - 1)
    assert rel.max() < 1e-3  # the bound: 0.1 %
    if name == "seminole":  # State Plane grid lengths: within 1:10,000 of the ground
        assert rel.max() < 1e-4
    else:  # the local transverse Mercator: within 1:100,000
        assert rel.max() < 1e-5


def test_areas_agree_with_the_recorded_acreage(layer):
    name, path, _, _, report = layer
    col = {"williamsburg": "AreaAc", "pacific": "ACRES", "seminole": "GIS_ACRES"}[name]
    src = gpd.read_file(path)
    recorded = pd.to_numeric(src[col], errors="coerce").to_numpy()
    ours = report.parcels["area_acres"].to_numpy()
    ok = np.isfinite(recorded) & np.isfinite(ours) & (recorded > 0.05)
    ratio = ours[ok] / recorded[ok]
    assert np.median(np.abs(ratio - 1)) < 0.01  # assessors' acreage, not a survey


def _local(lonlat_geoms):
    lon0 = float(np.mean(shapely.bounds(lonlat_geoms)[:, [0, 2]]))
    lat0 = float(np.mean(shapely.bounds(lonlat_geoms)[:, [1, 3]]))
    crs = CRS.from_proj4(f"+proj=aeqd +lat_0={lat0} +lon_0={lon0} +datum=WGS84 +units=ft")
    fwd = Transformer.from_crs(4326, crs, always_xy=True)
    inv = Transformer.from_crs(crs, 4326, always_xy=True)
    return fwd, inv


def _markers_inside(lonlat_geoms, inset_ft, every_ft):
    """Independent marker layout: every vertex and every ``every_ft`` along each exterior,
    ``inset_ft`` inside the parcel (a negative buffer in a local azimuthal projection)."""
    fwd, inv = _local(lonlat_geoms)

    def apply(tr):
        return lambda xy: np.column_stack(tr.transform(xy[:, 0], xy[:, 1]))

    local = shapely.transform(lonlat_geoms, apply(fwd))
    inner = shapely.buffer(local, -inset_ft, join_style="mitre")
    rings, owner = shapely.get_rings(
        shapely.get_parts(inner, return_index=True)[0], return_index=True
    )
    parts_owner = shapely.get_parts(inner, return_index=True)[1]
    ring_owner = parts_owner[owner]
    vx, vidx = shapely.get_coordinates(rings, return_index=True)
    length = shapely.length(rings)
    n = np.ceil(length / every_ft).astype(int)
    ridx = np.repeat(np.arange(len(rings)), n)
    frac = (np.arange(n.sum()) - np.repeat(np.r_[0, np.cumsum(n)[:-1]], n)) / np.repeat(n, n)
    ivx = shapely.get_coordinates(
        shapely.line_interpolate_point(rings[ridx], frac, normalized=True)
    )
    xy = np.vstack([vx, ivx])
    owners = np.r_[ring_owner[vidx], ring_owner[ridx]]
    lon, lat = inv.transform(xy[:, 0], xy[:, 1])
    return np.asarray(lon), np.asarray(lat), owners


def test_seminole_posted_all_round_is_compliant():
    path = require_real_data(SHARED_DATA / "seminole-fl/parcels.geojson")
    layer = read_parcels(path, id_field="PARCEL")
    src = gpd.read_file(path).to_crs(4326)
    lon, lat, owners = _markers_inside(src.geometry.to_numpy(), 3.0, 250.0)
    report = check(layer, MarkerLayer.from_points(lon, lat, "EPSG:4326"))
    assert (report.markers["parcel"].to_numpy() == owners).all()
    assert report.parcels["status"].eq("compliant").all(), report.parcels["status"].value_counts()
    assert report.exit_code == 0


@pytest.mark.parametrize("name", ["williamsburg", "pacific"])
def test_markers_go_to_the_parcel_they_stand_in(name):
    rel, id_field, _ = LAYERS[name]
    path = require_real_data(SHARED_DATA / rel)
    layer = read_parcels(path, id_field=id_field)
    src = gpd.read_file(path).to_crs(4326)
    valid = src.geometry.notna() & src.geometry.is_valid
    geoms = src.geometry.to_numpy()
    lon, lat, owners = _markers_inside(geoms[valid.to_numpy()], 3.0, 400.0)
    owners = np.flatnonzero(valid.to_numpy())[owners]
    report = check(layer, MarkerLayer.from_points(lon, lat, "EPSG:4326"))
    got = report.markers["parcel"].to_numpy()
    assert len(got) == len(lon)
    # Where the marker stands in exactly one parcel (a plain spatial join says so), that is
    # the parcel it posts. Invalid parcels count too, repaired: one that overlaps a valid
    # parcel makes the marker stand in two.
    pts = gpd.GeoDataFrame(geometry=gpd.points_from_xy(lon, lat), crs=4326)
    repaired = src[src.geometry.notna()].reset_index(names="parcel")
    repaired["geometry"] = repaired.geometry.make_valid()
    hits = gpd.sjoin(pts, repaired, predicate="within")
    single = hits.groupby(level=0)["parcel"].agg(["size", "first"])
    single = single[single["size"] == 1]
    idx = single.index.to_numpy()
    assert (got[idx] == single["first"].to_numpy()).mean() == 1.0
    assert len(idx) > 0.9 * len(lon)
    assert (got[idx] == owners[idx]).all()
