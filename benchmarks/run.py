"""Benchmark ``posting check`` on the synthetic county against merely reading its two files.

Run ``.venv/bin/python benchmarks/run.py`` from the project folder (``--help`` for the
options). It makes the county first when ``benchmarks/work/`` does not hold it yet (see
``make_county.py``), then measures, in fresh processes, alternately:

* **check**: ``posting check parcels.parquet --signs signs.parquet --id-field parcel_id
  --owner-field owner --json report.json -q``, end to end: start-up, imports, reading, the
  check and writing the JSON report. Exit status 1 (some parcel is not compliant) is the
  expected outcome; status 2, or a crash (a traceback, or no report written), is a failure.
* **read**: a Python process that only imports geopandas and reads the same two files with
  ``geopandas.read_parquet``: the floor any tool reading these files pays.

Each is run ``--repeat`` times (after one untimed read to warm the file cache); the medians
are reported, since a shared machine is noisy. Peak memory is each child's maximum resident
set size, from GNU ``/usr/bin/time -v`` when present, else from ``os.wait4``. The last line of
output is the result as one JSON object; it is also written to ``benchmarks/work/results.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORK = HERE / "work"
TARGET_RATIO = 3.0
"""Largest acceptable ratio of the check's time to the time to read its inputs."""
TARGET_RSS_MIB = 2048.0
"""Largest acceptable peak memory of the check: 2 GB (GiB), in MiB."""
READ_SCRIPT = (
    "import sys, geopandas; "
    "geopandas.read_parquet(sys.argv[1]); geopandas.read_parquet(sys.argv[2])"
)
GNU_TIME = "/usr/bin/time"
_MAXRSS = re.compile(r"Maximum resident set size \(kbytes\):\s*(\d+)")
_EXIT = re.compile(r"Exit status:\s*(-?\d+)")
_CPU = re.compile(r"(?:User|System) time \(seconds\):\s*([\d.]+)")


@dataclass(frozen=True)
class Run:
    """One measured child process.

    Attributes
    ----------
    seconds
        Wall-clock time from start to exit.
    cpu_seconds
        User plus system CPU time of the child: steadier than wall time on a busy machine.
    maxrss_mib
        Peak resident set size of the child, in MiB.
    status
        Exit status (negative: killed by that signal).
    stderr
        What the child wrote to stderr (without the ``time -v`` report).
    """

    seconds: float
    cpu_seconds: float
    maxrss_mib: float
    status: int
    stderr: str


def gnu_time_works() -> bool:
    """True when ``/usr/bin/time -v`` exists and reports the peak resident set size."""
    if not (os.path.exists(GNU_TIME) and os.access(GNU_TIME, os.X_OK)):
        return False
    true = shutil.which("true") or "/bin/true"
    p = subprocess.run([GNU_TIME, "-v", true], capture_output=True, text=True, check=False)
    return p.returncode == 0 and _MAXRSS.search(p.stderr) is not None


def measure(cmd: list[str], *, via: str) -> Run:
    """Run ``cmd`` once in a fresh process and measure its wall time and peak memory.

    Parameters
    ----------
    cmd
        The command; its stdout is discarded, its stderr kept (in a temporary file, so a
        chatty child cannot block on a full pipe).
    via
        ``"time"``: wrap the child in ``/usr/bin/time -v`` and read its report;
        ``"wait4"``: reap the child with :func:`os.wait4` and read ``ru_maxrss``.

    Returns
    -------
    Run
        The measurement.
    """
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as err:
        if via == "time":
            t0 = time.perf_counter()
            proc = subprocess.run(
                [GNU_TIME, "-v", *cmd], stdout=subprocess.DEVNULL, stderr=err, check=False
            )
            seconds = time.perf_counter() - t0
            err.seek(0)
            text = err.read()
            rss = _MAXRSS.search(text)
            code = _EXIT.search(text)
            if rss is None:  # the child died in a way time could not report
                return Run(seconds, float("nan"), float("nan"), proc.returncode or -1, text)
            report = text.rfind("\tCommand being timed:")
            body = text[:report] if report >= 0 else text
            status = int(code.group(1)) if code else proc.returncode
            cpu = sum(float(v) for v in _CPU.findall(text))
            return Run(seconds, cpu, int(rss.group(1)) / 1024, status, body)
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, wstatus, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(wstatus)
        err.seek(0)
        # Linux reports ru_maxrss in KiB.
        cpu = usage.ru_utime + usage.ru_stime
        return Run(seconds, cpu, usage.ru_maxrss / 1024, proc.returncode, err.read())


def posting_command(python: str) -> list[str]:
    """The ``posting`` console script beside ``python``, else ``python -m posting.cli``."""
    script = Path(python).with_name("posting")
    if script.exists():
        return [str(script)]
    return [python, "-m", "posting.cli"]


