"""Either/or content (a signature, or a name and phone) and a mark's height from its centre."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import LOCAL_FT, markers, parcels, profile_file, square
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import check
from posting.io import FeatureLayer
from posting.kinds.content_either import either_status
from posting.kinds.mark_height import either
from posting.measure import Context

EITHER = """
[content_either]
options = [["signed"], ["name_on_sign", "phone_on_sign"]]
clause = "M 4(b)(3)"
"""

PTS = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]


def test_either_status_by_hand():
    ok, fail, miss = 0, 2, -1
    signed = np.array([ok, fail, fail, miss, fail])
    name = np.array([fail, ok, ok, ok, miss])
    phone = np.array([fail, ok, fail, ok, ok])
    assert either_status([[signed], [name, phone]]).tolist() == [ok, ok, fail, ok, miss]


def test_a_signed_sign_without_a_phone_passes(tmp_path):
    att = pd.DataFrame(
        {
            "signed": ["J. Smith", "none", "none", "none"],
            "name_on_sign": ["none", "J. Smith", "J. Smith", "J. Smith"],
            "phone_on_sign": ["none", "555-0100", "555-0100", "none"],
        }
    )
    r = check(parcels(square()), markers(PTS, attributes=att), profile_file(tmp_path, EITHER))
    [v] = r.to_dict()["parcels"][0]["violations"]
    assert (v["rule"], v["count"]) == ("sign_content_either", 1)
    assert "show neither a signature nor a name and a phone number" in v["message"]
    # without a signature column: a sign with name and phone passes, one without is unknown
    r = check(
        parcels(square()),
        markers(PTS, attributes=att.drop(columns="signed")),
        profile_file(tmp_path, EITHER),
    )
    p = r.to_dict()["parcels"][0]
    assert p["violations"] == [] and p["not_checked"][0]["count"] == 2


CENTRE = """
[mark_height]
kinds = ["paint"]
measured = "centre"
min_ft = 3
max_ft = 6
from_water = true
clause = "VA A"
"""


@pytest.mark.parametrize(("bottom", "status"), [(2.67, "compliant"), (2.6, "noncompliant")])
def test_centre_of_an_8_inch_mark_from_its_bottom(tmp_path, bottom, status):
    # an 8 in mark's centre is 4 in (1/3 ft) above its bottom: bottom 2.67 ft -> centre
    # 3.003 ft (passes); bottom 2.6 ft -> 2.933 ft (fails the 3 ft minimum)
    att = pd.DataFrame({"kind": ["paint"] * 4, "height_ft": [bottom, 4, 4, 4], "length_in": 8})
    r = check(
        parcels(square()),
        markers(PTS, attributes=att),
        profile_file(tmp_path, CENTRE, kinds=("paint",)),
    )
    assert r.parcels["status"][0] == status


def test_centre_recorded_and_marks_along_water(tmp_path):
    att = pd.DataFrame({"kind": ["paint"] * 4, "centre_ft": [3.0, 6.0, 6.1, 4.0]})
    river = FeatureLayer(
        "<memory>",
        np.array([shapely.box(-50, -40, 1050, -5)], dtype=object),
        LOCAL_FT,
        np.array([None], dtype=object),
    )
    r = check(
        parcels(square()),
        markers(PTS, attributes=att),
        profile_file(tmp_path, CENTRE, kinds=("paint",)),
        context=Context(water=river),
    )
    p = r.to_dict()["parcels"][0]
    [v] = p["violations"]
    assert v["count"] == 1 and "above the ground or the normal water surface" in v["message"]
    [n] = [n for n in p["notes"] if n["rule"] == "mark_height"]
    assert n["count"] == 2  # the two marks on the south side, along the river


def slow_either(options):
    """Sign by sign: OK if some option's items are all OK; FAIL if every option has a FAIL;
    else not recorded."""
    out = []
    for i in range(len(options[0][0])):
        items = [[int(col[i]) for col in o] for o in options]
        if any(all(v == 0 for v in o) for o in items):
            out.append(0)
        elif all(any(v == 2 for v in o) for o in items):
            out.append(2)
        else:
            out.append(-1)
    return out


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 3).flatmap(
        lambda k: st.lists(
            st.lists(
                st.lists(st.sampled_from([0, 2, -1]), min_size=6, max_size=6),
                min_size=1,
                max_size=3,
            ),
            min_size=k,
            max_size=k,
        )
    )
)
def test_either_agrees_with_sign_by_sign(options):
    arrays = [[np.array(col, dtype=np.int8) for col in o] for o in options]
    assert either_status(arrays).tolist() == slow_either(arrays)


NR = -1
feet = st.one_of(st.none(), st.integers(0, 100).map(lambda k: k / 10))


def slow_either_height(bottom, length, centre, lo, hi):
    """One mark: every bottom and centre its records allow (the one not recorded, with the
    length unknown, taken from every length of 0 to 240 in by half inches), each pair
    judged: both outside the range, both inside, or one of each."""
    if bottom is None and centre is None:
        return NR, 0
    if bottom is not None and centre is not None:
        pairs = [(bottom, centre)]
    else:
        lengths = [length] if length is not None else [k / 2 for k in range(481)]
        if bottom is not None:
            pairs = [(bottom, bottom + ln / 24) for ln in lengths]
        else:
            pairs = [(centre - ln / 24, centre) for ln in lengths]

    def within(v):
        return (lo is None or v >= lo) and (hi is None or v <= hi)

    ins = {(within(b), within(c)) for b, c in pairs}
    if ins == {(False, False)}:
        fail = 2
    elif (False, False) not in ins and (len(pairs) == 1 or ins == {(True, True)}):
        fail = 0
    else:
        fail = NR
    split = 2 if len(pairs) == 1 and within(pairs[0][0]) != within(pairs[0][1]) else 0
    return fail, split


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(feet, st.one_of(st.none(), st.integers(0, 48).map(lambda k: k / 2)), feet),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from([(3.0, 6.0), (3.0, None), (None, 6.0)]),
)
def test_either_height_agrees_with_every_height_the_records_allow(marks, bounds):
    """A mark's two readings (bottom, centre) from whatever of bottom, length and centre it
    records: failed only where every height its records allow puts both outside the range,
    passed where none does (and, one end unknown, every one puts both inside), else not
    settled; split where the two, both known, disagree."""
    lo, hi = bounds
    bottom, length, centre = (pd.Series([m[i] for m in marks], dtype=float) for i in range(3))
    fail, split = either(bottom, length, lo, hi, centre)
    slow = [slow_either_height(*m, lo, hi) for m in marks]
    assert list(zip(fail.tolist(), split.tolist(), strict=True)) == slow


@pytest.mark.parametrize("measured", ["either", "bottom"])
def test_a_survey_of_centres_is_read_whatever_end_the_law_measures(tmp_path, measured):
    """A survey that records each mark's centre (``centre_ft``) and length, not its bottom: an
    8 in mark centred 2.5 ft up has its bottom at 2.17 ft, both under 3 ft; one centred 4 ft
    up, its bottom at 3.67 ft, both within 3 to 6 ft. The rule measured from the bottom, or
    from either end, reads them (it noted "no height_ft column" and checked nothing)."""
    text = CENTRE.replace('measured = "centre"', f'measured = "{measured}"')
    att = pd.DataFrame({"kind": ["paint"] * 4, "centre_ft": [2.5, 4, 4, 4], "length_in": 8})
    r = check(
        parcels(square()),
        markers(PTS, attributes=att),
        profile_file(tmp_path, text, kinds=("paint",)),
    )
    p = r.to_dict()["parcels"][0]
    [v] = [v for v in p["violations"] if v["rule"] == "mark_height"]
    assert v["count"] == 1 and p["status"] == "noncompliant"
    assert not [n for n in p["not_checked"] if n["rule"] == "mark_height"]
    assert not [u for u in p["uncertain"] if u["rule"] == "mark_height"]
