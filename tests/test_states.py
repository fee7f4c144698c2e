"""Which state a place lies in (posting.states): known places, hand-measured distances to a
state line, tiny parcels built in code at known places, a second opinion from the Census
Bureau's full-resolution file, and the three real layers.

The second opinion is the file the shipped boundaries were made from (TIGER/Line 2024,
``tl_2024_us_state``, as the ``these-united-states`` package ships it), read here with pyogrio
and asked with plain shapely, one state at a time; distances to it are measured on the UTM zone
of each point (EPSG:326xx, pyproj), a projection the module does not use.
"""

from __future__ import annotations

from importlib.resources import files

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import pytest
import shapely
from helpers import SHARED_DATA, require_real_data
from pyproj import Geod, Transformer

from posting.errors import CRSError, InputError
from posting.states import (
    DATA_FILE,
    DEFAULT_MARGIN_FT,
    boundaries,
    parcel_states,
    state_of,
    states_table,
)

FT_M = 0.3048
GEOD = Geod(ellps="WGS84")
SIMPLIFY_FT = 5.25 / FT_M  # the build script's limit on the departure (5 m + 5 %)


@pytest.fixture(scope="module")
def raw() -> gpd.GeoDataFrame:
    """The Census Bureau's full-resolution file, sorted by FIPS code as the shipped one is."""
    zipped = files("united_states") / "shapes.zip"
    df = pyogrio.read_dataframe(f"/vsizip/{zipped}/tl_2024_us_state.shp")
    return df.sort_values("STATEFP").reset_index(drop=True)


def raw_line_lat(raw, usps: str, lon: float, lat0: float, lat1: float) -> float:
    """Latitude where a state's full-resolution boundary crosses meridian ``lon``."""
    geom = raw.loc[raw.STUSPS == usps].geometry.item()
    hit = shapely.intersection(
        shapely.boundary(geom), shapely.LineString([(lon, lat0), (lon, lat1)])
    )
    assert hit.geom_type == "Point", hit
    return hit.y


def north(lon: float, lat: float, feet: float) -> tuple[float, float]:
    """The point ``feet`` due north (negative: south) of ``lon, lat`` on the ellipsoid."""
    az = 0.0 if feet >= 0 else 180.0
    x, y, _ = GEOD.fwd(lon, lat, az, abs(feet) * FT_M)
    return float(x), float(y)


def square_ft(lon: float, lat: float, side_ft: float) -> shapely.Polygon:
    """A square of ``side_ft`` feet with its south-west corner at ``lon, lat``."""
    _, y1 = north(lon, lat, side_ft)
    x1, _, _ = GEOD.fwd(lon, lat, 90.0, side_ft * FT_M)
    return shapely.box(lon, lat, float(x1), y1)


# --- the shipped file -------------------------------------------------------------------------


def test_the_file_ships_inside_the_package_small_and_described():
    data = files("posting") / "data" / DATA_FILE
    assert data.is_file() and len(data.read_bytes()) < 1_200_000
    assert (files("posting") / "data" / "SOURCES.md").is_file()
    meta = boundaries().meta
    assert "tl_2024_us_state" in meta["source"]
    assert meta["max_departure_m"] <= 5.25
    assert meta["vertices"] < meta["source_vertices"] / 2


def test_every_state_dc_and_the_territories_once():
    t = states_table()
    assert len(t) == 56 and t["fips"].is_unique and t["slug"].is_unique
    states = t[t["fips"] < "60"]
    assert len(states) == 51  # 50 states and DC
    assert set(t["usps"]) >= {"DC", "PR", "GU", "VI", "AS", "MP"}
    slugs = dict(zip(t["usps"], t["slug"], strict=True))
    assert slugs["SC"] == "south-carolina" and slugs["DC"] == "district-of-columbia"
    assert slugs["FL"] == "florida" and slugs["NC"] == "north-carolina"


def test_the_shipped_states_are_a_seamless_coverage_like_the_source(raw):
    b = boundaries()
    assert shapely.coverage_is_valid(b.geoms)
    assert b.table["usps"].tolist() == raw["STUSPS"].tolist()
    for ours, theirs in zip(b.geoms, raw.geometry.to_numpy(), strict=True):
        assert shapely.get_num_geometries(ours) == shapely.get_num_geometries(theirs)
        # the area moved by simplification is a thin band along the lines
        assert abs(shapely.area(ours) - shapely.area(theirs)) < 2e-4 * shapely.area(theirs) + 1e-6


