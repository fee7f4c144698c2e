"""Each kind of rule at and around its limits, on shipped profiles and on one's own."""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import AT_SEA, CORNERS_AND_MIDPOINTS, LOCAL_FT, markers, parcels, square
from pyproj import CRS, Transformer

from posting import Settings, check
from posting.cli import flag
from posting.engine import Context
from posting.evaluate import GUIDANCE_ONLY
from posting.io import FeatureLayer
from posting.rules import available, load_rules

TO_LONLAT = Transformer.from_crs(LOCAL_FT, "EPSG:4326", always_xy=True)


def along(poly, step_ft, start_ft=0.0):
    """Points every ``step_ft`` along a polygon's exterior, from its first vertex."""
    ring = shapely.get_exterior_ring(shapely.orient_polygons(poly))
    s = np.arange(start_ft, ring.length - 1e-9, step_ft)
    return shapely.get_coordinates(shapely.line_interpolate_point(ring, s))


def kinds(n, kind="paint", **cols):
    return pd.DataFrame({"kind": [kind] * n, **{k: [v] * n for k, v in cols.items()}})


def one(report):
    return report.to_dict()["parcels"][0]


def features(geoms, values, crs=LOCAL_FT):
    return FeatureLayer(
        "<memory>", np.asarray(geoms, dtype=object), crs, np.asarray(values, dtype=object)
    )


NO_WAYS = features([], [])
"""An access layer with no way across any boundary: the ways in are known, and there are none."""


def test_at_least_ten_jurisdictions_ship():
    names = available()
    jurisdictions = {load_rules(n).jurisdiction for n in names}
    assert len(jurisdictions) >= 10
    assert {
        "florida",
        "florida-paint",
        "texas",
        "new-york",
        "north-dakota",
        "missouri",
        "illinois",
        "arkansas",
        "maine",
        "minnesota",
        "arizona",
        "north-dakota-criminal",
        "town-code",
    } <= set(names)


# -- Texas: purple paint, 100 ft on forest land and 1,000 ft on other land ---------------------


@pytest.mark.parametrize(("step", "status"), [(95.0, "compliant"), (110.0, "noncompliant")])
def test_texas_forest_land(step, status):
    pts = along(square(), step)
    r = check(
        parcels(square()),
        markers(pts, attributes=kinds(len(pts))),
        "texas",
        context=Context(parcel_landcover=[True]),
    )
    p = one(r)
    assert p["status"] == status
    assert p["max_gap_ft"] == pytest.approx(step)
    if status == "noncompliant":
        [v] = [v for v in p["violations"] if v["rule"] == "spacing"]
        assert v["limit"] == 100.0 and v["measured"] == pytest.approx(110.0, abs=0.01)


@pytest.mark.parametrize(
    ("forest", "status"), [(False, "compliant"), (True, "noncompliant"), (None, "uncertain")]
)
def test_texas_other_land_at_990_ft(forest, status):
    # land cover unknown: 990 ft is over the forest figure and within the other land's, so
    # which one applies decides, and it is not known: uncertain (not a sure fail)
    lot = square(1980)  # perimeter 7,920 ft = 8 gaps of 990 ft
    pts = along(lot, 990.0)
    ctx = Context(parcel_landcover=[forest])
    r = check(parcels(lot), markers(pts, attributes=kinds(len(pts))), "texas", context=ctx)
    assert one(r)["status"] == status
    landcover = [x for x in r.not_checked if x["rule"] == "landcover"]
    assert bool(landcover) == (forest is None)  # unknown land cover: the stricter 100 ft, said
    if forest is None:  # which figure holds is not known: said so, not a gap on both covers
        [u] = [u for u in one(r)["uncertain"] if u["rule"] == "spacing"]
        assert u["message"] == (
            "8 gaps longer than 100.0 ft but within 1,000.0 ft apart; the shorter figure "
            "holds on forest land, and the land cover is not known; the longest is 990.0 ft"
        )


def test_texas_land_cover_from_a_layer_gap_by_gap():
    lot = square(1980)
    pts = along(lot, 990.0)
    south_woods = shapely.box(-100, -100, 2100, 400)  # the south side runs through forest
    ctx = Context(
        landcover=features(
            [south_woods, shapely.box(-100, 1500, 2100, 2100)], ["forest", "pasture"]
        )
    )
    r = check(parcels(lot), markers(pts, attributes=kinds(len(pts))), "texas", context=ctx)
    over = r.gaps[r.gaps["status"] == "over"]
    assert len(over) == 2  # the two 990 ft gaps along the south side, against 100 ft
    assert over["limit_ft"].tolist() == [100.0, 100.0]
    assert (r.gaps.loc[r.gaps["status"] == "ok", "limit_ft"] == 1000.0).all()


@pytest.mark.parametrize(
    ("forest_ft", "status"),
    [
        # Tex. Penal Code 30.05(b)(2)(D)(iii): "no more than: (a) 100 feet apart on forest land;
        # or (b) 1,000 feet apart on land other than forest land". A 990 ft gap (the south
        # side's first: marks at (0, 0) and (990, 0)) with this much forest land along it:
        (445.5, "uncertain"),  # 45 %: by most of its length 1,000 ft (within); but 445.5 ft
        # of forest land without a mark is over 100 ft: the law says nothing of a gap on both
        (544.5, "noncompliant"),  # 55 %: forest land for more than 100 ft, most of it: over
        (0.5, "compliant"),  # half a foot of a woods' edge is no forest land: 1,000 ft
    ],
)
def test_texas_a_gap_partly_through_forest_land(forest_ft, status):
    lot = square(1980)  # perimeter 7,920 ft = 8 gaps of 990 ft
    pts = along(lot, 990.0)
    woods = shapely.box(100, -5, 100 + forest_ft, 5)  # along the south side, x 100 to ...
    ctx = Context(landcover=features([woods], ["forest"]))
    r = check(parcels(lot), markers(pts, attributes=kinds(len(pts))), "texas", context=ctx)
    p = one(r)
    assert p["status"] == status
    if status == "uncertain":
        [u] = [u for u in p["uncertain"] if u["rule"] == "spacing"]
        assert "forest land for 445.5 ft of its 990.0 ft" in u["message"]
        assert u["measured"] == pytest.approx(990.0)
        # the gap is held to the figure that surely suffices, for a plan
        [gap] = r.gaps[r.gaps["status"] == "uncertain"].to_dict("records")
        assert gap["limit_ft"] == 100.0 and gap["forest"] == 0.0


def test_texas_counts_paint_marks_not_signs_and_checks_them():
    pts = along(square(), 95.0)
    r = check(parcels(square()), markers(pts), "texas", context=Context(parcel_landcover=[True]))
    assert one(r)["status"] == "unposted"  # signs are not purple paint marks
    n = len(pts)
    attrs = kinds(n, color="OSHA safety purple", length_in=8, width_in=1, height_ft=3.5)
    attrs.loc[3, "color"] = "orange"
    attrs.loc[5, "height_ft"] = 5.5
    attrs.loc[7, "length_in"] = 6
    p = one(
        check(
            parcels(square()),
            markers(pts, attributes=attrs),
            "texas",
            context=Context(parcel_landcover=[True]),
        )
    )
    v = {x["rule"]: x for x in p["violations"]}
    assert set(v) == {"paint_color", "paint_height", "paint_length"}
    assert v["paint_length"]["measured"] == 6.0 and v["paint_length"]["limit"] == 8.0
    assert all(x["count"] == 1 for x in v.values())


# -- New York: 660 ft, a sign on each side of each corner ---------------------------------------


