"""GPS error on shared lines: no false verdict from a marker that could stand on either side.

Two adjoining 1,000 ft squares, A (west) and B (east), each posted on its own side of the line
they share: a sign at every corner and every 250 ft along each side, 3 ft inside. With a
stated accuracy of 16 ft the markers by the shared line could stand in either lot.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import LOCAL_FT, SHARED_DATA, markers, parcels, require_real_data, square

from posting import Settings, check, plan
from posting.io import MarkerLayer

A, B = square(1000), square(1000, x0=1000)
PHONE = Settings(accuracy_ft=16.0)


def own_side(poly: shapely.Polygon, step: float = 250.0, inset: float = 3.0) -> np.ndarray:
    """Signs ``inset`` ft inside the boundary: one at each vertex, and evenly between them at
    most ``step`` ft apart."""
    inner = shapely.get_coordinates(poly.buffer(-inset, join_style="mitre").exterior)
    out = []
    for a, b in itertools.pairwise(inner):
        k = max(1, int(np.ceil(np.hypot(*(b - a)) / step)))
        out += [a + (b - a) * t for t in np.arange(k) / k]
    return np.array(out)


SIGNS = np.vstack([own_side(A), own_side(B)])
IN_A = SIGNS[:, 0] < 1000


def layer(owners=("Ann Able", "Bob Baker")):
    return parcels(A, B, ids=["A", "B"], owners=list(owners) if owners else None)


def signs(xy: np.ndarray, names=None) -> MarkerLayer:
    attrs = None if names is None else pd.DataFrame({"name_on_sign": names})
    return markers([tuple(p) for p in xy], attributes=attrs)


def statuses(report) -> list[str]:
    return report.parcels["status"].tolist()


def test_posted_on_its_own_side_each_lot_complies_when_the_positions_are_exact():
    assert statuses(check(layer(), signs(SIGNS))) == ["compliant", "compliant"]


def test_with_a_phone_s_accuracy_the_shared_line_s_signs_leave_both_lots_uncertain():
    r = check(layer(), signs(SIGNS), settings=PHONE)
    assert statuses(r) == ["uncertain", "uncertain"]
    d = r.to_dict()
    for p, other in zip(d["parcels"], ("B", "A"), strict=True):
        [f] = [u for u in p["uncertain"] if u["rule"] == "shared_line"]
        # 5 signs of each lot stand 3 ft from the shared line (its two corners and every 250 ft
        # between): 10 doubtful markers for each lot, its own 5 and the neighbour's 5
        assert f["count"] == 10 and f"parcel '{other}'" in f["message"]
        assert "noncompliant if they post the neighbour, compliant if this parcel" in f["message"]
    assert r.markers["doubtful"].sum() == 10


def test_the_owner_s_name_on_each_sign_settles_it():
    names = np.where(IN_A, "Ann Able", "Bob Baker")
    r = check(layer(), signs(SIGNS, names), settings=PHONE)
    assert statuses(r) == ["compliant", "compliant"]
    assert not r.markers["doubtful"].any()


@pytest.mark.parametrize(
    ("on_sign", "of_record"),
    [
        ("Pat O'Brien", "OBRIEN PAT"),
        ("PAT OBRIEN", "O'BRIEN, PAT"),
        ("Pat O\u2019Brien", "OBRIEN PAT"),
    ],
)
def test_the_owner_s_name_settles_it_with_or_without_its_apostrophe(on_sign, of_record):
    # the sign reads O'Brien where the roll has OBRIEN (or the other way round): read with the
    # apostrophe as a space, "o brien" has no word "obrien" (the "o" is too short to be one),
    # and the shared line's 10 signs stayed in doubt: both lots uncertain
    names = np.where(IN_A, on_sign, "Bob Baker")
    r = check(layer((of_record, "Bob Baker")), signs(SIGNS, names), settings=PHONE)
    assert statuses(r) == ["compliant", "compliant"]
    assert not r.markers["doubtful"].any()
    # and no note that the signs name someone other than the owner of record
    assert not (r.findings["rule"] == "name_on_sign").any()


def test_a_sign_recorded_across_the_line_goes_back_by_its_name():
    xy = SIGNS.copy()
    moved = np.flatnonzero(IN_A & np.isclose(xy[:, 0], 997.0))[2]  # A's middle shared-line sign
    xy[moved, 0] = 1004.0  # recorded 4 ft inside B
    names = np.where(IN_A, "Ann Able", "Bob Baker")
    r = check(layer(), signs(xy, names), settings=PHONE)
    row = r.markers.iloc[moved]
    assert (row["parcel_id"], row["assigned_by"]) == ("A", "sign_name")
    assert statuses(r) == ["compliant", "compliant"]


def test_a_lessee_s_name_sharing_one_word_with_the_neighbour_s_owner_moves_nothing():
    """ "Lake Harney Hunt Club" shares "Harney" with "Harney Timber LLC": not a match."""
    names = np.where(IN_A, "Lake Harney Hunt Club (lessee)", "Bob Baker")
    r = check(layer(("Maria Lopez", "Harney Timber LLC")), signs(SIGNS, names), settings=PHONE)
    assert not (r.markers["assigned_by"] == "sign_name").any()


def test_one_owner_s_shared_line_is_posted_for_both_lots():
    r = check(layer(("Ann Able", "ann able")), signs(SIGNS), settings=PHONE)
    assert statuses(r) == ["compliant", "compliant"]
    # every marker still listed once, for the lot it stands in
    assert r.parcels["signs"].sum() == len(SIGNS)


def test_without_a_stated_accuracy_nothing_changes():
    r = check(layer(), signs(SIGNS))
    assert not r.markers["doubtful"].any() and "shared_line" not in set(r.findings["rule"])


def test_signs_drawn_onto_the_shared_line_are_in_doubt_without_a_stated_accuracy():
    """Signs snapped onto the line the lots share (a GIS draws them there exactly) went to the
    lot first in the input: A compliant, B noncompliant (its west side bare), by the order of
    the rows alone. On the line, either lot may be the one they post: both uncertain, the
    finding saying they stand on the line. Signs 3 ft off it stay their lot's."""
    on_line = own_side(A, inset=0.0)
    on_line = on_line[np.isclose(on_line[:, 0], 1000.0)]  # A's east side: x = 1000 exactly
    assert len(on_line) == 5  # its two corners and every 250 ft between
    rest = np.vstack([SIGNS[IN_A & (SIGNS[:, 0] < 990)], SIGNS[~IN_A & (SIGNS[:, 0] > 1010)]])
    r = check(layer(), signs(np.vstack([rest, on_line])))
    assert statuses(r) == ["uncertain", "uncertain"]
    d = r.to_dict()
    for p, other in zip(d["parcels"], ("B", "A"), strict=True):
        [f] = [u for u in p["uncertain"] if u["rule"] == "shared_line"]
        assert (
            f["count"] == 5
            and f"on (within 0.01 ft of) the line shared with parcel '{other}'" in f["message"]
        )
    # named for their lots, or 3 ft off the line: no doubt, as before
    assert statuses(check(layer(), signs(SIGNS))) == ["compliant", "compliant"]
    names = ["Ann Able"] * len(rest) + ["Ann Able"] * 5
    r = check(layer(), signs(np.vstack([rest, on_line]), names))
    assert not r.markers["doubtful"].any()
    assert r.parcels["status"].tolist()[0] == "compliant"


