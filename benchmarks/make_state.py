"""Build a state-sized input: 1,000,000 parcels and 10,000,000 markers as partitioned GeoParquet.

Run ``.venv/bin/python benchmarks/make_state.py`` (``--scale 0.1`` for a tenth). It writes, in
``benchmarks/work/state/`` (fixed seeds; git ignores ``work/``):

* ``parcels/county=NN/part.0.parquet``: a hive-partitioned dataset, one county per folder,
  row groups of 50,000 rows. Eight counties are synthetic (``make_county.py``'s blocks, lots
  and tracts, 100,000 parcels each, with a million signs); the others are made of the **real
  parcel shapes** of ``../shared/data`` (Pacific County's forest tax lots, up to 1,176
  vertices, a median of 6, and Williamsburg's city parcels, invalid rings, a missing geometry
  and duplicated ids included), copied side by side, each copy moved to its own place: 200,000
  parcels (Pacific's copies, 40,000 ft apart, overlap one another).
* ``signs/county=NN/part.0.parquet``: the markers, a dataset laid out the same way. Along the
  real shapes they stand every 150-600 ft, 3 ft inside the line with 2 ft of noise, a fifth
  of the lots without any; the synthetic counties' are ``make_county.py``'s.

The counties lie side by side in central Florida, 60 miles apart, within one UTM zone.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Iterator
from pathlib import Path

import geopandas as gpd
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import shapely
from make_county import LOCAL, make_county

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data"
OUT = HERE / "work" / "state"
MILE_FT = 5280.0
SPACING_FT = 60 * MILE_FT
ROW_GROUP = 50_000


def _write(gdf: gpd.GeoDataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(gdf.to_wkb(), preserve_index=False)
    meta = {
        "version": "1.1.0",
        "primary_column": "geometry",
        "columns": {"geometry": {"encoding": "WKB", "geometry_types": []}},
    }
    table = table.replace_schema_metadata({b"geo": json.dumps(meta).encode()})
    pq.write_table(table, path, row_group_size=ROW_GROUP)


def _real_layers() -> list[gpd.GeoDataFrame]:
    """The real layers in local feet, each centred on the origin, with an id and an owner."""
    out = []
    for path, id_col, owner_col in (
        (SHARED / "pacific-wa" / "taxlots.geojson", "ASSESSOR", "OWNER"),
        (SHARED / "williamsburg-va" / "parcels.geojson", "PID", None),
    ):
        gdf = gpd.read_file(path)
        utm = gdf.estimate_utm_crs()
        ft = gdf.to_crs(utm).geometry.scale(1 / 0.3048, 1 / 0.3048, origin=(0, 0))
        c = ft.total_bounds
        cx, cy = (c[0] + c[2]) / 2, (c[1] + c[3]) / 2
        geom = ft.translate(-cx, -cy)
        out.append(
            gpd.GeoDataFrame(
                {
                    "parcel_id": gdf[id_col].astype(str).to_numpy(),
                    "owner": (
                        gdf[owner_col].astype(str).to_numpy()
                        if owner_col
                        else np.full(len(gdf), "CITY", dtype=object)
                    ),
                },
                geometry=geom.to_numpy(),
            )
        )
    return out


def _markers_along(geom: np.ndarray, rng: np.random.Generator, target: int) -> np.ndarray:
    """Points along the boundaries, 3 ft inside with 2 ft of noise, about ``target`` of them."""
    ok = shapely.is_valid(geom) & ~shapely.is_missing(geom)
    posted = ok & (rng.random(len(geom)) > 0.2)
    inner = shapely.buffer(geom[posted], -3.0)
    rings = shapely.get_rings(shapely.get_parts(inner))
    rings = rings[shapely.length(rings) > 1]
    length = shapely.length(rings)
    spacing = length.sum() / target
    per = np.maximum(1, np.round(length / spacing * rng.uniform(0.8, 1.2, len(rings)))).astype(int)
    ring = np.repeat(np.arange(len(rings)), per)
    j = np.arange(len(ring)) - np.repeat(np.cumsum(per) - per, per)
    pts = shapely.line_interpolate_point(
        rings[ring], (j + rng.random(len(ring))) / per[ring], normalized=True
    )
    xy = shapely.get_coordinates(pts)
    return xy + rng.normal(0, 2.0, xy.shape)


def real_copies(
    n_real: int, rng: np.random.Generator, cell: tuple[int, int], *, apart: bool = False
) -> Iterator[tuple[int, gpd.GeoDataFrame, gpd.GeoDataFrame]]:
    """The real layers copied side by side in grid ``cell`` until ``n_real`` parcels are made.

    Yields ``(copy, parcels, signs)``, both frames in local feet; the markers stand along each
    copy's boundaries (``_markers_along``, about ten a parcel). The copies are 40,000 ft apart
    east and 60,000 ft north, so Pacific County's (about 182,000 by 202,000 ft) overlap one
    another; ``apart`` lays each copy beside the others instead, five to a row, each layer's in
    rows of their own (a landscape like real parcels: no lot on top of another).
    """
    layers = _real_layers()
    made_real = 0
    copy = 0
    size = [np.ptp(np.asarray(lay.total_bounds).reshape(2, 2), axis=0) + 5_000.0 for lay in layers]
    # at most this many copies of each layer, five to a row
    per_layer = math.ceil(math.ceil(n_real / min(len(lay) for lay in layers)) / len(layers))
    rows = math.ceil(per_layer / 5)
    band = np.r_[0.0, np.cumsum([rows * sz[1] for sz in size])]
    while made_real < n_real:
        layer = layers[copy % len(layers)]
        take = min(len(layer), n_real - made_real)
        part = layer.iloc[:take]
        gx, gy = cell
        k = copy // len(layers)  # this layer's k-th copy
        if apart:
            w, h = size[copy % len(layers)]
            dx = gx * SPACING_FT + (k % 5 - 2) * w
            dy = gy * SPACING_FT + band[copy % len(layers)] + (k // 5) * h - band[-1] / 2
        else:
            dx = gx * SPACING_FT + k % 5 * 40_000.0 - 80_000
            dy = gy * SPACING_FT + k // 5 * 60_000.0 - 80_000
        shift = np.array([dx, dy])
        geom = shapely.transform(part.geometry.to_numpy(), lambda c, shift=shift: c + shift)
        parcels = gpd.GeoDataFrame(
            {
                "parcel_id": [f"R{copy:03d}-{p}" for p in part["parcel_id"]],
                "owner": [f"{o} {copy:03d}" for o in part["owner"]],
            },
            geometry=geom,
            crs=LOCAL,
        )
        xy = _markers_along(geom, rng, take * 10)
        signs = gpd.GeoDataFrame(
            {"kind": np.full(len(xy), "sign", dtype=object)}, geometry=shapely.points(xy), crs=LOCAL
        )
        yield copy, parcels, signs
        made_real += take
        copy += 1


def make_state(out: Path = OUT, scale: float = 1.0, seed: int = 7) -> dict[str, object]:
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    n_synth = 8
    per_county = round(100_000 * scale)
    n_real = round(200_000 * scale)
    info: dict[str, object] = {}
    county = 0
    grid = [(i % 4, i // 4) for i in range(16)]
    work = out / "_county"
    # one synthetic county (make_county's own seed, which makes exactly ten markers a parcel
    # at full size), laid down eight times
    made = make_county(work, per_county, per_county * (10 if scale >= 1 else 12))
    for _ in range(n_synth):
        dx, dy = grid[county][0] * SPACING_FT, grid[county][1] * SPACING_FT
        for name in ("parcels", "signs"):
            gdf = gpd.read_parquet(work / f"{name}.parquet").to_crs(LOCAL)
            gdf = gdf.set_geometry(gdf.geometry.translate(dx, dy)).to_crs("EPSG:4326")
            if name == "parcels":
                gdf["parcel_id"] = f"C{county:02d}-" + gdf["parcel_id"].astype(str)
            _write(gdf, out / name / f"county={county:02d}" / "part.0.parquet")
        info[f"county {county:02d}"] = made["parcels"]
        county += 1
    for copy, parcels, signs in real_copies(n_real, rng, grid[county]):
        c = county + copy // 40
        name = f"copy={copy:03d}"
        _write(parcels.to_crs("EPSG:4326"), out / "parcels" / f"county={c:02d}" / f"{name}.parquet")
        _write(signs.to_crs("EPSG:4326"), out / "signs" / f"county={c:02d}" / f"{name}.parquet")
    import shutil

    shutil.rmtree(work, ignore_errors=True)
    n_parcels = sum(
        pq.ParquetFile(p).metadata.num_rows for p in (out / "parcels").rglob("*.parquet")
    )
    n_signs = sum(pq.ParquetFile(p).metadata.num_rows for p in (out / "signs").rglob("*.parquet"))
    info.update(
        parcels=n_parcels,
        markers=n_signs,
        real_copies=copy + 1,
        seconds=round(time.perf_counter() - t0, 1),
    )
    return info


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the full size")
    args = ap.parse_args()
    print(json.dumps(make_state(args.out, args.scale)))


if __name__ == "__main__":
    main()
