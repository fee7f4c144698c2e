"""Generate the bundled sample: a small rural neighbourhood in Seminole County, Florida.

Run ``python data/make_sample.py [FOLDER]`` to rebuild the files beside this script (or in
FOLDER); the output is
deterministic (fixed seed, fixed rounding), so a rebuild changes nothing unless this script
changes.

What it holds (local plan in international feet, origin near Geneva, FL):

* a county road running east-west (60 ft right of way, not a parcel);
* ten river lots N01-N10 north of the road whose north line follows the river bank (curved);
* five 20-acre tracts S1-S5 south of the road: S1 surrounds a pond that is not part of it (a
  hole), S3 surrounds a cemetery outparcel (a hole, and its own parcel CEM), S5 has a detached
  second part (a multipolygon);
* twelve small house lots L01-L12 on a side street; L01 has its corner cut by a chamfer, L05
  was digitised with a twisted corner (an invalid ring, repaired by the checker);
* one tax-roll row with no geometry (a condominium record, U1);
* the river and the pond (``water.geojson``), the houses (``dwellings.geojson``), a 4 ft wire
  fence round S4 and a 2.5 ft one round the cemetery (``fences.geojson``), a power-line
  easement along the river lots' road frontage (``easements.geojson``); N08 is cropland.

Markers are signs set 6 ft inside the line (from both lines at a corner) and surveyed with an
averaging handheld GPS (noise of 2 ft per axis). The
scenarios, by parcel: compliant (N01-N05, N10, S3, S5, CEM, L01, L05, L07 with the GPX file);
a long gap (N06); corners without signs (N07); no signs at all (N08, S4 and most house lots); a
gap just under the limit that a phone-grade survey cannot settle (N09, uncertain with
``--accuracy-ft 16``); letters too small (S2); an unposted pond shore (S1). One sign stands in
the road (it still posts N10), one stands far from any parcel, and one row has no latitude.
``signs-added.gpx`` holds the signs a phone app recorded on L07 later.
"""

from __future__ import annotations

import csv
import json
import math
import sys
from pathlib import Path

import numpy as np
import shapely
from pyproj import CRS, Transformer

HERE = Path(__file__).resolve().parent
SEED = 20261130
LON0, LAT0 = -81.115, 28.745
LOCAL = CRS.from_proj4(
    f"+proj=tmerc +lat_0={LAT0} +lon_0={LON0} +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft"
)
TO_LONLAT = Transformer.from_crs(LOCAL, "EPSG:4326", always_xy=True)

ROAD_N, ROAD_S = 30.0, -30.0
SIGN_SPACING_FT = 240.0
GPS_SIGMA_FT = 2.0
SETBACK_FT = 6.0


def bank(x: np.ndarray) -> np.ndarray:
    """South bank of the river: a gentle meander about 1,250 ft north of the road."""
    return 1250.0 + 110.0 * np.sin(x / 420.0) + 40.0 * np.sin(x / 150.0 + 1.0)


def river() -> shapely.Polygon:
    x = np.arange(-2200.0, 2600.1, 20.0)
    south = np.column_stack([x, bank(x)])
    north = np.column_stack([x[::-1], bank(x[::-1]) + 90.0 + 20 * np.cos(x[::-1] / 300.0)])
    return shapely.Polygon(np.vstack([south, north]))


def river_lot(x0: float, x1: float) -> shapely.Polygon:
    xs = np.arange(x1, x0 - 0.1, -20.0)
    if xs[-1] != x0:
        xs = np.r_[xs, x0]
    north = np.column_stack([xs, bank(xs)])
    return shapely.Polygon(np.vstack([[[x0, ROAD_N], [x1, ROAD_N]], north]))


