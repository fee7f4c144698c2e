"""Which rules judge which parcels: ``auto`` (each parcel under its own state's profiles) and
the warning when a profile given by name is another state's."""

from __future__ import annotations

import json

import geopandas as gpd
import pytest
import shapely
from click.testing import CliRunner
from helpers import SHARED_DATA, markers, parcels, require_real_data, square
from pyproj import CRS

from posting import check
from posting.cli import main
from posting.errors import InputError
from posting.jurisdiction import STATES, auto_profiles, rules_spec, state_of
from posting.rules import available, load_rules
from posting.states import states_table

WGS84 = CRS.from_epsg(4326)


def lonlat_box(lon, lat, half_deg=0.002):
    return shapely.box(lon - half_deg, lat - half_deg, lon + half_deg, lat + half_deg)


def test_the_states_named_are_those_of_the_boundaries():
    assert set(states_table()["slug"]) == STATES


def test_every_auto_profile_names_its_state_and_auto_is_a_choice_per_state():
    table = auto_profiles()
    assert table["texas"] == ["texas", "texas-signs"]
    assert table["florida"] == ["florida"]  # florida-paint's placement was not read
    assert not any("florida-paint" in names for names in table.values())
    for names in table.values():
        for n in names:
            assert load_rules(n).auto and state_of(load_rules(n)) is not None
    assert state_of(load_rules("town-code")) is None
    # at least 30 states have a profile, and most a default one
    states = {state_of(load_rules(n)) for n in available()} - {None}
    assert len(states) >= 30 and len(table) >= 30


def test_auto_picks_the_state_of_each_parcel():
    tallahassee = lonlat_box(-84.2807, 30.4383)
    richmond = lonlat_box(-77.4360, 37.5407)
    lots = parcels(tallahassee, richmond, crs=WGS84, ids=["fl", "va"])
    r = check(lots, None, "auto")
    p = r.to_dict()
    assert [x["rules"] for x in p["parcels"]] == ["florida", "virginia"]
    assert [x["state"] for x in p["parcels"]] == ["florida", "virginia"]
    assert p["rules"]["states"] == {
        "florida": ["florida"],
        "virginia": ["virginia", "virginia-paint"],
    }
    # each parcel's alternatives are those of its state only
    assert "alternatives" not in p["parcels"][0]
    assert [a["rules"] for a in p["parcels"][1]["alternatives"]] == ["virginia", "virginia-paint"]
    assert r.rules_name == "florida in Florida; virginia or virginia-paint in Virginia"


def test_auto_with_another_profile_beside_it():
    r = check(parcels(lonlat_box(-84.2807, 30.4383), crs=WGS84), None, ["auto", "town-code"])
    assert r.to_dict()["rules"]["alternatives"][1]["name"] == "town-code"
    assert [a["rules"] for a in r.to_dict()["parcels"][0]["alternatives"]] == [
        "florida",
        "town-code",
    ]
    assert rules_spec([]).auto and not rules_spec(["florida"]).auto