def _each_side_layout(side=1000.0, inset=20.0):
    pts = []
    for (x0, y0), (x1, y1) in [
        ((0, 0), (side, 0)),
        ((side, 0), (side, side)),
        ((side, side), (0, side)),
        ((0, side), (0, 0)),
    ]:
        for t in (inset / side, 0.5, 1 - inset / side):
            pts.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0)))
    return pts


def test_new_york_sign_on_each_side_of_each_corner():
    p = one(check(parcels(square()), markers(_each_side_layout()), "new-york"))
    assert p["status"] == "compliant"
    assert p["corners"] == 4 and p["missing_corners"] == []


def test_new_york_one_sign_at_the_corner_is_not_enough():
    p = one(check(parcels(square()), markers(CORNERS_AND_MIDPOINTS), "new-york"))
    assert p["status"] == "noncompliant"
    [v] = [v for v in p["violations"] if v["rule"] == "corners"]
    assert v["count"] == 4 and "on each side" in v["message"]
    # the spacing of 500 ft is within New York's 660 ft
    assert not [v for v in p["violations"] if v["rule"] == "spacing"]


def test_new_york_660_ft():
    lot = shapely.box(0, 0, 1320, 40)  # a strip: two sides of 1,320 ft
    pts = [(20, 0), (660, 0), (1300, 0), (1320, 20), (1300, 40), (640, 40), (20, 40), (0, 20)]
    assert (
        one(check(parcels(lot), markers(pts), "new-york", settings=AT_SEA))["status"] == "compliant"
    )
    pts[1] = (700, 0)  # gaps of 680 and 600 ft along the south side
    p = one(check(parcels(lot), markers(pts), "new-york", settings=AT_SEA))
    [v] = [v for v in p["violations"] if v["rule"] == "spacing"]
    assert v["measured"] == pytest.approx(680.0) and v["limit"] == 660.0


# -- Arizona: access points, corners, orange posts in between -------------------------------------


def _arizona(extra_access=(), post_intervals=False):
    lot = square(2000)
    corners = [(0, 0), (2000, 0), (2000, 2000), (0, 2000)]
    intervals = [(700, 0), (2000, 1000), (1000, 2000), (0, 1000)]
    attrs = kinds(8, "sign")
    if post_intervals:
        attrs.loc[4:, "kind"] = "post"
    driveway = shapely.LineString([(1000, -200), (1000, 300)])
    access = features([driveway, *extra_access], ["driveway"] + ["trail"] * len(extra_access))
    return check(
        parcels(lot),
        markers(corners + intervals, attributes=attrs),
        "arizona",
        context=Context(access=access),
    )


def test_arizona_flags_the_unmarked_driveway_at_its_crossing():
    r = _arizona()
    p = one(r)
    assert p["status"] == "noncompliant"
    [v] = p["violations"]
    assert v["rule"] == "access" and v["clause"].startswith("A.R.S. 17-304")
    lon, lat = TO_LONLAT.transform(1000.0, 0.0)
    assert p["missing_access"] == [pytest.approx([lon, lat], abs=1e-7)]


def test_arizona_a_sign_at_the_driveway_posts_it_and_trails_do_not_count():
    lot = square(2000)
    pts = [
        (0, 0),
        (2000, 0),
        (2000, 2000),
        (0, 2000),
        (1020, 0),
        (2000, 1000),
        (1000, 2000),
        (0, 1000),
    ]
    access = features(
        [
            shapely.LineString([(1000, -200), (1000, 300)]),
            shapely.LineString([(-100, 1500), (100, 1500)]),
        ],
        ["driveway", "trail"],
    )
    r = check(parcels(lot), markers(pts), "arizona", context=Context(access=access))
    assert one(r)["status"] == "compliant"
    assert len(r.access) == 1  # the trail crossing is not a vehicular access point


def test_arizona_orange_posts_replace_interval_signs_but_not_corner_signs():
    lot = square(2000)
    pts = [
        (0, 0),
        (2000, 0),
        (2000, 2000),
        (0, 2000),
        (1000, 0),
        (2000, 1000),
        (1000, 2000),
        (0, 1000),
    ]
    attrs = kinds(8, "sign")
    attrs.loc[4:, "kind"] = "post"
    access = features([shapely.LineString([(1000, -200), (1000, 300)])], ["driveway"])
    r = check(
        parcels(lot), markers(pts, attributes=attrs), "arizona", context=Context(access=access)
    )
    p = one(r)
    # spacing is met by signs and posts together; the driveway's only marker is a post
    assert [v["rule"] for v in p["violations"]] == ["access"]
    attrs.loc[0, "kind"] = "post"  # a post at a corner does not mark it
    p = one(
        check(
            parcels(lot), markers(pts, attributes=attrs), "arizona", context=Context(access=access)
        )
    )
    assert {v["rule"] for v in p["violations"]} == {"access", "corners"}


def test_access_not_checked_without_an_access_layer():
    r = check(parcels(square(2000)), markers(along(square(2000), 500)), "arizona")
    [reason] = [x["reason"] for x in r.to_dict()["not_checked"] if x["rule"] == "access"]
    assert "no access layer (access=)" in reason  # the library's name of the setting
    [reason] = [x["reason"] for x in r.to_dict(flag)["not_checked"] if x["rule"] == "access"]
    assert "no access layer (--access)" in reason  # the command line's


@pytest.mark.parametrize("profile", ["montana", "oregon", "tennessee", "town-code"])
def test_notice_at_the_gates_alone_is_uncertain_without_an_access_layer(profile):
    """A profile whose only rule placing markers is the access points' (notice at each gate
    and way in) has nothing to measure without the access layer: one sign anywhere would pass.
    A profile with a spacing (arizona) still passes on its spacing, the access rule noted as
    not checked (above)."""
    lot = square(2000)
    one_sign = markers([(700, 0)])
    r = check(parcels(lot), one_sign, profile)
    p = one(r)
    assert p["status"] == "uncertain", p
    [u] = [u for u in p["uncertain"] if u["rule"] == "access"]
    assert "no access layer" in u["message"]
    [note] = [x for x in r.to_dict()["not_checked"] if x["rule"] == "access"]
    assert note["reason"].endswith("a parcel with markers is uncertain")
    assert one(check(parcels(lot), markers([]), profile))["status"] == "unposted"
    # the gate given, and the sign beside it: the notice is where the law wants it
    gate = features([shapely.Point(700, 0)], ["gate"])
    p = one(check(parcels(lot), one_sign, profile, context=Context(access=gate)))
    assert "access" not in {u["rule"] for u in p["uncertain"] + p["violations"]}


def test_gate_on_a_shared_fence_is_an_access_point_of_both_parcels(tmp_path):
    path = tmp_path / "gates.toml"
    path.write_text(
        OWN.replace("[facing]", '[access]\ntypes = ["gate"]\nclause = "1-1(e)"\n\n[facing]')
    )
    west, east = square(1000), square(1000, x0=1000)
    gate = features([shapely.Point(1002, 500), shapely.Point(500, 1003)], ["gate", "Gate"])
    r = check(parcels(west, east), markers([]), str(path), context=Context(access=gate))
    assert sorted(r.access["parcel"].tolist()) == [0, 0, 1]
    assert r.access.loc[r.access["parcel"] == 1, ["x_ft", "y_ft"]].values.tolist() == [[1000, 500]]


# -- several profiles: a parcel complies if it meets any -----------------------------------------


