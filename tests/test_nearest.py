"""Nearest: each mark within a distance of the nearest other mark of its kind."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from helpers import markers, parcels, profile_file, square
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import Settings, check
from posting.kinds.nearest import nearest_other

RULE = """
[nearest]
paint_ft = 100
post_ft = 36
clause = "Test 4"
"""


def slow_nearest(group, x, y, reach):
    out = []
    for i in range(len(x)):
        d = [
            math.hypot(x[j] - x[i], y[j] - y[i])
            for j in range(len(x))
            if j != i and group[j] == group[i]
        ]
        best = min(d, default=math.inf)
        out.append(best if best <= reach else math.inf)
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 2), st.floats(-300, 300), st.floats(-300, 300)), max_size=30),
    st.floats(1, 400),
)
def test_nearest_agrees_with_every_pair(pts, reach):
    g = np.array([p[0] for p in pts], dtype=np.int64)
    x = np.array([p[1] for p in pts], dtype=float)
    y = np.array([p[2] for p in pts], dtype=float)
    fast = nearest_other(g, x, y, reach)
    assert fast.tolist() == pytest.approx(slow_nearest(g, x, y, reach))
    # a mark added never moves any other mark's nearest farther
    if len(pts):
        more = nearest_other(np.r_[g, 0], np.r_[x, 0.0], np.r_[y, 0.0], reach)[:-1]
        assert (more <= fast).all()


def kinds(*names):
    return pd.DataFrame({"kind": list(names)})


@pytest.mark.parametrize(("gap", "status"), [(99.0, "compliant"), (101.0, "noncompliant")])
def test_marked_trees_100_ft_from_the_nearest(tmp_path, gap, status):
    # four tree marks in a row along the south side, each `gap` ft from the next
    pts = [(100 + k * gap, 0) for k in range(4)]
    r = check(
        parcels(square()),
        markers(pts, attributes=kinds(*["paint"] * 4)),
        profile_file(tmp_path, RULE, kinds=("paint", "post")),
    )
    p = r.to_dict()["parcels"][0]
    assert p["status"] == status
    if status == "noncompliant":
        [v] = p["violations"]
        assert (v["rule"], v["count"], v["limit"]) == ("nearest_paint", 4, 100.0)
        assert v["measured"] == pytest.approx(101.0)


def test_posts_36_ft_and_the_two_kinds_are_judged_apart(tmp_path):
    # posts 35 ft apart pass; a tree 60 ft from a post is judged only against trees
    pts = [(0, 0), (35, 0), (70, 0), (130, 0), (225, 0)]
    att = kinds("post", "post", "post", "paint", "paint")
    rules = profile_file(tmp_path, RULE, kinds=("paint", "post"))
    p = check(parcels(square()), markers(pts, attributes=att), rules).to_dict()["parcels"][0]
    assert p["status"] == "compliant"  # trees 95 ft apart, posts 35 ft
    att.loc[2, "kind"] = "paint"  # now (70, 0) is a tree: the posts are 35 ft apart still
    pts[1] = (37, 0)  # and 37 ft: both posts fail
    p = check(parcels(square()), markers(pts, attributes=att), rules).to_dict()["parcels"][0]
    [v] = p["violations"]
    assert (v["rule"], v["count"]) == ("nearest_post", 2) and v["measured"] == pytest.approx(37.0)


def test_a_lone_mark_and_the_survey_accuracy(tmp_path):
    rules = profile_file(tmp_path, RULE, kinds=("paint", "post"))
    p = check(parcels(square()), markers([(0, 0)], attributes=kinds("paint")), rules)
    [v] = p.to_dict()["parcels"][0]["violations"]
    assert "its only paint mark" in v["message"]
    pts = [(0, 0), (104, 0)]
    r = check(
        parcels(square()),
        markers(pts, attributes=kinds("paint", "paint")),
        rules,
        settings=Settings(accuracy_ft=5),
    )
    assert r.parcels["status"][0] == "uncertain"


@pytest.mark.parametrize(
    ("apart", "status"),
    [(93.0, "compliant"), (96.0, "uncertain"), (105.0, "uncertain"), (107.0, "noncompliant")],
)
def test_the_distance_between_two_marks_is_off_by_twice_the_accuracy(tmp_path, apart, status):
    # Two tree marks `apart` ft apart, each surveyed to 3 ft: they stand between apart - 6 and
    # apart + 6 ft apart. 96 ft may be 102 ft (not sure to pass the 100 ft figure); 105 ft may
    # be 99 ft (not sure to fail); 93 ft is at most 99 ft, 107 ft at least 101 ft.
    rules = profile_file(tmp_path, RULE, kinds=("paint", "post"))
    r = check(
        parcels(square()),
        markers([(200, 0), (200 + apart, 0)], attributes=kinds("paint", "paint")),
        rules,
        settings=Settings(accuracy_ft=3),
    )
    assert r.parcels["status"][0] == status