def test_a_state_s_profile_beside_auto_judges_that_state_s_land_alone():
    """``auto`` and ``florida-paint``: Florida's paint is another way to post in Florida, not
    in Virginia. A Virginia lot (about 290 by 360 ft) painted all round in orange, 80 marks
    about 16 ft apart, each 1 in wide: Virginia's paint asks 2 in (Va. Code 18.2-134.1), so
    the lot is noncompliant there; judged by Florida's paint (no width, orange, 500 ft) it
    passed as compliant, by a law that is not Virginia's."""
    import numpy as np
    import pandas as pd

    from posting.io import FeatureLayer
    from posting.measure import Context

    va = lonlat_box(-77.4360, 37.5407, half_deg=0.0005)
    fl = lonlat_box(-84.2807, 30.4383, half_deg=0.0005)
    at = np.linspace(0, 1, 81)[:-1]
    pts = shapely.get_coordinates(
        shapely.line_interpolate_point(shapely.get_exterior_ring(va), at, normalized=True)
    )
    n = len(pts)
    att = pd.DataFrame({"kind": ["paint"] * n, "color": ["orange"] * n, "width_in": [1.0] * n})
    # a road nowhere near: the lots have no way in (Virginia's paint asks for it)
    road = FeatureLayer(
        "<memory>",
        np.array([shapely.LineString([(-77.45, 37.55), (-77.44, 37.55)])], dtype=object),
        WGS84,
        np.array(["road"], dtype=object),
    )
    lots = parcels(fl, va, crs=WGS84, ids=["fl", "va"])
    r = check(
        lots,
        markers(pts, crs=WGS84, attributes=att),
        ["auto", "florida-paint"],
        context=Context(access=road),
    )
    d = r.to_dict()
    assert d["rules"]["states"] == {
        "florida": ["florida", "florida-paint"],
        "virginia": ["virginia", "virginia-paint"],
    }
    fl_p, va_p = d["parcels"]
    assert [a["rules"] for a in fl_p["alternatives"]] == ["florida", "florida-paint"]
    assert [a["rules"] for a in va_p["alternatives"]] == ["virginia", "virginia-paint"]
    assert va_p["status"] == "noncompliant" and va_p["rules"] == "virginia-paint"
    assert r.rules_name == (
        "florida or florida-paint in Florida; virginia or virginia-paint in Virginia"
    )
    # beside auto, a state's profile where no parcel lies would judge none: said, not ignored
    with pytest.raises(InputError) as info:
        check(parcels(fl, crs=WGS84), None, ["auto", "texas"])
    assert info.value.parameter == "rules"
    assert "texas is the law of Texas, where none of the parcels lies" in str(info.value)
    assert "(they lie in Florida)" in str(info.value)


@pytest.mark.parametrize(
    ("geom", "words"),
    [
        (lonlat_box(-79.50, 36.5413), "straddles the North Carolina/Virginia line"),
        (lonlat_box(-79.80, 43.70), "outside every state"),  # Ontario
        (lonlat_box(0.0, 51.5), "outside every state (abroad or at sea)"),  # London
    ],
)
def test_auto_names_the_parcels_it_cannot_place_and_says_what_to_pass(geom, words):
    lots = parcels(lonlat_box(-84.2807, 30.4383), geom, crs=WGS84, ids=["ok", "bad"])
    with pytest.raises(InputError) as info:
        check(lots, None, "auto")
    e = info.value
    assert e.parameter == "rules" and words in str(e)
    assert "'bad' (row 1)" in str(e) and "'ok'" not in str(e)
    assert "Give the profile of the state whose law applies with rules=" in str(e)


def test_a_state_without_a_default_profile_is_named():
    denver = lonlat_box(-104.99, 39.74)
    with pytest.raises(InputError, match=r"no default rule profile for Colorado: 1 parcel"):
        check(parcels(denver, crs=WGS84), None, "auto")


def test_a_profile_of_another_state_warns_and_the_map_says_so():
    from posting.maps import to_html

    richmond = parcels(lonlat_box(-77.4360, 37.5407), crs=WGS84)
    r = check(richmond, None, "florida")
    [w] = [w for w in r.warnings if "lie in" in w]
    assert w.startswith("1 of 1 parcels lie in Virginia, not in Florida")
    assert "rules= auto" in r.to_dict()["warnings"][-1]
    assert "Florida rule, land in Virginia: is this land posted?" in to_html(r, tiles=False)
    r = check(richmond, None, "auto")
    assert "Virginia: is this land posted?" in to_html(r, tiles=False)
    assert not [w for w in r.warnings if "lie in" in w]