def ensure_county(work: Path, python: str, *, regen: bool) -> None:
    """Make the county with ``make_county.py`` unless ``work`` already holds both files."""
    have = (work / "parcels.parquet").exists() and (work / "signs.parquet").exists()
    if have and not regen:
        return
    print(f"making the county in {work} ...", flush=True)
    subprocess.run([python, str(HERE / "make_county.py"), "--out", str(work)], check=True)


def source_state(python: str) -> dict[str, object]:
    """Where ``python`` imports ``posting`` from, and the state of this source tree.

    ``commit`` and ``posting_modified`` (uncommitted changes under ``posting/``) describe this
    tree; they describe what was measured only when ``module`` lies in it.
    """
    root = HERE.parent
    find = "import importlib.util as u; print(u.find_spec('posting').origin)"
    # -P: like the console script, do not put the current folder first on the path.
    spec = subprocess.run([python, "-P", "-c", find], capture_output=True, text=True, check=False)

    def git(*args: str) -> str | None:
        try:
            p = subprocess.run(
                ["git", "-C", str(root), *args], capture_output=True, text=True, check=False
            )
        except OSError:
            return None
        return p.stdout.strip() if p.returncode == 0 else None

    changed = git("status", "--porcelain", "--", "posting")
    return {
        "module": spec.stdout.strip() or None,
        "commit": git("rev-parse", "--short", "HEAD"),
        "posting_modified": bool(changed),
    }


def compile_package(module: str | None, python: str) -> None:
    """Byte-compile the measured package, as ``pip install`` does for an installed tool.

    An editable install is imported from source; where ``PYTHONDONTWRITEBYTECODE`` is set (as
    on the benchmark machine) nothing is ever cached, and each run would spend about 0.1 s
    compiling ``posting`` again. The dependencies, installed from wheels, are compiled.
    """
    if module:
        folder = str(Path(module).parent)
        subprocess.run([python, "-m", "compileall", "-q", folder], check=False)


def row_count(path: Path) -> int:
    """Rows of a Parquet file, from its footer (nothing else is read)."""
    import pyarrow.parquet as pq

    return pq.read_metadata(path).num_rows


def _row(label: str, value: str, target: str = "", verdict: str = "", runs: str = "") -> str:
    return f"{label:24}{value:>10}   {target:<10}{verdict:8}{runs}".rstrip()


def report(result: dict, check: list[Run], read: list[Run]) -> str:
    """The results as a small text table."""
    ok = {True: "ok", False: "MISSED"}
    meets = result["meets"]
    lines = [
        f"posting check on {result['parcels']:,} parcels and {result['markers']:,} markers: "
        f"median of {result['repeat']} runs, each a fresh process (peak memory via "
        f"{result['rss_via']})",
        _row("", "median", "target", "", "runs"),
        _row(
            "check time (s)",
            f"{result['check_s']:.2f}",
            runs=" ".join(f"{r.seconds:.2f}" for r in check),
        ),
        _row(
            "read time (s)",
            f"{result['read_s']:.2f}",
            runs=" ".join(f"{r.seconds:.2f}" for r in read),
        ),
        _row(
            "check CPU time (s)",
            f"{result['check_cpu_s']:.2f}",
            runs=" ".join(f"{r.cpu_seconds:.2f}" for r in check),
        ),
        _row(
            "read CPU time (s)",
            f"{result['read_cpu_s']:.2f}",
            runs=" ".join(f"{r.cpu_seconds:.2f}" for r in read),
        ),
        _row(
            "ratio check / read",
            f"{result['ratio']:.2f}",
            f"<= {TARGET_RATIO:g}",
            ok[meets["ratio"]],
        ),
        _row("parcels per second", f"{result['parcels_per_s']:,.0f}"),
        _row(
            "check peak RSS (MiB)",
            f"{result['check_rss_mib']:,.0f}",
            f"<= {TARGET_RSS_MIB:,.0f}",
            ok[meets["rss"]],
            " ".join(f"{r.maxrss_mib:,.0f}" for r in check),
        ),
        _row(
            "read peak RSS (MiB)",
            f"{result['read_rss_mib']:,.0f}",
            runs=" ".join(f"{r.maxrss_mib:,.0f}" for r in read),
        ),
        f"check exit status {result['check_exit']} (1 = some parcel not compliant: expected)",
    ]
    return "\n".join(lines)


def profile(cmd_args: list[str], python: str, work: Path, top: int) -> None:
    """Run the check once under cProfile and print the ``top`` entries by cumulative time.

    cProfile slows pure-Python code (JSON encoding, loops) far more than compiled code, so
    read the figures as a ranking, not as seconds of the real run.
    """
    import pstats

    out = work / "check.prof"
    cmd = [python, "-m", "cProfile", "-o", str(out), "-m", "posting.cli", *cmd_args]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)
    print(f"\ncProfile of one check (saved to {out}):", flush=True)
    stats = pstats.Stats(str(out), stream=sys.stdout)
    # The package, JSON encoding, reading and shapely: not the import machinery.
    stats.sort_stats("cumulative").print_stats(r"posting/|json/|geopandas/io/|shapely/", top)


