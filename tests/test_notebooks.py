"""The notebooks in notebooks/ run from top to bottom (so they cannot rot)."""

from __future__ import annotations

import pytest
from helpers import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert errors == []
    if path.stem == "landowner-walkthrough":
        last = nb.cells[-1].outputs[0]["data"]["text/html"]
        # the map, inline and whole: Leaflet and our script travel inside it
        assert "iframe" in last and "posting.setup(" in last and "posting.layer(" in last


def test_there_is_a_notebook():
    assert NOTEBOOKS
