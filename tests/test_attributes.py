"""Marker attribute values as surveyors write them: measures with their units, bearings."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posting.attributes import (
    column_key,
    find_column,
    first_recorded,
    kind_text,
    marker_kinds,
    measured,
)

# Inches per unit, from the definitions (1 in = 2.54 cm exactly, 1 ft = 12 in).
PER_INCH = {"in": 1, '"': 1, "inches": 1, "ft": 12, "'": 12, "feet": 12, "cm": 1 / 2.54}
PER_INCH |= {"mm": 1 / 25.4, "m": 1 / 0.0254}


@settings(max_examples=200, deadline=None)
@given(
    st.decimals(0, 10_000, places=3, allow_nan=False),
    st.sampled_from(sorted(PER_INCH)),
    st.sampled_from(["", " ", "  "]),
    st.sampled_from(["letter_height_in", "height_ft"]),
)
def test_a_length_with_its_unit_is_read_in_the_columns_unit(number, unit, space, column):
    text = f"{number}{space}{unit}"
    inches = float(number) * PER_INCH[unit]
    want = inches if column.endswith("_in") else inches / 12
    [got] = measured(pd.Series([text], dtype=object), column).tolist()
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 359), st.integers(0, 59))
def test_a_quadrant_bearing_is_its_azimuth(degrees, minutes):
    """The bearing written the surveyor's way, worked out quadrant by quadrant: N 0-90 E, S
    90-0 E, S 0-90 W, N 90-0 W."""
    az = degrees + minutes / 60
    if az <= 90:
        q, angle = ("N", "E"), az
    elif az <= 180:
        q, angle = ("S", "E"), 180 - az
    elif az <= 270:
        q, angle = ("S", "W"), az - 180
    else:
        q, angle = ("N", "W"), 360 - az
    d = math.floor(angle)
    m = round((angle - d) * 60)
    if m == 60:
        d, m = d + 1, 0
    text = f"{q[0]} {d}\u00b0{m:02d}' {q[1]}"
    [got] = measured(pd.Series([text], dtype=object), "facing_deg").tolist()
    assert got == pytest.approx(az, abs=1e-9)


def test_compass_points_and_what_is_no_bearing():
    values = ["N", "nne", "E", "SE", "s s w", "North-West", "northeast", "NNW"]
    assert measured(pd.Series(values), "facing_deg").tolist() == [
        0.0,
        22.5,
        90.0,
        135.0,
        202.5,
        315.0,
        45.0,
        337.5,
    ]
    nothing = ["N 91 E", "S 45", "45 W", "45° 60'", "10 in"]
    got = measured(pd.Series(nothing), "facing_deg")
    assert [x for x in got if isinstance(x, str)] == ["10 in"]  # (read as no number later)
    assert all(math.isnan(x) for x in got if not isinstance(x, str))


def test_other_columns_and_numbers_are_left_as_they_are():
    numbers = pd.Series([3.0, float("nan"), 2.5])
    assert measured(numbers, "letter_height_in") is numbers
    text = pd.Series(["3 in", "Smith"])
    assert measured(text, "name_on_sign") is text
    assert measured(pd.Series(["6 in 4 ft"]), "height_ft").isna().all()  # smaller unit first


def test_rows_not_selected_are_of_no_kind_whatever_kind_they_had():
    """``select``: the rows left out are ``other`` whether the file names its kinds in a kind
    column, in a ``type`` column of kinds (a plan's GPX), or not at all; the rows kept keep
    theirs."""
    import numpy as np

    from posting.attributes import NOT_SELECTED, marker_kinds, select

    keep = np.array([True, False, True, False])
    named = pd.DataFrame({"kind": ["purple paint", "sign", "sign", None], "code": list("abcd")})
    typed = pd.DataFrame({"type": ["paint", "sign", "post", "sign"]})
    bare = pd.DataFrame({"description": ["SIGN", "IRF", "NT SIGN", "IPF"]})
    before = named.copy()
    assert marker_kinds(select(named, keep)).tolist() == ["paint", "other", "sign", "other"]
    assert marker_kinds(select(typed, keep)).tolist() == ["paint", "other", "post", "other"]
    assert marker_kinds(select(bare, keep)).tolist() == ["sign", "other", "sign", "other"]
    assert select(bare, keep)["kind"].tolist() == [None, NOT_SELECTED, None, NOT_SELECTED]
    pd.testing.assert_frame_equal(named, before)  # (a copy is changed)
    # every row kept: the kinds as before
    for frame in (named, typed, bare):
        assert (marker_kinds(select(frame, np.ones(4, bool))) == marker_kinds(frame)).all()


_OURS = ["SIGN NEW CORNER 12-345", "paint new int 7", "POST EXISTING", "OTHER EXISTING 7"]
_THEIRS = ["IRF 5/8", "SIGN", "SIGN NEWS 7", "PAINTNEW 7", "NEW SIGN 7"]
_DESCRIPTIONS = st.sampled_from([None, "", " ", *_OURS, *_THEIRS])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), _DESCRIPTIONS), max_size=30))
def test_a_plan_s_descriptions_give_kinds_file_by_file(rows):
    """Oracle: a file (group) without a ``type`` reads its kinds from its descriptions exactly
    when, read alone, it has one and every non-blank one starts with a kind (sign, paint,
    post, other) then the word new or existing (a loop over the words); and the tallies of
    any split of a file's rows into pieces, or-ed together, give the whole file's judgement."""
    import numpy as np

    from posting.attributes import description_kinds, kinds_tally, type_kinds

    group = np.array([g for g, _ in rows], dtype=int)
    frame = pd.DataFrame({"description": pd.Series([d for _, d in rows], dtype=object)})
    got = type_kinds(*kinds_tally(frame, group, 4))

    def ours(d: str) -> bool:
        words = d.split()
        return (
            len(words) >= 2
            and words[0].lower() in {"sign", "paint", "post", "other"}
            and (words[1].lower() in {"new", "existing"})
        )

    for g in range(4):
        values = [d.strip() for k, d in rows if k == g and d is not None and d.strip()]
        assert got[g] == (bool(values) and all(map(ours, values))), g
    kinds = description_kinds(frame).tolist()
    for (_, d), k in zip(rows, kinds, strict=True):
        assert (k == d.split()[0].lower()) if d and ours(d) else pd.isna(k)
    tally = np.zeros((4, 4), dtype=bool)
    for i in range(len(rows)):
        tally |= np.array(kinds_tally(frame.iloc[[i]], group[[i]], 4))
    assert (type_kinds(*tally) == got).all()


@pytest.mark.parametrize(
    ("columns", "noted"),
    [
        (["point", "northing", "easting", "elevation", "description"], "'description'"),
        (["PT", "N", "E", "Z", "Code"], "'Code'"),
        (["point", "northing", "easting", "kind", "description"], None),
        (["name", "lat", "lon", "type", "desc"], None),  # a GPX's type may be the kinds
        (["lon", "lat", "text"], None),
    ],
)
def test_a_point_file_with_descriptions_and_no_kind_is_noted(columns, noted):
    from posting.attributes import description_note

    note = description_note(columns, "job.csv")
    if noted is None:
        assert note is None
    else:
        assert note.startswith(f"job.csv: has a {noted} column and no kind column")
        assert f'--signs-where "{noted.strip(chr(39))}=SIGN"' in note


def test_kinds_of_files_read_together_are_each_file_s_own():
    """A survey's CSV (``kind``), a plan's GPX (``type``: paint) and another file's
    ``marker_kind``, concatenated as marker files read together are: each row reads its own
    file's column, and a blank everywhere is a sign."""
    from posting.attributes import marker_kinds

    csv = pd.DataFrame({"kind": ["sign", "purple paint"]})
    gpx = pd.DataFrame({"name": ["P1", "P2"], "type": ["paint", "post"]})
    other = pd.DataFrame({"marker_kind": ["post top", None]})
    together = pd.concat([csv, gpx, other], ignore_index=True)
    assert marker_kinds(together).tolist() == ["sign", "paint", "paint", "post", "post", "sign"]
    # each alone reads as before
    assert [marker_kinds(f).tolist() for f in (csv, gpx, other)] == [
        ["sign", "paint"],
        ["paint", "post"],
        ["post", "sign"],
    ]
    # a type column that is not all kinds (a GPX's symbols) is no kind, even beside one that is
    waypoints = pd.DataFrame({"type": ["paint", "Flag, Blue"]})
    assert marker_kinds(pd.concat([csv, waypoints], ignore_index=True)).tolist()[2:] == [
        "sign",
        "sign",
    ]


_TYPES = st.sampled_from([None, "", "  ", "sign", "Paint", " post ", "monument", "Flag, Blue"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), _TYPES), max_size=30))
def test_a_type_column_gives_kinds_file_by_file(rows):
    """Oracle: a file (group) reads its ``type`` as kinds exactly when, read alone, its
    non-blank values are all kinds and there is one; and the tallies of any split of a file's
    rows into pieces, or-ed together, give the whole file's judgement."""
    import numpy as np

    from posting.attributes import type_kinds, type_tally

    group = np.array([g for g, _ in rows], dtype=int)
    frame = pd.DataFrame({"type": pd.Series([t for _, t in rows], dtype=object)})
    got = type_kinds(*type_tally(frame, group, 4))
    for g in range(4):
        values = {str(t).strip().casefold() for k, t in rows if k == g and t is not None}
        values.discard("")
        assert got[g] == (bool(values) and values <= {"sign", "paint", "post"}), g
    # each row its own piece: the pieces' tallies together are the whole's
    valued, other = np.zeros(4, bool), np.zeros(4, bool)
    for i in range(len(rows)):
        v, o = type_tally(frame.iloc[[i]], group[[i]], 4)
        valued |= v
        other |= o
    assert (type_kinds(valued, other) == got).all()