def test_land_outside_every_state_under_a_state_s_profile_is_said_with_the_likely_cause():
    """A lot at sea south of Florida (the Gulf of Honduras: where Seminole County's State
    Plane feet land read as UTM metres) checked against Florida's rules as asked: the warning
    counts it apart from a lot in Virginia, and names the CRS as the likely cause."""
    at_sea = lonlat_box(-87.0, 16.5)
    richmond = lonlat_box(-77.4360, 37.5407)
    r = check(parcels(at_sea, richmond, crs=WGS84), None, "florida")
    [w] = [w for w in r.warnings if "lie in" in w or "outside every state" in w]
    virginia, sea = w.split("; 1 of 2")
    assert virginia.startswith("1 of 2 parcels lie in Virginia, not in Florida")
    assert sea.startswith(" parcels lie outside every state (abroad or at sea), not in Florida")
    assert "their layer's CRS is not theirs" in sea
    r = check(parcels(at_sea, crs=WGS84), None, "florida")
    assert next(w for w in r.warnings if "outside every state" in w).startswith("1 of 1 parcels")


def test_auto_names_the_crs_when_every_unsure_parcel_lies_outside_every_state():
    """Lots at sea only (a whole layer moved, as a wrong CRS moves it): the CRS is the likely
    cause, and said first. A lot across a state line among them, or one placed in a state, is
    not a CRS's doing: the hint is left out."""
    at_sea = lonlat_box(-87.0, 16.5)
    with pytest.raises(InputError, match=r"If they are in the United States, their layer's CRS"):
        check(parcels(at_sea, crs=WGS84), None, "auto")
    across = lonlat_box(-79.50, 36.5413)  # (the North Carolina/Virginia line)
    tallahassee = lonlat_box(-84.2807, 30.4383)
    for other in (across, tallahassee):
        with pytest.raises(InputError) as err:
            check(parcels(at_sea, other, crs=WGS84), None, "auto")
        assert "is not certain" in str(err.value) and "CRS" not in str(err.value)


def test_the_library_default_checks_florida_land_as_before():
    r = check(parcels(square()), markers([(0, 0)]))
    assert r.profile.name == "florida" and r.states is None


# -- the real layers ----------------------------------------------------------------------------

REAL = {
    "williamsburg-va/parcels.geojson": ("PID", {"virginia", "virginia-paint"}, "virginia"),
    "pacific-wa/taxlots.geojson": ("ASSESSOR", {"washington"}, "washington"),
    "seminole-fl/parcels.geojson": ("PARCEL", {"florida"}, "florida"),
}


@pytest.mark.realdata
@pytest.mark.parametrize("rel", list(REAL))
def test_auto_on_the_real_layers_picks_their_state(rel, tmp_path):
    path = require_real_data(SHARED_DATA / rel)
    id_field, profiles, state = REAL[rel]
    res = CliRunner().invoke(
        main, ["check", str(path), "--id-field", id_field, "--json", str(tmp_path / "r.json")]
    )
    assert res.exit_code == 1, res.output
    d = json.loads((tmp_path / "r.json").read_text())
    names = {p["name"] for p in d["rules"].get("alternatives", [d["rules"]])}
    assert names == profiles == set(auto_profiles()[state])
    assert {p["rules"] for p in d["parcels"]} <= profiles
    assert "lie in" not in " ".join(d["warnings"])
    assert f"{len(d['parcels'])} parcels checked against" in res.stderr


@pytest.mark.realdata
def test_a_layer_of_two_states_is_checked_parcel_by_parcel(tmp_path):
    va = gpd.read_file(require_real_data(SHARED_DATA / "williamsburg-va/parcels.geojson"))
    fl = gpd.read_file(require_real_data(SHARED_DATA / "seminole-fl/parcels.geojson"))
    va = va[va.geometry.notna()].head(40)[["PID", "geometry"]].rename(columns={"PID": "pid"})
    fl = fl.to_crs(4326)[["PARCEL", "geometry"]].rename(columns={"PARCEL": "pid"})
    both = gpd.GeoDataFrame(
        gpd.pd.concat([fl, va], ignore_index=True), geometry="geometry", crs=4326
    )
    path = tmp_path / "two-states.geojson"
    both.to_file(path, driver="GeoJSON")
    res = CliRunner().invoke(
        main,
        [
            "check",
            str(path),
            "--id-field",
            "pid",
            "--json",
            str(tmp_path / "r.json"),
            "--map",
            str(tmp_path / "m.html"),
            "--no-tiles",
        ],
    )
    assert res.exit_code == 1, res.output
    d = json.loads((tmp_path / "r.json").read_text())
    p = d["parcels"]
    assert [x["state"] for x in p] == ["florida"] * 50 + ["virginia"] * 40
    assert {x["rules"] for x in p[:50]} == {"florida"}
    assert {x["rules"] for x in p[50:]} <= {"virginia", "virginia-paint"}
    assert d["rules"]["states"] == {
        "florida": ["florida"],
        "virginia": ["virginia", "virginia-paint"],
    }
    assert "florida in Florida; virginia or virginia-paint in Virginia" in res.stderr
    assert "Florida and Virginia: is this land posted?" in (tmp_path / "m.html").read_text()


