"""Water, exemptions and merged properties on the real layers, each figure cross-checked by an
independent computation (geopandas, in a UTM zone, with loops where the engine has none)."""

from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import pytest
import shapely
from click.testing import CliRunner
from helpers import SHARED_DATA, require_real_data

from posting.cli import main

pytestmark = pytest.mark.realdata

FT = 0.3048
OPEN_WATER = ("Lake", "Freshwater Pond", "Riverine", "Estuarine and Marine Wetland")


def run(*args):
    res = CliRunner().invoke(main, ["check", *map(str, args), "--json", "-", "-q"])
    assert res.exit_code in (0, 1), res.stderr
    return json.loads(res.stdout)


@pytest.fixture(scope="module")
def williamsburg():
    parcels = require_real_data(SHARED_DATA / "williamsburg-va/parcels.geojson")
    wetlands = require_real_data(SHARED_DATA / "williamsburg-va/wetlands.geojson")
    where = "WETLAND_TY in (" + ",".join(f"'{w}'" for w in OPEN_WATER) + ")"
    d = run(
        parcels,
        "--rules",  # Florida's five-acre dwelling exemption, on real lots (they lie in Virginia)
        "florida",
        "--id-field",
        "PID",
        "--water",
        wetlands,
        "--water-where",
        where,
        "--dwelling-where",
        "LUCat=O-SFD,R-SFD",
        "--acres-field",
        "AreaAc",
    )
    return d, gpd.read_file(parcels), gpd.read_file(wetlands)


def test_williamsburg_parcels_fronting_open_water(williamsburg):
    d, parcels, wetlands = williamsburg
    ours = {p["row"] for p in d["parcels"] if (p["water_frontage_ft"] or 0) > 0}
    # independently: UTM 18N metres; the boundary within 30 ft of open water, pieces of 90 ft+
    utm = 32618
    water = wetlands[wetlands["WETLAND_TY"].isin(OPEN_WATER)].to_crs(utm)
    zone = shapely.union_all(water.geometry.buffer(30 * FT).to_numpy())
    theirs = set()
    for row, geom in enumerate(parcels.to_crs(utm).geometry):
        if geom is None or not geom.is_valid:
            continue
        pieces = shapely.get_parts(shapely.line_merge(geom.boundary.intersection(zone)))
        if any(piece.length >= 90 * FT for piece in pieces if piece.geom_type == "LineString"):
            theirs.add(row)
    assert len(ours) > 10
    assert ours == theirs


def test_williamsburg_small_house_lots_are_exempt(williamsburg):
    d, parcels, _ = williamsburg
    ours = {p["row"] for p in d["parcels"] if p["status"] == "exempt"}
    # independently: a single-family category, valid geometry, at most 5 acres on an equal-area
    # projection (CONUS Albers), no engine code involved
    area = parcels.to_crs(5070).area / 4046.8564224
    house = parcels["LUCat"].isin(["O-SFD", "R-SFD"]) & parcels.geometry.notna()
    valid = parcels.geometry.is_valid.fillna(False).astype(bool)
    theirs = set(np.flatnonzero((house & valid & (area <= 5)).to_numpy()))
    assert len(ours) > 1000
    assert ours == theirs
    assert all("810.011(5)(b)" in p["exemption"] for p in d["parcels"] if p["status"] == "exempt")
    recorded = [
        (p["recorded_acres"], p["area_acres"])
        for p in d["parcels"]
        if p["recorded_acres"] and p["area_acres"] and p["recorded_acres"] > 0.1
    ]
    ratio = np.array([a / r for r, a in recorded])
    assert np.median(np.abs(ratio - 1)) < 0.01


def test_pacific_one_owner_adjoining_lots_are_one_property():
    path = require_real_data(SHARED_DATA / "pacific-wa/taxlots.geojson")
    d = run(path, "--id-field", "ASSESSOR", "--owner-field", "OWNER", "--merge-owner", "OWNER")
    lots = gpd.read_file(path)
    # every input lot is in exactly one property
    rows = [r for p in d["parcels"] for r in (p.get("source_ids") or [p["id"]])]
    assert sorted(rows) == sorted(lots["ASSESSOR"].astype(str))
    # independently: union-find over same-owner lots (UTM 10N) sharing 5 ft of boundary within 1 ft
    utm = lots.to_crs(32610)
    geoms = np.array(
        [g if g is None or g.is_valid else shapely.make_valid(g) for g in utm.geometry],
        dtype=object,
    )  # repaired, as the engine does
    ok = np.array([g is not None and not g.is_empty and g.area > 0 for g in geoms])
    parent = list(range(len(lots)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    tree = shapely.STRtree(geoms)
    a, b = tree.query(geoms, predicate="dwithin", distance=1 * FT)
    owner = lots["OWNER"].astype(str).str.casefold().to_numpy()
    for i, j in zip(a, b, strict=True):
        if i < j and ok[i] and ok[j] and owner[i] == owner[j]:
            shared = geoms[i].boundary.intersection(geoms[j].buffer(1 * FT, quad_segs=2)).length
            if shared >= 5 * FT:
                parent[find(i)] = find(j)
    components = len({find(i) for i in range(len(lots))})
    assert len(d["parcels"]) == components
    assert components < 0.5 * len(lots)
