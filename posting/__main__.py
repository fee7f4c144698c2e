"""``python -m posting check ...``: the ``posting`` command (:func:`posting.cli.run`).

A ``__main__`` module of a package is one multiprocessing does not run again in the workers of
``--workers`` (``python -m posting.cli`` is run again there, as ``__mp_main__``).
"""

from __future__ import annotations

if __name__ == "__main__":  # pragma: no cover - run as a command (tests/test_cli.py)
    from posting.cli import run

    run()
