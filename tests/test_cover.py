"""A land-cover map's own class names: said which are forest (cultivated) land, or refused."""

from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import pytest
import shapely
from click.testing import CliRunner
from helpers import one_line_error
from pyproj import CRS, Transformer

from posting.cli import main
from posting.cover import CoverValues, classified, refuse_unread
from posting.errors import InputError

# A transverse Mercator in international feet with scale 1 at its origin, in central Texas:
# coordinates are feet on the ground.
TEXAS_FT = CRS.from_proj4(
    "+proj=tmerc +lat_0=31 +lon_0=-98 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
)
NLCD_FOREST = "NLCD_Land=Deciduous Forest,Evergreen Forest,Mixed Forest"


def _lot_and_marks(tmp_path, **columns):
    """A 1,980 ft square lot (perimeter 7,920 ft) with purple paint marks at its corners and
    side midpoints: 8 gaps of 990 ft, within Texas's 1,000 ft on other land and nearly ten
    times its 100 ft on forest land."""
    lot = shapely.box(0, 0, 1980, 1980)
    gpd.GeoDataFrame({"pid": ["L1"], **columns}, geometry=[lot], crs=TEXAS_FT).to_file(
        tmp_path / "lot.gpkg"
    )
    xy = [(0, 0), (990, 0), (1980, 0), (1980, 990), (1980, 1980), (990, 1980), (0, 1980), (0, 990)]
    lon, lat = Transformer.from_crs(TEXAS_FT, 4326, always_xy=True).transform(*np.array(xy).T)
    rows = "".join(f"{x:.9f},{y:.9f},paint\n" for x, y in zip(lon, lat, strict=True))
    (tmp_path / "marks.csv").write_text("lon,lat,kind\n" + rows)
    return [
        "check",
        str(tmp_path / "lot.gpkg"),
        "--signs",
        str(tmp_path / "marks.csv"),
        "--id-field",
        "pid",
        "--rules",
        "texas",
        "-q",
    ]


def _cover(tmp_path, column, value, name="lc.gpkg"):
    """A land-cover layer of one polygon over the whole lot (and 100 ft beyond)."""
    path = tmp_path / name
    gpd.GeoDataFrame(
        {column: [value]}, geometry=[shapely.box(-100, -100, 2080, 2080)], crs=TEXAS_FT
    ).to_file(path)
    return str(path)


def _report(res):
    assert res.exit_code in (0, 1), res.stderr
    return json.loads(res.stdout)["parcels"][0]


# -- the tally and the message ----------------------------------------------------------------
def test_the_tally_of_nlcd_names_and_codes():
    t = CoverValues.of(["Deciduous Forest", "Pasture/Hay", None, " ", "MIXED FOREST", "Woods"])
    assert not t.forest and not t.numbers
    # by case-folded text: 'deciduous forest' < 'mixed forest' < 'woods'
    assert [v for _, v in t.forest_like] == ["Deciduous Forest", "MIXED FOREST", "Woods"]
    t = CoverValues.of([41.0, 82, "43", None])  # a column of numbers, however typed
    assert t.numbers and t.codes == (41, 43, 82)
    assert CoverValues.of([41, "Open Water"]).numbers is False
    assert CoverValues.of(["Non-forest", "Cropland"]).forest_like == ()  # no forest named
    assert CoverValues.of(["Forest", "Woods"]).forest  # 'forest' there: read as before


def test_pieces_tally_as_the_whole_column():
    # 8 forest-like values, split over three pieces: the first 6 (by case-folded text) kept
    values = [f"Forest stand {c}" for c in "hgfedcba"] + [42, "forest", "Cultivated Crops"]
    whole = CoverValues.of(values)
    assert [v for _, v in whole.forest_like][-1] == "Forest stand f" and whole.more_forest
    parts = [
        CoverValues.of(values[:3]),
        None,
        CoverValues.of(values[3:7]),
        CoverValues.of(values[7:]),
    ]
    assert CoverValues.merged(parts) == whole