def parcels() -> list[dict]:
    out = []
    owners = ["Harney Timber LLC"] * 4 + [
        "Maria Lopez",
        "Osceola Cattle Co",
        "James & Ruth Whitfield",
        "Estate of A. Burke",
        "Geneva Land Trust",
        "Sanford Pines LLC",
    ]
    for k in range(10):
        x0 = -1650.0 + 330.0 * k
        out.append(
            {
                "parcel_id": f"N{k + 1:02d}",
                "owner": owners[k],
                "landuse": "CROPLAND" if k == 7 else "TIMBER",  # N08 is planted with a crop
                "geometry": river_lot(x0, x0 + 330.0),
            }
        )
    pond = shapely.Point(-1320.0, -680.0).buffer(180.0, quad_segs=16)
    cemetery = shapely.box(-100.0, -780.0, 100.0, -580.0)
    south_owner = [
        "Lake Harney Farms",
        "Chuluota Ranch Inc",
        "Osceola Cattle Co",
        "Wekiva Holdings LLC",
        "Black Hammock Partners",
    ]
    for k in range(5):
        x0 = -1650.0 + 660.0 * k
        geom: shapely.Geometry = shapely.box(x0, -1330.0, x0 + 660.0, ROAD_S)
        if k == 0:
            geom = geom.difference(pond)
        if k == 2:
            geom = geom.difference(cemetery)
        if k == 4:
            geom = shapely.MultiPolygon([geom, shapely.box(1700.0, -330.0, 2000.0, ROAD_S)])
        out.append(
            {
                "parcel_id": f"S{k + 1}",
                "owner": south_owner[k],
                "landuse": "AGRICULTURAL",
                "geometry": geom,
            }
        )
    out.append(
        {
            "parcel_id": "CEM",
            "owner": "Geneva Cemetery Association",
            "landuse": "CEMETERY",
            "geometry": cemetery,
        }
    )
    # House lots on a side street (x 1650-1700) north of the road: 2 rows of 6.
    lot_owners = [
        "R. Alvarez",
        "K. Nguyen",
        "D. Okafor",
        "P. Schmidt",
        "T. Brennan",
        "L. Moreau",
        "S. Patel",
        "J. Kowalski",
        "A. Haddad",
        "M. Rossi",
        "C. Yamamoto",
        "B. Lindqvist",
    ]
    for k in range(12):
        row, col = divmod(k, 6)
        x0, y0 = 1700.0 + 100.0 * col, ROAD_N + 200.0 * row
        geom = shapely.box(x0, y0, x0 + 100.0, y0 + 200.0)
        if k == 0:  # chamfered corner at the street intersection
            geom = shapely.Polygon(
                [(x0 + 10, y0), (x0 + 100, y0), (x0 + 100, y0 + 200), (x0, y0 + 200), (x0, y0 + 10)]
            )
        if k == 4:  # digitised with a twisted corner: a self-intersecting ring
            geom = shapely.Polygon(
                [
                    (x0, y0),
                    (x0 + 100, y0),
                    (x0 + 100, y0 + 200),
                    (x0 - 0.8, y0 + 199.0),
                    (x0 + 0.8, y0 + 200.6),
                    (x0, y0 + 1),
                ]
            )
        out.append(
            {
                "parcel_id": f"L{k + 1:02d}",
                "owner": lot_owners[k],
                "landuse": "R-SFD",
                "geometry": geom,
            }
        )
    out.append(
        {
            "parcel_id": "U1",
            "owner": "Lakeview Condominium Assn",
            "landuse": "CONDO",
            "geometry": None,
        }
    )
    return out


def corner_vertices(xy: np.ndarray, angle_deg: float = 30.0) -> np.ndarray:
    """Indices of the vertices of a closed ring (no repeat) that turn by at least angle_deg.

    Written independently of posting's corner finder: a plain loop over vertices. The
    chamfer of L01 turns 45° twice; both vertices get a sign, 14 ft apart.
    """
    n = len(xy)
    out = []
    for i in range(n):
        a, b, c = xy[i - 1], xy[i], xy[(i + 1) % n]
        h1 = math.atan2(b[1] - a[1], b[0] - a[0])
        h2 = math.atan2(c[1] - b[1], c[0] - b[0])
        turn = (h2 - h1 + math.pi) % (2 * math.pi) - math.pi
        if abs(math.degrees(turn)) >= angle_deg:
            out.append(i)
    return np.asarray(out, dtype=int)


def sign_plan(ring: shapely.LinearRing, spacing: float) -> list[tuple[float, bool]]:
    """Arc positions (ft) of signs at every corner and evenly between, at most ``spacing`` apart."""
    xy = np.asarray(ring.coords)[:-1]
    seg = np.hypot(*(np.roll(xy, -1, axis=0) - xy).T)
    s = np.r_[0.0, np.cumsum(seg)[:-1]]
    length = float(seg.sum())
    corners = corner_vertices(xy)
    if len(corners) == 0:
        k = max(1, math.ceil(length / spacing))
        return [(length * i / k, False) for i in range(k)]
    out = []
    cs = s[corners]
    for i, a in enumerate(cs):
        b = cs[(i + 1) % len(cs)] + (length if i == len(cs) - 1 else 0.0)
        k = max(1, math.ceil((b - a) / spacing))
        out.append((a, True))
        out += [((a + (b - a) * j / k) % length, False) for j in range(1, k)]
    return out


