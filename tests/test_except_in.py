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