def test_the_message_names_the_file_the_column_values_and_the_fix():
    with pytest.raises(InputError) as e:
        refuse_unread(
            CoverValues.of(["Deciduous Forest", "Evergreen Forest", "Open Water", "Mixed Forest"]),
            "nlcd.gpkg",
            "NLCD_Land",
        )
    assert e.value.worded(lambda n: "--" + n.replace("_", "-")) == (
        "nlcd.gpkg: the land cover's column 'NLCD_Land' (--landcover-field) has no value "
        "'forest', the one that marks forest land, but has values that name forest or woods "
        "('Deciduous Forest', 'Evergreen Forest', 'Mixed Forest'), which would be read as land "
        "other than forest land; say which values are forest land: "
        f'--forest-where "{NLCD_FOREST}"'
    )
    with pytest.raises(InputError) as e:
        refuse_unread(CoverValues.of([41, 82, 11]), "nlcd.gpkg", "CLASS", cultivated=True)
    assert str(e.value) == (
        "nlcd.gpkg: the land cover's column 'CLASS' (landcover_field=) has no value 'forest', "
        "the one that marks forest land, but has the National Land Cover Database's forest or "
        "woods classes (41), which would be read as land other than forest land; and no value "
        "'cultivated', the one that marks cultivated land, but has the National Land Cover "
        "Database's cultivated land or crops classes (82), which would be read as land not "
        'cultivated; say which values are forest land: forest_where= "CLASS=41"; and say which '
        'values are cultivated land: cultivated_where= "CLASS=82"'
    )
    # 'forest' among the values: they are read as before (the others are other land)
    refuse_unread(CoverValues.of(["forest", "Deciduous Forest"]), "a.gpkg", "c", cultivated=True)


def test_classes_by_the_values_the_user_names():
    raw = [41.0, 42.0, 82.0, 11.0, None]  # a column of decimals: matched as the numbers
    text = np.array(["41.0", "42.0", "82.0", "11.0", None], dtype=object)
    got = classified(
        raw,
        text,
        [("forest", {"41", "42"}, "forest_where"), ("cultivated", {"82"}, "cultivated_where")],
        "a.gpkg",
        "CLASS",
    )
    assert got.tolist() == ["forest", "forest", "cultivated", "11.0", None]
    with pytest.raises(InputError, match="'Mixed' of the land cover's column 'c' is chosen by"):
        classified(
            ["Mixed"],
            np.array(["mixed"], dtype=object),
            [("forest", {"mixed"}, "forest_where"), ("cultivated", {"m*"}, "cultivated_where")],
            "a.gpkg",
            "c",
        )


# -- the command ------------------------------------------------------------------------------
@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_a_texas_lot_in_nlcd_deciduous_forest(runner, tmp_path):
    """Tex. Penal Code 30.05(b)(2)(D): marks "no more than 100 feet apart on forest land".
    Every 990 ft gap lies in "Deciduous Forest": with --forest-where each is held to 100 ft
    and over it (noncompliant); read as the value 'forest' alone, each was held to 1,000 ft
    and the lot passed. Without --forest-where the column is refused, before any output."""
    base = _lot_and_marks(tmp_path)
    lc = _cover(tmp_path, "NLCD_Land", "Deciduous Forest")
    res = runner.invoke(
        main, [*base, "--landcover", lc, "--forest-where", NLCD_FOREST, "--json", "-"]
    )
    p = _report(res)
    assert p["status"] == "noncompliant"
    assert [g["limit_ft"] for g in p["gaps"]] == [100.0] * 8
    assert [round(g["length_ft"], 1) for g in p["gaps"]] == [990.0] * 8
    out = tmp_path / "out.json"
    res = runner.invoke(
        main, [*base, "--landcover", lc, "--landcover-field", "NLCD_Land", "--json", str(out)]
    )
    one_line_error(
        res,
        f"{lc}: the land cover's column 'NLCD_Land' (--landcover-field) has no value 'forest'",
        "('Deciduous Forest')",
        '--forest-where "NLCD_Land=Deciduous Forest"',
    )
    assert not out.exists()
    # the same column, forest land by pattern; and --landcover-field naming it too
    res = runner.invoke(
        main,
        [
            *base,
            "--landcover",
            lc,
            "--landcover-field",
            "nlcd_land",
            "--forest-where",
            "NLCD_Land=*forest",
            "--json",
            "-",
        ],
    )
    assert _report(res)["status"] == "noncompliant"
    res = runner.invoke(
        main,
        [*base, "--landcover", lc, "--landcover-field", "other", "--forest-where", NLCD_FOREST],
    )
    one_line_error(
        res, "--forest-where reads the column 'NLCD_Land', and --landcover-field names 'other'"
    )