def test_a_layer_inside_one_state_is_looked_up_once_and_the_same():
    from posting.jurisdiction import parcel_state_table
    from posting.prepare import prepare_parcels
    from posting.settings import Settings
    from posting.states import parcel_states

    inside = [lonlat_box(-84.28 + k * 0.01, 30.44) for k in range(5)] + [None]
    layer = parcels(*inside, crs=WGS84)
    got = parcel_state_table(prepare_parcels(layer, Settings(), corners=False))
    want = parcel_states(layer.geometry)
    assert got["status"].tolist() == want["status"].tolist() == ["ok"] * 5 + ["empty"]
    assert got["state"].tolist() == want["state"].tolist()
    # across two states, parcel by parcel (the extent straddles the Georgia line)
    two = parcels(lonlat_box(-84.28, 30.44), lonlat_box(-84.39, 33.75), crs=WGS84)
    got = parcel_state_table(prepare_parcels(two, Settings(), corners=False))
    assert got["state"].tolist() == ["florida", "georgia"]


@pytest.mark.parametrize("crs", ["EPSG:4326", "EPSG:3086"])  # lon/lat; Florida GDL Albers (m)
def test_boxes_looked_up_before_parcels_give_each_parcel_its_own_row(crs):
    """Oracle: the table from boxes of parcels (the extent, then cells) equals each parcel
    looked up alone, on a coast and a state line (the Gulf at Apalachicola, the Georgia line):
    parcels inland, at sea, near the shore and the line, across it, large and empty."""
    import numpy as np
    import pandas as pd

    from posting.jurisdiction import _by_boxes, _usable, parcel_state_table
    from posting.prepare import prepare_parcels
    from posting.settings import Settings
    from posting.states import parcel_states

    rng = np.random.default_rng(20261205)
    n = 3000
    lon = rng.uniform(-85.4, -84.2, n)
    lat = rng.uniform(29.2, 31.2, n)
    half = rng.choice([0.0005, 0.002, 0.01, 0.05], n, p=[0.4, 0.4, 0.15, 0.05])
    boxes = list(shapely.box(lon - half, lat - half, lon + half, lat + half))
    boxes[::97] = [None] * len(boxes[::97])
    if crs != "EPSG:4326":
        from pyproj import Transformer

        t = Transformer.from_crs(WGS84, crs, always_xy=True)
        boxes = [None if g is None else shapely.segmentize(g, 0.001) for g in boxes]
        boxes = [
            None
            if g is None
            else shapely.transform(g, lambda xy: np.column_stack(t.transform(xy[:, 0], xy[:, 1])))
            for g in boxes
        ]
    layer = parcels(*boxes, crs=crs)
    prep = prepare_parcels(layer, Settings(), corners=False)
    got = parcel_state_table(prep)
    usable = _usable(prep)
    want = parcel_states(
        np.where(usable, np.asarray(layer.geometry, dtype=object), None), crs=layer.crs
    ).reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want)
    # the boxes settled most parcels, not all: both ways were taken
    settled = _by_boxes(prep, usable)[1] >= 0
    assert 0.5 * n < settled.sum() < n - 100
    assert set(want["status"][settled]) == {"ok", "outside"}
    assert {"near", "straddles", "outside", "ok", "empty"} <= set(want["status"])


