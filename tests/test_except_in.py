"""Except in: places where a way of posting does not apply."""

from __future__ import annotations

import numpy as np
import shapely
from helpers import LOCAL_FT, markers, parcels, profile_file, square

from posting import check
from posting.io import FeatureLayer
from posting.measure import Context

RULE = """
[spacing]
max_ft = 100
metric = "either"
kinds = ["paint"]
clause = "P 1"

[except_in]
places = ["Chicago"]
clause = "P 1(b-15)"
text = "does not apply to real property located in a municipality of over 2,000,000 inhabitants"
"""


def along(poly, step):
    ring = shapely.get_exterior_ring(shapely.orient_polygons(poly))
    s = np.arange(0, ring.length - 1e-9, step)
    return shapely.get_coordinates(shapely.line_interpolate_point(ring, s))


def test_not_in_the_named_city_by_layer_and_by_attribute(tmp_path):
    import pandas as pd

    lots = [square(500), square(500, x0=2000)]
    pts = np.vstack([along(lots[0], 95), along(lots[1], 95)])
    att = pd.DataFrame({"kind": ["paint"] * len(pts)})
    rules = profile_file(tmp_path, RULE, kinds=("paint",))
    # the city covers the first lot and 40 % of the second (less than half: not in it)
    city = FeatureLayer(
        "<memory>",
        np.array([shapely.box(-100, -100, 2200, 600)], dtype=object),
        LOCAL_FT,
        np.array(["Chicago city"], dtype=object),
    )
    r = check(parcels(*lots), markers(pts, attributes=att), rules, context=Context(places=city))
    assert r.parcels["status"].tolist() == ["noncompliant", "compliant"]
    [v] = r.to_dict()["parcels"][0]["violations"]
    assert v["rule"] == "except_in" and v["message"].endswith("the land lies in Chicago City")
    by_attr = Context(parcel_place=np.array(["chicago", None], dtype=object))
    r = check(parcels(*lots), markers(pts, attributes=att), rules, context=by_attr)
    assert r.parcels["status"].tolist() == ["noncompliant", "compliant"]
    r = check(parcels(*lots), markers(pts, attributes=att), rules)
    assert r.parcels["status"].tolist() == ["compliant", "compliant"]
    assert any(x["rule"] == "except_in" and "places" in x["reason"] for x in r.not_checked)


def test_a_property_whose_lots_name_different_places_is_uncertain(tmp_path):
    """Merged by owner, a property's lots may name different places. Where every lot names
    the excluded place (``chicago``, ``chicago city``) it lies there; where none does
    (``evanston`` and a blank) it does not; where some do (``chicago`` and ``evanston``) it
    may lie partly there: uncertain, not the pass that a lot's place read as no place gave."""
    import pandas as pd

    from posting.prepare import prepare_parcels

    lots = [square(500, x0=x) for x in (0, 500, 2000, 2500, 4000, 4500)]
    owners = np.array(["doe", "doe", "roe", "roe", "poe", "poe"], dtype=object)
    prep = prepare_parcels(parcels(*lots), merge_key=owners)
    assert prep.source_rows == [[0, 1], [2, 3], [4, 5]]
    whole = [shapely.box(x, 0, x + 1000, 500) for x in (0, 2000, 4000)]
    pts = np.vstack([along(p, 95) for p in whole])
    att = pd.DataFrame({"kind": ["paint"] * len(pts)})
    rules = profile_file(tmp_path, RULE, kinds=("paint",))
    place = ["chicago", "evanston", "chicago", "chicago city", "evanston", None]
    ctx = Context(parcel_place=np.array(place, dtype=object))
    r = check(prep, markers(pts, attributes=att), rules, context=ctx)
    assert r.parcels["status"].tolist() == ["uncertain", "noncompliant", "compliant"]
    d = r.to_dict()["parcels"]
    [u] = d[0]["uncertain"]
    assert u["rule"] == "except_in"
    assert "partly in Chicago" in u["message"] and "Chicago and Evanston" in u["message"]
    [v] = d[1]["violations"]
    assert v["message"].endswith("the land lies in Chicago")


def test_half_the_area_counts_the_excluded_place_s_rows_together(tmp_path):
    """A layer may draw a city in several rows (a municipal layer split in pieces) or as a
    collection of parts. A 500 ft square lot, 150 ft of its width in one row of Chicago and
    150 ft in another: 2 * 150 * 500 / (500 * 500) = 60 % of it in Chicago, so it lies there
    (each row alone holds 30 %, which passed it). 40 % of it (200 ft of 500) is not half."""
    import pandas as pd

    lot = square(500)
    pts = along(lot, 95)
    att = pd.DataFrame({"kind": ["paint"] * len(pts)})
    rules = profile_file(tmp_path, RULE, kinds=("paint",))
    west, middle = shapely.box(-100, -100, 150, 600), shapely.box(150, -100, 300, 600)

    def status(geoms, names):
        city = FeatureLayer(
            "<memory>",
            np.array(geoms, dtype=object),
            LOCAL_FT,
            np.array(names, dtype=object),
        )
        r = check(parcels(lot), markers(pts, attributes=att), rules, context=Context(places=city))
        return r.to_dict()["parcels"][0]

    for geoms, names in [
        ([west, middle], ["Chicago city", "Chicago"]),
        ([shapely.GeometryCollection([west, middle])], ["Chicago"]),
        ([west, middle, shapely.box(300, -100, 600, 600)], ["Chicago", "Chicago", "Evanston"]),
    ]:
        p = status(geoms, names)
        assert p["status"] == "noncompliant"
        [v] = p["violations"]
        assert v["rule"] == "except_in" and "the land lies in Chicago" in v["message"]
    # 200 ft of 500 in Chicago (two rows of 100 ft): 40 %, not half
    p = status(
        [shapely.box(-100, -100, 100, 600), shapely.box(100, -100, 200, 600)], ["Chicago"] * 2
    )
    assert p["status"] == "compliant"
