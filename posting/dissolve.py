"""A union of geometries that keeps every one of them.

GEOS's unary union (``shapely.union_all``) now and then leaves out an input polygon whole,
for valid inputs: libgeos/geos#965 (open since 2023), #1383 (an empty result). With GEOS
3.14.1 the union of five polygons, one of them a strip of 67 sq ft that touches another at a
corner, came to a polygon without the strip, 67 sq ft short (``tests/test_dissolve.py``): a
water body, a fence's reach or a lot of a merged property so lost would make a verdict false.

:func:`dissolve` checks the union and redoes it with GEOS's snap-rounding overlay on a grid of
:data:`GRID_FT` (which GEOS's authors call fully robust) where it lost something. The check is
cheap (one prepared geometry, one point per input), and a union that lost nothing is the
floating one, to the bit.
"""

from __future__ import annotations

import numpy as np
import shapely

__all__ = ["GRID_FT", "dissolve"]

GRID_FT = 1e-6
"""The grid of the union made again: a millionth of a foot, where coordinates are working feet
(at most about 1e7 ft from the frame's origin, well within a double's 16 digits)."""


def dissolve(geoms: np.ndarray) -> shapely.Geometry:
    """The union of ``geoms`` (None and empty ones are left out), checked: every input's
    interior point (:func:`shapely.point_on_surface`) lies in it, and it is no smaller than
    the largest input; where not, the union on the grid of :data:`GRID_FT`.

    Examples
    --------
    >>> u = dissolve(np.array([shapely.box(0, 0, 2, 1), shapely.box(1, 0, 3, 1), None]))
    >>> u.geom_type, u.area
    ('Polygon', 3.0)
    """
    geoms = np.asarray(geoms, dtype=object)
    geoms = geoms[~(shapely.is_missing(geoms) | shapely.is_empty(geoms))]
    union = shapely.union_all(geoms)
    if not len(geoms) or _keeps(union, geoms):
        return union
    return shapely.union_all(geoms, grid_size=GRID_FT)


def _keeps(union: shapely.Geometry, geoms: np.ndarray) -> bool:
    """Whether ``union`` holds a point of each of ``geoms`` and is as large as the largest."""
    area = shapely.area(geoms)
    if shapely.area(union) < area.max() * (1 - 1e-9):
        return False
    shapely.prepare(union)
    return bool(shapely.intersects(union, shapely.point_on_surface(geoms)).all())
