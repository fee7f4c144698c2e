"""Notice at the main entrance (posting.kinds.entrance): Illinois 21-3(b), Indiana
35-43-2-2(c)(2)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from helpers import markers, parcels, square
from hypothesis import given, settings
from hypothesis import strategies as st
from test_profiles import features, one

from posting import Settings, check
from posting.checks import FAIL, OK, UNCERTAIN
from posting.engine import Context
from posting.kinds.entrance import entrance_findings

OWN = """
schema = 1
name = "entrance-test"
title = "Notice at the main entrance, for tests"
jurisdiction = "Test County"
citation = "Test Code 2-1"
source_url = "https://example.org/code"
purpose = "general trespass"
verification = "unverified"
kinds = ["sign"]

[entrance]
clause = "Test Code 2-1(b)"
text = "notice conspicuously posted at the main entrance"
"""

# A 2,000 ft square; a driveway crosses its south side at (1000, 0), a trail its east side at
# (2000, 1000).
LOT = square(2000)
DRIVEWAY = shapely.LineString([(1000, -200), (1000, 300)])
TRAIL = shapely.LineString([(1800, 1000), (2300, 1000)])
AT_DRIVEWAY, AT_TRAIL = (1000, 10), (1990, 1000)


@pytest.fixture
def rules(tmp_path) -> str:
    path = tmp_path / "entrance-test.toml"
    path.write_text(OWN)
    return str(path)


def run(rules, pts, *, access=(DRIVEWAY, TRAIL), types=("driveway", "trail"), **kw):
    ctx = Context(access=features(list(access), list(types))) if access is not None else Context()
    return check(parcels(LOT), markers(pts), rules, context=ctx, **kw)


def test_a_sign_at_every_entrance_is_one_at_the_main_entrance(rules):
    p = one(run(rules, [AT_DRIVEWAY, AT_TRAIL]))
    assert p["status"] == "compliant"
    assert p["missing_access"] == []


def test_a_sign_at_one_of_two_entrances_is_uncertain(rules):
    r = run(rules, [AT_DRIVEWAY])
    p = one(r)
    assert p["status"] == "uncertain"
    [u] = p["uncertain"]
    assert u["rule"] == "entrance" and u["clause"] == "Test Code 2-1(b)"
    assert "at 1 of its 2 access points" in u["message"]
    assert len(p["missing_access"]) == 1  # the trail's crossing, for the user to judge


def test_no_sign_at_any_entrance_is_a_violation(rules):
    # one sign on the south side 500 ft west of the driveway: 500 ft from the nearest entrance
    p = one(run(rules, [(500, 0)]))
    assert p["status"] == "noncompliant"
    [v] = p["violations"]
    assert v["rule"] == "entrance"
    assert "none of its 2 access points" in v["message"]
    assert v["measured"] == pytest.approx(500.0)
    assert v["limit"] == pytest.approx(50.0)


def test_only_the_types_that_may_be_the_main_entrance(tmp_path):
    path = tmp_path / "entrance-types.toml"
    path.write_text(OWN.replace("[entrance]", '[entrance]\ntypes = ["driveway"]'))
    p = one(run(str(path), [AT_DRIVEWAY]))
    assert p["status"] == "compliant"  # a trail is not taken for the main entrance


def test_without_an_access_layer_signs_leave_it_uncertain(rules):
    r = run(rules, [AT_DRIVEWAY], access=None)
    p = one(r)
    assert p["status"] == "uncertain"
    assert "no access layer" in p["uncertain"][0]["message"]
    [note] = [x for x in r.to_dict()["not_checked"] if x["rule"] == "entrance"]
    assert "no access layer" in note["reason"]


def test_no_entrance_crossing_the_boundary_is_uncertain(rules):
    far = shapely.LineString([(5000, 5000), (6000, 5000)])
    p = one(run(rules, [AT_DRIVEWAY], access=[far], types=["road"]))
    assert p["status"] == "uncertain"
    assert "no way of access" in p["uncertain"][0]["message"]


def test_no_sign_at_all_is_unposted(rules):
    assert one(run(rules, []))["status"] == "unposted"


def test_a_sign_within_the_survey_accuracy_of_the_tolerance(rules):
    # 55 ft from the driveway's crossing, the tolerance 50 ft: uncertain at 10 ft of accuracy
    pts = [(1055, 0), AT_TRAIL]
    assert one(run(rules, pts))["status"] == "uncertain"
    p = one(run(rules, pts, settings=Settings(accuracy_ft=10)))
    assert p["status"] == "uncertain"
    assert "survey accuracy at 1" in p["uncertain"][0]["message"]
    p = one(run(rules, [(1055, 0)], settings=Settings(accuracy_ft=10)))
    assert p["status"] == "uncertain"  # the one near the driveway may be within 50 ft
    assert one(run(rules, [(1055, 0)]))["status"] == "noncompliant"


# -- the per-parcel verdict against an obvious reading ------------------------------------------


def _slow(parcel, status, posted):
    out = {}
    for p in range(len(posted)):
        mine = [s for q, s in zip(parcel, status, strict=True) if q == p]
        if not mine:
            if posted[p]:
                out[p] = "uncertain"
        elif all(s == FAIL for s in mine):
            out[p] = "violation"
        elif not all(s == OK for s in mine):
            out[p] = "uncertain"
    return out


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from([OK, UNCERTAIN, FAIL]))),
            st.lists(st.booleans(), min_size=n, max_size=n),
        )
    )
)
def test_entrance_findings_against_an_obvious_reading(case):
    pairs, posted = case
    pairs.sort()
    parcel = np.array([p for p, _ in pairs], dtype=np.int64)
    status = np.array([s for _, s in pairs], dtype=np.int8)
    f = entrance_findings(
        parcel,
        status,
        np.full(len(pairs), 60.0),
        np.array(posted),
        clause="c",
        tolerance_ft=50.0,
    )
    got = dict(zip(f["parcel"].tolist(), f["level"].tolist(), strict=True))
    assert got == _slow(parcel.tolist(), status.tolist(), posted)


def test_without_an_access_layer_marks_of_another_kind_leave_it_uncertain():
    # Tennessee: fluorescent marks every 50 yards and signs at the major points of ingress.
    # A 900 ft square painted every 100 ft round, with no sign at all: without an access layer
    # whether its ways in have signs cannot be told. It was compliant (only parcels with
    # markers of the access rule's own kind, signs, were made uncertain: found by the plan
    # audit); now any marker the profile counts makes it uncertain, as the note says.
    import pandas as pd

    pts = [(x, 0) for x in range(0, 900, 100)] + [(900, y) for y in range(0, 900, 100)]
    pts += [(x, 900) for x in range(900, 0, -100)] + [(0, y) for y in range(900, 0, -100)]
    paint = markers(pts, attributes=pd.DataFrame({"kind": ["paint"] * len(pts)}))
    r = check(parcels(square(900)), paint, "tennessee-paint")
    p = one(r)
    assert p["status"] == "uncertain", p
    assert [u["rule"] for u in p["uncertain"]] == ["access"]
    note = next(x for x in r.to_dict()["not_checked"] if x["rule"] == "access")
    assert note["reason"].endswith("a parcel with markers is uncertain")