def test_florida_or_florida_paint():
    pts = along(square(), 250.0)
    attrs = kinds(
        len(pts),
        color="international orange",
        text="No Trespassing",
        letter_height_in=3,
        height_ft=4,
    )
    # (the painted notices want signs where entry is expected: an access layer, here of a road
    # that reaches no boundary, says there is no such place; without one, uncertain)
    road = features([shapely.LineString([(5000, 5000), (6000, 5000)])], ["road"])
    r = check(
        parcels(square()),
        markers(pts, attributes=attrs),
        ["florida", "florida-paint"],
        context=Context(access=road),
    )
    p = one(r)
    assert p["status"] == "compliant" and p["rules"] == "florida-paint"
    alts = {a["rules"]: a["status"] for a in p["alternatives"]}
    assert alts == {"florida": "unposted", "florida-paint": "compliant"}
    assert r.to_dict()["rules"]["name"] == "florida or florida-paint"
    assert r.summary()["compliant_by"] == {"florida": 0, "florida-paint": 1}


def test_two_profiles_of_ones_own_a_parcel_that_meets_either_complies(tmp_path):
    # "a parcel complies if it meets any of the alternatives, and the report says which one"
    # (README, Several ways to post), by hand on four 1,000 ft squares 2,000 ft apart:
    #   A: signs <= 600 ft apart along the boundary, no corner rule;
    #   B: signs <= 1,100 ft apart and one at each corner.
    # 1: corners and midpoints, gaps 500 ft: A yes, B yes  -> compliant (by A, the first)
    # 2: midpoints only, gaps 4 x 1,000 ft along the boundary: A no (1,000 > 600), B no
    #    (no corner sign)                                     -> noncompliant
    # 3: corners only, gaps 1,000 ft: A no, B yes           -> compliant by B
    # 4: the four midpoints of 1 shifted 250 ft, so gaps 500 ft and no corner: A yes, B no
    #                                                         -> compliant by A
    head = (
        'schema = 1\nname = "{n}"\ntitle = "{n}"\njurisdiction = "Nowhere"\n'
        'citation = "Own 1"\nsource_url = "https://example.org"\npurpose = "test"\n'
        'verification = "unverified"\n'
    )
    a, b = tmp_path / "own-a.toml", tmp_path / "own-b.toml"
    a.write_text(head.format(n="own-a") + '[spacing]\nmax_ft = 600\nclause = "A 1"\n')
    b.write_text(
        head.format(n="own-b")
        + '[spacing]\nmax_ft = 1100\nclause = "B 1"\n'
        + '[corners]\nmode = "at_corner"\nclause = "B 2"\n'
    )
    corners = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]
    mids = [(500, 0), (1000, 500), (500, 1000), (0, 500)]
    shifted = [(250, 0), (750, 0), (1000, 250), (1000, 750), (750, 1000), (250, 1000)]
    shifted += [(0, 750), (0, 250)]
    pts = [
        (x + dx, y)
        for dx, set_ in ((0, corners + mids), (3000, mids), (6000, corners))
        for x, y in set_
    ]
    pts += [(x + 9000, y) for x, y in shifted]
    lots = [square(1000, x0=x0) for x0 in (0, 3000, 6000, 9000)]
    r = check(parcels(*lots), markers(pts), [str(a), str(b)], settings=AT_SEA)
    got = [
        (p["status"], p["rules"], {x["rules"]: x["status"] for x in p["alternatives"]})
        for p in r.to_dict()["parcels"]
    ]
    assert got == [
        ("compliant", "own-a", {"own-a": "compliant", "own-b": "compliant"}),
        ("noncompliant", "own-a", {"own-a": "noncompliant", "own-b": "noncompliant"}),
        ("compliant", "own-b", {"own-a": "noncompliant", "own-b": "compliant"}),
        ("compliant", "own-a", {"own-a": "compliant", "own-b": "noncompliant"}),
    ]
    assert r.to_dict()["rules"]["name"] == "own-a or own-b"


# -- facing, renewal, public notice, on a profile of one's own -------------------------------------

OWN = """
schema = 1
name = "county-test"
title = "A county rule for tests"
jurisdiction = "Test County"
citation = "Test Code 1-1"
source_url = "https://example.org/code"
purpose = "general trespass"
verification = "unverified"

[spacing]
max_ft = 500
clause = "Test Code 1-1(a)"

[facing]
tolerance_deg = 60
clause = "Test Code 1-1(b)"

[renewal]
days = 365
clause = "Test Code 1-1(c)"

[public]
offence_words = ["prosecuted", "punishable"]
clause = "Test Code 1-1(d)"
"""


@pytest.fixture
def own(tmp_path) -> str:
    path = tmp_path / "county-test.toml"
    path.write_text(OWN)
    return str(path)


@pytest.mark.parametrize(
    "bearings",
    [[180, 150, 215, 0, 90], ["S", "S 30 E", "S35°W", "north", "East"]],
    ids=["azimuths", "as surveyors write them"],
)
def test_a_sign_facing_inward_is_flagged(own, bearings):
    # Signs along the south side of a square (outward = south, 180 degrees); a compass point
    # or a quadrant bearing is the same azimuth (S 30 E = 150, S 35 W = 215).
    pts = [(100, 0), (300, 0), (500, 0), (700, 0), (900, 0)]
    lot = shapely.box(0, 0, 1000, 10)
    facing = pd.DataFrame({"facing_deg": bearings})
    p = one(check(parcels(lot), markers(pts, attributes=facing), own))
    [v] = [v for v in p["violations"] if v["rule"] == "facing"]
    assert v["count"] == 2  # 0 (north, into the parcel) and 90 (east, along the line)
    assert v["clause"] == "Test Code 1-1(b)" and v["basis"] == "statute (unverified)"


def _surveyed(own: str, surveyed: list) -> dict:
    """The square with a marker at each corner and midpoint, surveyed on ``surveyed`` (one
    value each), checked on 2026-11-30 with renewal every 365 days: the parcel's record."""
    pts = [(0, 0), (500, 0), (1000, 0), (1000, 500), (1000, 1000), (500, 1000), (0, 1000), (0, 500)]
    r = check(
        parcels(square()),
        markers(pts, attributes=pd.DataFrame({"surveyed": surveyed})),
        own,
        context=Context(today=pd.Timestamp("2026-11-30").date()),
        settings=AT_SEA,
    )
    return one(r)


def _renewal(p: dict) -> tuple[list[int], list[str]]:
    """The renewal notes' counts and what was not checked."""
    notes = [n["count"] for n in p["notes"] if n["rule"] == "renewal"]
    return notes, [n["message"] for n in p["not_checked"] if n["rule"] == "renewal"]


def test_old_surveys_are_noted_for_renewal(own):
    p = _surveyed(own, ["2026-10-01"] * 6 + ["2024-05-01", "not recorded"])
    assert p["status"] == "compliant"  # an old survey is a note, not a violation
    assert _renewal(p) == ([1], ["not recorded for 1 of 8 markers"])


def test_survey_dates_that_are_numbers_are_not_recorded_not_old(own):
    """A date column of numbers (a spreadsheet's day numbers, read from a GeoPackage or
    Parquet file as numbers) is no date: pandas read 45000 as 45,000 ns after 1970, which made
    every marker an old survey. Not recorded, never a note or a violation."""
    p = _surveyed(own, [46000.0] * 7 + [float("inf")])
    assert p["status"] == "compliant"
    assert _renewal(p) == ([], ["not recorded for 8 of 8 markers"])


def test_a_survey_dated_by_its_year_alone_is_noted_only_when_all_of_the_year_is_old(own):
    """Checked on 2026-11-30 with renewal every 365 days (the limit: 2025-11-30): a survey of
    "2024" (all of it more than a year ago) is noted, "2025" might be December 2025 or
    January: not known, never a false note; "Dec 2025" and 2026 (a number) are recent
    whichever day they were. A survey dated after the check date is not known either, and
    one without a date not recorded."""
    years = ["2024", "2025", "Dec 2025", 2026, "2026-10", "2025", "2024-12", "2026"]
    p = _surveyed(own, years)
    # 2024 and December 2024 noted; the two 2025s not known
    spans = (
        "dated by a month or a year that spans the limit, or after the check date, or by no "
        "whole date (a time alone, a day without its year, a day and month that read either "
        "way round: write it year first, 2025-10-03)"
    )
    assert _renewal(p) == ([2], [f"not known for 2 of 8 markers: {spans}"])
    p = _surveyed(own, ["2026-10-01"] * 5 + ["2027-03-01", "", "2025"])
    assert _renewal(p) == (
        [],
        ["not recorded for 1 of 8 markers", f"not known for 2 of 8 markers: {spans}"],
    )


