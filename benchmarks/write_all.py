"""How long :func:`posting.outputs.write_all` takes to put a large report in place: a payload of
``--mb`` megabytes (258 MB: the benchmark county's JSON report) in 1 MB pieces, as a renderer
gives them, written to a temporary file beside its target and renamed onto it, ``--runs`` times
in fresh files; the median and each run are printed. The payload is made before the clock
starts; each run's target is removed after it (the disk's cache keeps what it wrote).

    .venv/bin/python benchmarks/write_all.py                      # 258 MB, 5 runs, in ./
    .venv/bin/python benchmarks/write_all.py --mb 50 --folder /mnt/usb

Put a commit's package first on the path to compare (``PYTHONPATH=/tmp/snap``, as the README
says).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from posting.outputs import Output, write_all


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=258.0, help="payload in MB (default 258)")
    parser.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    parser.add_argument("--folder", default=".", help="where to write (default: here)")
    args = parser.parse_args()
    piece = (b'{"id": "P-0001", "status": "compliant", "gap_ft": 123.4},\n' * 17_000)[:1_000_000]
    n = round(args.mb)
    payload = [piece] * n
    times = []
    with tempfile.TemporaryDirectory(dir=args.folder, prefix=".write-all-") as d:
        for i in range(args.runs):
            out = Output("json", os.path.join(d, f"r{i}.json"), "json")
            start = time.perf_counter()
            write_all([(out, payload)])
            times.append(time.perf_counter() - start)
            os.unlink(out.path)
    shown = ", ".join(f"{t:.2f}" for t in times)
    print(f"write_all of {n} MB: median {statistics.median(times):.2f} s ({shown})")


if __name__ == "__main__":
    main()
