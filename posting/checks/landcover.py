"""Land cover along boundaries: which stretches run through forest land."""

from __future__ import annotations

import numpy as np
import shapely

from posting.dissolve import GRID_FT, dissolve, overlap, tile

__all__ = ["forest_share"]


def forest_share(lines: np.ndarray, forest: np.ndarray) -> np.ndarray:
    """Share of each line's length that lies in the forest polygons (0 to 1).

    Overlapping forest polygons are dissolved first, so no length counts twice; a line or a
    point among them covers no land, and no length (it is left out before).

    Examples
    --------
    >>> share = forest_share(np.array([shapely.LineString([(0, 0), (100, 0)])]),
    ...                      np.array([shapely.box(-10, -5, 25, 5), shapely.box(20, -5, 40, 5)]))
    >>> share.round(6).tolist()
    [0.4]
    """
    lines = np.asarray(lines, dtype=object)
    out = np.zeros(len(lines))
    forest = np.asarray(forest, dtype=object)
    forest = forest[shapely.get_dimensions(forest) == 2]  # (a line or point is no land)
    if len(lines) == 0 or len(forest) == 0:
        return out
    parts = shapely.get_parts(dissolve(forest))
    tiles, _ = tile(parts[shapely.get_dimensions(parts) == 2])  # (and a collection's lines)
    # the lines in the tree, each tile asked once (prepared): a forest is a few pieces of many
    # vertices, which a million lines asked of one by one; summed by line, then tile
    # (within a hair, not intersecting: a cut puts a vertex a hair off the edge it cuts, and a
    # line along that edge may then not touch its tile at all; measured on the grid, it does)
    ti, li = shapely.STRtree(lines).query(tiles, predicate="dwithin", distance=GRID_FT)
    order = np.lexsort((ti, li))
    li, ti = li[order], ti[order]
    inside = overlap(lines[li], tiles[ti], shapely.length)
    total = np.bincount(li, weights=inside, minlength=len(lines))
    length = shapely.length(lines)
    np.divide(total, length, out=out, where=length > 0)
    return np.clip(out, 0.0, 1.0)
