"""Thin entry point at the repository root: ``python cli.py check ...`` runs ``posting``.

Run by a Python without posting's dependencies (the system's, rather than the one
``scripts/setup`` makes in ``.venv``), it says so in one line, and what to run instead.
"""

from __future__ import annotations

import sys
from importlib.util import find_spec
from pathlib import Path

NEEDED = (
    "click",
    "numpy",
    "pandas",
    "shapely",
    "pyproj",
    "pyogrio",
    "pyarrow",
    "geopandas",
    "orjson",
    "folium",
    "gpxpy",
    "fastkml",
    "lxml",
    "xstatic",
)
"""The import names of the dependencies in pyproject.toml (found without importing them)."""


def _unusable() -> str | None:
    """Why this Python cannot run posting, with what to do; None when it can."""
    here = Path(__file__).resolve().parent
    venv = here / ".venv" / "bin" / "posting"
    todo = (
        f"run {venv} instead (or {here / '.venv' / 'bin' / 'python'} cli.py)"
        if venv.exists()
        else f"run {here / 'scripts' / 'setup'} once, then {venv}"
    )
    if sys.version_info < (3, 11):  # noqa: UP036 - this file is for any python3
        found = ".".join(map(str, sys.version_info[:3]))
        return f"posting needs Python 3.11 or newer, and {sys.executable} is {found}; {todo}"
    missing = [name for name in NEEDED if find_spec(name) is None]
    if missing:
        return (
            f"{sys.executable} does not have posting's dependencies ({', '.join(missing)}); " + todo
        )
    return None


if __name__ == "__main__":
    why = _unusable()
    if why:
        print(f"posting: error: {why}", file=sys.stderr)
        sys.exit(2)
    from posting.cli import run

    run()
