"""How big the officer's map is and how fast it opens, measured in an offline headless chromium.

Run ``.venv/bin/python benchmarks/map_load.py`` (needs chromium: ``apt-get install chromium``).
For the bundled sample and the 5,433 Pacific County forest lots in ``../shared/data`` it prints
the HTML size, the time to render it, the time the browser takes to open it (navigation until
the page's scripts have run and a frame is drawn), the frame times while panning and the time
to redraw after zooming in two levels and back. The
county is measured twice: as drawn (on a canvas, past ``posting.maps.CANVAS_FROM`` features)
and with one SVG element per feature, to show why.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser import offline_browser  # noqa: E402

import posting  # noqa: E402
from posting import maps  # noqa: E402

PAN = """() => new Promise(done => {
    const m = postingMap.map, times = [];
    let last = performance.now(), steps = 0;
    function frame(t) { times.push(t - last); last = t;
        if (times.length < 120) requestAnimationFrame(frame);
        else { times.sort((a, b) => a - b);
               done([times[times.length >> 1], times[Math.floor(times.length * 0.95)]]); } }
    const timer = setInterval(() => {
        m.panBy([steps % 2 ? -150 : 150, 60], {animate: true, duration: 0.1});
        if (++steps === 20) clearInterval(timer); }, 50);
    requestAnimationFrame(frame);
})"""
ZOOM = """() => new Promise(done => {
    const m = postingMap.map, z = m.getZoom(), t0 = performance.now();
    m.once("zoomend", () => requestAnimationFrame(() => {
        const t1 = performance.now();
        m.once("zoomend", () => requestAnimationFrame(
            () => done([t1 - t0, performance.now() - t1])));
        m.setZoom(z, {animate: false});
    }));
    m.setZoom(z + 2, {animate: false});
})"""


def measure(browser, name: str, report: posting.Report, out: Path, runs: int) -> None:
    start = time.perf_counter()
    text = maps.to_html(report, tiles=False)
    render_s = time.perf_counter() - start
    path = out / f"{name}.html"
    path.write_text(text, encoding="utf-8")
    loads, frames, zooms = [], [], []
    for _ in range(runs):
        loaded = browser.open(path)
        if loaded.errors or loaded.failed:
            raise SystemExit(f"{name}: {loaded.errors or loaded.failed}")
        loads.append(loaded.load_s)
        frames.append(loaded.page.evaluate(PAN))
        zooms.append(max(loaded.page.evaluate(ZOOM)))
        loaded.page.close()
    print(
        f"{name:28} {path.stat().st_size / 1e6:6.2f} MB  render {render_s:5.2f} s  "
        f"open {statistics.median(loads):5.2f} s  "
        f"pan frame median {statistics.median(f[0] for f in frames):3.0f} ms, "
        f"95th percentile {statistics.median(f[1] for f in frames):3.0f} ms  "
        f"zoom redraw {statistics.median(zooms):4.0f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="page loads per map (median shown)")
    args = ap.parse_args()
    sample = ROOT / "data"
    county = ROOT.parent / "shared" / "data" / "pacific-wa" / "taxlots.geojson"
    reports = {
        "sample (29 parcels)": posting.check(
            posting.read_parcels(
                sample / "parcels.geojson", id_field="parcel_id", owner_field="owner"
            ),
            posting.read_markers([sample / "signs.csv", sample / "signs-added.gpx"]),
        )
    }
    if county.exists():
        reports["pacific (5,433 lots)"] = posting.check(
            posting.read_parcels(county, owner_field="OWNER")
        )
    with tempfile.TemporaryDirectory() as tmp, offline_browser() as browser:
        for name, report in reports.items():
            measure(browser, name.split()[0], report, Path(tmp), args.runs)
        if "pacific (5,433 lots)" in reports:
            maps.CANVAS_FROM = 10**9  # the same county, one SVG path per lot
            measure(browser, "pacific-svg", reports["pacific (5,433 lots)"], Path(tmp), args.runs)


if __name__ == "__main__":
    main()