def place(ring: shapely.LinearRing, positions: list[float], rng: np.random.Generator) -> np.ndarray:
    """Sign points SETBACK_FT inside the line (from both lines at a corner), plus GPS noise.

    Returns x, y and the outward facing azimuth (degrees clockwise from north) of each sign.
    """
    pts = []
    for s in positions:
        p = ring.interpolate(s)
        normals = []
        for a, b in ((s - 2.0, s), (s, s + 2.0)):  # the edges before and after the point
            pa, pb = ring.interpolate(a), ring.interpolate(b)
            tx, ty = pb.x - pa.x, pb.y - pa.y
            norm = math.hypot(tx, ty) or 1.0
            normals.append((-ty / norm, tx / norm))  # left of travel: inside the parcel
        (n1x, n1y), (n2x, n2y) = normals
        # offset that is SETBACK_FT from both edges: n1 + n2 scaled by 1 / (1 + n1.n2)
        k = SETBACK_FT / max(1.0 + n1x * n2x + n1y * n2y, 0.3)
        ox, oy = (n1x + n2x) * k, (n1y + n2y) * k
        facing = math.degrees(math.atan2(-ox, -oy)) % 360
        pts.append(
            (p.x + ox + rng.normal(0, GPS_SIGMA_FT), p.y + oy + rng.normal(0, GPS_SIGMA_FT), facing)
        )
    return np.asarray(pts).reshape(-1, 3)


def rings_of(geom: shapely.Geometry) -> list[shapely.LinearRing]:
    geom = shapely.orient_polygons(geom, exterior_cw=False)
    parts = geom.geoms if geom.geom_type == "MultiPolygon" else [geom]
    return [r for p in parts for r in (p.exterior, *p.interiors)]


def signs(parcel_rows: list[dict], rng: np.random.Generator) -> tuple[list[dict], list[dict]]:
    rows: list[dict] = []
    added: list[dict] = []
    by_id = {p["parcel_id"]: p for p in parcel_rows}
    posted = [
        "N01",
        "N02",
        "N03",
        "N04",
        "N05",
        "N06",
        "N07",
        "N09",
        "N10",
        "S1",
        "S2",
        "S3",
        "S5",
        "CEM",
        "L01",
        "L05",
    ]
    for pid in posted:
        p = by_id[pid]
        # L05's signs were set on the real lot lines, not on its mis-digitised twist
        geom = shapely.box(*p["geometry"].bounds) if pid == "L05" else p["geometry"]
        for r_i, ring in enumerate(rings_of(geom)):
            plan = sign_plan(ring, SIGN_SPACING_FT)
            if pid == "S1" and r_i == 1:
                continue  # the pond shore is left unposted
            if pid == "N06":  # three interval signs missing on the east line: a long gap
                east = [i for i, (s, c) in enumerate(plan) if not c and 330 < s < 1100][:3]
                plan = [q for i, q in enumerate(plan) if i not in east]
            if pid == "N07":  # the two road corners (the ring starts at the south-west one)
                plan = [(s, c) for s, c in plan if not (c and s in (0.0, 330.0))]
            if pid == "N09":  # the east line's first interval stretched to 484 ft
                plan = [(s, c) for s, c in plan if c or not 330 < s < 814] + [(814.0, False)]
            positions = sorted(s for s, _ in plan)
            pts = place(ring, positions, rng)
            for x, y, facing in pts:
                rows.append({"x": x, "y": y, "facing_deg": round(facing), "parcel": pid})
    # One of N10's signs was surveyed in the road right of way, 12 ft south of the lot line.
    n10 = [r for r in rows if r["parcel"] == "N10"]
    road_sign = min(n10, key=lambda r: r["y"])
    road_sign["y"] = ROAD_N - 12.0
    # One sign far from any parcel (a survey point of someone else's), one row with no latitude.
    rows.append({"x": 2900.0, "y": -2500.0, "facing_deg": 180, "parcel": None})
    rows.append({"x": float("nan"), "y": float("nan"), "facing_deg": 0, "parcel": None})
    # L07: recorded later with a phone app (GPX waypoints).
    ring = rings_of(by_id["L07"]["geometry"])[0]
    for k, (x, y, _) in enumerate(place(ring, [s for s, _ in sign_plan(ring, 240.0)], rng)):
        added.append({"x": x, "y": y, "name": f"L07-{k + 1}"})
    return rows, added


