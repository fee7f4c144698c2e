"""Build ``posting/data/us-states.npy.xz``, the state boundaries that ship with posting.

Run ``.venv/bin/python scripts/make_us_states.py`` (it needs the ``test`` extra, which brings the
``these-united-states`` package from PyPI). It reads the Census Bureau's 2024 TIGER/Line state
shapefile that package ships, simplifies it without gaps or overlaps, checks the result, measures
how far the simplified lines stray from the Census lines in true metres, and writes the file and
its figures. Nothing is downloaded at run time: posting reads only the file written here.

How it simplifies:

1. The state polygons are cut into *arcs*: the pieces of boundary between two points where three
   or more lines meet (the line between two states, or a state's outer limit). Each arc is shared
   by the two states it separates, so simplifying an arc once keeps the coverage seamless.
2. Each arc is simplified by Douglas-Peucker with a tolerance of ``TOLERANCE_M`` metres, converted
   to degrees at the *largest* length of a degree anywhere (111,700 m, a degree of latitude at
   the pole): no removed vertex strays farther than ``TOLERANCE_M`` metres from the line that
   replaces it, at any latitude.
3. Long segments are split every 0.01° (about 1.1 km) along the same straight line in
   longitude/latitude, so that measuring in any local projection reads the same line.
4. The arcs are polygonized, each face goes to the state it overlaps most, and the vertices are
   put on TIGER's own grid of 0.000001°.

Then it checks that the result is a valid coverage with as many polygons per state as the
source, and measures, for every state, the largest distance from any vertex of the Census
boundary to the simplified boundary, in metres on a transverse Mercator through the state's
middle (Alaska: Alaska Albers, EPSG:3338). A point farther than that from the shipped lines is in
the same state in both files.
"""

from __future__ import annotations

import io
import json
import lzma
import sys
import time
from importlib.resources import files
from pathlib import Path

import numpy as np
import pyogrio
import shapely
from pyproj import CRS, Transformer

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "posting" / "data" / "us-states.npy.xz"
TOLERANCE_M = 5.0
METRES_PER_DEGREE_MAX = 111_700.0
SEGMENT_DEG = 0.01
GRID_DEG = 1e-6
SOURCE_PACKAGE = "these-united-states"
SOURCE_VERSION = "1.2.0.24"
SOURCE_LAYER = "tl_2024_us_state"


def read_source() -> tuple[np.ndarray, list[dict]]:
    from importlib.metadata import version

    have = version(SOURCE_PACKAGE)
    if have != SOURCE_VERSION:
        sys.exit(f"{SOURCE_PACKAGE} {have} is installed; this script is pinned to {SOURCE_VERSION}")
    zipped = files("united_states") / "shapes.zip"
    df = pyogrio.read_dataframe(f"/vsizip/{zipped}/{SOURCE_LAYER}.shp")
    if df.crs is None or df.crs.to_epsg() != 4269:
        sys.exit(f"expected NAD83 (EPSG:4269), got {df.crs}")
    df = df.sort_values("STATEFP").reset_index(drop=True)
    states = [
        {"fips": str(r.STATEFP), "usps": str(r.STUSPS), "name": str(r.NAME)}
        for r in df.itertuples()
    ]
    return df.geometry.to_numpy(), states


def simplify_coverage(geoms: np.ndarray) -> np.ndarray:
    arcs = shapely.get_parts(shapely.line_merge(shapely.union_all(shapely.boundary(geoms))))
    arcs = shapely.simplify(arcs, TOLERANCE_M / METRES_PER_DEGREE_MAX, preserve_topology=True)
    arcs = shapely.segmentize(arcs, SEGMENT_DEG)
    faces = shapely.get_parts(shapely.polygonize(arcs))
    fi, si = shapely.STRtree(geoms).query(faces, predicate="intersects")
    overlap = shapely.area(shapely.intersection(faces[fi], geoms[si]))
    order = np.lexsort((-overlap, fi))
    fi, si, overlap = fi[order], si[order], overlap[order]
    first = np.r_[True, fi[1:] != fi[:-1]]
    fi, si, overlap = fi[first], si[first], overlap[first]
    if len(fi) != len(faces):
        sys.exit(f"{len(faces) - len(fi)} face(s) lie in no state")
    share = overlap / shapely.area(faces[fi])
    out = np.empty(len(geoms), dtype=object)
    for j in range(len(geoms)):
        out[j] = shapely.multipolygons(list(faces[fi[si == j]]))
        if shapely.get_num_geometries(out[j]) != shapely.get_num_geometries(geoms[j]):
            sys.exit(f"state {j}: the number of polygons changed")
    print(f"faces: {len(faces)}; smallest share of a face in its state: {share.min():.4f}")
    return shapely.set_precision(out, GRID_DEG)