def test_state_lines_are_stored_once_with_both_sides():
    b = boundaries()
    usps = b.table["usps"].to_numpy()
    pairs = {
        tuple(sorted((usps[s], usps[a])))
        for s, a in zip(b.piece_state, b.piece_across, strict=True)
        if a >= 0
    }
    assert {("NC", "VA"), ("FL", "GA"), ("OR", "WA"), ("DC", "MD"), ("DC", "VA")} <= pairs
    assert ("FL", "VA") not in pairs and not any("HI" in p or "AK" in p for p in pairs)


# --- points at known places -------------------------------------------------------------------

PLACES = {
    # name: (lon, lat, slug)
    "Florida Capitol, Tallahassee": (-84.2812, 30.4381, "florida"),
    "Wren Building, Williamsburg VA": (-76.7090, 37.2710, "virginia"),
    "South Bend, Pacific County WA": (-123.7950, 46.6630, "washington"),
    "White House, DC": (-77.0365, 38.8977, "district-of-columbia"),
    "Honolulu": (-157.8580, 21.3090, "hawaii"),
    "Adak, Alaska (west of 176°W)": (-176.6500, 51.8800, "alaska"),
    "Shemya, Alaska (east longitude)": (174.1100, 52.7200, "alaska"),
    "San Juan, Puerto Rico": (-66.1057, 18.4655, "puerto-rico"),
    "Ottawa, Canada": (-75.6972, 45.4215, None),
    "Ciudad Juárez, Mexico": (-106.4400, 31.6900, None),
    "the Atlantic": (-60.0, 35.0, None),
}


def test_points_at_known_places():
    lon, lat, want = zip(*PLACES.values(), strict=True)
    got = state_of(np.array(lon), np.array(lat))
    assert got["state"].tolist() == list(want)
    inside = got["state"].notna().to_numpy()
    assert (got["distance_ft"][inside] > 1000).all()  # none of them is near a line
    usps = got.set_index(pd.Index(list(PLACES)))["usps"]
    assert usps["Florida Capitol, Tallahassee"] == "FL" and usps["White House, DC"] == "DC"
    assert got.loc[list(PLACES).index("Ottawa, Canada"), "usps"] is None


def test_longitudes_are_wrapped_and_nan_is_no_state():
    got = state_of([-84.2812 + 360, np.nan], [30.4381, 30.0])
    assert got["state"].tolist() == ["florida", None]
    assert np.isnan(got.loc[1, "distance_ft"])


def test_distance_to_the_49th_parallel_by_hand(raw):
    # North Dakota meets Canada at 100°W where the Census line crosses that meridian; a point
    # 3,000 ft due south (measured on the ellipsoid) is 3,000 ft from it, give or take the
    # simplification and the line's tilt (the border runs east-west within a few seconds).
    line_lat = raw_line_lat(raw, "ND", -100.0, 48.9, 49.1)
    lon, lat = north(-100.0, line_lat, -3000.0)
    got = state_of([lon], [lat]).loc[0]
    assert got["state"] == "north-dakota" and got["across"] == ""  # Canada is outside
    assert got["distance_ft"] == pytest.approx(3000.0, abs=SIMPLIFY_FT + 1.0)


def test_distance_to_the_virginia_north_carolina_line_by_hand(raw):
    line_lat = raw_line_lat(raw, "VA", -79.5, 36.4, 36.7)
    lon, lat = north(-79.5, line_lat, 1200.0)  # in Virginia
    got = state_of([lon], [lat]).loc[0]
    assert (got["state"], got["across"]) == ("virginia", "north-carolina")
    # the line is not exactly east-west: the nearest point is at most 1,200 ft away
    assert 1100.0 < got["distance_ft"] <= 1200.0 + SIMPLIFY_FT


def test_a_point_at_sea_is_measured_to_the_nearest_state():
    got = state_of([-157.8580], [19.0]).loc[0]  # south of Oahu, west of the Big Island
    assert got["state"] is None and got["across"] == "hawaii"
    assert 10_000 < got["distance_ft"] < 700_000