def main(argv: list[str] | None = None) -> int:
    """Command line: make the data if needed, measure, print the table and the JSON line.

    Returns
    -------
    int
        0; 2 when the check failed (exit status other than 0 or 1); 1 with ``--strict`` when
        a target is missed.
    """
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measurement (3)")
    ap.add_argument("--work", type=Path, default=WORK, help="data folder (%(default)s)")
    ap.add_argument("--regen", action="store_true", help="remake the county first")
    ap.add_argument(
        "--rss",
        choices=("auto", "time", "wait4"),
        default="auto",
        help="how peak memory is measured: /usr/bin/time -v (auto when present) or os.wait4",
    )
    ap.add_argument("--python", default=sys.executable, help="interpreter of the project venv")
    ap.add_argument("--profile", type=int, metavar="N", default=0, help="then cProfile, top N")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument(
        "--rules",
        help="the rules to check with (default: the command's); the real-shapes county lies "
        "partly at sea: --rules florida",
    )
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")

    work = args.work.resolve()
    ensure_county(work, args.python, regen=args.regen)
    parcels, signs = work / "parcels.parquet", work / "signs.parquet"
    report_json = work / "report.json"
    via = "time" if args.rss == "time" or (args.rss == "auto" and gnu_time_works()) else "wait4"
    check_args = [
        "check",
        str(parcels),
        "--signs",
        str(signs),
        "--id-field",
        "parcel_id",
        "--owner-field",
        "owner",
        "--json",
        str(report_json),
        "-q",
        *(["--rules", args.rules] if args.rules else []),
    ]
    check_cmd = [*posting_command(args.python), *check_args]
    read_cmd = [args.python, "-c", READ_SCRIPT, str(parcels), str(signs)]

    before = source_state(args.python)
    compile_package(before["module"], args.python)
    measure(read_cmd, via=via)  # warm the file cache
    check: list[Run] = []
    read: list[Run] = []
    for i in range(args.repeat):
        report_json.unlink(missing_ok=True)
        c = measure(check_cmd, via=via)
        # Status 1 is also what Python exits with on an uncaught exception: a real result
        # has written its report and, with -q, said nothing.
        crashed = "Traceback (most recent call last)" in c.stderr or not report_json.exists()
        if c.status not in (0, 1) or crashed:
            print(f"posting check failed (exit status {c.status}):\n{c.stderr}", file=sys.stderr)
            return 2
        r = measure(read_cmd, via=via)
        if r.status != 0:
            print(f"reading failed (exit status {r.status}):\n{r.stderr}", file=sys.stderr)
            return 2
        check.append(c)
        read.append(r)
        print(
            f"run {i + 1}/{args.repeat}: check {c.seconds:.2f} s (CPU {c.cpu_seconds:.2f} s) "
            f"{c.maxrss_mib:,.0f} MiB, read {r.seconds:.2f} s (CPU {r.cpu_seconds:.2f} s) "
            f"{r.maxrss_mib:,.0f} MiB",
            flush=True,
        )

    n_parcels = row_count(parcels)
    check_s = statistics.median(r.seconds for r in check)
    read_s = statistics.median(r.seconds for r in read)
    check_rss = statistics.median(r.maxrss_mib for r in check)
    ratio = check_s / read_s
    result = {
        "benchmark": "posting check, synthetic county",
        "parcels": n_parcels,
        "markers": row_count(signs),
        "repeat": args.repeat,
        "check_s": round(check_s, 3),
        "read_s": round(read_s, 3),
        "ratio": round(ratio, 3),
        "parcels_per_s": round(n_parcels / check_s, 1),
        "check_cpu_s": round(statistics.median(r.cpu_seconds for r in check), 3),
        "read_cpu_s": round(statistics.median(r.cpu_seconds for r in read), 3),
        "ratio_cpu": round(
            statistics.median(r.cpu_seconds for r in check)
            / statistics.median(r.cpu_seconds for r in read),
            3,
        ),
        "check_rss_mib": round(check_rss, 1),
        "read_rss_mib": round(statistics.median(r.maxrss_mib for r in read), 1),
        "check_runs_s": [round(r.seconds, 3) for r in check],
        "read_runs_s": [round(r.seconds, 3) for r in read],
        "check_runs_rss_mib": [round(r.maxrss_mib, 1) for r in check],
        "read_runs_rss_mib": [round(r.maxrss_mib, 1) for r in read],
        "check_exit": check[-1].status,
        "targets": {"ratio": TARGET_RATIO, "check_rss_mib": TARGET_RSS_MIB},
        "meets": {"ratio": ratio <= TARGET_RATIO, "rss": check_rss <= TARGET_RSS_MIB},
        "rss_via": "/usr/bin/time -v" if via == "time" else "os.wait4",
        "source": {**before, "changed_during_run": source_state(args.python) != before},
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    print()
    print(report(result, check, read))
    (work / "results.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.profile:
        profile(check_args, args.python, work, args.profile)
    print(json.dumps(result), flush=True)
    if args.strict and not all(result["meets"].values()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
