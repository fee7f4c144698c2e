"""Parcels' preparation (posting.prepare): its helpers against the slower way they replace."""

from __future__ import annotations

import numpy as np
import shapely

from posting.crs import finite_geometry
from posting.prepare import _flush_tiny


def test_flush_tiny_tells_finite_geometries_as_finite_geometry_does():
    nan = shapely.set_coordinates(
        shapely.box(0, 0, 10, 10), [[0, 0], [10, 0], [np.nan, 10], [0, 10], [0, 0]]
    )
    tiny = shapely.box(0, 1e-250, 20, 20)
    cases = {
        (True, True, True): [tiny, None, shapely.box(0, 0, 1, 1)],
        (False, True, True, False): [nan, tiny, None, nan],
        (): [],
    }
    for want, geoms in cases.items():
        got, finite = _flush_tiny(np.array(geoms, dtype=object))
        assert tuple(finite.tolist()) == want
        assert finite.tolist() == finite_geometry(got).tolist()
        if len(geoms):
            assert shapely.bounds(got[1 if want[0] is False else 0])[1] == 0.0
