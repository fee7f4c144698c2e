"""A/B of the ``--parquet`` output: the write alone and the whole command, two commits
alternated in fresh processes, side by side.

For each commit (its ``posting`` package exported with ``git archive``, first on
``PYTHONPATH``, as :mod:`ab` does), ``--repeat`` times in turn: the single-process
``posting check ... --parquet`` of a county (wall, CPU, peak memory), and the write alone:
:func:`posting.stream.write_parquet_report` of one report (checked once by the working tree and
pickled; both commits read the same report) timed in a fresh process. Prints the medians and
the ratios B/A as one JSON line.

    .venv/bin/python benchmarks/parquet_ab.py 499e44e HEAD --repeat 5
    .venv/bin/python benchmarks/parquet_ab.py 499e44e HEAD --data benchmarks/work/real-apart \\
        --rules florida
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import alternated, arguments, export

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / "work"
POSTING = ROOT / ".venv" / "bin" / "posting"

_REPORT = """
import pickle, sys
from posting.io import read_markers, read_parcels
from posting.engine import check
data, rules, out = sys.argv[1:4]
p = read_parcels(data + "/parcels.parquet", id_field="parcel_id", owner_field="owner")
m = read_markers([data + "/signs.parquet"])
with open(out, "wb") as fh:
    pickle.dump(check(p, m, rules), fh, protocol=5)
"""

_WRITE = """
import pickle, sys, time
from posting.errors import python_name
from posting.stream import write_parquet_report
with open(sys.argv[1], "rb") as fh:
    report = pickle.load(fh)
t0, c0 = time.perf_counter(), time.process_time()
write_parquet_report(report, sys.argv[2], python_name)
print(time.perf_counter() - t0, time.process_time() - c0)
"""


def _env(src: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if src is None:
        env.pop("PYTHONPATH", None)
    else:
        env["PYTHONPATH"] = str(src)
    return env


def whole(src: Path, out: Path, data: Path, rules: str | None) -> dict[str, float]:
    """One single-process ``posting check --parquet`` of the county in ``data``."""
    shutil.rmtree(out, ignore_errors=True)
    argv = [str(POSTING), "check", str(data / "parcels.parquet")]
    argv += ["--signs", str(data / "signs.parquet"), *(["--rules", rules] if rules else [])]
    argv += ["--id-field", "parcel_id", "--owner-field", "owner", "--parquet", str(out), "-q"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=_env(src), cwd=tempfile.gettempdir())
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{src}: posting check failed")
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,
    }


def write_only(src: Path, pickled: Path, out: Path) -> dict[str, float]:
    """The write of the pickled report alone, in a fresh process."""
    shutil.rmtree(out, ignore_errors=True)
    res = subprocess.run(
        [sys.executable, "-c", _WRITE, str(pickled), str(out)],
        env=_env(src),
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu = map(float, res.stdout.split())
    return {"write_wall_s": wall, "write_cpu_s": cpu}


def main(argv: list[str] | None = None) -> int:
    args = arguments(__doc__, argv)
    data = args.data.resolve()
    base = Path(tempfile.mkdtemp(prefix="posting-parquet-ab-"))
    try:
        srcs = {c: export(c, base / f"src{i}") for i, c in enumerate((args.a, args.b))}
        pickled = base / "report.pickle"
        subprocess.run(
            [sys.executable, "-c", _REPORT, str(data), args.rules or "auto", str(pickled)],
            env=_env(None),
            check=True,
        )
        whole(srcs[args.a], base / "warm", data, args.rules)  # the file cache, untimed

        def run(c: str) -> dict[str, float]:
            r = whole(srcs[c], base / "out", data, args.rules)
            return r | write_only(srcs[c], pickled, base / "out")

        result = alternated(args.a, args.b, args.repeat, run)
        result["data"] = str(data)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