# --- the second opinion: the full-resolution Census file --------------------------------------


def raw_state(raw, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """The state of each point by plain point-in-polygon on the full-resolution file."""
    out = np.full(len(lon), None, dtype=object)
    for geom, usps in zip(raw.geometry.to_numpy(), raw["STUSPS"], strict=True):
        out[shapely.contains_xy(geom, lon, lat)] = usps
    return out


def raw_distance_ft(raw, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """Distance from each point to its nearest state line, on its UTM zone (metres, in feet)."""
    geoms = raw.geometry.to_numpy()
    window = shapely.box(lon.min() - 0.1, lat.min() - 0.1, lon.max() + 0.1, lat.max() + 0.1)
    lines = shapely.boundary(geoms[shapely.intersects(geoms, window)])
    out = np.empty(len(lon))
    zones = (np.floor((lon + 180) / 6) % 60 + 1).astype(int)
    for zone in np.unique(zones):
        sel = zones == zone
        t = Transformer.from_crs(4269, 32600 + zone, always_xy=True)
        x, y = t.transform(lon[sel], lat[sel])
        projected = shapely.transform(
            lines, lambda xy, t=t: np.column_stack(t.transform(xy[:, 0], xy[:, 1]))
        )
        d = np.full(sel.sum(), np.inf)
        for line in projected:
            d = np.minimum(d, shapely.distance(line, shapely.points(x, y)))
        out[sel] = d / FT_M
    return out


def test_random_points_agree_with_the_full_resolution_file(raw):
    rng = np.random.default_rng(16)
    # the lower 48 and their neighbours, Alaska, Hawaii, Puerto Rico
    boxes = [(-125, 24, -66, 50, 4000), (-170, 52, -130, 71, 400), (-161, 18.8, -154.7, 22.3, 300)]
    boxes.append((-67.4, 17.8, -65.2, 18.6, 300))
    lon = np.concatenate([rng.uniform(a, c, n) for a, _, c, _, n in boxes])
    lat = np.concatenate([rng.uniform(b, d, n) for _, b, _, d, n in boxes])
    ours = state_of(lon, lat)
    theirs = raw_state(raw, lon, lat)
    clear = ours["distance_ft"].to_numpy() > SIMPLIFY_FT
    assert clear.mean() > 0.99
    got = ours["usps"].to_numpy()[clear]
    assert (got == theirs[clear]).all(), list(
        zip(lon[clear][got != theirs[clear]], lat[clear][got != theirs[clear]], strict=True)
    )
    assert {"FL", "VA", "WA", "AK", "HI", "PR", None} <= set(got)


def test_points_near_the_lines_agree_with_the_full_resolution_file(raw):
    # points scattered within 2,000 ft of the lines of the east: the hard cases
    rng = np.random.default_rng(4)
    east = raw[raw.STUSPS.isin(["VA", "NC", "MD", "DC", "WV", "KY", "TN", "FL", "GA", "AL"])]
    lines = shapely.boundary(east.geometry.to_numpy())
    at = shapely.line_interpolate_point(
        np.repeat(lines, 60), rng.uniform(0, 1, 60 * len(lines)), normalized=True
    )
    spread_deg = 2000 * FT_M / 111_000
    lon = shapely.get_x(at) + rng.uniform(-spread_deg, spread_deg, len(at))
    lat = shapely.get_y(at) + rng.uniform(-spread_deg, spread_deg, len(at))
    ours = state_of(lon, lat)
    theirs = raw_state(raw, lon, lat)
    d_ours = ours["distance_ft"].to_numpy()
    clear = d_ours > SIMPLIFY_FT
    assert (ours["usps"].to_numpy()[clear] == theirs[clear]).all()
    # the distances, measured again on each point's UTM zone against the full-resolution lines
    d_theirs = raw_distance_ft(raw, lon, lat)
    assert np.abs(d_ours - d_theirs).max() <= SIMPLIFY_FT + 0.001 * d_theirs.max()


# --- parcels ----------------------------------------------------------------------------------


def test_a_tiny_parcel_in_tallahassee_is_florida():
    got = parcel_states([square_ft(-84.2812, 30.4381, 100.0)]).loc[0]
    assert (got["status"], got["state"], got["usps"], got["states"]) == (
        "ok",
        "florida",
        "FL",
        ("florida",),
    )
    assert got["reason"] == "" and np.isnan(got["distance_ft"])


def test_a_parcel_across_the_virginia_north_carolina_line_straddles(raw):
    line_lat = raw_line_lat(raw, "VA", -79.5, 36.4, 36.7)
    lon, lat = north(-79.5, line_lat, -200.0)
    got = parcel_states([square_ft(lon, lat, 400.0)]).loc[0]
    assert got["status"] == "straddles" and got["state"] is None
    assert got["states"] == ("north-carolina", "virginia")
    assert got["distance_ft"] == 0
    assert got["reason"] == "straddles the North Carolina/Virginia line"


def test_margin_near_the_virginia_north_carolina_line(raw):
    # a 100 ft square whose south side is 300 ft north of the Census line, in Virginia
    line_lat = raw_line_lat(raw, "VA", -79.5, 36.4, 36.7)
    parcel = square_ft(*north(-79.5, line_lat, 300.0), 100.0)
    got = parcel_states([parcel]).loc[0]  # default margin: 500 ft
    assert got["status"] == "near" and got["state"] is None and got["states"] == ("virginia",)
    assert 250.0 < got["distance_ft"] <= 300.0 + SIMPLIFY_FT
    assert got["line"] == "the Virginia/North Carolina line"
    assert (
        got["reason"].startswith("within ")
        and "of the Virginia/North Carolina line" in (got["reason"])
    )
    assert parcel_states([parcel], margin_ft=200.0).loc[0, "state"] == "virginia"
    assert parcel_states([parcel], margin_ft=0).loc[0, "state"] == "virginia"


def test_a_parcel_s_distance_to_a_line_does_not_depend_on_the_others_looked_up(raw):
    # 300 ft north of Virginia's southern line at 79.5° W (North Carolina's) and at 82° W
    # (Tennessee's), both in UTM zone 17: each measured alone as beside the other, to the bit
    # (a partition of a state looks its parcels up without the rest)
    a = square_ft(*north(-79.5, raw_line_lat(raw, "VA", -79.5, 36.4, 36.7), 300.0), 100.0)
    b = square_ft(*north(-82.0, raw_line_lat(raw, "VA", -82.0, 36.4, 36.7), 300.0), 100.0)
    both = parcel_states([a, b])
    assert both["status"].tolist() == ["near", "near"]
    for i, g in enumerate([a, b]):
        alone = parcel_states([g]).loc[0]
        assert alone["distance_ft"] == both.loc[i, "distance_ft"]
        assert 250.0 < alone["distance_ft"] <= 300.0 + SIMPLIFY_FT
        assert alone["reason"] == both.loc[i, "reason"]


def test_margin_at_the_canadian_border_by_hand(raw):
    # 1,000 ft south of the Census line, a 200 ft square: its north side is 1,000 ft from it
    line_lat = raw_line_lat(raw, "ND", -100.0, 48.9, 49.1)
    parcel = square_ft(*north(-100.0, line_lat, -1200.0), 200.0)
    assert parcel_states([parcel], margin_ft=900.0).loc[0, "state"] == "north-dakota"
    near = parcel_states([parcel], margin_ft=1100.0).loc[0]
    assert near["status"] == "near"
    assert near["distance_ft"] == pytest.approx(1000.0, abs=SIMPLIFY_FT + 1.0)
    assert near["line"].startswith("the outer limit of North Dakota")


def test_a_parcel_across_the_canadian_border_straddles_the_outer_limit(raw):
    line_lat = raw_line_lat(raw, "ND", -100.0, 48.9, 49.1)
    got = parcel_states([square_ft(*north(-100.0, line_lat, -100.0), 300.0)]).loc[0]
    assert got["status"] == "straddles" and got["states"] == ("north-dakota",)
    assert got["reason"].startswith("straddles the outer limit of North Dakota")


def test_parcels_offshore_in_canada_and_in_mexico_are_outside():
    got = parcel_states(
        [
            square_ft(-79.0, 27.0, 300.0),  # the Atlantic, 60 miles off Palm Beach
            square_ft(-75.6972, 45.4215, 300.0),  # Ottawa
            square_ft(-106.4400, 31.6900, 300.0),  # Ciudad Juárez
        ]
    )
    assert got["status"].tolist() == ["outside"] * 3
    assert got["state"].isna().all() and (got["states"] == ()).all()
    assert got["reason"].tolist() == ["outside every state (abroad or at sea)"] * 3


def test_a_parcel_outside_but_within_the_margin_names_the_state(raw):
    line_lat = raw_line_lat(raw, "ND", -100.0, 48.9, 49.1)
    got = parcel_states([square_ft(*north(-100.0, line_lat, 200.0), 100.0)]).loc[0]  # Canada
    assert got["status"] == "outside"
    assert got["distance_ft"] == pytest.approx(200.0, abs=SIMPLIFY_FT + 1.0)
    assert "ft from the outer limit of North Dakota" in got["reason"]


def test_alaska_on_both_sides_of_the_antimeridian_and_a_parcel_drawn_across_it():
    shemya = square_ft(174.11, 52.72, 300.0)
    adak = square_ft(-176.65, 51.88, 300.0)
    # open sea at 51.8°N, drawn from 179.99°E to 179.99°W: 0.02° wide, not 359.98°. Read as
    # written, it would span the globe and cross the Aleutians.
    across = shapely.Polygon([(179.99, 51.8), (-179.99, 51.8), (-179.99, 51.81), (179.99, 51.81)])
    assert shapely.intersects(across, boundaries().geoms[boundaries().table["usps"] == "AK"][0])
    beyond = shapely.box(179.99, 51.8, 180.01, 51.81)  # the same, in longitudes beyond 180
    got = parcel_states([shemya, adak, across, beyond])
    assert got["state"].tolist() == ["alaska", "alaska", None, None]
    assert got["status"].tolist() == ["ok", "ok", "outside", "outside"]


def test_hawaii_and_dc_parcels():
    got = parcel_states(
        [square_ft(-157.8580, 21.3090, 200.0), square_ft(-77.0353, 38.8895, 200.0)]  # the Mall
    )
    assert got["state"].tolist() == ["hawaii", "district-of-columbia"]
    assert got["usps"].tolist() == ["HI", "DC"]


def test_parcels_keep_their_index_and_empty_ones_say_so():
    s = gpd.GeoSeries(
        [square_ft(-84.2812, 30.4381, 50.0), None, shapely.Polygon()], index=["a", "b", "c"]
    )
    got = parcel_states(s)
    assert got.index.tolist() == ["a", "b", "c"]
    assert got["status"].tolist() == ["ok", "empty", "empty"]
    assert got.loc["b", "reason"] == "no geometry"


def test_a_bad_margin_is_an_input_error():
    for bad in (-1, float("nan"), "wide"):
        with pytest.raises(InputError) as e:
            parcel_states([square_ft(-84.2812, 30.4381, 50.0)], margin_ft=bad)
        assert e.value.parameter == "margin_ft"
    assert DEFAULT_MARGIN_FT == 500.0


def test_projected_coordinates_are_a_crs_error():
    with pytest.raises(CRSError) as e:
        parcel_states([square_ft(-84.2812, 30.4381, 50.0), shapely.box(0, 0, 500_000, 500_000)])
    assert e.value.parameter == "crs" and e.value.row == 1
    assert "{option}" in e.value.message
    with pytest.raises(CRSError):
        state_of([2_000_000.0], [600_000.0])
    with pytest.raises(InputError):
        state_of([1.0, 2.0], [3.0])


# --- the three real layers --------------------------------------------------------------------

REAL = {
    "williamsburg-va/parcels.geojson": "virginia",
    "pacific-wa/taxlots.geojson": "washington",
    "seminole-fl/parcels.geojson": "florida",
}


def test_parcels_in_a_projected_crs_are_taken_to_longitude_latitude():
    # the Tallahassee square in Florida North (EPSG:2238, US survey feet)
    to_fl = Transformer.from_crs(4326, 2238, always_xy=True)
    ll = square_ft(-84.2812, 30.4381, 100.0)
    projected = shapely.transform(ll, lambda xy: np.column_stack(to_fl.transform(*xy.T)))
    got = parcel_states([projected], crs="EPSG:2238").loc[0]
    assert (got["status"], got["state"]) == ("ok", "florida")
    with pytest.raises(CRSError) as e:
        parcel_states([projected], crs="EPSG:999999")
    assert e.value.parameter == "crs" and "EPSG:999999" in str(e.value)


@pytest.mark.realdata
@pytest.mark.parametrize("rel", list(REAL))
def test_the_real_layers_lie_in_their_states(rel):
    layer = gpd.read_file(require_real_data(SHARED_DATA / rel)).to_crs(4326)
    got = parcel_states(layer.geometry)
    present = ~(layer.geometry.isna() | layer.geometry.is_empty)
    ok = got["status"] == "ok"
    # every parcel not near a line is in the layer's state, and every parcel is accounted for
    assert (got.loc[ok, "state"] == REAL[rel]).all()
    assert set(got.loc[~ok & present, "status"]) <= {"near", "straddles"}
    assert (got.loc[~present, "status"] == "empty").all()
    assert ok.sum() == present.sum()  # these three are all well inside their states
    # the same parcels' centroids, as points
    pts = shapely.centroid(layer.geometry[present].to_numpy())
    assert set(state_of(shapely.get_x(pts), shapely.get_y(pts))["state"]) == {REAL[rel]}


def test_line_names_match_naming_each_parcel_alone():
    """The lines' names, each distinct line named once, against naming parcel by parcel."""
    from posting.states import _line_names, boundaries

    b = boundaries()
    rng = np.random.default_rng(7)
    n = 400
    piece = rng.integers(-1, len(b.pieces), n)
    piece[::5] = -1
    # a parcel's own state: a side of its line, or another, or none
    one = np.where(rng.random(n) < 0.5, b.piece_across[piece], rng.integers(-1, len(b.table), n))
    want = []
    for k in range(n):
        if piece[k] < 0:
            want.append("")
            continue
        side, far = int(b.piece_state[piece[k]]), int(b.piece_across[piece[k]])
        if far >= 0 and far == one[k]:
            side, far = far, side
        want.append(b.line_name(side, far))
    assert _line_names(b, piece, one).tolist() == want
    assert _line_names(b, np.full(3, -1), np.zeros(3, dtype=np.int64)).tolist() == [""] * 3


def test_a_projected_vertex_is_named_with_its_parcel():
    from posting.states import parcel_states

    ok = shapely.box(-84.29, 30.43, -84.28, 30.44)
    bad = shapely.Polygon([(-84.29, 30.43), (-84.28, 30.43), (500000.0, 30.44)])
    with pytest.raises(CRSError) as e:
        parcel_states([ok, None, ok, bad])
    assert e.value.row == 3 and "(500000, 30.44)" in str(e.value)


def test_unwrap_gives_the_bounds_of_what_it_returns():
    from posting.states import _unwrap

    across = shapely.Polygon([(179.99, 51.8), (-179.99, 51.8), (-179.99, 51.81), (179.99, 51.81)])
    geoms = np.array([shapely.box(-84.29, 30.43, -84.28, 30.44), across, across], dtype=object)
    for g in (geoms, geoms[:1]):
        out, bounds = _unwrap(g)
        np.testing.assert_array_equal(bounds, shapely.bounds(out))
    assert _unwrap(geoms)[1][1].tolist() == pytest.approx([179.99, 51.8, 180.01, 51.81])


def test_states_hit_match_the_row_wise_unique_of_every_part_hit():
    """Each (parcel, state) pair once, in order, against shapely asked part by part."""
    from posting.states import _states_hit, boundaries

    b = boundaries()
    rng = np.random.default_rng(3)
    x, y = rng.uniform(-125, -66, 300), rng.uniform(24, 50, 300)
    size = rng.choice([0.01, 0.5, 3.0], 300)
    geoms = shapely.box(x, y, x + size, y + size)
    gi, si = _states_hit(b, geoms)
    rows = [
        (g, int(b.part_state[p]))
        for g in range(len(geoms))
        for p in range(len(b.parts))
        if shapely.intersects(b.parts[p], geoms[g])
    ]
    want = sorted(set(rows))
    assert list(zip(gi.tolist(), si.tolist(), strict=True)) == want
    assert len(set(gi.tolist())) < len(want)  # some parcels lie across a line
    empty = _states_hit(b, geoms[:0])
    assert empty[0].tolist() == [] and empty[1].tolist() == []