def test_public_property_notice_states_the_hours(own):
    lots = [square(), square(x0=2000)]
    pts = along(lots[0], 500).tolist() + (along(lots[1], 500)).tolist()
    text = ["Park closed dusk to dawn. Violators will be prosecuted"] * 8 + ["No trespassing"] * 8
    attrs = pd.DataFrame({"text": text})
    r = check(
        parcels(*lots),
        markers(pts, attributes=attrs),
        own,
        context=Context(public=np.array([True, True])),
        settings=AT_SEA,
    )
    a, b = r.to_dict()["parcels"]
    assert a["status"] == "compliant"
    [v] = b["violations"]
    assert v["rule"] == "public_notice" and v["count"] == 8
    r = check(parcels(*lots), markers(pts, attributes=attrs), own, settings=AT_SEA)
    assert any(x["rule"] == "public_notice" for x in r.not_checked)


def test_guidance_profile_says_guidance():
    p = load_rules("north-dakota-criminal")
    assert p.standard == "guidance"
    r = check(parcels(square()), markers([(0, 0)]), "north-dakota-criminal")
    p = one(r)
    # one sign on 4,000 ft: the layout's 660 ft and three corners fail, which the law (no
    # figure) may still find posted: uncertain, each finding saying why
    assert p["status"] == "uncertain" and p["violations"] == []
    assert {v["rule"] for v in p["uncertain"]} == {"spacing", "corners"}
    assert {v["basis"] for v in p["uncertain"]} == {"guidance"}
    assert all(v["message"].endswith(GUIDANCE_ONLY) for v in p["uncertain"])
    assert "guidance" in r.summary_lines()[0]
    # the statute's own words in the same profile still fail: the name on each sign
    pts = along(square(), 500.0)
    named = pd.DataFrame({"name_on_sign": ["J. Smith"] * len(pts)})

    def checked():
        return one(
            check(parcels(square()), markers(pts, attributes=named), "north-dakota-criminal")
        )

    assert checked()["status"] == "compliant"
    named.loc[3, "name_on_sign"] = "none"  # recorded: the sign shows no name
    p = checked()
    assert p["status"] == "noncompliant"
    assert [(v["rule"], v["basis"]) for v in p["violations"]] == [("name_on_sign", "guidance")]
    assert not p["violations"][0]["message"].endswith(GUIDANCE_ONLY)


def test_own_profile_path_in_the_cli(own, tmp_path):
    from click.testing import CliRunner

    from posting.cli import main

    lot = tmp_path / "lot.geojson"
    gpd.GeoDataFrame(geometry=[shapely.box(-81.3, 28.6, -81.299, 28.601)], crs=4326).to_file(lot)
    res = CliRunner().invoke(main, ["check", str(lot), "--rules", own, "--json", "-", "-q"])
    assert res.exit_code == 1
    assert '"name": "county-test"' in res.stdout
    assert Path(own).exists()


def test_accuracy_band_applies_to_access_points():
    lot = square(2000)
    pts = [
        (0, 0),
        (2000, 0),
        (2000, 2000),
        (0, 2000),
        (1055, 0),
        (2000, 1000),
        (1000, 2000),
        (0, 1000),
    ]
    access = features([shapely.LineString([(1000, -200), (1000, 300)])], ["driveway"])
    ctx = Context(access=access)
    assert one(check(parcels(lot), markers(pts), "arizona", context=ctx))["status"] == (
        "noncompliant"
    )  # 55 ft from the driveway, tolerance 50 ft
    r = check(parcels(lot), markers(pts), "arizona", context=ctx, settings=Settings(accuracy_ft=10))
    assert one(r)["status"] == "uncertain"


# -- Arkansas: signs 100 ft (forest) / 1,000 ft (other), each point of entry, or a fence -------
# Ark. Code Ann. 18-11-404(1)(A): "signs ... at points no more than one hundred feet (100') apart
# and at each point of entry" on forest land; 18-11-405(1)(A): "one thousand feet (1,000')" on
# other land; (1)(B): letters "at least four inches (4") high"; (3): "a fence sufficient under
# § 2-39-101 et seq."


@pytest.mark.parametrize(("step", "status"), [(99.0, "compliant"), (101.0, "noncompliant")])
def test_arkansas_forest_land_signs_100_ft(step, status):
    # a 1,000 ft square: every gap along a side is the step (the last one shorter), and a gap
    # across a corner is shorter still in a straight line
    pts = along(square(), step)
    ctx = Context(parcel_landcover=[True], access=NO_WAYS)
    r = check(parcels(square()), markers(pts), "arkansas", context=ctx)
    p = one(r)
    assert p["status"] == status
    if status == "noncompliant":
        [v] = [v for v in p["violations"] if v["rule"] == "spacing"]
        assert v["limit"] == 100.0 and v["measured"] == pytest.approx(101.0, abs=0.01)


@pytest.mark.parametrize(("side", "status"), [(1980.0, "compliant"), (2020.0, "noncompliant")])
def test_arkansas_other_land_signs_1000_ft(side, status):
    # signs at the corners and midpoints: gaps of side / 2 = 990 ft (passes) or 1,010 ft (fails)
    lot = square(side)
    r = check(
        parcels(lot),
        markers(along(lot, side / 2)),
        "arkansas",
        context=Context(parcel_landcover=[False], access=NO_WAYS),
    )
    assert one(r)["status"] == status
    assert set(r.gaps["limit_ft"]) == {1000.0}


def test_arkansas_a_sign_at_each_point_of_entry_not_only_roads():
    lot = square(1980)
    pts = along(lot, 990.0)
    trail = features([shapely.LineString([(500, -200), (500, 300)])], ["trail"])
    ctx = Context(parcel_landcover=[False], access=trail)
    p = one(check(parcels(lot), markers(pts), "arkansas", context=ctx))
    assert p["status"] == "noncompliant"
    assert [v["rule"] for v in p["violations"]] == ["access"]  # a trail is a point of entry
    with_sign = np.vstack([pts, [(510.0, 0.0)]])  # 10 ft from the crossing, within 50 ft
    assert one(check(parcels(lot), markers(with_sign), "arkansas", context=ctx))["status"] == (
        "compliant"
    )


def test_arkansas_letters_four_inches_and_paint_is_not_this_method():
    pts = along(square(), 95.0)
    letters = pd.DataFrame({"letter_height_in": [4.0] * len(pts), "text": ["POSTED"] * len(pts)})
    letters.loc[0, "letter_height_in"] = 3.9
    ctx = Context(parcel_landcover=[True])
    p = one(check(parcels(square()), markers(pts, attributes=letters), "arkansas", context=ctx))
    [v] = p["violations"]
    assert v["rule"] == "letter_height" and v["count"] == 1 and v["limit"] == 4.0
    paint = kinds(len(pts), color="purple", length_in=8, height_ft=4)
    p = one(check(parcels(square()), markers(pts, attributes=paint), "arkansas", context=ctx))
    assert p["status"] == "unposted"  # the paint method is not checked by this profile