def test_a_file_s_type_column_is_judged_on_that_file_alone():
    """A plan's GPX (``type`` paint) read beside a survey whose ``type`` holds point types: the
    GPX's rows are paint, the survey's signs (judged as one column, neither file's type was
    read, and the paint marks counted as signs)."""
    import numpy as np

    from posting.attributes import marker_kinds

    survey = pd.DataFrame({"type": ["sign", "monument"]})
    gpx = pd.DataFrame({"type": ["paint", "post"]})
    both = pd.concat([survey, gpx], ignore_index=True)
    assert marker_kinds(both).tolist() == ["sign"] * 4  # as one file: not a column of kinds
    typed = np.array([False, False, True, True])
    assert marker_kinds(both, typed).tolist() == ["sign", "sign", "paint", "post"]


@pytest.mark.parametrize(
    ("header", "canonical"),
    [
        ("Sign Text", "text"),
        ("Letter Height (in)", "letter_height_in"),
        ("letter height [inches]", "letter_height_in"),
        ("Letter-Height", "letter_height_in"),
        ("Name On Sign", "name_on_sign"),
        ("Survey Date", "surveyed"),
        ("Facing (°)", "facing_deg"),
        ("Height (ft)", "height_ft"),
        ("Marker Kind", "kind"),
        ("Sign ID", "label"),
    ],
)
def test_a_header_as_people_write_it_names_its_column(header, canonical):
    """Case, blanks or hyphens between words and a unit in brackets aside, a spreadsheet's
    header is the column it spells."""
    assert find_column(["Latitude", "Longitude", header], canonical) == header