def to_lonlat(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lon, lat = TO_LONLAT.transform(np.asarray(x, float), np.asarray(y, float))
    return np.round(lon, 7), np.round(lat, 7)


def geom_lonlat(geom: shapely.Geometry | None) -> dict | None:
    if geom is None:
        return None

    def fn(xy: np.ndarray) -> np.ndarray:
        lon, lat = to_lonlat(xy[:, 0], xy[:, 1])
        return np.column_stack([lon, lat])

    return json.loads(shapely.to_geojson(shapely.transform(geom, fn)))


def write_geojson(path: Path, features: list[dict]) -> None:
    fc = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {k: v for k, v in f.items() if k != "geometry"},
                "geometry": geom_lonlat(f["geometry"]),
            }
            for f in features
        ],
    }
    path.write_text(
        json.dumps(fc, indent=None, separators=(",", ":")).replace(
            '},{"type":"Feature"', '},\n{"type":"Feature"'
        )
        + "\n",
        encoding="utf-8",
    )


def main(out: Path = HERE) -> None:
    """Write the sample files into ``out`` (default: beside this script)."""
    rng = np.random.default_rng(SEED)
    parcel_rows = parcels()
    write_geojson(out / "parcels.geojson", parcel_rows)
    write_geojson(
        out / "water.geojson",
        [
            {"name": "Econlockhatchee River", "type": "Riverine", "geometry": river()},
            {
                "name": "Mud Pond",
                "type": "Freshwater Pond",
                "geometry": shapely.Point(-1320.0, -680.0).buffer(180.0, quad_segs=16),
            },
        ],
    )
    houses = [
        {"parcel": p["parcel_id"], "geometry": p["geometry"].centroid}
        for p in parcel_rows
        if p["landuse"] == "R-SFD"
    ]
    houses.append({"parcel": "N05", "geometry": shapely.Point(-330.0 + 160.0, 300.0)})
    write_geojson(out / "dwellings.geojson", houses)
    # S4's owner fenced it with four-strand wire on 4 ft posts, set 3 ft inside the line; the
    # cemetery has a 2.5 ft ornamental fence (too low to post it).
    s4 = next(p["geometry"] for p in parcel_rows if p["parcel_id"] == "S4")
    cem = next(p["geometry"] for p in parcel_rows if p["parcel_id"] == "CEM")
    write_geojson(
        out / "fences.geojson",
        [
            {
                "kind": "wire",
                "height_ft": 4.0,
                "geometry": s4.buffer(-3.0, join_style="mitre").exterior,
            },
            {
                "kind": "ornamental",
                "height_ft": 2.5,
                "geometry": cem.buffer(-1.0, join_style="mitre").exterior,
            },
        ],
    )
    # A 20 ft power-line easement along the road frontage of the river lots.
    write_geojson(
        out / "easements.geojson",
        [
            {
                "holder": "Florida Power & Light",
                "width_ft": 20,
                "geometry": shapely.box(-1650.0, ROAD_N, 1650.0, ROAD_N + 20.0),
            },
        ],
    )

    rows, added = signs(parcel_rows, rng)
    lon, lat = to_lonlat([r["x"] for r in rows], [r["y"] for r in rows])
    owner = {p["parcel_id"]: p["owner"] for p in parcel_rows}
    with open(out / "signs.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(
            [
                "sign_id",
                "lon",
                "lat",
                "kind",
                "letter_height_in",
                "text",
                "name_on_sign",
                "facing_deg",
                "surveyed",
            ]
        )
        for k, (r, lo, la) in enumerate(zip(rows, lon, lat, strict=True)):
            pid = r["parcel"]
            name = owner.get(pid, "")
            if pid == "N05":
                name = "Lake Harney Hunt Club (lessee)"
            height = "1.5" if pid == "S2" else "3"
            w.writerow(
                [
                    f"G{k + 1:04d}",
                    "" if np.isnan(lo) else f"{lo:.7f}",
                    "" if np.isnan(la) else f"{la:.7f}",
                    "sign",
                    height,
                    "NO TRESPASSING",
                    name,
                    r["facing_deg"],
                    "2026-10-14",
                ]
            )
    alon, alat = to_lonlat([a["x"] for a in added], [a["y"] for a in added])
    wpts = "".join(
        f'  <wpt lat="{la:.7f}" lon="{lo:.7f}">\n    <name>{a["name"]}</name>\n'
        "    <desc>No Trespassing sign</desc>\n  </wpt>\n"
        for a, lo, la in zip(added, alon, alat, strict=True)
    )
    (out / "signs-added.gpx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<gpx version="1.1" creator="posting data/make_sample.py" '
        'xmlns="http://www.topografix.com/GPX/1/1">\n' + wpts + "</gpx>\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