def test_a_parcel_without_usable_geometry_has_no_state_however_the_layer_is_looked_up():
    # a point is not a parcel (invalid), wherever it is: the one lookup of a layer inside
    # Florida and the lookup parcel by parcel of one across two states both call it empty, so
    # that auto gives it the most common state either way
    from posting.jurisdiction import parcel_state_table
    from posting.prepare import prepare_parcels
    from posting.settings import Settings

    richmond = shapely.Point(-77.4360, 37.5407)
    florida = [lonlat_box(-84.28, 30.44), lonlat_box(-84.27, 30.44)]
    one = parcels(*florida, richmond, crs=WGS84)
    two = parcels(*florida, richmond, lonlat_box(-84.39, 33.75), crs=WGS84)  # and Atlanta
    fl = ["florida", "florida", None]
    for layer, states in ((one, fl), (two, [*fl, "georgia"])):
        got = parcel_state_table(prepare_parcels(layer, Settings(), corners=False))
        assert got["status"].iat[2] == "empty" and got["reason"].iat[2] == "no geometry"
        assert got["state"].tolist() == states
    r = check(parcels(*florida, richmond, crs=WGS84), None, "auto")
    assert r.parcels["state"].tolist() == ["florida"] * 3


def test_auto_s_facts_add_up_over_the_parts_of_a_layer_and_choose_as_the_whole():
    """A layer's :class:`StateFacts` are its parts' added up (any split), and the parcels
    without geometry take the most common state, the first by name of a tie, as pandas'
    ``mode`` gives it."""
    import itertools

    import numpy as np
    import pandas as pd

    from posting.jurisdiction import StateFacts, decide

    rng = np.random.default_rng(3)
    n = 60
    status = rng.choice(["ok", "ok", "ok", "empty", "near"], n).astype(object)
    state = np.where(status == "ok", rng.choice(["virginia", "florida", "texas"], n), None)
    table = pd.DataFrame(
        {
            "status": status,
            "state": pd.Series(state, dtype=object),
            "reason": [f"why {i}" for i in range(n)],
            "states": [("virginia",) if s == "near" else () for s in status],
        }
    )
    ids = np.asarray([f"p{i}" for i in range(n)], dtype=object)
    whole = StateFacts.of(table, ids, np.arange(n))
    cuts = [0, 7, 8, 31, 60]
    parts = [
        StateFacts.of(table.iloc[a:b].reset_index(drop=True), ids[a:b], np.arange(a, b))
        for a, b in itertools.pairwise(cuts)
    ]
    assert StateFacts.combine(parts[::-1]) == whole
    near = np.flatnonzero(status == "near")
    assert whole.unsure == len(near)
    assert [k for k, _, _ in whole.unsure_first] == near[:5].tolist()
    ok = table[table["status"] == "ok"]
    for s, (count, first, pid) in whole.known.items():
        rows = ok.index[ok["state"] == s]
        assert (count, first, pid) == (len(rows), rows[0], f"p{rows[0]}")
    # a tie: two states with 3 parcels each, and one parcel without geometry
    tie = pd.DataFrame(
        {
            "status": ["ok"] * 6 + ["empty"],
            "state": ["virginia", "texas", "virginia", "texas", "virginia", "texas", None],
            "reason": [""] * 7,
            "states": [()] * 7,
        }
    )
    facts = StateFacts.of(tie, np.asarray([str(i) for i in range(7)], object), np.arange(7))
    choice = decide(rules_spec(["auto"]), facts)
    assert choice.fill == pd.Series(tie["state"][:6], dtype=object).mode().iat[0] == "texas"
    assert list(choice.states) == ["virginia", "texas"]
    applied = choice.applied(tie["status"].to_numpy(object), tie["state"].to_numpy(object))
    assert applied.state.tolist()[-1] == "texas"