def test_arkansas_a_fence_of_any_height_posts_the_land():
    ring = shapely.LineString([(-5, -5), (1005, -5), (1005, 1005), (-5, 1005), (-5, -5)])
    p = one(
        check(
            parcels(square()),
            markers([]),
            "arkansas",
            context=Context(fences=features([ring], ["1.5"])),
        )
    )
    assert p["status"] == "compliant" and p["posted_by"] == "fence"
    r = check(parcels(square()), markers([]), "arkansas")
    assert one(r)["status"] == "unposted"
    assert "Class B misdemeanor" in load_rules("arkansas").penalty


# -- North Dakota: 880 yards apart; criminal trespass graded as in force ---------------------------
# NDCC 20.1-01-17(1)(a): signs "not more than eight hundred eighty yards [804.68 meters] apart":
# 880 yd x 3 ft = 2,640 ft.


@pytest.mark.parametrize(("side", "status"), [(5200.0, "compliant"), (5400.0, "noncompliant")])
def test_north_dakota_880_yards(side, status):
    lot = square(side)  # corners and midpoints: gaps of 2,600 ft (passes) or 2,700 ft (fails)
    p = one(check(parcels(lot), markers(along(lot, side / 2)), "north-dakota"))
    assert p["status"] == status
    if status == "noncompliant":
        [v] = [v for v in p["violations"] if v["rule"] == "spacing"]
        assert v["limit"] == 880 * 3 and v["measured"] == pytest.approx(2700.0, abs=0.01)


def test_north_dakota_profiles_cite_the_official_code_and_the_2021_grading():
    hunting = load_rules("north-dakota")
    assert hunting.verification == "verified" and "SB 2144" in hunting.verification_note
    criminal = load_rules("north-dakota-criminal")
    assert criminal.standard == "guidance"
    # 12.1-22-03 as amended by S.L. 2021 ch. 182: class B misdemeanor; the $250 noncriminal
    # citation is the peace officer's option
    assert "class B misdemeanor" in criminal.penalty and "$250" in criminal.penalty
    assert "may cite" in criminal.penalty
    assert criminal.content.clause.startswith("NDCC 12.1-22-03(4)(a)")


# -- Texas: signs are notice too (30.05(b)(2)(C)), checked against a guidance layout ---------------
# The guidance spacing is the statute's own paint spacing, 30.05(b)(2)(D)(iii): "100 feet apart
# on forest land" and "1,000 feet apart on land other than forest land".


def test_texas_a_parcel_posted_with_signs_is_not_unposted_under_texas_law():
    pts = along(square(), 95.0)
    words = pd.DataFrame({"text": ["NO TRESPASSING"] * len(pts)})
    ctx = Context(parcel_landcover=[True])
    alone = one(check(parcels(square()), markers(pts, attributes=words), "texas", context=ctx))
    assert alone["status"] == "unposted"  # the paint method alone
    r = check(
        parcels(square()), markers(pts, attributes=words), ["texas", "texas-signs"], context=ctx
    )
    p = one(r)
    assert p["status"] == "compliant" and p["rules"] == "texas-signs"


@pytest.mark.parametrize(
    ("forest", "side", "step", "status"),
    [
        (True, 1000.0, 99.0, "compliant"),
        (True, 1000.0, 101.0, "uncertain"),
        (False, 1980.0, 990.0, "compliant"),
        (False, 2020.0, 1010.0, "uncertain"),
    ],
)
def test_texas_signs_guidance_spacing_is_the_paint_spacing(forest, side, step, status):
    lot = square(side)
    r = check(
        parcels(lot),
        markers(along(lot, step)),
        "texas-signs",
        context=Context(parcel_landcover=[forest]),
    )
    p = one(r)
    assert p["status"] == status
    if status == "uncertain":  # the statute gives signs no number: a guidance gap is unsure
        [v] = p["uncertain"]
        assert v["basis"] == "guidance" and v["limit"] == (100.0 if forest else 1000.0)
        assert v["message"].endswith(GUIDANCE_ONLY) and p["violations"] == []


# -- Missouri: posting by signs is notice too (569.140.2(2)), checked against a guidance layout --
# The guidance spacing is the statute's own purple-mark spacing, 569.145(1): "placed no more
# than one hundred feet apart".
MISSOURI_FT = CRS.from_proj4(  # feet on the ground round Jefferson City, Missouri
    "+proj=tmerc +lat_0=38.58 +lon_0=-92.17 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
)


@pytest.mark.parametrize(("step", "status"), [(99.0, "compliant"), (101.0, "uncertain")])
def test_missouri_a_parcel_posted_with_signs_is_not_unposted_under_missouri_law(step, status):
    lot = parcels(square(), crs=MISSOURI_FT)
    pts = along(square(), step)
    signs = markers(
        pts, crs=MISSOURI_FT, attributes=pd.DataFrame({"text": ["NO TRESPASSING"] * len(pts)})
    )
    alone = one(check(lot, signs, ["missouri", "missouri-posts"]))
    assert alone["status"] == "unposted"  # the purple marks alone
    assert alone["violations"][0]["message"] == (
        "no paint mark on its 4,000.0 ft of boundary; they must be not more than 100.0 ft apart"
    )
    r = check(lot, signs, "auto")  # Missouri's defaults: marks, post tops, mixed, signs
    assert r.parcels["state"].tolist() == ["missouri"]
    p = one(r)
    assert p["status"] == status and p["rules"] == "missouri-signs"
    assert {a["rules"] for a in p["alternatives"]} == {
        "missouri",
        "missouri-mixed",
        "missouri-posts",
        "missouri-signs",
    }
    if status == "uncertain":  # the guidance spacing, which the statute does not give
        [v] = [v for v in p["uncertain"] if v["rule"] == "spacing"]
        assert v["basis"] == "guidance" and v["limit"] == 100.0
    # the words are the statute's "notice against trespass", which our list of phrases only
    # reads: a sign in none of them may still give it, so a person must read it
    quiet = markers(pts, crs=MISSOURI_FT, attributes=pd.DataFrame({"text": ["WELCOME"] * len(pts)}))
    p = one(check(lot, quiet, "missouri-signs"))
    assert p["status"] == "uncertain" and p["violations"] == []
    [v] = [v for v in p["uncertain"] if v["rule"] == "sign_text"]
    assert v["count"] == len(pts)
    assert v["message"].endswith("(the law takes words to that effect: read the sign)")


# -- Tennessee: "Hunting By Written Permission Only" signs at the points of ingress; marks 50 yd
# Tenn. Code Ann. 70-4-106(b)(1)(B)(i): signs "visible at all major points of ingress"; (ii): and
# "fluorescent visual markings ... at fifty-yard (50 yd) intervals around the perimeter", "at
# least one inch (1") wide and four inches (4") long": 50 yd x 3 = 150 ft.

DRIVEWAY = shapely.LineString([(500, -200), (500, 300)])


def test_tennessee_ingress_signs_with_the_statutes_words():
    ctx = Context(access=features([DRIVEWAY], ["driveway"]))
    words = pd.DataFrame({"text": ["HUNTING BY WRITTEN PERMISSION ONLY"]})
    p = one(
        check(parcels(square()), markers([(520, 0)], attributes=words), "tennessee", context=ctx)
    )
    assert p["status"] == "compliant"  # no spacing and no corners in method (i)
    words = pd.DataFrame({"text": ["NO HUNTING"]})
    p = one(
        check(parcels(square()), markers([(520, 0)], attributes=words), "tennessee", context=ctx)
    )
    [v] = p["violations"]
    assert v["rule"] == "sign_text" and v["clause"] == "Tenn. Code Ann. 70-4-106(b)(1)(A)"
    p = one(check(parcels(square()), markers([(0, 0)]), "tennessee", context=ctx))
    assert [v["rule"] for v in p["violations"]] == ["access"]  # the driveway has no sign


