"""Build the county of real shapes alone: the state's county 08 as two GeoParquet files.

Run ``.venv/bin/python benchmarks/make_real_county.py`` (``--parcels 50000`` for a smaller
one). It writes ``benchmarks/work/real/parcels.parquet`` and ``signs.parquet`` in EPSG:4326:
the copies of the real parcel layers of ``../shared/data`` (Pacific County's forest tax lots,
up to 1,176 vertices, a median of 6, and Williamsburg's city parcels, invalid rings, a
missing geometry and duplicated ids included) that ``make_state.py`` lays down as county 08,
with their markers (about ten a parcel, every 150-600 ft, 3 ft inside the line with 2 ft of
noise, a fifth of the lots without any). Pacific's copies, 40,000 ft apart, overlap one
another. The same seed makes the same shapes and markers as the state's county 08
(the default, forty copies: 197,940 parcels); a smaller ``--parcels`` keeps the first copies.

``--apart`` (into ``benchmarks/work/real-apart/`` unless ``--out`` says otherwise) lays the
copies beside one another instead, as real parcels lie (about 180 by 230 miles of them), and
gives Williamsburg's parcels, which have no owner column, an owner each (rather than one
"CITY" owning every lot of a copy, which makes every two neighbours lots of one owner). The
same shapes and markers, moved.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
from make_state import _write, real_copies

HERE = Path(__file__).resolve().parent
OUT = HERE / "work" / "real"
COPIES = 40  # make_state puts forty copies in a county


def make_real_county(
    out: Path = OUT, n_parcels: int = 200_000, seed: int = 7, apart: bool = False
) -> dict:
    """Write the county's parcels and markers under ``out``; what was made and how long."""
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)  # make_state's seed, used only for these markers
    parcels, signs = [], []
    for copy, p, s in real_copies(n_parcels, rng, (0, 2), apart=apart):  # county 08's cell
        if copy >= COPIES:
            break
        if apart:
            city = p["owner"].str.startswith("CITY ")
            p.loc[city, "owner"] = "OWNER " + p.loc[city, "parcel_id"]
        parcels.append(p)
        signs.append(s)
    out.mkdir(parents=True, exist_ok=True)
    all_parcels = pd.concat(parcels, ignore_index=True).to_crs("EPSG:4326")
    all_signs = pd.concat(signs, ignore_index=True).to_crs("EPSG:4326")
    _write(all_parcels, out / "parcels.parquet")
    _write(all_signs, out / "signs.parquet")
    return {
        "parcels": len(all_parcels),
        "markers": len(all_signs),
        "copies": len(parcels),
        "seconds": round(time.perf_counter() - t0, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--apart", action="store_true", help="copies beside one another")
    ap.add_argument(
        "--parcels", type=int, default=200_000, help="parcels wanted (at most 40 copies)"
    )
    args = ap.parse_args()
    out = args.out or (OUT.with_name("real-apart") if args.apart else OUT)
    print(json.dumps(make_real_county(out, args.parcels, apart=args.apart)))


if __name__ == "__main__":
    main()