def _phone(xy: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Positions as a phone records them: 5 to 12 ft off in any direction."""
    r = rng.uniform(5.0, 12.0, len(xy))
    t = rng.uniform(0.0, 2 * np.pi, len(xy))
    return xy + np.column_stack([r * np.cos(t), r * np.sin(t)])


@pytest.mark.parametrize("seed", range(20))
def test_phone_error_gives_no_false_verdict(seed):
    rng = np.random.default_rng(seed)
    # both lots posted: each compliant or uncertain, never noncompliant
    r = check(layer(), signs(_phone(SIGNS, rng)), settings=PHONE)
    assert set(statuses(r)) <= {"compliant", "uncertain"}, r.to_dict()["parcels"]
    # B without its east side's signs (a 1,000 ft gap): B is never called compliant
    east = (SIGNS[:, 0] > 1990) & (SIGNS[:, 1] > 10) & (SIGNS[:, 1] < 990)
    r = check(layer(), signs(_phone(SIGNS[~east], rng)), settings=PHONE)
    assert statuses(r)[1] in {"noncompliant", "uncertain"}


def test_the_plan_sets_markers_back_from_a_shared_line_when_no_name_can_settle_it():
    bare = check(layer(owners=None), None, settings=PHONE)
    p = plan(bare)
    m = p.markers
    interval = m[m["role"] == "interval"]
    # every interval marker stands at least the accuracy and a margin from the shared line
    by_line = interval[np.abs(interval["x_ft"] - 1000.0) < 30]
    assert len(by_line) and (np.abs(by_line["x_ft"] - 1000.0) >= 16.2).all()
    # the corners on the shared line cannot be both that far from it and within the corner
    # tolerance less the accuracy: the plan says so, and the lots are not complete
    assert not p.parcels["complete"].any()
    assert p.parcels["note"].str.contains("shared line").all()


def test_a_planned_posting_recorded_as_placed_complies_and_a_phone_never_fails_it():
    owners = ("Ann Able", "Bob Baker")
    p = plan(check(layer(owners), None, settings=PHONE))
    assert p.parcels["complete"].all()
    m = p.markers
    # the plan's exports name the owner on each sign, as the statute asks
    assert (m["name_on_sign"] == np.where(m["parcel_id"] == "A", *owners)).all()
    xy = m[["x_ft", "y_ft"]].to_numpy()
    names = m["name_on_sign"].to_numpy()
    assert statuses(check(layer(owners), signs(xy, names), settings=PHONE)) == [
        "compliant",
        "compliant",
    ]
    rng = np.random.default_rng(7)
    for _ in range(10):
        r = check(layer(owners), signs(_phone(xy, rng), names), settings=PHONE)
        assert set(statuses(r)) <= {"compliant", "uncertain"}
        assert "shared_line" not in set(r.findings["rule"])  # the names settle every marker


@pytest.mark.realdata
def test_pacific_lots_171_and_173_with_a_phone():
    """The issue's two lots: each posted on its own side of the 1,244 ft line they share."""
    import geopandas as gpd

    from posting import read_parcels

    path = require_real_data(SHARED_DATA / "pacific-wa" / "taxlots.geojson")
    lots = read_parcels(path, owner_field="OWNER")
    keep = np.array([171, 173])
    two = type(lots)(
        lots.source,
        lots.ids[keep],
        lots.owners[keep],
        lots.geometry[keep],
        lots.crs,
        lots.attributes.iloc[keep].reset_index(drop=True),
        lots.id_field,
        [],
    )
    utm = "EPSG:32610"
    g = gpd.GeoSeries(two.geometry, crs=two.crs).to_crs(utm)
    ft = 0.3048
    xy = np.vstack(
        [own_side(shapely.affinity.scale(p, 1 / ft, 1 / ft, origin=(0, 0)), 400.0) for p in g]
    )
    pts = gpd.GeoSeries(gpd.points_from_xy(xy[:, 0] * ft, xy[:, 1] * ft), crs=utm).to_crs(4326)
    exact = MarkerLayer.from_points(pts.x, pts.y, "EPSG:4326")
    assert check(two, exact).parcels["status"].tolist() == ["compliant", "compliant"]
    rng = np.random.default_rng(171)
    for _ in range(20):
        noisy = _phone(xy, rng)
        pts = gpd.GeoSeries(gpd.points_from_xy(noisy[:, 0] * ft, noisy[:, 1] * ft), crs=utm)
        lonlat = pts.to_crs(4326)
        r = check(two, MarkerLayer.from_points(lonlat.x, lonlat.y, "EPSG:4326"), settings=PHONE)
        # one owner of record for both lots: the shared line is posted for both
        assert set(r.parcels["status"]) <= {"compliant", "uncertain"}


def _county(seed: int, owned: bool = True):
    """A seeded block of adjoining lots of random sizes (listed in a random order; owners of
    three names, so neighbours are sometimes one owner's), each posted along its own side
    with signs and purple paint: on the line, a hair off it, or feet inside or outside; some
    left out; the owner's name, another's or none on each. A road crosses the block; the land
    cover of some lots is known. ``owned`` False: no owners of record (no name settles a
    marker)."""
    from posting.io import FeatureLayer
    from posting.measure import Context

    rng = np.random.default_rng(seed)
    xs = np.r_[0.0, np.cumsum(rng.uniform(250.0, 800.0, 4))]
    ys = np.r_[0.0, np.cumsum(rng.uniform(250.0, 800.0, 3))]
    lots = [
        shapely.box(x0, y0, x1, y1)
        for x0, x1 in itertools.pairwise(xs)
        for y0, y1 in itertools.pairwise(ys)
    ]
    order = rng.permutation(len(lots))
    names = np.array(["Ann Able", "Bob Baker", "Cy Dee"])
    owners = names[rng.integers(0, 3, len(lots))]
    xy, said = [], []
    for k in order:
        inset = rng.choice([0.0, 0.004, 3.0, 12.0, -2.0], p=[0.2, 0.1, 0.5, 0.1, 0.1])
        pts = own_side(lots[k], step=rng.uniform(150.0, 400.0), inset=inset)
        pts = pts[rng.uniform(size=len(pts)) > 0.05]
        xy.append(pts)
        said += rng.choice(np.array([owners[k], *names, "", None], dtype=object), len(pts)).tolist()
    xy = np.vstack(xy)
    attrs = pd.DataFrame(
        {
            "name_on_sign": said,
            "kind": rng.choice(["sign", "paint"], len(xy)),
            "color": "purple",
            "text": "No trespassing",
        }
    )
    road = shapely.LineString([(-50.0, ys[1] + 40.0), (xs[-1] + 50.0, ys[2] - 40.0)])
    context = Context(
        access=FeatureLayer("<road>", np.array([road], dtype=object), LOCAL_FT, np.array(["road"])),
        parcel_landcover=rng.choice(
            np.array([True, False, None], dtype=object), len(lots)
        ).tolist(),
    )
    layer = parcels(
        *[lots[k] for k in order],
        ids=[f"L{k}" for k in order],
        owners=owners[order].tolist() if owned else None,
    )
    return layer, markers(xy, attributes=attrs), context


def _whole(monkeypatch) -> None:
    """The bounds of every parcel judged again, as before they were of the parcels in doubt
    alone (:func:`posting.ambiguity.bounds`): the oracle."""
    from posting import ambiguity

    monkeypatch.setattr(ambiguity, "touched", lambda m, doubt: np.arange(m.n))
    monkeypatch.setattr(ambiguity, "restrict", lambda m, parcels: (m, np.arange(len(m.asg.parcel))))


@pytest.mark.parametrize("rules", ["florida", "texas", ["florida", "kansas"]])
@pytest.mark.parametrize("accuracy_ft", [0.0, 16.0])
@pytest.mark.parametrize("seed", range(4))
def test_the_bounds_of_the_parcels_in_doubt_alone_are_those_of_every_parcel(
    seed, accuracy_ft, rules, monkeypatch
):
    """Each profile's two more evaluations judge only the parcels a doubtful marker concerns:
    the report is the one judging every parcel gave, status, finding and figure alike."""
    layer, signs_, context = _county(seed)
    settings = Settings(accuracy_ft=accuracy_ft)
    fast = check(layer, signs_, rules, settings=settings, context=context)
    with monkeypatch.context() as mp:
        _whole(mp)
        slow = check(layer, signs_, rules, settings=settings, context=context)
    a, b = fast.to_dict(), slow.to_dict()
    a.pop("generated"), b.pop("generated")  # (the time of each check)
    assert a == b
    for name in ("parcels", "findings", "all_findings", "gaps", "corners", "access", "markers"):
        pd.testing.assert_frame_equal(getattr(fast, name), getattr(slow, name))
    # some markers in doubt, some parcels beyond them (so both sides of it are asked)
    doubtful = fast.markers["doubtful"].to_numpy()
    assert doubtful.any() and not doubtful.all()


def test_signs_on_the_shared_line_give_the_same_verdicts_whichever_lot_comes_first():
    """The land audit's case: A's east side posted on the line it shares with B, B's west side
    bare. A was compliant and B noncompliant, or the other way round with the rows swapped."""
    on_line = own_side(A, inset=0.0)
    on_line = on_line[np.isclose(on_line[:, 0], 1000.0)]
    rest = np.vstack([SIGNS[IN_A & (SIGNS[:, 0] < 990)], SIGNS[~IN_A & (SIGNS[:, 0] > 1010)]])
    xy = signs(np.vstack([rest, on_line]))
    for settings in (Settings(), PHONE):
        ab = check(layer(), xy, settings=settings).parcels
        ba = check(
            parcels(B, A, ids=["B", "A"], owners=["Bob Baker", "Ann Able"]), xy, settings=settings
        ).parcels
        assert ab["status"].tolist() == ba["status"].tolist()[::-1] == ["uncertain"] * 2


VERDICT = {"compliant": "passes", "exempt": "passes", "noncompliant": "fails", "unposted": "fails"}


@pytest.mark.parametrize("accuracy_ft", [0.0, 16.0])
@pytest.mark.parametrize("seed", range(4))
def test_the_verdicts_do_not_depend_on_the_order_of_the_parcels(seed, accuracy_ft):
    """A block of lots with signs on, by and off their shared lines (no owners of record: no
    name settles a sign): the rows in reverse order, each lot passes, fails or is uncertain as
    before. (The words of a failing lot, its figures and its findings are those of the markers
    it was given, and a sign on the line goes to the lot first in the input.)"""
    layer, signs_, context = _county(seed, owned=False)
    settings = Settings(accuracy_ft=accuracy_ft)
    back = np.arange(len(layer))[::-1]
    flipped = parcels(*np.asarray(layer.geometry, dtype=object)[back], ids=list(layer.ids[back]))
    lots = dataclasses.replace(
        context, parcel_landcover=list(np.asarray(context.parcel_landcover, dtype=object)[back])
    )
    a = check(layer, signs_, "florida", settings=settings, context=context).parcels
    b = check(flipped, signs_, "florida", settings=settings, context=lots).parcels
    b = b.set_index("id").loc[a["id"]]
    verdict = [VERDICT.get(s, s) for s in a["status"]]
    assert verdict == [VERDICT.get(s, s) for s in b["status"]]


@pytest.mark.parametrize("accuracy_ft", [0.0, 2.5, 16.0, 100.0])
@pytest.mark.parametrize("seed", range(4))
def test_the_lines_the_assignment_found_are_those_a_search_finds(seed, accuracy_ft):
    """The markers in doubt, from the lines the assignment found near each marker, are those
    a search of every boundary finds: in a block of lots, and where a lot lies over others
    (its signs on their lines, and inside them), with no accuracy stated, a small one, a
    phone's and one beyond the tolerance."""
    from posting.ambiguity import ON_LINE_FT, doubtful_markers
    from posting.assign import assign_markers, assign_near
    from posting.prepare import prepare_parcels

    layer, signs_, _ = _county(seed)
    x0, y0, x1, y1 = shapely.total_bounds(np.asarray(layer.geometry, dtype=object))
    over = shapely.box(x0 + (x1 - x0) / 3, y0 + (y1 - y0) / 3, x1 - (x1 - x0) / 4, y1 - 2.0)
    lots = parcels(
        *np.asarray(layer.geometry, dtype=object),
        over,
        ids=[*layer.ids, "over"],
        owners=[*layer.owners, "Dee Over"],
    )
    xy = np.vstack(
        [
            np.c_[signs_.x, signs_.y],
            own_side(over, step=120.0, inset=0.0),
            own_side(over, step=200.0, inset=3.0),
        ]
    )
    names = [*signs_.attributes["name_on_sign"], *["Dee Over"] * (len(xy) - len(signs_))]
    signs_ = signs(xy, names)
    settings = Settings(accuracy_ft=accuracy_ft)
    prep = prepare_parcels(lots, settings)
    tol = settings.tolerance_ft
    reach = min(max(accuracy_ft, ON_LINE_FT), tol)
    asg, lines = assign_near(prep, signs_, tolerance_ft=tol, near_ft=reach)
    whole = assign_markers(prep, signs_, tolerance_ft=tol)
    for f in dataclasses.fields(asg):  # the assignment itself as before
        np.testing.assert_array_equal(getattr(asg, f.name), getattr(whole, f.name))
    told = doubtful_markers(prep, signs_, asg, accuracy_ft, tol, lines)
    found = doubtful_markers(prep, signs_, asg, accuracy_ft, tol)
    assert len(found[1])  # (some markers in doubt)
    for a, b in zip(told, found, strict=True):
        for f in dataclasses.fields(a):
            np.testing.assert_array_equal(getattr(a, f.name), getattr(b, f.name))


# Signs inside two parcels at once: a county's duplicated row, or stacked estates (a
# condominium's units, mineral rights) drawn on the surface lot. The eight signs of a 500 ft
# square, 3 ft inside its line (its corners and the middle of each side), stand inside both
# rows and within the tolerance (30 ft) of both boundaries.
LOT = square(500)
EIGHT = np.array(
    [(3, 3), (250, 3), (497, 3), (497, 250), (497, 497), (250, 497), (3, 497), (3, 250)]
)


def _by_id(report) -> dict[str, str]:
    return dict(zip(report.parcels["id"], report.parcels["status"], strict=True))


@pytest.mark.parametrize("first", ["A", "A2"])
def test_signs_inside_two_rows_of_the_same_boundary_leave_both_uncertain(first):
    """The audit's case: A compliant with the 8 signs and A2 unposted with none, or the other
    way round with the rows swapped. Either may be the one they post: A with the 8 signs
    complies (each corner's sign 4.2 ft from it, gaps of 247 and 253 ft, under 500 ft); without
    them it is unposted (no sign): uncertain, both, whichever row comes first."""
    ids, owners = (["A", "A2"], ["X", "Y"]) if first == "A" else (["A2", "A"], ["Y", "X"])
    r = check(parcels(LOT, LOT, ids=ids, owners=owners), signs(EIGHT))
    assert _by_id(r) == {"A": "uncertain", "A2": "uncertain"}
    d = {p["id"]: p for p in r.to_dict()["parcels"]}
    for me, other in (("A", "A2"), ("A2", "A")):
        [f] = [u for u in d[me]["uncertain"] if u["rule"] == "shared_line"]
        assert f["count"] == 8
        assert (
            f"8 markers stand inside both this parcel and parcel '{other}' "
            "(the two boundaries are the same)" in f["message"]
        )
        assert "unposted if they post the other parcel, compliant if this parcel" in f["message"]
    assert r.markers["doubtful"].sum() == 8


@pytest.mark.parametrize("first", ["A", "A2"])
def test_the_owner_s_name_settles_signs_inside_two_rows(first):
    """Signs naming Ann Able post her row (A), not Bob Baker's (A2), whichever comes first;
    one owner's two rows are both posted by them."""
    ann, bob = "Ann Able", "Bob Baker"
    ids, owners = (["A", "A2"], [ann, bob]) if first == "A" else (["A2", "A"], [bob, ann])
    r = check(parcels(LOT, LOT, ids=ids, owners=owners), signs(EIGHT, [ann] * 8))
    assert _by_id(r) == {"A": "compliant", "A2": "unposted"}
    assert not r.markers["doubtful"].any()
    r = check(parcels(LOT, LOT, ids=ids, owners=[ann, "ANN ABLE"]), signs(EIGHT))
    assert _by_id(r) == {"A": "compliant", "A2": "compliant"}


@pytest.mark.parametrize("first", ["A", "O"])
def test_a_lot_is_never_compliant_by_signs_that_may_be_an_overlapping_lot_s(first):
    """A 1,000 ft lot A posted all round, 3 ft inside (a sign every 248.5 ft: 994 / 4), and a
    600 ft lot O lying over its south-west corner. Five of A's signs, (3, 3), (251.5, 3),
    (500, 3), (3, 251.5), (3, 500), stand inside O too, 3 ft from its line. A was compliant
    when listed first, noncompliant after O (which then took the five). Without the five, A's
    south-west corner has no sign and the gap round it is 748.5 + 748.5 = 1,497 ft: A is not
    compliant whichever it posts, only uncertain. O fails either way (its corners (600, 0),
    (600, 600) and (0, 600) have no sign within 30 ft: the nearest, (500, 3), is 100 ft away)."""
    a, o = square(1000), square(600)
    xy = own_side(a)
    lots = (
        parcels(a, o, ids=["A", "O"], owners=["Ann", "Oz"])
        if first == "A"
        else parcels(o, a, ids=["O", "A"], owners=["Oz", "Ann"])
    )
    r = check(lots, signs(xy))
    status = _by_id(r)
    assert status["A"] == "uncertain" and status["O"] in ("noncompliant", "unposted")
    [f] = [u for p in r.to_dict()["parcels"] if p["id"] == "A" for u in p["uncertain"]]
    assert f["count"] == 5
    assert "5 markers stand inside both this parcel and parcel 'O' (they overlap)" in f["message"]
    assert "noncompliant if they post the other parcel, compliant if this parcel" in f["message"]
    assert r.markers["doubtful"].sum() == 5


def test_a_lot_with_four_neighbours_names_them_all_or_counts_the_rest():
    """A 1,000 ft square M between four others (W, E, N, S), posted on its own side 3 ft inside
    at a phone's accuracy: its signs by each side could post that side's neighbour. The finding
    named three of the four as "the line shared with parcel 'W', 'E', 'N'", S left out."""
    m = square(1000, x0=1000, y0=1000)
    around = [square(1000, y0=1000), square(1000, x0=2000, y0=1000)]
    around += [square(1000, x0=1000, y0=2000), square(1000, x0=1000)]
    lots = parcels(m, *around, ids=["M", "W", "E", "N", "S"], owners=list("mwens"))
    r = check(lots, signs(own_side(m)), settings=PHONE).to_dict()
    [f] = [u for u in r["parcels"][0]["uncertain"] if u["rule"] == "shared_line"]
    # every one of M's 16 signs (4 corners, 3 between on each side) is within 16 ft of a side
    assert f["count"] == 16
    assert "of the lines shared with parcels 'W', 'E', 'N' and 1 more (" in f["message"]
    # one neighbour keeps the singular: test_signs_drawn_onto_the_shared_line_are_in_doubt...