@pytest.mark.parametrize(("step", "status"), [(149.0, "compliant"), (151.0, "noncompliant")])
def test_tennessee_paint_marks_every_50_yards(step, status):
    pts = along(square(), step)
    marks = kinds(len(pts), width_in=1, length_in=4)
    sign = pd.DataFrame({"kind": ["sign"], "text": ["Hunting By Written Permission Only"]})
    ctx = Context(access=features([DRIVEWAY], ["driveway"]))
    layer = markers(
        np.vstack([pts, [(510.0, 0.0)]]), attributes=pd.concat([marks, sign], ignore_index=True)
    )
    p = one(check(parcels(square()), layer, "tennessee-paint", context=ctx))
    assert p["status"] == status
    if status == "noncompliant":
        [v] = p["violations"]
        assert v["rule"] == "spacing" and v["limit"] == 50 * 3
        assert v["measured"] == pytest.approx(151.0, abs=0.01)


def test_tennessee_paint_marks_at_least_one_by_four_inches():
    pts = along(square(), 100.0)
    marks = kinds(len(pts), width_in=1.0, length_in=4.0)
    marks.loc[2, "width_in"] = 0.9
    marks.loc[5, "length_in"] = 3.9
    p = one(check(parcels(square()), markers(pts, attributes=marks), "tennessee-paint"))
    v = {x["rule"]: x for x in p["violations"]}
    assert set(v) == {"paint_width", "paint_length"}
    assert v["paint_width"]["limit"] == 1.0 and v["paint_length"]["limit"] == 4.0


# -- Kentucky and Alabama: purple paint as in Texas; Kansas: purple paint, guidance spacing
# KRS 511.070 (2024 SB 118) and Ala. Code 13A-7-1(4): vertical lines "not less than eight inches
# in length and not less than one inch in width", bottom "not less than three feet ... [nor] more
# than five feet from the ground", "no more than 100 feet apart on forest land or 1,000 feet apart
# on land other than forest land".

PURPLE = {"color": "purple", "length_in": 8.0, "width_in": 1.0, "height_ft": 4.0}


@pytest.mark.parametrize("profile", ["kentucky", "alabama"])
@pytest.mark.parametrize(
    ("forest", "side", "step", "status"),
    [
        (True, 1000.0, 99.0, "compliant"),
        (True, 1000.0, 101.0, "noncompliant"),
        (False, 1980.0, 990.0, "compliant"),
        (False, 2020.0, 1010.0, "noncompliant"),
    ],
)
def test_purple_paint_100_ft_forest_1000_ft_other(profile, forest, side, step, status):
    lot = square(side)
    pts = along(lot, step)
    r = check(
        parcels(lot),
        markers(pts, attributes=kinds(len(pts), **PURPLE)),
        profile,
        context=Context(parcel_landcover=[forest]),
    )
    p = one(r)
    assert p["status"] == status
    if status == "noncompliant":
        [v] = p["violations"]
        assert v["rule"] == "spacing" and v["limit"] == (100.0 if forest else 1000.0)


@pytest.mark.parametrize("profile", ["kentucky", "alabama"])
def test_purple_marks_eight_by_one_inches_bottom_three_to_five_feet(profile):
    pts = along(square(), 95.0)
    attrs = kinds(len(pts), **PURPLE)
    attrs.loc[1, "width_in"] = 0.9
    attrs.loc[2, "length_in"] = 7.9
    attrs.loc[3, "height_ft"] = 5.1
    attrs.loc[4, "height_ft"] = 2.9
    p = one(
        check(
            parcels(square()),
            markers(pts, attributes=attrs),
            profile,
            context=Context(parcel_landcover=[True]),
        )
    )
    v = {x["rule"]: x for x in p["violations"]}
    assert set(v) == {"paint_width", "paint_length", "paint_height"}
    assert v["paint_height"]["count"] == 2


def test_kentucky_and_alabama_fenced_land_needs_no_marks():
    ring = shapely.LineString([(-5, -5), (1005, -5), (1005, 1005), (-5, 1005), (-5, -5)])
    ctx = Context(fences=features([ring], ["3"]))
    for profile in ("kentucky", "alabama"):
        p = one(check(parcels(square()), markers([]), profile, context=ctx))
        assert p["posted_by"] == "fence", profile


def test_alabama_signs_are_a_second_method_with_a_guidance_layout():
    pts = along(square(), 95.0)
    words = pd.DataFrame({"text": ["POSTED - NO TRESPASSING"] * len(pts)})
    ctx = Context(parcel_landcover=[True])
    layer = markers(pts, attributes=words)
    assert one(check(parcels(square()), layer, "alabama", context=ctx))["status"] == "unposted"
    p = one(check(parcels(square()), layer, ["alabama", "alabama-signs"], context=ctx))
    assert p["status"] == "compliant" and p["rules"] == "alabama-signs"
    far = markers(along(square(), 101.0))
    p = one(check(parcels(square()), far, "alabama-signs", context=ctx))
    assert p["status"] == "uncertain" and p["violations"] == []
    assert {v["basis"] for v in p["uncertain"]} == {"guidance"}


@pytest.mark.parametrize(("step", "status"), [(990.0, "compliant"), (1010.0, "uncertain")])
def test_kansas_purple_marks_with_a_guidance_spacing(step, status):
    # K.S.A. 32-1013(b): "a vertical line of at least eight inches in length", bottom "no less
    # than three feet nor more than five feet high"; no spacing in the statute (guidance 1,000 ft
    # on other land)
    lot = square(step * 2)
    pts = along(lot, step)
    attrs = kinds(len(pts), color="purple", length_in=8.0, height_ft=3.0)
    r = check(
        parcels(lot),
        markers(pts, attributes=attrs),
        "kansas",
        context=Context(parcel_landcover=[False]),
    )
    p = one(r)
    assert p["status"] == status
    assert load_rules("kansas").standard == "guidance"
    attrs.loc[0, "length_in"] = 7.9
    p = one(
        check(
            parcels(lot),
            markers(pts, attributes=attrs),
            "kansas",
            context=Context(parcel_landcover=[False]),
        )
    )
    assert "paint_length" in {v["rule"] for v in p["violations"]}


# -- South Carolina and West Virginia: purple marks 8 x 2 in, bottom 3-6 ft
# S.C. Code 16-11-600(B)(2): "not more than one hundred yards apart" (100 yd x 3 = 300 ft); W. Va.
# Code 61-3B-1(4)(B): "no more than 100 feet apart", with written signs "at all roads, driveways
# or gates of entry"; both: "one vertical line no less than eight inches in length and two inches
# in width", bottom "not less than three nor more than six feet from the ground".

PURPLE_2IN = {"color": "purple", "length_in": 8.0, "width_in": 2.0, "height_ft": 6.0}


@pytest.mark.parametrize(
    ("profile", "limit"), [("south-carolina-paint", 100 * 3), ("west-virginia-paint", 100)]
)
@pytest.mark.parametrize("over", [False, True])
def test_purple_marks_two_inches_wide(profile, limit, over):
    step = limit + (1.0 if over else -1.0)
    pts = along(square(), step)
    # (West Virginia wants signs at the ways in too: a road that reaches no boundary says
    # there is none; without an access layer, marks alone are uncertain)
    road = Context(access=features([shapely.LineString([(5000, 5000), (6000, 5000)])], ["road"]))
    marks = markers(pts, attributes=kinds(len(pts), **PURPLE_2IN))
    r = check(parcels(square()), marks, profile, context=road)
    p = one(r)
    assert p["status"] == ("noncompliant" if over else "compliant")
    if over:
        [v] = p["violations"]
        assert v["rule"] == "spacing" and v["limit"] == limit


