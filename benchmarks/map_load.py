"""How big the officer's map is and how fast it opens and pans, in an offline headless chromium.

Run ``.venv/bin/python benchmarks/map_load.py`` (needs chromium: ``apt-get install chromium``).

The maps (the real layers are read in place from ``../shared/data``; those missing are skipped):

* ``sample``: the bundled sample, 29 parcels and 232 signs;
* ``pacific-bare``: the 5,433 Pacific County forest lots, no sign (every lot unposted);
* ``williamsburg``: the 4,464 Williamsburg parcels with about 19,700 signs;
* ``pacific``: the Pacific County lots with about 66,000 signs;
* ``pacific-gaps`` (with ``--heavy``): about 59,000 signs, twice as many missing.

The signs are laid out the way a landowner who followed the plan would have them: the markers
``posting plan`` places on the bare layer (a sign at every corner and at most 499.8 ft apart
along every boundary, 3 ft inside the line), of which a random share (fixed seed) went missing:
9 % (10 % for Williamsburg), or 19 % for ``pacific-gaps``. Each missing interval sign leaves a
gap over the limit and each missing corner sign a corner without a marker, thousands of each
on the county.

For each map it prints the HTML size, the time to render it in Python, the time to open it
(navigation until the page's scripts have run, every layer and label is drawn and a frame has
been painted), the time of one pan by a third of the screen (from the call until the frame
after the redraw), and of a zoom in by two levels and back. Open, pan and zoom are medians:
``--runs`` page loads, and 5 pans each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser import offline_browser  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

import posting  # noqa: E402
from posting import maps  # noqa: E402
from posting.io import MarkerLayer  # noqa: E402
from posting.planning import plan  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"

# One pan by a third of the map's width (alternately right and left), without animation: the
# time from the call to the frame after everything was redrawn.
PAN = """async (k) => {
    const m = postingMap.map, dx = Math.round(m.getSize().x / 3) * (k % 2 ? -1 : 1);
    const t0 = performance.now();
    await new Promise(r => { m.once("moveend", () => r()); m.panBy([dx, 0], {animate: false}); });
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
}"""
# Zoom in two levels and back, without animation: the slower of the two redraws.
ZOOM = """async () => {
    const m = postingMap.map, z = m.getZoom(), times = [];
    for (const to of [z + 2, z]) {
        const t0 = performance.now();
        await new Promise(r => { m.once("zoomend", () => r()); m.setZoom(to, {animate: false}); });
        await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
        times.push(performance.now() - t0);
    }
    return Math.max(...times);
}"""


def signs_as_planned(report: posting.Report, missing: float, seed: int) -> MarkerLayer:
    """The plan's markers for a bare layer, of which a random ``missing`` share is gone."""
    m = plan(report).markers
    keep = np.random.default_rng(seed).random(len(m)) >= missing
    return MarkerLayer.from_points(
        m["lon"].to_numpy()[keep], m["lat"].to_numpy()[keep], "EPSG:4326", source="survey.csv"
    )


def reports(heavy: bool) -> dict[str, posting.Report]:
    sample = ROOT / "data"
    out = {
        "sample": posting.check(
            posting.read_parcels(
                sample / "parcels.geojson", id_field="parcel_id", owner_field="owner"
            ),
            posting.read_markers([sample / "signs.csv", sample / "signs-added.gpx"]),
        )
    }
    pacific = SHARED / "pacific-wa" / "taxlots.geojson"
    wburg = SHARED / "williamsburg-va" / "parcels.geojson"
    if pacific.exists():
        lots = posting.read_parcels(pacific, id_field="ASSESSOR", owner_field="OWNER")
        bare = posting.check(lots)
        out["pacific-bare"] = bare
    if wburg.exists():
        parcels = posting.read_parcels(wburg, id_field="PID")
        out["williamsburg"] = posting.check(
            parcels, signs_as_planned(posting.check(parcels), 0.10, seed=1)
        )
    if pacific.exists():
        out["pacific"] = posting.check(lots, signs_as_planned(bare, 0.09, seed=1))
        if heavy:
            out["pacific-gaps"] = posting.check(lots, signs_as_planned(bare, 0.19, seed=2))
    return out


def measure(
    browser, name: str, report: posting.Report, out: Path, runs: int, timeout_s: float
) -> dict:
    start = time.perf_counter()
    text = maps.to_html(report, tiles=False)
    render_s = time.perf_counter() - start
    path = out / f"{name}.html"
    path.write_text(text, encoding="utf-8")
    loads, pans, zooms = [], [], []
    for _ in range(runs):
        try:
            loaded = browser.open(path, timeout_s=timeout_s)
        except PlaywrightTimeout:
            print(f"{name:14} {path.stat().st_size / 1e6:6.2f} MB: not open within {timeout_s:g} s")
            return {"map": name, "open_s": None}
        if loaded.errors or loaded.failed:
            raise SystemExit(f"{name}: {loaded.errors or loaded.failed}")
        loads.append(loaded.load_s)
        pans += [loaded.page.evaluate(PAN, k) / 1000 for k in range(5)]
        zooms.append(loaded.page.evaluate(ZOOM) / 1000)
        loaded.page.close()
    s = report.summary()
    row = {
        "map": name,
        "parcels": s["parcels"],
        "signs": s["markers_read"],
        "gaps": int((report.gaps["status"] != "ok").sum()),
        "html_mb": path.stat().st_size / 1e6,
        "render_s": render_s,
        "open_s": statistics.median(loads),
        "pan_s": statistics.median(pans),
        "zoom_s": statistics.median(zooms),
    }
    print(
        f"{name:14} {row['parcels']:6,} parcels {row['signs']:7,} signs {row['gaps']:6,} gaps  "
        f"{row['html_mb']:6.2f} MB  render {render_s:5.2f} s  open {row['open_s']:6.2f} s  "
        f"pan {row['pan_s']:5.2f} s  zoom {row['zoom_s']:5.2f} s",
        flush=True,
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="page loads per map (medians shown)")
    ap.add_argument("--only", nargs="*", help="measure only these maps (by name)")
    ap.add_argument(
        "--heavy", action="store_true", help="also the county with twice as many signs missing"
    )
    ap.add_argument("--timeout", type=float, default=180, help="seconds a map may take to open")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, offline_browser() as browser:
        for name, report in reports(args.heavy).items():
            if args.only and name not in args.only:
                continue
            measure(browser, name, report, Path(tmp), args.runs, args.timeout)


if __name__ == "__main__":
    main()
