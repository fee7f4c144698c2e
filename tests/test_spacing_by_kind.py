"""Spacing by marker kind: trees 100 ft, posts 36 ft, on one boundary."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import AT_SEA, markers, parcels, profile_file, square

from posting import check
from posting.kinds.spacing_by_kind import SpacingByKindRule, gap_limits

RULE = """
[spacing_by_kind]
paint_ft = 100
post_ft = 36
metric = "along_boundary"
clause = "Test 5"
"""


def test_limits_by_hand():
    rule = SpacingByKindRule("x", paint_ft=100.0, post_ft=36.0, mixed="larger")
    k = np.array(["paint", "post", "paint"], dtype=object)
    assert gap_limits(rule, k, np.array(["paint", "post", "post"], dtype=object)).tolist() == [
        100.0,
        36.0,
        100.0,
    ]


def boundary(side, tree_step, post_step):
    """Tree marks every `tree_step` along the south and east sides, posts every `post_step`
    along the north and west sides of a square of `side` ft, and a mark of each kind at the
    two corners where the kinds meet, the post a foot along its side (so no gap longer than a
    foot runs from one kind to the other)."""
    pts, kinds = [], []
    for s in [*np.arange(0, 2 * side, tree_step), 2 * side]:
        pts.append((s, 0) if s <= side else (side, s - side))
        kinds.append("paint")
    for s in [1.0, *np.arange(post_step, 2 * side - 1, post_step), 2 * side - 1]:
        pts.append((side - s, side) if s <= side else (0, side - (s - side)))
        kinds.append("post")
    return pts, pd.DataFrame({"kind": kinds})


@pytest.mark.parametrize(
    ("tree", "post", "status"),
    [(100.0, 36.0, "compliant"), (102.0, 36.0, "noncompliant"), (100.0, 37.0, "noncompliant")],
)
def test_trees_and_posts_on_one_boundary(tmp_path, tree, post, status):
    # a 720 ft square: trees along two sides, posts along the other two. Each kind's gaps are
    # its step (or shorter at the ends); where the kinds meet, a gap of at most 36 ft.
    pts, att = boundary(720.0, tree, post)
    r = check(
        parcels(square(720)),
        markers(pts, attributes=att),
        profile_file(tmp_path, RULE, kinds=("paint", "post")),
        settings=AT_SEA,
    )
    p = r.to_dict()["parcels"][0]
    assert p["status"] == status
    if status == "noncompliant":
        [v] = p["violations"]
        assert v["rule"] == "spacing" and v["limit"] == (100.0 if tree > 100 else 36.0)
    # the gaps table holds each gap's limit by its ends' kinds
    assert set(r.gaps["limit_ft"]) <= {100.0, 36.0}
    # the same boundary under one spacing for both kinds (100 ft) would pass the posts' 37 ft
    assert p["max_gap_ft"] <= max(tree, post) + 1e-6