def test_land_the_option_leaves_out_is_other_land(runner, tmp_path):
    # "Pasture/Hay" is not among the forest values: other land, 1,000 ft, and 990 ft is within
    base = _lot_and_marks(tmp_path)
    lc = _cover(tmp_path, "NLCD_Land", "Pasture/Hay")
    p = _report(
        runner.invoke(
            main, [*base, "--landcover", lc, "--forest-where", NLCD_FOREST, "--json", "-"]
        )
    )
    assert p["status"] == "compliant"  # (990 ft against 100 ft would fail)
    # a value 'forest' the option leaves out is other land too: the option says which are
    lc = _cover(tmp_path, "NLCD_Land", "forest", "forest.gpkg")
    p = _report(
        runner.invoke(
            main, [*base, "--landcover", lc, "--forest-where", NLCD_FOREST, "--json", "-"]
        )
    )
    assert p["status"] == "compliant"


def test_nlcd_codes_in_a_column_of_numbers(runner, tmp_path):
    base = _lot_and_marks(tmp_path)
    lc = _cover(tmp_path, "CLASS", 41)  # Deciduous Forest, as a code
    p = _report(
        runner.invoke(main, [*base, "--landcover", lc, "--forest-where", "CLASS=4*", "--json", "-"])
    )
    assert p["status"] == "noncompliant" and {g["limit_ft"] for g in p["gaps"]} == {100.0}
    res = runner.invoke(main, [*base, "--landcover", lc, "--landcover-field", "CLASS"])
    one_line_error(res, "forest or woods classes (41)", '--forest-where "CLASS=41"')


def test_the_parcels_column(runner, tmp_path):
    """The land cover as a parcel column: a county's "Woods" refused, then said forest land."""
    base = _lot_and_marks(tmp_path, cover=["Woods"])
    res = runner.invoke(main, [*base, "--landcover-field", "cover"])
    one_line_error(
        res,
        f"{tmp_path / 'lot.gpkg'}: the land cover's column 'cover' (--landcover-field)",
        "values that name forest or woods ('Woods')",
        '--forest-where "cover=Woods"',
    )
    p = _report(runner.invoke(main, [*base, "--forest-where", "cover=Woods", "--json", "-"]))
    assert p["status"] == "noncompliant" and {g["limit_ft"] for g in p["gaps"]} == {100.0}
    p = _report(runner.invoke(main, [*base, "--forest-where", "cover=Timber", "--json", "-"]))
    assert p["status"] == "compliant"  # the option's values alone: Woods is other land here


def test_cultivated_crops_said_or_refused(runner, tmp_path):
    """Texas: crops count as posted (Tex. Penal Code 30.05(b)(2)(C)). A layer of NLCD's
    "Cultivated Crops" is refused without a setting saying it is cultivated land; with
    ``--cultivated-where`` on the land cover's column the lot is posted by cultivation."""
    base = _lot_and_marks(tmp_path)
    lc = _cover(tmp_path, "NLCD_Land", "Cultivated Crops")
    res = runner.invoke(main, [*base, "--landcover", lc, "--forest-where", NLCD_FOREST])
    one_line_error(
        res,
        "no value 'cultivated', the one that marks cultivated land, but has values that name "
        "cultivated land or crops ('Cultivated Crops')",
        '--cultivated-where "NLCD_Land=Cultivated Crops"',
    )
    args = [*base, "--landcover", lc, "--forest-where", NLCD_FOREST]
    args += ["--cultivated-where", "NLCD_Land=Cultivated Crops", "--json", "-"]
    p = _report(runner.invoke(main, args))
    assert p["status"] == "compliant" and p["posted_by"] == "cultivation"