def test_purple_marks_two_inches_wide_bottom_six_feet():
    pts = along(square(), 250.0)
    attrs = kinds(len(pts), **PURPLE_2IN)
    attrs.loc[0, "width_in"] = 1.9
    attrs.loc[1, "height_ft"] = 6.1
    p = one(check(parcels(square()), markers(pts, attributes=attrs), "south-carolina-paint"))
    v = {x["rule"]: x for x in p["violations"]}
    assert set(v) == {"paint_width", "paint_height"}
    assert v["paint_width"]["limit"] == 2.0


def test_west_virginia_paint_needs_written_signs_at_roads_driveways_and_gates():
    pts = along(square(), 95.0)
    attrs = kinds(len(pts), **PURPLE_2IN)
    ctx = Context(access=features([DRIVEWAY], ["driveway"]))
    p = one(
        check(parcels(square()), markers(pts, attributes=attrs), "west-virginia-paint", context=ctx)
    )
    assert [v["rule"] for v in p["violations"]] == ["access"]  # a paint mark is not a sign
    sign = pd.DataFrame({"kind": ["sign"]})
    layer = markers(
        np.vstack([pts, [(505.0, 0.0)]]), attributes=pd.concat([attrs, sign], ignore_index=True)
    )
    p = one(check(parcels(square()), layer, "west-virginia-paint", context=ctx))
    assert p["status"] == "compliant"


@pytest.mark.parametrize(("side", "status"), [(990.0, "compliant"), (1010.0, "noncompliant")])
def test_west_virginia_signs_500_ft_along(side, status):
    # 61-3B-1(4)(A): "not more than five hundred feet apart, along and at each corner"; corners
    # and midpoints: 495 ft (passes) or 505 ft (fails)
    lot = square(side)
    p = one(check(parcels(lot), markers(along(lot, side / 2)), "west-virginia"))
    assert p["status"] == status


def test_west_virginia_a_sign_at_each_corner():
    lot = square(990.0)
    # corners and midpoints, but the sign of the corner (0, 0) stands 40 ft up each side
    pts = [(40, 0), (495, 0), (990, 0), (990, 495), (990, 990), (495, 990), (0, 990), (0, 495)]
    pts.append((0, 40))
    p = one(check(parcels(lot), markers(pts), "west-virginia"))
    [v] = p["violations"]  # the corner at (0, 0) is 40 ft from the nearest sign
    assert v["rule"] == "corners" and v["count"] == 1


# -- Utah and Idaho: corners, and the crossings of streams, roads, gates and rights-of-way ---------
# Utah Code 23A-5-317(1)(c)(i): "at the corners, fishing streams crossing property lines, roads,
# gates, and rights-of-way entering the land"; Idaho Code 6-202(2)(b)(iv): "at all property
# corners and boundaries where the property intersects navigable streams, roads, gates and
# rights-of-way entering the land".

CORNERS = [(0, 0), (1000, 0), (1000, 1000), (0, 1000)]
STREAM = shapely.box(700, -200, 760, 1200)  # 60 ft wide, crossing the south and north lines
GATE = shapely.Point(0, 400)  # on the west line


@pytest.mark.parametrize("profile", ["utah", "idaho"])
def test_corners_and_crossings(profile):
    ctx = Context(access=features([GATE], ["gate"]), water=features([STREAM], [None]))
    banks = [(670, 0), (790, 0), (670, 1000), (790, 1000)]  # 30 ft outside each bank
    gate = [(0, 410)]
    words = {"text": "NO TRESPASSING"}
    full = CORNERS + banks + gate
    attrs = pd.DataFrame({k: [v] * len(full) for k, v in words.items()})
    p = one(check(parcels(square()), markers(full, attributes=attrs), profile, context=ctx))
    assert p["status"] == "compliant"  # no spacing: nothing between the corners and crossings
    # a missing corner, a missing bank and a missing gate are each a violation
    short = CORNERS[1:] + banks[1:]
    attrs = pd.DataFrame({k: [v] * len(short) for k, v in words.items()})
    p = one(check(parcels(square()), markers(short, attributes=attrs), profile, context=ctx))
    assert {v["rule"] for v in p["violations"]} == {"corners", "access", "water"}


def test_utah_paint_colours_and_idaho_fence_is_not_posting():
    paint = kinds(4, color="fluorescent pink")
    ways = Context(access=NO_WAYS)
    p = one(check(parcels(square()), markers(CORNERS, attributes=paint), "utah", context=ways))
    assert p["status"] == "compliant"
    paint = kinds(4, color="purple")
    p = one(check(parcels(square()), markers(CORNERS, attributes=paint), "utah"))
    assert [v["rule"] for v in p["violations"]] == ["paint_color"]
    ring = shapely.LineString([(-5, -5), (1005, -5), (1005, 1005), (-5, 1005), (-5, -5)])
    fenced = Context(fences=features([ring], ["4"]))
    assert one(check(parcels(square()), markers([]), "utah", context=fenced))["posted_by"] == (
        "fence"
    )
    # Idaho: a fence is notice only off public land (6-202(2)(b)(iii)), which the schema cannot
    # tell: a fenced parcel is judged as unfenced
    assert one(check(parcels(square()), markers([]), "idaho", context=fenced))["status"] == (
        "unposted"
    )
    cultivated = Context(cultivated=np.array([True]))
    p = one(check(parcels(square()), markers([]), "idaho", context=cultivated))
    assert p["posted_by"] == "cultivation"


# -- New Hampshire: 100 yards apart, gates and entrances, name and address
# RSA 635:4 (as stated by NH Fish and Game): "no further than 100 yards apart" (300 ft), "letters
# at least 2 inches high, and with the owner's name and address".


@pytest.mark.parametrize(("step", "status"), [(299.0, "compliant"), (301.0, "noncompliant")])
def test_new_hampshire_100_yards(step, status):
    ways = Context(access=NO_WAYS)
    p = one(check(parcels(square()), markers(along(square(), step)), "new-hampshire", context=ways))
    assert p["status"] == status


def test_new_hampshire_letters_name_and_address():
    pts = along(square(), 250.0)
    attrs = pd.DataFrame(
        {
            "letter_height_in": [2.0] * len(pts),
            "name_on_sign": ["J. Smith"] * len(pts),
            "address_on_sign": ["12 Main St, Concord"] * len(pts),
        }
    )
    attrs.loc[0, "letter_height_in"] = 1.9
    attrs.loc[1, "address_on_sign"] = "none"
    p = one(check(parcels(square()), markers(pts, attributes=attrs), "new-hampshire"))
    v = {x["rule"]: x for x in p["violations"]}
    assert set(v) == {"letter_height", "address_on_sign"}


# -- Oregon: closed to entry (105.700) and to motor-propelled vehicles (164.270) ------------------
# ORS 105.700(2)(a): notice "at each outer gate and normal point of access", "both sides of a body
# of water", a sign "no smaller than eight inches in height and 11 inches in width", letters "no
# less than one inch", a blaze of "at least 50 square inches of fluorescent orange paint".
# ORS 164.270(1)(d): signs "no further apart than 350 yards" (350 yd x 3 = 1,050 ft).


def test_oregon_notice_at_each_access_point_and_both_banks():
    ctx = Context(access=features([GATE], ["gate"]), water=features([STREAM], [None]))
    pts = [(0, 410), (670, 0), (790, 0), (670, 1000), (790, 1000)]
    attrs = kinds(5, color="fluorescent orange", width_in=5.0, length_in=10.0)
    p = one(check(parcels(square()), markers(pts, attributes=attrs), "oregon", context=ctx))
    assert p["status"] == "compliant"  # 5 x 10 = 50 sq in of orange at each
    attrs.loc[0, "length_in"] = 9.8  # 49 sq in
    p = one(check(parcels(square()), markers(pts, attributes=attrs), "oregon", context=ctx))
    [v] = p["violations"]
    assert v["rule"] == "paint_area" and "less than 50 sq in" in v["message"]
    sign = pd.DataFrame({"kind": ["sign"], "width_in": [7.9], "length_in": [11.0]})
    layer = markers(
        pts[:1] + pts[1:], attributes=pd.concat([sign, attrs.iloc[1:]], ignore_index=True)
    )
    p = one(check(parcels(square()), layer, "oregon", context=ctx))
    assert [v["rule"] for v in p["violations"]] == ["sign_size"]