def _measuring_crs(geom) -> CRS:
    lon0 = shapely.centroid(geom).x
    if shapely.bounds(geom)[2] - shapely.bounds(geom)[0] > 60:  # Alaska, both sides of 180°
        return CRS.from_epsg(3338)
    return CRS.from_proj4(f"+proj=tmerc +lon_0={lon0:.3f} +k=1 +datum=NAD83 +units=m +no_defs")


def max_departure_m(orig, simple) -> float:
    """Largest distance from a vertex of ``orig`` to the boundary of ``simple``, in metres."""
    fwd = Transformer.from_crs(4269, _measuring_crs(orig), always_xy=True)

    def project(g):
        return shapely.transform(g, lambda xy: np.column_stack(fwd.transform(xy[:, 0], xy[:, 1])))

    vertices = shapely.points(shapely.get_coordinates(project(orig)))
    rings = shapely.get_parts(project(shapely.boundary(simple)))
    xy, ring = shapely.get_coordinates(rings, return_index=True)
    same = ring[1:] == ring[:-1]
    segments = shapely.linestrings(np.stack([xy[:-1][same], xy[1:][same]], axis=1))
    _, dist = shapely.STRtree(segments).query_nearest(
        vertices, return_distance=True, all_matches=False
    )
    return float(dist.max())


def encode(geoms: np.ndarray, meta: dict) -> bytes:
    kind, coords, (rings, parts, states) = shapely.to_ragged_array(geoms)
    if kind != shapely.GeometryType.MULTIPOLYGON:
        sys.exit(f"unexpected geometry type {kind}")
    micro = np.round(coords / GRID_DEG).astype(np.int64)
    delta = np.diff(micro, axis=0, prepend=np.zeros((1, 2), dtype=np.int64))
    buf = io.BytesIO()
    header = json.dumps(meta, indent=1, ensure_ascii=False).encode()
    for array in (
        np.frombuffer(header, dtype=np.uint8),
        np.ascontiguousarray(delta.T.astype(np.int32)),
        rings.astype(np.int32),
        parts.astype(np.int32),
        states.astype(np.int32),
    ):
        np.save(buf, array, allow_pickle=False)
    return lzma.compress(buf.getvalue(), preset=9 | lzma.PRESET_EXTREME)


def main() -> None:
    t0 = time.perf_counter()
    geoms, states = read_source()
    simple = simplify_coverage(geoms)
    if not (shapely.is_valid(simple).all() and shapely.coverage_is_valid(simple)):
        sys.exit("the simplified states are not a valid coverage")
    departures = [round(max_departure_m(o, s), 2) for o, s in zip(geoms, simple, strict=True)]
    worst = max(departures)
    if worst > TOLERANCE_M * 1.05:
        sys.exit(f"a simplified line strays {worst} m from the Census line")
    for st, d in zip(states, departures, strict=True):
        st["max_departure_m"] = d
    meta = {
        "format": "posting us-states 1",
        "source": "U.S. Census Bureau, TIGER/Line Shapefiles 2024, States and Equivalent "
        "Entities (tl_2024_us_state), as shipped by the PyPI package "
        f"{SOURCE_PACKAGE} {SOURCE_VERSION}",
        "vintage": "TIGER/Line 2024 (shapefile dated 2024-09-16, metadata dated 2024-09-23)",
        "datum": "NAD83 (EPSG:4269)",
        "tolerance_m": TOLERANCE_M,
        "max_departure_m": worst,
        "grid_deg": GRID_DEG,
        "vertices": int(shapely.get_num_coordinates(simple).sum()),
        "source_vertices": int(shapely.get_num_coordinates(geoms).sum()),
        "states": states,
    }
    data = encode(simple, meta)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(data)
    print(
        f"wrote {OUT.relative_to(ROOT)}: {len(data):,} bytes, {len(states)} states, "
        f"{meta['vertices']:,} vertices (of {meta['source_vertices']:,}), largest departure "
        f"{worst} m; {time.perf_counter() - t0:.1f} s"
    )


if __name__ == "__main__":
    main()