def test_a_header_whose_unit_is_not_the_column_s_or_is_no_unit_names_nothing():
    """``Letter Height (ft)`` is no column of inches, ``Name (owner)`` no name on a sign;
    where a spreadsheet's header and the canonical name are both there, the canonical wins."""
    assert find_column(["Letter Height (ft)"], "letter_height_in") is None
    assert column_key("Letter Height (ft)") == "letter_height_ft"
    assert find_column(["Name (owner)"], "name_on_sign") is None
    assert find_column(["Sign Text", "sign_text"], "text") == "sign_text"
    assert find_column(["sign_text", "Sign Text"], "text") == "sign_text"


def test_labels_and_kinds_under_a_spreadsheet_s_headers():
    """``first_recorded`` and ``kind_text`` match as ``find_column`` does (a blank kind: a
    sign)."""
    a = pd.DataFrame(
        {"Sign ID": ["A1", None], "Point ID": ["p1", "p2"], "Marker Kind": ["paint", None]}
    )
    assert first_recorded(a, "label").tolist() == ["A1", "p2"]
    assert kind_text(a)[0] == "paint"
    assert marker_kinds(a).tolist() == ["paint", "sign"]


@pytest.mark.parametrize(
    ("columns", "noted"),
    [
        # Gaia GPS / Garmin: 3 signs named so, a gate and a truck beside them: 2 of 5 noted
        (
            {
                "name": ["Sign 1", "Sign 2", "sign 3", "Gate", "Truck"],
                "desc": [None, "No Trespassing", None, "north gate", None],
            },
            ("5 waypoints", "2 of them are", "('Gate', 'Truck')", '"name=Sign*"'),
        ),
        # the sign said in the description alone (OsmAnd, a phone's share): no common name
        (
            {"name": ["001", "002", "Stand"], "cmt": ["NT sign", "posted", None]},
            ("3 waypoints", "1 of them is", "('Stand')", '("name=Sign*")'),
        ),
        ({"name": ["001", "002", "003"]}, None),  # a GPS's own names: nothing tells them apart
        ({"name": ["Sign 1", "Sign 2"], "desc": [None, "No Trespassing"]}, None),  # all signs
        ({"name": ["Sign 1", "Gate"], "kind": ["sign", "gate"]}, None),  # the kinds are given
        ({"name": ["Sign 1", "Gate"], "type": ["sign", "paint"]}, None),  # a plan's GPX's type
    ],
)
def test_waypoints_named_as_signs_beside_others_are_noted(columns, noted):
    """A file of waypoints without a kind column counts each as a sign; where its names and
    descriptions call some of them signs and not the others (a gate, a truck), a note names
    the others and how to leave them out, instead of counting them silently."""
    from posting.attributes import unnamed_markers_note

    a = pd.DataFrame(columns)
    note = unnamed_markers_note(a, np.ones(len(a), dtype=bool), "farm.gpx")
    if noted is None:
        assert note is None
    else:
        assert note.startswith("farm.gpx: has no kind column, so each of its ")
        for part in noted:
            assert part in note


def test_waypoints_that_are_not_points_are_left_out_of_the_note():
    """A line or a polygon of a KML (a boundary drawn by hand) is listed as no marker position
    already: it is not among the placemarks that count as signs (2 points here, not 3), and a
    file whose only unnamed row is such a shape has no note."""
    from posting.attributes import unnamed_markers_note

    a = pd.DataFrame({"name": ["Sign 1", "Gate", "Fence line"]})
    note = unnamed_markers_note(a, np.array([True, True, False]), "farm.kml", "placemarks")
    assert "each of its 2 placemarks" in note and "1 of them is" in note
    assert "'Fence line'" not in note
    assert unnamed_markers_note(a, np.array([True, False, False]), "farm.kml") is None