@pytest.mark.parametrize(("side", "status"), [(2080.0, "compliant"), (2120.0, "noncompliant")])
def test_oregon_vehicles_350_yards(side, status):
    lot = square(side)  # corners and midpoints: 1,040 ft (passes) or 1,060 ft (fails)
    ways = Context(access=NO_WAYS)
    p = one(check(parcels(lot), markers(along(lot, side / 2)), "oregon-vehicles", context=ways))
    assert p["status"] == status
    if status == "noncompliant":
        [v] = p["violations"]
        assert v["limit"] == 350 * 3


# -- States whose posting standard has no figure: a guidance layout
# Wyo. Stat. 6-3-303(a)(ii), AS 11.46.350(b)(2), Neb. Rev. Stat. 28-521(1)(b), SDCL 22-35-6(2),
# Conn. Gen. Stat. 53a-109(a)(1), Ohio Rev. Code 2911.21(A)(3), Miss. Code 49-7-79: posting
# "reasonably likely to come to the attention of intruders" (or the like), no number. The guidance
# is north-dakota-criminal's: signs 660 ft apart along the boundary, at each corner and access.

NO_FIGURE = [
    "wyoming",
    "alaska",
    "nebraska",
    "south-dakota",
    "connecticut",
    "ohio",
    "mississippi",
    # Va. Code 18.2-119 "where it or they may be reasonably seen"; RCW 9A.52.010(3) "posting in a
    # conspicuous manner"; 18 Pa.C.S. 3503(b)(1)(ii) and G.S. 14-159.13(a)(2) "reasonably likely
    # to come to the attention of intruders"; Md. Criminal Law 6-402(a)(1) "where they reasonably
    # may be seen"
    "virginia",
    "washington",
    "pennsylvania",
    "north-carolina",
    "maryland",
]


@pytest.mark.parametrize("profile", NO_FIGURE)
@pytest.mark.parametrize(("side", "status"), [(1300.0, "compliant"), (1340.0, "uncertain")])
def test_no_figure_states_get_the_guidance_layout(profile, side, status):
    lot = square(side)  # corners and midpoints: 650 ft (passes) or 670 ft (fails the layout)
    p = one(check(parcels(lot), markers(along(lot, side / 2)), profile))
    assert p["status"] == status
    if status == "uncertain":  # the law gives no figure: failing ours is not a sure failure
        [v] = p["uncertain"]
        assert v["limit"] == 660.0 and v["basis"] == "guidance" and v["measured"] == 670.0
        assert v["message"].endswith(GUIDANCE_ONLY) and p["violations"] == []
    rules = load_rules(profile)
    assert rules.standard == "guidance"
    assert not rules.spacing.verified and rules.visibility.verified


@pytest.mark.parametrize("given", [True, False])
def test_texas_land_cover_note_counts_the_blank_attributes_and_says_why(given):
    a, b = square(1980), square(1980, x0=3000)  # each 8 gaps of 990 ft
    pts = np.vstack([along(a, 990.0), along(b, 990.0)])
    ctx = Context(parcel_landcover=[True, None]) if given else Context()
    r = check(parcels(a, b), markers(pts, attributes=kinds(len(pts))), "texas", context=ctx)
    [note] = [x["reason"] for x in r.not_checked if x["rule"] == "landcover"]
    if given:  # the second lot's 8 gaps, its attribute blank
        assert note.startswith(
            "land cover unknown for 8 of 16 gaps (blank in the parcels' "
            "{option:landcover_field} column)"
        )
    else:
        assert note.startswith(
            "land cover unknown for 16 of 16 gaps (no {option:landcover} layer or parcel attribute)"
        )


GUIDANCE = [n for n in available() if load_rules(n).standard == "guidance"]


@pytest.mark.parametrize("profile", GUIDANCE)
def test_a_guidance_layout_alone_never_fails_a_parcel(profile):
    # one marker of the profile's kind on a 4,000 ft boundary, nothing recorded about it: every
    # figure of the layout fails (the spacing, the corners), none of the statute's words can be
    # checked; where the law gives no number the verdict is not sure: uncertain, never
    # noncompliant, and each finding says why
    rules = load_rules(profile)
    attrs = pd.DataFrame({"kind": [rules.kinds[0]]})
    p = one(check(parcels(square()), markers([(500, 0)], attributes=attrs), profile))
    assert p["status"] == "uncertain", (profile, p["violations"])
    assert p["violations"] == []
    assert {v["basis"] for v in p["uncertain"]} == {"guidance"}
    layout = {v["rule"] for v in p["uncertain"] if v["message"].endswith(GUIDANCE_ONLY)}
    # (the town code places its notices at the entrances only: unsure without an access layer)
    assert layout == {"spacing", "corners"} & set(rules.tables)


def test_a_statute_asking_for_signs_at_the_ways_in_is_unsure_without_them():
    # Ark. Code Ann. 18-11-405(1)(A): signs 1,000 ft apart "and at each point of entry". Signs at
    # the corners and midpoints of a 1,980 ft square meet the spacing; where its ways in are is
    # not known without an access layer, so the parcel is not surely posted (it was compliant)
    lot = square(1980)
    pts = along(lot, 990.0)
    p = one(
        check(parcels(lot), markers(pts), "arkansas", context=Context(parcel_landcover=[False]))
    )
    assert p["status"] == "uncertain" and p["violations"] == []
    [u] = p["uncertain"]
    assert u["rule"] == "access" and "no access layer" in u["message"]
    # the ways in known, and none crosses its boundary: posted
    ctx = Context(parcel_landcover=[False], access=NO_WAYS)
    assert one(check(parcels(lot), markers(pts), "arkansas", context=ctx))["status"] == "compliant"
    # a layout of ours (the law gives no number) beside its spacing: noted, not unsure
    lot = square(1300)
    r = check(parcels(lot), markers(along(lot, 650.0)), "north-dakota-criminal")
    assert one(r)["status"] == "compliant"
    [n] = [x for x in r.to_dict()["not_checked"] if x["rule"] == "access"]
    assert "uncertain" not in n["reason"]


WORDS = [n for n in available() if load_rules(n).content and load_rules(n).content.required_any]


@pytest.mark.parametrize("profile", WORDS)
def test_signs_in_other_words_fail_only_where_the_law_names_the_words(profile):
    # Arkansas' "posted" or "no trespassing", Arizona's five phrases: the words themselves; a
    # sign without them fails. "No trespassing" or similar terms (Minnesota), "words to that
    # effect" (Oregon), a notice "prohibiting entry" (South Carolina): our list only reads
    # them, and a sign in other words is for a person to judge, uncertain
    rules = load_rules(profile)
    pts = along(square(), 50.0)
    attrs = pd.DataFrame({"kind": ["sign"] * len(pts), "text": ["HELLO THERE"] * len(pts)})
    ctx = Context(access=NO_WAYS, parcel_landcover=[False])
    p = one(check(parcels(square()), markers(pts, attributes=attrs), profile, context=ctx))
    found = {
        level for level in ("violations", "uncertain") for v in p[level] if v["rule"] == "sign_text"
    }
    assert found == ({"uncertain"} if rules.content.words_to_that_effect else {"violations"})
