"""Reading every supported format; CRS rules; ids kept verbatim; bad rows kept with a reason."""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import gpkg_sql
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyproj import CRS, Geod

from posting import check, read_markers, read_parcels
from posting.attributes import first_recorded, marker_kinds
from posting.errors import CRSError, InputError
from posting.io import MarkerLayer, ParcelLayer, _shown, write_text

LOTS = [
    shapely.box(-81.3000, 28.6000, -81.2990, 28.6010),
    shapely.box(-81.2990, 28.6000, -81.2980, 28.6010),
]
SIGNS = [(-81.29995, 28.60005), (-81.29905, 28.60095), (-81.2985, 28.6000), (-81.1, 28.0)]


@pytest.fixture
def lots() -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {"PID": ["007", "12"], "OWNER": ["A. Smith", None]}, geometry=LOTS, crs="EPSG:4326"
    )


@pytest.fixture
def signs() -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {"name": ["s1", "s2", "s3", "s4"]},
        geometry=[shapely.Point(p) for p in SIGNS],
        crs="EPSG:4326",
    )


@pytest.mark.parametrize(
    ("suffix", "driver"),
    [
        (".geojson", "GeoJSON"),
        (".gpkg", "GPKG"),
        (".shp", "ESRI Shapefile"),
        (".fgb", "FlatGeobuf"),
        (".kml", "KML"),
        (".parquet", None),
    ],
)
def test_parcel_formats_give_the_same_answer(tmp_path, lots, signs, suffix, driver):
    path = tmp_path / f"lots{suffix}"
    if driver is None:
        lots.to_parquet(path)
    elif driver == "FlatGeobuf":  # it sorts features by its spatial index unless told not to
        lots.to_file(path, driver=driver, engine="pyogrio", SPATIAL_INDEX="NO")
    else:
        lots.to_file(path, driver=driver, engine="pyogrio")
    id_field = "PID" if suffix != ".kml" else "Name"
    if suffix == ".kml":  # KML keeps the label in Name
        lots.rename(columns={"PID": "Name"}).to_file(path, driver="KML", engine="pyogrio")
    layer = read_parcels(path, id_field=id_field)
    assert layer.ids.tolist() == ["007", "12"]
    report = check(layer, read_markers([_write_csv(tmp_path, SIGNS)]))
    p = report.to_dict()["parcels"]
    assert [x["signs"] for x in p] == [2, 1]
    assert p[0]["perimeter_ft"] == pytest.approx(
        Geod(ellps="WGS84").geometry_length(LOTS[0]) / 0.3048, rel=1e-5
    )
    assert report.to_dict()["summary"]["markers_unassigned"] == 1


def _write_csv(tmp_path, pts, header=("lon", "lat")):
    path = tmp_path / "signs.csv"
    rows = [",".join(header)] + [f"{x},{y}" for x, y in pts]
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize(
    ("suffix", "driver"),
    [
        (".geojson", "GeoJSON"),
        (".gpkg", "GPKG"),
        (".shp", "ESRI Shapefile"),
        (".fgb", "FlatGeobuf"),
        (".kml", "KML"),
        (".gpx", "GPX"),
        (".parquet", None),
    ],
)
def test_marker_formats(tmp_path, signs, suffix, driver):
    path = tmp_path / f"signs{suffix}"
    if driver is None:
        signs.to_parquet(path)
    elif driver == "FlatGeobuf":  # it sorts features by its spatial index unless told not to
        signs.to_file(path, driver=driver, engine="pyogrio", SPATIAL_INDEX="NO")
    else:
        signs.to_file(path, driver=driver, engine="pyogrio")
    m = read_markers([path])
    assert len(m) == 4
    assert m.row.tolist() == [0, 1, 2, 3]
    assert np.column_stack([m.lon, m.lat]) == pytest.approx(np.array(SIGNS), abs=1e-9)


@pytest.mark.parametrize("header", [("lon", "lat"), ("Longitude", "Latitude"), ("LNG", "lat")])
def test_csv_lonlat_columns(tmp_path, header):
    m = read_markers([_write_csv(tmp_path, SIGNS, header)])
    assert m.lon.tolist() == [p[0] for p in SIGNS]


def test_tab_separated_values_named_tsv_are_read_as_a_csv_table(tmp_path):
    """A spreadsheet's "tab-delimited text" saved as ``.tsv`` is read as the table it is (with
    a decimal comma too), as ``.txt`` is: GDAL read it as a table without geometry, refused as
    "has no geometry: it is a table, not a layer of features"."""
    path = tmp_path / "signs.tsv"
    path.write_text(
        "name\tlon\tlat\n" + "".join(f"s{i}\t{x}\t{y}\n" for i, (x, y) in enumerate(SIGNS))
    )
    m = read_markers([path])
    assert np.column_stack([m.lon, m.lat]).tolist() == [list(p) for p in SIGNS]
    path.write_text("lon\tlat\n-81,29995\t28,60005\n")
    assert read_markers([path]).lon.tolist() == [-81.29995]


def test_csv_xy_needs_crs(tmp_path):
    path = tmp_path / "pts.csv"
    path.write_text("x,y\n540000,1520000\n")
    with pytest.raises(CRSError, match="add crs= ") as info:
        read_markers([path])
    assert (info.value.parameter, info.value.path) == ("crs", str(path))
    assert "add --crs (for example --crs EPSG:2236" in info.value.worded(lambda n: "--" + n)
    m = read_markers([path], crs="EPSG:2236")
    assert m.lon[0] == pytest.approx(-81.30, abs=0.1)


def test_csv_bad_rows_are_kept_with_the_reason(tmp_path):
    path = tmp_path / "pts.csv"
    path.write_text(
        "lon,lat,note\n-81.3,28.6,ok\n-81.3,,blank\nabc,28.6,text\n28.6,-95.2,swapped\n"
        "200,28.6,east\n"
    )
    m = read_markers([path])
    assert m.reason.tolist() == [
        None,
        "no value in column 'lat'",
        "lon 'abc' is not a number",
        "latitude -95.2 is outside -90..90 (are lon and lat swapped?)",
        "longitude 200 is outside -180..180",
    ]
    assert np.isnan(m.lon[1:]).all()


def test_csv_markers_are_read_as_x_and_y_as_a_layer_of_points_reads_them(tmp_path):
    """Markers from a CSV come as x and y (no Point is made); the same rows read as a layer of
    features (points) give the same numbers, and a row with a problem has no position either
    way."""
    from posting.io import read_layer

    path = tmp_path / "pts.csv"
    path.write_text("lon,lat\n-81.3,28.6\n-81.3,\n28.6,-95.2\n-81.25,28.5\n")
    marks, feats = (read_layer(path, kind=k) for k in ("markers", "features"))
    assert feats.xy is None and len(marks.geometry) == 0
    assert marks.problems == feats.problems and sorted(marks.problems) == [1, 2]
    x, y = marks.xy
    np.testing.assert_array_equal(x, shapely.get_x(feats.geometry))
    np.testing.assert_array_equal(y, shapely.get_y(feats.geometry))
    assert x.tolist()[::3] == [-81.3, -81.25] and np.isnan(x[1:3]).all()


def test_csv_without_coordinates_is_an_error(tmp_path):
    path = tmp_path / "pts.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match=r"no coordinate columns.*a, b"):
        read_markers([path])


def _state_plane(points):
    """``points`` (longitude, latitude) in Florida East, US survey feet (EPSG:2236), by pyproj."""
    from pyproj import Transformer

    to_sp = Transformer.from_crs("EPSG:4326", "EPSG:2236", always_xy=True)
    return [to_sp.transform(x, y) for x, y in points]


@pytest.mark.parametrize(
    "header, row",
    [
        ("OBJECTID,POINT_X,POINT_Y", "{i},{x:.3f},{y:.3f}"),  # ArcGIS' Add XY Coordinates
        ("P,N,E,Z,D", "{i},{y:.3f},{x:.3f},12.5,SIGN"),  # a total station: northing first
        ("pt,Northing,Easting,elev", "{i},{y:.3f},{x:.3f},3"),
        ("id;X_COORD;Y_COORD", "{i};{x:.3f};{y:.3f}"),
    ],
)
def test_gis_and_survey_coordinate_headers_are_read(tmp_path, header, row):
    """A GIS export's POINT_X/POINT_Y and a total station's P,N,E,Z,D (northing before
    easting) were "no coordinate columns". The signs, put in Florida East by pyproj and
    written with 0.001 ft, come back within 1e-8 degree (a millimetre) of where they were."""
    path = tmp_path / "shots.csv"
    sep = ";" if ";" in header else ","
    lines = [header] + [
        row.format(i=i, x=x, y=y) for i, (x, y) in enumerate(_state_plane(SIGNS), start=1)
    ]
    path.write_text("\n".join(lines) + "\n")
    if sep == ";":  # a spreadsheet's semicolons and decimal commas
        path.write_text(path.read_text().replace(".", ","))
    m = read_markers([path], crs="EPSG:2236")
    assert np.column_stack([m.lon, m.lat]) == pytest.approx(np.array(SIGNS), abs=1e-8)
    with pytest.raises(CRSError) as err:
        read_markers([path])
    assert "--crs EPSG:2236 for Florida East" in err.value.worded(lambda n: "--" + n)


@pytest.mark.parametrize(
    "header, rows",
    [
        ("lon,lat,LON", ["-81.29995,28.60005,5"]),  # a column added later (a fix?)
        ("lon,lat,lon", ["-81.29995,28.60005,-81.1"]),  # a header repeated: lon.1 to pandas
        ("Longitude,lat,lng", ["-81.29995,28.60005,-81.2985"]),
        ("x,y,X", ["540000,1520000,540100"]),
    ],
)
def test_two_columns_of_one_coordinate_that_differ_are_refused_naming_both(tmp_path, header, rows):
    """A sign file with two longitude columns used one of them without a word (and, for lon
    and LON, the last): a sign at longitude 5 was "unassigned" with no hint why."""
    path = tmp_path / "pts.csv"
    path.write_text("\n".join([header, *rows]) + "\n")
    names = header.split(",")
    shown = [names[0], names[2] if names[2] != names[0] else names[0] + ".1"]
    with pytest.raises(InputError) as err:
        read_markers([path], crs="EPSG:2236")
    said = err.value.worded(lambda n: "--" + n)
    assert f"pts.csv: columns {shown[0]!r} and {shown[1]!r} both name the " in said
    first = rows[0].split(",")
    path.write_text(f"{header}\n{first[0]},{first[1]},{first[0]}\n")
    m = read_markers([path], crs="EPSG:2236")  # the same values twice: nothing to tell
    assert len(m) == 1 and m.reason.tolist() == [None]


def test_one_letter_alone_names_no_coordinate(tmp_path):
    """N and E are a total station's pair; an N column alone (a count, a flag) is not a
    northing, and the error lists what coordinate columns it reads."""
    path = tmp_path / "pts.csv"
    path.write_text("id,N,x2\n1,5,3\n")
    with pytest.raises(InputError) as err:
        read_markers([path])
    said = err.value.worded(lambda n: "--" + n)
    assert "no coordinate columns" in said and "POINT_X/POINT_Y" in said and "WKT" in said


def test_coordinates_without_a_crs_that_look_like_degrees_are_told_epsg_4326(tmp_path):
    path = tmp_path / "pts.csv"
    path.write_text("POINT_X,POINT_Y\n-81.29995,28.60005\n")
    with pytest.raises(CRSError) as err:
        read_markers([path])
    assert err.value.worded(lambda n: "--" + n).endswith(
        "add --crs (--crs EPSG:4326 if they are degrees of longitude/latitude, as they look)"
    )
    assert read_markers([path], crs="EPSG:4326").lon.tolist() == [-81.29995]


def test_a_csv_of_wkt_geometries_is_read_as_the_layer_it_is(tmp_path):
    """QGIS and ogr2ogr write a layer as CSV with its geometries as well-known text (a column
    WKT): it was "no coordinate columns". The lots and signs of
    ``test_parcel_formats_give_the_same_answer`` give the same answer from WKT; blank, broken
    and non-point rows of signs are each their row's problem."""
    lots = tmp_path / "lots.csv"
    rows = [f'{pid},"{g.wkt}"' for pid, g in zip(["007", "12"], LOTS, strict=True)]
    lots.write_text("PID,WKT\n" + "\n".join(rows) + "\n")
    signs = tmp_path / "signs.csv"
    pts = [f"s{i},POINT ({x} {y})" for i, (x, y) in enumerate(SIGNS)]
    bad = [
        "b1,",
        "b2,POINT (1 2",
        'b3,"LINESTRING (0 0, 1 1)"',
        "b4,POINT EMPTY",
        "b5,POINT (500 28)",
    ]
    signs.write_text("name,wkt\n" + "\n".join(pts + bad) + "\n")
    with pytest.raises(CRSError) as err:
        read_parcels(lots, id_field="PID")
    assert "EPSG:4326 if they are degrees" in err.value.worded(lambda n: "--" + n)
    layer = read_parcels(lots, id_field="PID", crs="EPSG:4326")
    assert layer.ids.tolist() == ["007", "12"]
    markers = read_markers([signs], crs="EPSG:4326")
    assert np.column_stack([markers.lon[:4], markers.lat[:4]]) == pytest.approx(np.array(SIGNS))
    assert markers.reason.tolist()[4:] == [
        "no geometry in column 'wkt'",
        "wkt 'POINT (1 2' is not a geometry in well-known text (WKT)",
        "wkt holds a LineString, not one point",
        "wkt holds an empty point, not one point",
        "(500, 28) is not a longitude and latitude: are the geometries in another CRS than WGS 84?",
    ]
    report = check(layer, markers)
    p = report.to_dict()["parcels"]
    assert [x["signs"] for x in p] == [2, 1]
    assert p[0]["perimeter_ft"] == pytest.approx(
        Geod(ellps="WGS84").geometry_length(LOTS[0]) / 0.3048, rel=1e-5
    )


def test_a_plain_parquet_table_of_wkb_geometries_is_read_with_its_crs_given(tmp_path):
    """A Parquet table whose geometry column is WKB bytes without GeoParquet's metadata (as
    pandas, DuckDB or Spark write one): read as the lots, given their CRS."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "lots.parquet"
    table = pa.table({"PID": ["007", "12"], "geometry": shapely.to_wkb(LOTS).tolist()})
    pq.write_table(table, path)
    with pytest.raises(CRSError):
        read_parcels(path, id_field="PID")
    layer = read_parcels(path, id_field="PID", crs="EPSG:4326")
    p = check(layer, read_markers([_write_csv(tmp_path, SIGNS)])).to_dict()["parcels"]
    assert [x["signs"] for x in p] == [2, 1]


@pytest.mark.parametrize(
    "fmt, said",
    [
        ("geojson", "is JSON (GeoJSON?), not a CSV table: name it .geojson"),
        ("kml", "is KML, not a CSV table: name it .kml"),
        ("gpx", "is GPX, not a CSV table: name it .gpx"),
        ("gpkg", "is a GeoPackage, not a CSV table: name it .gpkg"),
        ("parquet", "is a Parquet file, not a CSV table: name it .parquet"),
        ("fgb", "is a FlatGeobuf file, not a CSV table: name it .fgb"),
        ("shp", "is a Shapefile's .shp, not a CSV table: name it .shp"),
        ("zip", "is a zip archive (a zipped Shapefile, or KMZ), not a CSV table"),
    ],
)
def test_a_file_of_another_format_named_csv_says_what_it_is(tmp_path, signs, fmt, said):
    """A signs file of another format named ``.csv`` (or ``.txt``) is refused saying what it
    is and how to name it. Read as a table, a GeoJSON file's one line was its "header of
    values", shown whole in the error (a FlatGeobuf's bytes too), and one of 6 MB ran for more
    than ten minutes; a GeoPackage or KML file was "not a readable CSV file" (a tokenizing
    error), a Parquet file had "no coordinate columns" but 'PAR1'."""
    import zipfile

    written = tmp_path / f"signs.{fmt if fmt != 'zip' else 'shp'}"
    if fmt == "parquet":
        signs.to_parquet(written)
    elif fmt == "gpx":
        written.write_text(
            '<?xml version="1.0"?><gpx version="1.1" creator="t" '
            'xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="28.6" lon="-81.3"/></gpx>'
        )
    else:
        signs.to_file(written, engine="pyogrio", driver="KML" if fmt == "kml" else None)
    if fmt == "zip":
        with zipfile.ZipFile(tmp_path / "signs.zip", "w") as z:
            for ext in ("shp", "shx", "dbf", "prj"):
                z.write(tmp_path / f"signs.{ext}", f"signs.{ext}")
        written = tmp_path / "signs.zip"
    for suffix in (".csv", ".txt"):
        path = tmp_path / f"named{suffix}"
        path.write_bytes(written.read_bytes())
        with pytest.raises(InputError) as err:
            read_markers([path])
        assert said in str(err.value), str(err.value)[:300]
        assert len(str(err.value)) < len(str(path)) + 120


def test_a_table_s_columns_in_a_message_are_a_few_and_cut_short(tmp_path):
    """A table of many columns and none of coordinates (a header of 200 names, one a page
    long) is named with its first columns, each cut short, and how many more."""
    path = tmp_path / "pts.csv"
    names = ["x" * 500] + [f"col{i}" for i in range(199)]
    path.write_text(",".join(names) + "\n" + ",".join("1" for _ in names) + "\n")
    with pytest.raises(InputError) as err:
        read_markers([path])
    said = str(err.value)
    assert said.endswith(
        f"The columns are: {'x' * 39}..., col0, col1, " + "col2, col3, col4, "
        "col5, col6, col7, col8, col9, col10 and 188 more"
    )


def test_markers_in_a_file_whose_first_layer_is_the_parcels_are_refused_naming_the_layers(
    tmp_path, lots, signs
):
    """A project's GeoPackage of a layer of parcels, then one of signs, given as the signs:
    the markers are read from a file's first layer, which is of polygons, so each sign row
    was unassigned ("a Polygon is not a marker position") and every parcel unposted. It is
    refused, naming the layers and how to give the signs' layer as a file of its own. A first
    layer of points is read (with a note), as is a first layer of no declared type."""
    import pyogrio

    gpkg = tmp_path / "project.gpkg"
    pyogrio.write_dataframe(lots, gpkg, layer="parcels")
    pyogrio.write_dataframe(signs, gpkg, layer="sign points")
    with pytest.raises(InputError) as err:
        read_markers([gpkg])
    assert str(err.value) == (
        f"{gpkg}: its first layer, 'parcels' (of 2: 'parcels', 'sign points'), is of Polygon "
        "features, not markers, which are points; the markers are read from a file's first "
        "layer: give the markers' layer as a file of its own (ogr2ogr -f GPKG signs.gpkg "
        "project.gpkg 'sign points')"
    )
    first = tmp_path / "signs_first.gpkg"
    pyogrio.write_dataframe(signs, first, layer="signs")
    pyogrio.write_dataframe(lots, first, layer="parcels")
    assert len(read_markers([first])) == 4
    mixed = tmp_path / "mixed.gpkg"  # (a layer of points and polygons: of no declared type)
    both = pd.concat([lots[["geometry"]], signs[["geometry"]]], ignore_index=True)
    pyogrio.write_dataframe(gpd.GeoDataFrame(both, crs=4326), mixed, layer="both")
    pyogrio.write_dataframe(signs, mixed, layer="signs")
    assert len(read_markers([mixed])) == 6


def test_layer_without_crs_is_refused_unless_given(tmp_path, lots):
    path = tmp_path / "lots.shp"
    with pytest.warns(UserWarning, match="crs"):
        lots.set_crs(None, allow_override=True).to_file(path, engine="pyogrio")
    with pytest.raises(CRSError, match=r"no CRS.*crs="):
        read_parcels(path)
    assert read_parcels(path, crs="EPSG:4326").crs.to_epsg() == 4326


@pytest.mark.parametrize("prj", ["wkt2", "proj", "garbage"])
def test_a_shapefile_prj_gdal_cannot_read_is_read_by_proj_or_named(tmp_path, prj):
    """A ``.prj`` of WKT2 or a PROJ string (another program's), which GDAL reads as no CRS:
    a 1,000 ft square in Florida East US survey feet was refused as "the layer has no CRS",
    its ``.prj`` beside it. PROJ reads it: the file's own CRS, its perimeter 4,000 US survey
    feet, 4,000.008 feet. A ``.prj`` PROJ cannot read either is named, unless --crs is given."""
    o = 600_000.0
    path = tmp_path / "lots.shp"
    with pytest.warns(UserWarning, match="crs"):
        gpd.GeoDataFrame(geometry=[shapely.box(o, o, o + 1000, o + 1000)]).to_file(path)
    text = {
        "wkt2": CRS.from_epsg(2236).to_wkt("WKT2_2019"),
        "proj": "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-81 +k=0.999941177 "
        "+x_0=200000.0001016 +y_0=0 +datum=NAD83 +units=us-ft +no_defs",
        "garbage": "not a CRS",
    }[prj]
    (tmp_path / "lots.prj").write_text(text)
    if prj == "garbage":
        said = r"its lots.prj holds no CRS that GDAL or PROJ can read \(it begins 'not a CRS'\)"
        with pytest.raises(CRSError, match=said):
            read_parcels(path)
        assert read_parcels(path, crs="EPSG:2236").crs.to_epsg() == 2236
        return
    layer = read_parcels(path, crs="EPSG:4326")  # (the file's own CRS wins)
    assert layer.crs.equals(CRS.from_epsg(2236), ignore_axis_order=True)
    ft = check(layer, read_markers([])).to_dict()["parcels"][0]["perimeter_ft"]
    assert ft == pytest.approx(4000 * 1200 / 3937 / 0.3048, abs=0.01)  # 4,000.008


def test_degrees_labelled_as_state_plane_are_caught(tmp_path, lots):
    path = tmp_path / "lots.gpkg"
    lots.set_crs("EPSG:2236", allow_override=True).to_file(path, engine="pyogrio")
    with pytest.raises(CRSError, match="look like degrees"):
        read_parcels(path)


def _lots_across(lons: list[float], lat: float) -> list[shapely.Polygon]:
    return [shapely.box(lon, lat, lon + 0.002, lat + 0.002) for lon in lons]


@pytest.mark.parametrize(
    ("crs", "lons", "lat", "away"),
    [
        # a state's lots in degrees, 6 degrees across: more than the few units taken for
        # degrees at once; Florida East's area of use starts 213,590 US ft east of x = 0
        ("EPSG:2236", [-81.2, -79.1, -75.2], 28.7, "213,665 US survey ft"),
        # UTM 17N's starts 166,021 m east of x = 0, and the lots reach x = -78.498
        ("EPSG:32617", [-84.0, -78.5], 27.0, "166,100 m"),
        # Florida's degrees as Texas Central's feet: its area starts 9,883,813 US ft north of
        # y = 0, and the lots reach y = 28.702
        ("EPSG:2277", [-81.2, -79.1, -75.2], 28.7, "9,883,784 US survey ft"),
    ],
)
def test_degrees_of_a_state_labelled_as_projected_are_caught(tmp_path, crs, lons, lat, away):
    # read as feet these lots were 0.002 ft wide, and a sign within "30 ft" (30 degrees) of
    # every corner: 45 of the sample's 87 lots, so labelled and spread, were passed
    path = tmp_path / "lots.gpkg"
    gpd.GeoDataFrame(geometry=_lots_across(lons, lat), crs=crs).to_file(path, engine="pyogrio")
    with pytest.raises(CRSError, match=f"look like degrees.* {away} outside the area") as err:
        read_parcels(path)
    assert "(EPSG:4326 for longitude/latitude)" in str(err.value)


@pytest.mark.parametrize(
    "crs",
    [
        # no area of use: a local grid's small numbers are its own
        "+proj=tmerc +lat_0=0 +lon_0=0 +k=1 +x_0=0 +y_0=0 +ellps=GRS80 +units=ft +no_defs",
        # an area of use around the origin (the world): small numbers can be its own
        "EPSG:3857",
        # the British National Grid's false origin is at the corner of its area
        "EPSG:27700",
    ],
)
def test_small_coordinates_spread_wide_are_kept_where_they_can_be_the_crs(tmp_path, crs):
    path = tmp_path / "lots.gpkg"
    lots = [shapely.box(x, 40.0, x + 2.0, 42.0) for x in (10.0, 60.0, 120.0)]
    gpd.GeoDataFrame(geometry=lots, crs=crs).to_file(path, engine="pyogrio")
    assert len(read_parcels(path)) == 3


@pytest.mark.parametrize("crs", ["EPSG:2236", "EPSG:4326"])
def test_wrong_crs_of_geoparquet_points_is_caught_past_missing_rows(tmp_path, crs):
    # the points' fast path (coordinates, no geometries), with an empty point (NaN in WKB)
    xy = [(-81.3, 28.6), (-81.2, 28.5)] if crs == "EPSG:2236" else [(540000, 1520000)] * 2
    empty = shapely.Point()
    pts = gpd.GeoDataFrame(geometry=[shapely.Point(xy[0]), empty, shapely.Point(xy[1])], crs=crs)
    path = tmp_path / "signs.parquet"
    pts.to_parquet(path)
    with pytest.raises(CRSError, match="look like degrees" if crs == "EPSG:2236" else "not deg"):
        read_markers([path])


def test_projected_coordinates_labelled_as_degrees_are_caught(tmp_path):
    path = tmp_path / "lots.geojson"
    gpd.GeoDataFrame(
        geometry=[shapely.box(540000, 1520000, 541000, 1521000)], crs="EPSG:4326"
    ).to_file(path, engine="pyogrio")
    with pytest.raises(CRSError, match=r"such as \(541000\.0, 1520000\.0\) are not degrees"):
        read_parcels(path)


@pytest.mark.parametrize("suffix", [".shp", ".gpkg", ".geojson"])
def test_a_file_whose_own_crs_is_wrong_is_told_to_mend_the_file_not_to_give_crs(tmp_path, suffix):
    """State Plane feet in a file that says WGS 84 (a ``.prj`` of the wrong CRS, a GeoJSON
    without a ``crs`` member): ``--crs`` cannot mend it, since the file's own CRS wins, so the
    error says how to mend the file, not "give the right CRS with --crs" (which, given, only
    brought the same error back)."""
    path = tmp_path / f"lots{suffix}"
    gpd.GeoDataFrame(
        geometry=[shapely.box(540000, 1520000, 541000, 1521000)], crs="EPSG:4326"
    ).to_file(path, engine="pyogrio")
    with pytest.raises(CRSError) as err:
        read_parcels(path, crs="EPSG:2236")
    said = str(err.value)
    assert "are not degrees, but the layer's CRS is WGS 84" in said
    assert f"(ogr2ogr -a_srs EPSG:<its code> fixed{suffix} lots{suffix})" in said
    assert "give the right CRS with" not in said
    assert ('without a "crs" member' in said) == (suffix == ".geojson")
    if suffix == ".shp":  # without its .prj, the CRS is the option's, which is to be mended
        (tmp_path / "lots.prj").unlink()
        with pytest.raises(CRSError) as err:
            read_parcels(path, crs="EPSG:4326")
        assert str(err.value).endswith(
            "but the layer's CRS is WGS 84; give the right CRS with crs="
        )


def test_one_absurd_coordinate_is_shown_as_a_number_of_its_feature(tmp_path):
    """Lots with a vertex at longitude -1e300, most of the layer: the message shows such a
    vertex's coordinates (not 300 digits, nor the corner of the extent of all the lots)."""
    path = tmp_path / "lots.geojson"
    stray = [
        shapely.Polygon([(-81.3, 28.6), (-1e300, 28.6), (-81.3, 28.7)]),
        shapely.Polygon([(-81.3, 28.6), (-81.2, 28.6), (-81.3, 1e5)]),
    ]
    gpd.GeoDataFrame(geometry=[LOTS[0], *stray], crs="EPSG:4326").to_file(path, engine="pyogrio")
    with pytest.raises(CRSError) as err:
        read_parcels(path)
    assert "coordinates such as (-1e+300, 28.6) are not degrees" in str(err.value)


def _stray(x: float, y: float) -> str:
    return (
        f"a coordinate, ({x}, {y}), is not degrees, as most of the layer's (WGS 84) are: a "
        "typing error? Fix this feature in the file"
    )


def test_a_few_features_beyond_any_angle_are_theirs_not_the_layer_s(tmp_path):
    """A lot typed with a longitude of -811170.6 among lots in degrees (one of three; two of
    five) is that lot's mistake, not the layer's CRS: it is invalid, its row and vertex named,
    and the others are read; so is a sign in a GeoParquet file and a water feature. Where most
    features are beyond (three of five), the CRS is wrong and the layer refused, as before."""
    from posting.io import read_features

    typo = shapely.Polygon([(-81.3, 28.6), (-811170.6, 28.6), (-81.3, 28.7)])
    tall = shapely.Polygon([(-81.3, 28.6), (-81.2, 28.6), (-81.3, 286.0)])
    path = tmp_path / "lots.geojson"
    gpd.GeoDataFrame(geometry=[LOTS[0], typo, LOTS[1]], crs="EPSG:4326").to_file(path)
    layer = read_parcels(path)
    assert layer.problems == {1: _stray(-811170.6, 28.6)}
    assert [g is None for g in layer.geometry] == [False, True, False]
    rows = check(layer, read_markers([]), rules="florida").to_dict()["parcels"]
    assert [r["status"] for r in rows] == ["unposted", "invalid", "unposted"]
    assert rows[1]["invalid_reason"] == _stray(-811170.6, 28.6)

    five = [LOTS[0], typo, LOTS[1], tall, LOTS[0]]
    gpd.GeoDataFrame(geometry=five, crs="EPSG:4326").to_file(path)
    assert read_parcels(path).problems == {1: _stray(-811170.6, 28.6), 3: _stray(-81.3, 286.0)}
    gpd.GeoDataFrame(geometry=[typo, typo, LOTS[1], tall, LOTS[0]], crs="EPSG:4326").to_file(path)
    with pytest.raises(CRSError, match=r"such as \(-811170\.6, 28\.6\) are not degrees"):
        read_parcels(path)

    signs = tmp_path / "signs.parquet"
    points = [shapely.Point(p) for p in [*SIGNS[:2], (512345.5, 1523456.5), SIGNS[2]]]
    gpd.GeoDataFrame(geometry=points, crs="EPSG:4326").to_parquet(signs)
    markers = read_markers([signs])
    assert markers.reason.tolist() == [None, None, _stray(512345.5, 1523456.5), None]
    assert np.isnan(markers.x[2]) and np.isfinite(markers.x[[0, 1, 3]]).all()

    water = tmp_path / "water.geojson"
    gpd.GeoDataFrame(geometry=[LOTS[0], typo, LOTS[1]], crs="EPSG:4326").to_file(water)
    features = read_features(water)
    assert features.left_out == {1: _stray(-811170.6, 28.6)}
    assert features.warnings() == [
        f"{water}: 1 feature(s) left out (row 1): {_stray(-811170.6, 28.6)}"
    ]


def test_a_ring_of_one_position_is_an_invalid_parcel_said_on_one_line(tmp_path):
    """A GeoJSON polygon whose ring has one position: GEOS cannot read it, and its message
    ("point array must contain 0 or >1 elements") ends in a newline, which was the reason's
    too: a blank line after the warning, and a CSV cell of two lines. The reason is one line."""
    import json

    path = tmp_path / "lots.geojson"
    one = {"type": "Polygon", "coordinates": [[[-81.3, 28.6]]]}
    features = [
        {"type": "Feature", "properties": {}, "geometry": g}
        for g in (one, shapely.geometry.mapping(LOTS[0]))
    ]
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}))
    layer = read_parcels(path)
    assert layer.problems == {
        0: "its geometry cannot be read: point array must contain 0 or >1 elements"
    }
    row = check(layer, read_markers([]), rules="florida").to_dict()["parcels"][0]
    assert row["status"] == "invalid" and "\n" not in row["invalid_reason"]


def test_ids_verbatim_and_missing_ids(tmp_path):
    path = tmp_path / "lots.gpkg"
    gdf = gpd.GeoDataFrame(
        {"NUM": [7, 12, 12], "TXT": ["007", None, "x"]}, geometry=[*LOTS, LOTS[0]], crs="EPSG:4326"
    )
    gdf.to_file(path, engine="pyogrio")
    assert read_parcels(path, id_field="num").ids.tolist() == ["7", "12", "12"]
    layer = read_parcels(path, id_field="TXT")
    assert layer.ids.tolist() == ["007", "#1", "x"]
    assert "have no 'TXT'" in layer.notes[0]
    assert read_parcels(path).ids.tolist() == ["0", "1", "2"]
    d = check(read_parcels(path, id_field="NUM")).to_dict()
    assert d["duplicate_ids"] == {"12": [1, 2]}
    assert [p["duplicate_id"] for p in d["parcels"]] == [False, True, True]


@pytest.mark.parametrize("suffix", [".gpkg", ".geojson", ".shp"])
def test_blank_ids_and_parcel_names_are_missing_in_every_format(tmp_path, suffix):
    """A blank id (``''``, spaces) is no id, as a blank cell is: named by row, as a Shapefile's
    (GDAL reads its blank text as missing) always was. A GeoPackage's or GeoJSON's was the id
    ``''`` (two of them a duplicate id), and a sign whose parcel column was blank there was
    unassigned, "names parcel '', which is not in the parcel file", where a missing value
    leaves it to the parcel it stands in. An id with spaces around it stays verbatim (a
    Shapefile's text is read without them)."""
    lots = [shapely.box(-81.3 + 0.001 * i, 28.6, -81.2995 + 0.001 * i, 28.6005) for i in range(4)]
    path = tmp_path / f"lots{suffix}"
    gpd.GeoDataFrame({"PID": [" 007 ", "", "  ", None]}, geometry=lots, crs=4326).to_file(path)
    layer = read_parcels(str(path), id_field="PID")
    assert layer.ids.tolist() == [" 007 " if suffix != ".shp" else "007", "#1", "#2", "#3"]
    signs = tmp_path / f"signs{suffix}"
    at = [shapely.Point(-81.29975, 28.60001), shapely.Point(-81.29875, 28.60001)]
    gpd.GeoDataFrame({"lot": ["", None]}, geometry=at, crs=4326).to_file(signs)
    marks = read_markers([signs], parcel_field="lot")
    assert marks.parcel_ref.tolist() == [None, None]
    d = check(layer, marks, rules="florida").to_dict()
    assert d["summary"]["markers_assigned"] == 2 and not d["duplicate_ids"]


@pytest.mark.parametrize("zipped", [False, True])
def test_a_latin_1_shapefile_without_its_cpg_is_read_as_latin_1(tmp_path, lots, zipped):
    """A Shapefile whose ``.dbf`` holds Latin-1 text and that has no ``.cpg`` (an older
    program's) is read as Latin-1, with the note a GeoJSON of Latin-1 gets: not refused as a
    file cut short (pyogrio hands the encoding to GDAL by name, and GDAL knows ISO-8859-1, not
    Python's "latin-1")."""
    import zipfile

    lots["OWNER"] = ["Muñoz", "Ølsen"]
    path = tmp_path / "lots.shp"
    lots.to_file(path, encoding="ISO-8859-1")
    (tmp_path / "lots.cpg").unlink()
    assert "Mu\xf1oz".encode("latin-1") in (tmp_path / "lots.dbf").read_bytes()
    if zipped:
        path = tmp_path / "lots.zip"
        with zipfile.ZipFile(path, "w") as z:
            for ext in ("shp", "shx", "dbf", "prj"):
                z.write(tmp_path / f"lots.{ext}", f"lots.{ext}")
    layer = read_parcels(str(path), id_field="PID", owner_field="OWNER")
    assert layer.owners.tolist() == ["Muñoz", "Ølsen"]
    assert any("not UTF-8; read as Latin-1" in note for note in layer.notes)


def _mark_deleted(dbf: Path, records: list[int]) -> None:
    """Mark ``records`` of a ``.dbf`` deleted (``*``), as a dBASE program does."""
    data = bytearray(dbf.read_bytes())
    header, width = int.from_bytes(data[8:10], "little"), int.from_bytes(data[10:12], "little")
    for r in records:
        data[header + r * width] = ord("*")
    dbf.write_bytes(bytes(data))


@pytest.mark.parametrize("zipped", [False, True])
def test_a_shapefile_s_records_marked_deleted_are_said_left_out(tmp_path, zipped):
    """GDAL leaves out the records of a ``.dbf`` marked deleted, as dBASE programs do: the
    parcel of record 1 of 3 was gone without a word, the next one read as row 1. A note now
    says which records, and that the rows after them are numbered without them."""
    import zipfile

    from posting.io import deleted_records

    path = tmp_path / "lots.shp"
    gpd.GeoDataFrame({"PID": ["a", "b", "c"]}, geometry=[*LOTS, LOTS[0]], crs=4326).to_file(path)
    _mark_deleted(tmp_path / "lots.dbf", [1])
    name = str(path)
    if zipped:
        path = tmp_path / "lots.zip"
        with zipfile.ZipFile(path, "w") as z:
            for ext in ("shp", "shx", "dbf", "prj"):
                z.write(tmp_path / f"lots.{ext}", f"lots.{ext}")
        name = f"{path}: lots.shp"
    assert deleted_records(str(path))[1].tolist() == [1]
    layer = read_parcels(str(path), id_field="PID")
    assert layer.ids.tolist() == ["a", "c"]
    assert layer.notes == [
        f"{name}: 1 record(s) of its .dbf are marked deleted (record 1, from 0): left out, as "
        "GDAL and dBASE programs leave them; the rows after one are numbered without it"
    ]


def test_ids_of_twenty_digits_in_a_shapefile(tmp_path):
    """A Shapefile's numeric field of 19 digits or more is read as decimals (GDAL): 20-digit
    parcel numbers are then ids of the integer each decimal holds, not int64's overflow (all
    once '-9223372036854775808', with a warning on stderr). Between 2**63 and 2**64 decimals
    are 2**11 = 2,048 apart: 12345678901234567890 is stored as 6,028,163,525,993,441 times
    2,048 = 12345678901234567168, and 12345678901234567891 too (the file lost the difference:
    the report flags them as one id); 98765432109876543210 (between 2**66 and 2**67, decimals
    16,384 apart: 6,028,163,580,925,081 of them and 16,106 more, which rounds up) as
    6,028,163,580,925,082 times 16,384 = 98765432109876543488."""
    import warnings

    path = tmp_path / "lots.shp"
    pins = [12345678901234567890, 12345678901234567891, 98765432109876543210]
    gpd.GeoDataFrame(
        {"PIN": [float(x) for x in pins]}, geometry=[*LOTS, LOTS[0]], crs="EPSG:4326"
    ).to_file(path, engine="pyogrio")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        layer = read_parcels(path, id_field="PIN")
    assert layer.ids.tolist() == [
        "12345678901234567168",
        "12345678901234567168",
        "98765432109876543488",
    ]
    d = check(layer).to_dict()
    assert d["duplicate_ids"] == {"12345678901234567168": [0, 1]}
    assert layer.notes == [
        f"{path}: 3 parcel id(s) in 'PIN' are whole numbers stored as decimals of 2**53 or "
        "more, which hold only about 16 digits: the file may have lost their last digits, and "
        "they are read as the integers the decimals hold; store the ids as text (rows 0, 1, 2)"
    ]


def test_ids_read_as_decimals_are_noted_only_from_2_to_the_53():
    """2**53 = 9,007,199,254,740,992 is the first whole number after which decimals skip some
    (2**53 + 1 is stored as 2**53): a 16-digit id below it is exact and not noted, 2**53
    itself and beyond are; a fraction, a missing id and text ids are not."""
    from posting.io import inexact_ids

    values = [9007199254740991.0, 2.0**53, -(2.0**53), 2.0**53 + 2, 2.0**60 + 0.0, 2.5, np.nan]
    expected = [False, True, True, True, True, False, False]
    assert inexact_ids(pd.Series(values)).tolist() == expected
    assert float(2**53 + 1) == 2.0**53  # (the reason)
    assert not inexact_ids(pd.Series(["9007199254740993"], dtype=object)).any()
    assert not inexact_ids(pd.Series([9007199254740993], dtype="int64")).any()


def test_markers_built_in_code_beyond_the_earth_cannot_be_placed():
    """Markers from coordinates (the Python API) are placed as a file's are: one 1e300 ft
    north is "cannot be placed on Earth" (it was placed in Antarctica, and one that named its
    parcel was said to stand 1e300 ft from it, with an overflow warning on stderr)."""
    import warnings

    from helpers import LOCAL_FT

    markers = MarkerLayer.from_points(
        [1e-300, 1e-300, 50.0], [1e300, 1e300, 0.0], LOCAL_FT, parcel_ref=["0", None, "0"]
    )
    assert markers.reason.tolist()[:2] == ["cannot be placed on Earth from unknown"] * 2
    lots = ParcelLayer.from_geometries([shapely.box(0, 0, 100, 100)], LOCAL_FT, ids=["0"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = check(lots, markers, ["florida"]).markers
    assert m["reason"].tolist()[:2] == ["cannot be placed on Earth from unknown"] * 2
    assert m["assigned_by"].tolist()[2] == "named"


def test_missing_column_names_the_columns(tmp_path, lots):
    path = tmp_path / "lots.geojson"
    lots.to_file(path, engine="pyogrio")
    with pytest.raises(
        InputError, match="id_field= 'APN' is not a column; the columns are: PID, OWNER"
    ):
        read_parcels(path, id_field="APN")


def test_unreadable_and_missing_files(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_parcels(tmp_path / "nope.geojson")
    bad = tmp_path / "bad.geojson"
    bad.write_text("{not json")
    with pytest.raises(InputError, match="not a readable geospatial file"):
        read_parcels(bad)
    gpx = tmp_path / "t.gpx"
    gpd.GeoDataFrame(geometry=[shapely.Point(0, 0)], crs=4326).to_file(gpx, driver="GPX")
    with pytest.raises(InputError, match="GPX holds waypoints"):
        read_parcels(gpx)


def test_marker_geometry_that_is_not_a_point_is_kept_with_the_reason(tmp_path):
    path = tmp_path / "m.geojson"
    gpd.GeoDataFrame(
        geometry=[
            shapely.Point(-81.3, 28.6),
            shapely.LineString([(0, 0), (1, 1)]),
            None,
            shapely.MultiPoint([(-81.3, 28.6)]),
        ],
        crs=4326,
    ).to_file(path, engine="pyogrio")
    m = read_markers([path])
    assert m.reason.tolist() == [
        None,
        "a LineString is not a marker position: markers are points",
        "no geometry",
        None,
    ]


@pytest.mark.parametrize("missing_row", [False, True])
def test_an_empty_geoparquet_point_is_empty_however_the_file_is_read(tmp_path, missing_row):
    """An empty point is written to WKB as two NaNs: "empty geometry", whether the file's points
    are read straight from their WKB or (a file with a missing geometry) by shapely; a point
    with one NaN coordinate is not empty."""
    points = [shapely.Point(-81.3, 28.6), shapely.Point(), shapely.Point(-81.3, float("nan"))]
    if missing_row:
        points.append(None)
    path = tmp_path / "m.parquet"
    gpd.GeoDataFrame(geometry=points, crs=4326).to_parquet(path)
    m = read_markers([path])
    assert m.reason.tolist()[:3] == [None, "empty geometry", "coordinates are not finite"]


def test_several_sign_files_keep_their_rows(tmp_path, signs):
    a = tmp_path / "a.geojson"
    signs.to_file(a, engine="pyogrio")
    b = _write_csv(tmp_path, SIGNS[:2])
    m = read_markers([a, b])
    assert m.source.tolist() == [str(a)] * 4 + [str(b)] * 2
    assert m.row.tolist() == [0, 1, 2, 3, 0, 1]


@pytest.mark.parametrize("as_given", [str, Path])
def test_one_marker_path_is_one_file(tmp_path, as_given):
    # a string is a sequence too: read letter by letter, "/" was scanned as a folder
    path = _write_csv(tmp_path, SIGNS)
    m = read_markers(as_given(path))
    assert m.source.tolist() == [str(path)] * len(SIGNS)
    assert m.row.tolist() == list(range(len(SIGNS)))


def test_write_text_is_whole_or_nothing(tmp_path, monkeypatch):
    target = tmp_path / "r.json"
    target.write_text("old")

    class Boom(Exception):
        pass

    def explode(*a, **k):
        raise Boom

    monkeypatch.setattr("os.replace", explode)
    with pytest.raises(Boom):
        write_text(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # no temporary left behind
    monkeypatch.undo()
    write_text(target, "new")
    assert target.read_text() == "new"
    with pytest.raises(InputError, match="does not exist"):
        write_text(tmp_path / "no" / "r.json", "x")


def test_write_text_takes_text_and_utf8_pieces(tmp_path, capsysbinary):
    pieces = ["Ä ", "ß".encode(), memoryview(b"[x]")[1:2], ""]
    write_text(tmp_path / "r.txt", pieces)
    assert (tmp_path / "r.txt").read_bytes() == "Ä ßx".encode()
    write_text("-", iter(pieces))  # to stdout, with the final new line it lacks
    assert capsysbinary.readouterr().out == "Ä ßx\n".encode()
    write_text("-", b"done\n")
    assert capsysbinary.readouterr().out == b"done\n"


def test_owner_field(tmp_path, lots):
    path = tmp_path / "lots.geojson"
    lots.to_file(path, engine="pyogrio")
    layer = read_parcels(path, owner_field="owner")
    assert [o if isinstance(o, str) else None for o in layer.owners] == ["A. Smith", None]
    assert pd.isna(layer.owners[1])


def test_geoparquet_points_fast_path_keeps_crs_and_rows(tmp_path):
    pts = gpd.GeoDataFrame(
        {"kind": ["sign", "paint", "sign"]},
        geometry=gpd.points_from_xy([540000.0, 540100.0, 540200.0], [1520000.0] * 3),
        crs="EPSG:2236",
    )
    path = tmp_path / "signs.parquet"
    pts.to_parquet(path)
    m = read_markers([path])
    assert m.files[0][1].to_epsg() == 2236
    assert m.x.tolist() == [540000.0, 540100.0, 540200.0]
    assert m.attributes["kind"].tolist() == ["sign", "paint", "sign"]
    ref = pts.to_crs(4326)
    assert m.lon == pytest.approx(ref.geometry.x.to_numpy(), abs=1e-12)


@pytest.mark.parametrize("encoding", ["WKB", "geoarrow"])
def test_geoparquet_parcels_read_as_geopandas_reads_them(tmp_path, encoding):
    lots = gpd.GeoDataFrame(
        {"PID": ["a", "b", "c"], "acres": [1.5, None, 2.0]},
        geometry=[
            shapely.Polygon([(540000, 1520000, 5), (540100, 1520000, 5), (540100, 1520100, 6)]),
            None,
            shapely.MultiPolygon([shapely.box(540200, 1520000, 540300, 1520100)]),
        ],
        crs="EPSG:2236",
    )
    path = tmp_path / "lots.parquet"
    lots.to_parquet(path, geometry_encoding=encoding)  # geoarrow: geopandas reads it
    layer = read_parcels(path, id_field="PID")
    ref = gpd.read_parquet(path)
    assert layer.crs.to_epsg() == 2236
    assert layer.ids.tolist() == ["a", "b", "c"]
    got = np.asarray(layer.geometry, dtype=object)
    assert not shapely.has_z(got).any()  # measured in 2D
    assert shapely.equals_exact(got, shapely.force_2d(ref.geometry.array), 0).tolist() == [
        True,
        False,  # None on both sides
        True,
    ]
    assert got[1] is None


def test_geoparquet_with_unreadable_geometry_is_a_clear_error(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    good = tmp_path / "good.parquet"
    gpd.GeoDataFrame(geometry=[shapely.box(0, 0, 1, 1)], crs=4326).to_parquet(good)
    meta = pq.read_schema(good).metadata
    table = pa.table({"geometry": pa.array([b"not wkb"], pa.binary())})
    bad = tmp_path / "bad.parquet"
    pq.write_table(table.replace_schema_metadata(meta), bad)
    with pytest.raises(InputError, match=r"bad.parquet: not a readable GeoParquet file"):
        read_parcels(bad)


def test_geoparquet_with_other_geometries_falls_back_to_shapely(tmp_path):
    mixed = gpd.GeoDataFrame(
        geometry=[
            shapely.Point(-81.3, 28.6),
            shapely.MultiPoint([(-81.2, 28.5)]),
            shapely.LineString([(0, 0), (1, 1)]),
            None,
        ],
        crs=4326,
    )
    path = tmp_path / "mixed.parquet"
    mixed.to_parquet(path)
    m = read_markers([path])
    assert m.lon[:2].tolist() == [-81.3, -81.2]
    assert m.reason.tolist()[2:] == [
        "a LineString is not a marker position: markers are points",
        "no geometry",
    ]


@pytest.mark.parametrize(
    "suffix", ["gpkg", "parquet", "bare.parquet", "fgb", "latin1.gpkg", "latin1.geojson"]
)
def test_a_17_digit_parcel_number_with_an_empty_one_beside_it_is_read_exactly(tmp_path, suffix):
    # an integer column with an empty value: as floats, 12345678901234567 would be read as
    # 12345678901234568 (a double has 53 bits)
    import pyarrow.parquet as pq

    o = 500_000.0
    g = gpd.GeoDataFrame(
        {"pid": pd.array([12345678901234567, None, 3], dtype="Int64")},
        geometry=[shapely.box(o + 100 * i, o, o + 100 * (i + 1), o + 100) for i in range(3)],
        crs="EPSG:2236",
    )
    path = tmp_path / f"parcels.{suffix}"
    if suffix == "bare.parquet":  # written by another tool: no pandas metadata to go by
        g.to_parquet(path)
        table = pq.read_table(path)
        meta = {k: v for k, v in table.schema.metadata.items() if k != b"pandas"}
        pq.write_table(table.replace_schema_metadata(meta), path)
    elif suffix == "parquet":
        g.to_parquet(path)
    elif suffix == "fgb":  # without its spatial index, which would sort the rows
        g.to_file(path, SPATIAL_INDEX="NO")
    elif suffix.startswith("latin1"):  # text that is not UTF-8: read without Arrow
        g["owner"] = ["Muñoz", "Müller", "B"]
        g.to_file(path, encoding="latin-1")
    else:
        g.to_file(path)
    layer = read_parcels(str(path), id_field="pid")
    assert list(layer.ids) == ["12345678901234567", "#1", "3"]
    if suffix.startswith("latin1"):
        assert any("not UTF-8" in note for note in layer.notes)


def test_a_gpx_file_s_track_and_route_points_beside_its_waypoints_are_said_not_read(tmp_path):
    """The markers of a GPX file are its waypoints; its track and route points (where the
    GPS went) are not read, and a note says how many, instead of nothing at all. A file of
    waypoints alone has no such note."""
    head = '<?xml version="1.0"?><gpx version="1.1" creator="t" '
    head += 'xmlns="http://www.topografix.com/GPX/1/1">'
    wpt = '<wpt lat="28.60005" lon="-81.29995"><name>s1</name></wpt>'
    trk = (
        '<trk><trkseg><trkpt lat="28.6" lon="-81.3"/><trkpt lat="28.7" lon="-81.3"/></trkseg></trk>'
    )
    rte = '<rte><rtept lat="28.6" lon="-81.3"/></rte>'
    path = tmp_path / "walk.gpx"
    path.write_text(head + wpt + trk + rte + "</gpx>")
    m = read_markers([path])
    assert len(m) == 1 and m.notes == [
        f"{path}: also has 2 track point(s) and 1 route point(s), which are not read: the "
        "markers are its waypoints (a track is where the GPS went, not where the signs stand)"
    ]
    path.write_text(head + wpt + "</gpx>")
    assert read_markers([path]).notes == []


def test_a_phone_app_s_waypoints_that_are_not_named_as_signs_are_said_to_count(tmp_path):
    """A landowner's export from a phone app (Gaia GPS, Garmin Explore: waypoints with a name,
    a description, a time and an icon, and the walk as a track) holds the truck and the gate
    beside the signs. Without a kind column each counts as a sign (the README): the gate on
    the line would fill a gap. A note names the two not named as signs where the others are,
    and ``--signs-where "name=Sign*"`` leaves them of no kind."""
    head = '<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="Gaia GPS" '
    head += 'xmlns="http://www.topografix.com/GPX/1/1">'

    def wpt(lon: float, lat: float, name: str, desc: str, sym: str) -> str:
        return (
            f'<wpt lat="{lat}" lon="{lon}"><ele>12.5</ele><time>2025-10-03T14:05:00Z</time>'
            f"<name>{name}</name><desc>{desc}</desc><sym>{sym}</sym></wpt>"
        )

    wpts = wpt(-81.29995, 28.60005, "Sign 1 - No Trespassing - J Smith", "", "Flag, Blue")
    wpts += wpt(-81.29905, 28.60005, "Sign 2", "letters 3 in", "Flag, Blue")
    wpts += wpt(-81.29950, 28.60001, "Gate", "south gate", "Gate")
    wpts += wpt(-81.29950, 28.60050, "Truck", "", "Car")
    trk = '<trk><name>Walk</name><trkseg><trkpt lat="28.6" lon="-81.3"/></trkseg></trk>'
    path = tmp_path / "Smith farm.gpx"
    path.write_text(head + wpts + trk + "</gpx>", encoding="utf-8")
    m = read_markers([path])
    said = [n for n in m.notes if "kind column" in n]
    assert said == [
        f"{path}: has no kind column, so each of its 4 waypoints counts as a sign; 2 of them "
        "are not named or described as a marker where the others are ('Gate', 'Truck'): if "
        "they are not markers (a gate, a stand, a vehicle), take them out of the file, add a "
        "kind column (sign, paint, post; anything else counts for no rule), or choose the "
        'markers with --signs-where "name=Sign*"'
    ]
    assert m.kinds().tolist() == ["sign"] * 4  # (counted: the note is the only word)
    chosen = read_markers([path], where="name=Sign*")
    assert chosen.kinds().tolist() == ["sign", "sign", "other", "other"]
    assert not [n for n in chosen.notes if "kind column" in n]


def test_a_my_maps_kml_s_stand_and_gate_are_said_to_count_and_its_data_read(tmp_path):
    """A Google My Maps export: a folder (layer) of signs whose placemarks carry their fields
    as ``ExtendedData``, a folder of stands and gates, and the farm's outline drawn by hand
    (a line and a polygon). The fields are read as marker columns (``Sign text``: the text;
    ``Owner on sign``: the name shown); the outline is two rows of no marker position; the
    stand and the gate (2 of the 4 points) are named in a note."""

    def pm(name: str, lon: float, lat: float, data: str = "") -> str:
        return (
            f"<Placemark><name>{name}</name><styleUrl>#icon-1899</styleUrl>{data}"
            f"<Point><coordinates>{lon},{lat},0</coordinates></Point></Placemark>"
        )

    data = (
        '<ExtendedData><Data name="Sign text"><value>No Trespassing</value></Data>'
        '<Data name="Owner on sign"><value>J Smith</value></Data></ExtendedData>'
    )
    ring = "-81.3,28.6,0 -81.299,28.6,0 -81.299,28.601,0 -81.3,28.601,0 -81.3,28.6,0"
    kml = (
        '<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2">'
        '<Document><name>Smith farm</name><Style id="icon-1899"><IconStyle><Icon><href>'
        "https://www.gstatic.com/mapspro/images/stock/503-wht-blank_maps.png</href></Icon>"
        "</IconStyle></Style>"
        "<Folder><name>Signs</name>"
        + pm("Sign 1", -81.29995, 28.60005, data)
        + pm("Sign 2", -81.29905, 28.60005, data)
        + "</Folder><Folder><name>Stands</name>"
        + pm("Ladder stand", -81.2995, 28.60002)
        + pm("Gate", -81.2999, 28.6005)
        + "</Folder><Folder><name>Outline</name>"
        + f"<Placemark><name>Fence</name><LineString><coordinates>{ring}</coordinates>"
        + "</LineString></Placemark><Placemark><name>Farm</name><Polygon><outerBoundaryIs>"
        + f"<LinearRing><coordinates>{ring}</coordinates></LinearRing></outerBoundaryIs>"
        + "</Polygon></Placemark></Folder></Document></kml>"
    )
    path = tmp_path / "Smith farm.kml"
    path.write_text(kml, encoding="utf-8")
    m = read_markers([path])
    assert first_recorded(m.attributes, "text").tolist() == ["No Trespassing"] * 2 + [None] * 4
    assert first_recorded(m.attributes, "name_on_sign")[:2].tolist() == ["J Smith"] * 2
    assert [r is None for r in m.reason] == [True] * 4 + [False] * 2
    said = [n for n in m.notes if "kind column" in n]
    assert len(said) == 1
    assert "each of its 4 placemarks counts as a sign; 2 of them are" in said[0]
    assert "('Ladder stand', 'Gate')" in said[0] and '"name=Sign*"' in said[0]


@pytest.mark.parametrize(
    "bad, said",
    [
        ('lat="abc" lon="-81.1"', r"row 1 \('b'\) has lat='abc'"),
        ('lon="-81.1"', r"row 1 \('b'\) has no lat"),
        ('lat="28.71" lon=""', r"row 1 \('b'\) has lon=''"),
    ],
)
def test_a_waypoint_gdal_would_leave_out_or_misplace_is_named(tmp_path, bad, said):
    """GDAL's GPX reader leaves out a waypoint without ``lat`` or ``lon`` and places one whose
    value is not a number at 0, both without a word (the waypoints after it would take its row,
    or a sign would stand on the equator): the file is refused, naming the waypoint by its row
    and name. With the waypoint mended, all three are read."""
    from posting.errors import InputError
    from posting.io import read_markers

    def gpx(second: str) -> str:
        return (
            '<?xml version="1.0"?><gpx version="1.1" creator="t" '
            'xmlns="http://www.topografix.com/GPX/1/1">'
            '<wpt lat="28.7" lon="-81.1"><name>a</name></wpt>'
            f"<wpt {second}><name>b</name></wpt>"
            '<wpt lat="28.8" lon="-81.2"><name>c</name></wpt></gpx>'
        )

    path = tmp_path / "signs.gpx"
    path.write_text(gpx(bad), encoding="utf-8")
    with pytest.raises(InputError, match=said):
        read_markers(str(path))
    path.write_text(gpx('lat="28.75" lon="-81.15"'), encoding="utf-8")
    m = read_markers(str(path))
    assert m.lat.tolist() == [28.7, 28.75, 28.8] and m.row.tolist() == [0, 1, 2]


def test_a_gpx_number_with_a_decimal_comma_is_read_without_gdal_s_warning(tmp_path, capfd):
    """A phone app set to German writes ``<ele>12,5</ele>``: GDAL read it as 12, with a
    RuntimeWarning ("Value '12,5' of field waypoints.ele parsed incompletely to real 12") that
    the command showed on stderr, and tests (filterwarnings = error) raised; blanks around a
    number (`` -4,25 ``) are warned of alike. The comma is the decimal mark: 12.5 and -4.25 (a
    track point's ``1,5`` too, counted for the note); a name of "3,5" stays as written, and
    ``13.5`` as it is."""
    head = '<?xml version="1.0"?><gpx version="1.1" creator="t" '
    head += 'xmlns="http://www.topografix.com/GPX/1/1">'
    wpts = (
        '<wpt lat="28.7" lon="-81.1"><ele>12,5</ele><name>3,5</name></wpt>'
        '<wpt lat="28.71" lon="-81.1"><ele>13.5</ele><magvar> -4,25 </magvar></wpt>'
    )
    trk = '<trk><trkseg><trkpt lat="28.6" lon="-81.3"><ele>1,5</ele></trkpt></trkseg></trk>'
    path = tmp_path / "phone.gpx"
    path.write_text(head + wpts + trk + "</gpx>", encoding="utf-8")
    m = read_markers([path])
    assert m.attributes["ele"].tolist() == [12.5, 13.5]
    assert m.attributes["magvar"].tolist()[1] == -4.25
    assert m.attributes["name"].tolist()[0] == "3,5"
    assert m.notes == [
        f"{path}: also has 1 track point(s) and 0 route point(s), which are not read: the "
        "markers are its waypoints (a track is where the GPS went, not where the signs stand)"
    ]
    assert "parsed incompletely" not in capfd.readouterr().err


def test_a_gpx_vendor_field_with_a_decimal_comma_is_read_as_a_number(tmp_path, capfd):
    """A Garmin-style ``<extensions>`` field written ``1,5`` (a German phone app): GDAL typed
    the whole field as text (``'1,5'``, ``'2.25'``), where ``<ele>12,5</ele>`` is read as
    12.5. A field whose every value is a number is read as numbers: Depth 1.5 and 2.25, Temp 3
    and 12.5; a field with any other text (Label: ``3,5`` and ``x``) and GPX's own text
    (``<name>3,5</name>``) stay as written; nothing on stderr."""
    head = '<?xml version="1.0"?><gpx version="1.1" creator="t" '
    head += 'xmlns="http://www.topografix.com/GPX/1/1" '
    head += 'xmlns:gpxx="http://www.garmin.com/xmlschemas/GpxExtensions/v3">'

    def wpt(lat: str, name: str, depth: str, temp: str, label: str) -> str:
        return (
            f'<wpt lat="{lat}" lon="-81.1"><ele>12,5</ele><name>{name}</name><extensions>'
            f"<gpxx:Depth>{depth}</gpxx:Depth><gpxx:Temp>{temp}</gpxx:Temp>"
            f"<gpxx:Label>{label}</gpxx:Label></extensions></wpt>"
        )

    path = tmp_path / "phone.gpx"
    body = wpt("28.7", "3,5", "1,5", "3", "3,5") + wpt("28.71", "b", " 2.25 ", "12,5", "x")
    path.write_text(head + body + "</gpx>", encoding="utf-8")
    a = read_markers([path]).attributes
    assert a["gpxx_depth"].tolist() == [1.5, 2.25]
    assert a["gpxx_temp"].tolist() == [3.0, 12.5]
    assert a["gpxx_label"].tolist() == ["3,5", "x"]
    assert a["name"].tolist() == ["3,5", "b"]
    assert a["ele"].tolist() == [12.5, 12.5]
    assert capfd.readouterr().err == ""


def test_a_damaged_geopackage_geometry_is_said_to_be_unreadable_not_missing(tmp_path):
    """GDAL reads a GeoPackage geometry it cannot decode (a blob that is not a GeoPackage
    geometry) as none, saying so only on stderr: such a row is named as unreadable, in a slice
    too, and a row whose geometry is NULL in the file keeps "no geometry"."""

    from posting.io import _read_ogr_layer

    path = tmp_path / "lots.gpkg"
    boxes = [shapely.box(i * 0.01, 0, i * 0.01 + 0.01, 0.01) for i in range(5)]
    gpd.GeoDataFrame({"pid": list("abcde")}, geometry=boxes, crs=4326).to_file(path, layer="lots")
    gpkg_sql(
        path,
        "UPDATE lots SET geom = X'00112233' WHERE pid = 'b'",
        "UPDATE lots SET geom = NULL WHERE pid = 'c'",
        "UPDATE lots SET geom = 'not a geometry' WHERE pid = 'e'",
    )
    unreadable = "its geometry cannot be read: the GeoPackage's geometry is damaged"
    parcels = read_parcels(str(path), id_field="pid")
    assert parcels.problems == {1: unreadable, 4: unreadable}
    assert shapely.is_missing(parcels.geometry).tolist() == [False, True, True, False, True]
    _, problems, _ = _read_ogr_layer(str(path), None, features=(2, 5))  # c, d, e
    assert problems == {2: unreadable}
    rows = check(parcels).to_dict()["parcels"]
    reasons = {r["id"]: r.get("invalid_reason") for r in rows}
    assert reasons["b"] == unreadable and reasons["c"] == "no geometry", reasons


def test_positions_in_degrees_and_minutes_are_read_with_a_note(tmp_path):
    """A CSV of signs with positions copied from a compass app or a GPS's screen: read as
    decimal degrees (the same place as written in decimals), with a note on the file; a text
    that is not such an angle says why its row has no position."""
    path = tmp_path / "signs.csv"
    path.write_text(
        "sign,lat,lon\n"
        "a,28.7534167,-81.1170000\n"
        'b,"28°45\'12.3""N","81°07\'01.2""W"\n'
        "c,N28 45.205,W081 07.020\n"
        "d,28 45 61 N,81 07 01 W\n"
        "e,81°07'01.2\"W,28°45'12.3\"N\n",
        encoding="utf-8",
    )
    m = read_markers(str(path))
    assert m.lat[:3] == pytest.approx([28.7534167] * 3, abs=1e-7)
    assert m.lon[:3] == pytest.approx([-81.117] * 3, abs=1e-7)
    assert m.reason[:3].tolist() == [None, None, None]
    assert "seconds (61) are not below 60" in m.reason[3]
    assert "N is a latitude's hemisphere, in the longitude column" in m.reason[4]
    assert any("2 row(s) give lat in degrees and minutes" in n for n in m.notes), m.notes


def test_coordinates_far_outside_their_projected_crs_s_area_are_refused(tmp_path):
    """A surveyor's UTM metres labelled as State Plane feet (a .prj copied from another
    layer): as Florida East feet, the sample's lots lie in South Carolina, every length 3.28
    times too short. Refused, saying how far (the distance worked out here from the CRS's area
    of use, by pyproj), the likely CRS and the fix; the same file rightly labelled is read, and
    lots in Florida East's own feet are read."""
    from pyproj import CRS, Transformer

    lots = gpd.read_file(Path(__file__).parents[1] / "data" / "parcels.geojson")
    utm = lots.to_crs(26917)
    path = tmp_path / "lots.gpkg"
    utm.set_crs(2236, allow_override=True).to_file(path)
    east = CRS.from_epsg(2236)
    area = east.area_of_use
    to_east = Transformer.from_crs(east.geodetic_crs, east, always_xy=True)
    north_ft = to_east.transform_bounds(area.west, area.south, area.east, area.north, 21)[3]
    beyond_km = (utm.total_bounds[1] - north_ft) * 1200 / 3937 / 1000  # US survey feet
    with pytest.raises(CRSError) as err:
        read_parcels(str(path))
    said = str(err.value)
    assert f"lie {beyond_km:,.0f} km north of the area its CRS, NAD83 / Florida East" in said
    assert "as UTM zone 17N metres" in said and "ogr2ogr -a_srs EPSG:26917" in said
    utm.to_file(tmp_path / "right.gpkg")
    assert len(read_parcels(str(tmp_path / "right.gpkg"))) == len(lots)
    lots.to_crs(2236).to_file(tmp_path / "feet.gpkg")
    assert len(read_parcels(str(tmp_path / "feet.gpkg"))) == len(lots)


def test_state_plane_feet_labelled_as_the_metre_zone_are_refused_naming_the_feet_zone(tmp_path):
    """The sample's lots in Florida East US survey feet (EPSG:2236) labelled as the same zone
    in metres (EPSG:26958): every northing 3.28 times too far from the zone's origin, the lots
    hundreds of km north of Florida, where before the error guessed no CRS. Refused naming the
    zone in US survey feet (its numbers, read as such, fall in Florida East's area), by how far
    (worked out here from the CRS's area of use, by pyproj); so labelled, the file is read."""
    from pyproj import CRS, Transformer

    lots = gpd.read_file(Path(__file__).parents[1] / "data" / "parcels.geojson")
    feet = lots.to_crs(2236)
    path = tmp_path / "lots.gpkg"
    feet.set_crs(26958, allow_override=True).to_file(path)
    metre_zone = CRS.from_epsg(26958)
    area = metre_zone.area_of_use
    to_zone = Transformer.from_crs(metre_zone.geodetic_crs, metre_zone, always_xy=True)
    north_m = to_zone.transform_bounds(area.west, area.south, area.east, area.north, 21)[3]
    beyond_km = (feet.total_bounds[1] - north_m) / 1000  # the ftUS numbers read as metres
    with pytest.raises(CRSError) as err:
        read_parcels(str(path))
    said = str(err.value)
    assert f"lie {beyond_km:,.0f} km north of the area its CRS, NAD83 / Florida East," in said
    assert (
        "They fall inside that area as US survey feet of the same zone, NAD83 / Florida East "
        "(ftUS): if that is theirs, give the file that CRS (ogr2ogr -a_srs EPSG:2236 " in said
    )
    feet.to_file(tmp_path / "right.gpkg")
    assert len(read_parcels(str(tmp_path / "right.gpkg"))) == len(lots)


@pytest.mark.parametrize("suffix", [".gpkg", ".parquet"])
def test_context_features_that_cannot_be_used_are_left_out_and_named(tmp_path, suffix):
    """A water layer in UTM metres with a feature without geometry, one with a coordinate of
    1e300 m (a line) and one with a northing of 1e300 (which PROJ turns into a latitude of
    0.3 degrees: only the CRS's own coordinates show it), one with a coordinate that is not a
    number (read without numpy's warning): each is left out (its geometry None), by its row in
    the file and why; the others are kept as they are. With ``where``, the rows named are still
    the file's."""
    import warnings

    from posting.io import read_features

    lake = shapely.box(400_000, 3_100_000, 410_000, 3_110_000)
    geoms = [
        lake,
        None,
        shapely.LineString([(400_000, 3_100_000), (1e300, 3_100_000)]),
        shapely.Point(400_000, 3_100_000),
        shapely.Point(500_000, 1e300),
        shapely.LineString([(400_000, 3_100_000), (400_000, 3_100_000)]),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        geoms[5] = shapely.LineString([(400_000, 3_100_000), (np.nan, 3_100_000)])
    kind = ["lake", "lake", "lake", "pond", "lake", "lake"]
    path = tmp_path / f"water{suffix}"
    frame = gpd.GeoDataFrame({"kind": kind}, geometry=geoms, crs="EPSG:32617")
    frame.to_file(path) if suffix == ".gpkg" else frame.to_parquet(path)
    far = "not on the Earth: a coordinate beyond 304,800,000 m in WGS 84 / UTM zone 17N"
    nan = "a coordinate is not a number or not finite"
    want = {1: "no geometry", 2: far, 4: far, 5: nan}
    layer = read_features(path)
    assert layer.left_out == want
    assert [g is None for g in layer.geometry] == [False, True, True, False, True, True]
    assert shapely.equals(layer.geometry[0], lake)
    assert layer.warnings() == [
        f"{path}: 1 feature(s) left out (row 1): no geometry",
        f"{path}: 2 feature(s) left out (rows 2, 4): {far}",
        f"{path}: 1 feature(s) left out (row 5): {nan}",
    ]
    lakes = read_features(path, where="kind=lake")
    assert len(lakes) == 5 and lakes.left_out == want


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.one_of(
            st.none(),
            st.tuples(
                st.integers(0, 3),
                st.sampled_from(["x", "y"]),
                st.one_of(
                    st.floats(360.001, 1e300), st.floats(-1e300, -360.001), st.just(-811170.6)
                ),
            ),
        ),
        min_size=1,
        max_size=7,
    ),
    st.sampled_from([".geojson", ".parquet", ".gpkg"]),
)
def test_features_beyond_any_angle_are_theirs_or_the_layer_s_by_majority(tmp_path, lots, suffix):
    """Property: lots in degrees, some (``(vertex, axis, value)``) with one coordinate beyond
    any angle (a latitude is beyond from 90). Where they are at most half the layer, exactly
    they are problems, each naming its first vertex beyond; the others are read unchanged.
    Where they are most of it, the layer is refused, naming the first such lot's vertex."""
    geoms, stray = [], {}
    for k, lot in enumerate(lots):
        xy = [
            list(p)
            for p in shapely.box(-81.3 + k * 0.01, 28.6, -81.29 + k * 0.01, 28.61).exterior.coords
        ]
        if lot is not None:
            v, axis, value = lot
            xy[v]["xy".index(axis)] = value
            if v == 0:
                xy[-1] = list(xy[0])
            stray[k] = (xy[v][0], xy[v][1])
        geoms.append(shapely.Polygon(xy))
    path = tmp_path / f"lots{suffix}"
    path.unlink(missing_ok=True)
    frame = gpd.GeoDataFrame(geometry=geoms, crs="EPSG:4326")
    frame.to_parquet(path) if suffix == ".parquet" else frame.to_file(path)
    if len(stray) * 2 > len(lots):
        first = min(stray)
        with pytest.raises(CRSError, match="are not degrees") as err:
            read_parcels(path)
        x, y = stray[first]
        assert f"such as ({_shown(x)}, {_shown(y)})" in str(err.value)
        return
    layer = read_parcels(path)
    assert layer.problems == {k: _stray(_shown(x), _shown(y)) for k, (x, y) in stray.items()}
    kept = [k for k in range(len(lots)) if k not in stray]
    assert [g is None for g in layer.geometry] == [k in stray for k in range(len(lots))]
    read, written = layer.geometry[kept], np.asarray(geoms, dtype=object)[kept]
    assert shapely.equals_exact(read, written, tolerance=1e-9).all()  # (GeoJSON's digits)


def test_context_polygons_not_valid_are_named_as_made_valid(tmp_path):
    """A water layer's bowtie and a hole outside its shell are measured made valid (as the
    parcels' are repaired), and the report says so, by the file's row and GEOS's reason; a
    ``where`` that leaves one out keeps the other's row."""
    from posting.io import read_features

    lake = shapely.box(-81.30, 28.60, -81.29, 28.61)
    bowtie = shapely.Polygon([(-81.3, 28.6), (-81.2, 28.7), (-81.2, 28.6), (-81.3, 28.7)])
    holed = shapely.Polygon(
        lake.exterior.coords, [shapely.box(-81.2, 28.6, -81.1, 28.7).exterior.coords]
    )
    path = tmp_path / "water.gpkg"
    kind = ["lake", "pond", "lake", "lake"]
    geoms = [lake, bowtie, lake, holed]
    gpd.GeoDataFrame({"kind": kind}, geometry=geoms, crs="EPSG:4326").to_file(path)
    layer = read_features(path)
    assert layer.repaired == {1: "Self-intersection", 3: "Hole lies outside shell"}
    assert layer.left_out == {}
    assert layer.warnings() == [
        f"{path}: 1 polygon(s) not valid, made valid to be measured (row 1): Self-intersection",
        f"{path}: 1 polygon(s) not valid, made valid to be measured (row 3): Hole lies outside "
        "shell",
    ]
    assert read_features(path, where="kind=lake").repaired == {3: "Hole lies outside shell"}


def test_context_points_of_a_table_left_out_with_the_reason_of_their_row(tmp_path):
    """A CSV layer's rows whose position cannot be read keep the reader's reason, by the file's
    row, with a ``where`` that skips one of them too; a file's own notes come first."""
    from posting.io import read_features

    path = tmp_path / "dwellings.csv"
    path.write_bytes(
        "kind,lon,lat,name\nhouse,-81.0,28.0,\xe9\nhouse,-81.0,abc,a\nbarn,-81.0,xyz,b\n"
        "house,,28.1,c\nhouse,-81.0,28.2,d\n".encode("latin-1")
    )
    layer = read_features(path, where="kind=house")
    assert len(layer) == 4
    assert layer.left_out == {1: "lat 'abc' is not a number", 3: "no value in column 'lon'"}
    said = layer.warnings()
    assert len(said) == 3 and "read as Latin-1" in said[0]
    assert said[1:] == [
        f"{path}: 1 feature(s) left out (row 1): lat 'abc' is not a number",
        f"{path}: 1 feature(s) left out (row 3): no value in column 'lon'",
    ]


def test_feature_warnings_name_five_reasons_then_count_the_rest():
    from posting.io import feature_warnings, left_out_summary

    left = {r: f"reason {r % 7}" for r in range(30)}
    said = feature_warnings("x.gpkg", [], left_out_summary(left))
    assert said[0] == "x.gpkg: 5 feature(s) left out (rows 0, 7, 14, 21, 28): reason 0"
    assert said[4] == "x.gpkg: 4 feature(s) left out (rows 4, 11, 18, 25): reason 4"
    assert said[5] == "x.gpkg: 8 more feature(s) left out for other reasons"
    assert len(said) == 6


_ROWS = {  # (lon or x, lat or y) ranges of each kind of row
    "degrees": ((-82.0, -80.0), (25.0, 30.0)),
    "feet": ((500_000.0, 700_000.0), (1_400_000.0, 1_600_000.0)),  # Florida East, US survey ft
    "swapped": ((25.0, 30.0), (100.0, 170.0)),  # a latitude beyond 90 whose longitude would be one
    "far off": ((5_000_000.0, 6_000_000.0), (9_000_000.0, 9_500_000.0)),  # far off its area
}


def _read_rows(frame: pd.DataFrame, crs: str | None, kind: str, polygons: bool):
    """``frame`` read as :func:`posting.dataset.read_layer` reads a table, with its refusals
    (``_points_from_table``, then ``_check_crs_plausible``): as points (``kind``), or each row
    as a small box around its point."""
    from posting import io as pio

    if crs == "geometry":  # a geometry column in WGS 84 (GeoParquet): no columns to check
        x, y = (pd.to_numeric(frame[c]).to_numpy(dtype=float) for c in ("x", "y"))
        points = shapely.points(x, y)
        points[np.isnan(x)] = None
        layer = pio.Layer("rows.parquet", frame.drop(columns=["x", "y"]), points, pio.WGS84)
        if kind == "markers":
            layer = pio.Layer(
                layer.path, layer.frame, np.empty(0, dtype=object), layer.crs, xy=(x, y)
            )
    else:
        layer = pio._points_from_table(
            frame, "rows.parquet", None if crs is None else CRS(crs), kind=kind
        )
    if polygons and layer.xy is None:
        x, y = shapely.get_x(layer.geometry), shapely.get_y(layer.geometry)
        boxes = shapely.box(x - 1e-4, y - 1e-4, x + 1e-4, y + 1e-4)
        boxes[pd.isna(x)] = None
        layer = pio.Layer(layer.path, layer.frame, boxes, layer.crs, layer.problems)
    return pio._check_crs_plausible(layer, whole=not pio._PART_OF_FILE.get())


def _outcome(read):
    """The layer ``read()`` gives (its problems, and its points or geometry's WKT), or the
    refusal's kind and words."""
    try:
        layer = read()
    except (CRSError, InputError) as exc:
        return type(exc).__name__, str(exc)
    if layer.xy is not None:
        where = [repr(tuple(v)) for v in np.column_stack(layer.xy).round(9).tolist()]
    else:
        where = [None if g is None else g.wkt for g in layer.geometry]
    return layer.problems, where


_KINDS = [*sorted(_ROWS), "blank"]


@st.composite
def _table_rows(draw) -> list[tuple[str, float]]:
    """Rows of one kind mostly (so that a refusal, which needs most rows, is often due), a few
    of others anywhere among them; each with where in its kind's range it lies."""
    main = draw(st.sampled_from(_KINDS))
    n = draw(st.integers(1, 12))
    kinds = [main] * n
    for i in draw(st.lists(st.integers(0, n - 1), max_size=n)):
        kinds[i] = draw(st.sampled_from(_KINDS))
    return [(k, draw(st.floats(0, 1))) for k in kinds]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["lonlat", "projected", "geometry"]),
    _table_rows(),
    st.lists(st.integers(1, 11), max_size=4),
    st.sampled_from(["markers", "points", "polygons"]),
)
def test_a_layer_read_in_parts_is_refused_as_read_whole(layout, rows, cuts, kind):
    """Property: the rows of a table cut into parts, each read alone as a part of the layer
    (a dataset's pieces on the workers), then judged together (:func:`refuse_as_whole`, from
    each part's tallies), give what the table read whole gives: the same refusal, word for word
    (the first such row named by its place in the whole), or the same features and the same
    problems, each at its row."""
    from posting import io as pio

    columns = ("lon", "lat") if layout == "lonlat" else ("x", "y")
    crs = {"lonlat": None, "projected": "EPSG:2236", "geometry": "geometry"}[layout]
    values = []
    for what, t in rows:
        if what == "blank":
            values.append(("", ""))
            continue
        (x0, x1), (y0, y1) = _ROWS[what]
        values.append((repr(x0 + t * (x1 - x0)), repr(y0 + (1 - t) * (y1 - y0))))
    frame = pd.DataFrame(values, columns=list(columns), dtype=object)
    frame["name"] = [f"r{i}" for i in range(len(frame))]
    point_kind = "markers" if kind == "markers" else ""
    polygons = kind == "polygons"
    whole = _outcome(lambda: _read_rows(frame, crs, point_kind, polygons))

    edges = sorted({c for c in cuts if c < len(frame)})
    starts = [0, *edges]
    ends = [*edges, len(frame)]
    read_parts, parts = [], []
    with pio.part_of_file():
        for a, b in zip(starts, ends, strict=True):
            with pio.tallies() as seen:
                part = frame.iloc[a:b].reset_index(drop=True)
                read_parts.append(
                    _outcome(lambda part=part: _read_rows(part, crs, point_kind, polygons))
                )
            parts.append((a, list(seen)))
    assert all(isinstance(p[0], dict) for p in read_parts)  # no part is refused alone
    try:
        pio.refuse_as_whole(parts)
    except (CRSError, InputError) as exc:
        assert whole == (type(exc).__name__, str(exc))
        return
    problems = {
        a + r: why for a, (p, _) in zip(starts, read_parts, strict=True) for r, why in p.items()
    }
    assert whole == (problems, [w for _, ws in read_parts for w in ws])


def test_signs_where_chooses_the_markers_in_each_file_that_has_its_column(tmp_path):
    job = tmp_path / "job.csv"
    job.write_text(
        "point,lon,lat,description\n1,-81.30,28.60,SIGN\n2,-81.31,28.60,IRF\n"
        "3,-81.32,28.60, sign \n4,-81.33,28.60,\n"
    )
    phone = _write_csv(tmp_path, SIGNS, ("lon", "lat"))
    m = read_markers([job, phone], where="Description = SIGN")
    kinds = marker_kinds(m.attributes).tolist()
    assert kinds == ["sign", "other", "sign", "other"] + ["sign"] * len(SIGNS)
    assert any("job.csv: the rows whose description is not 'sign'" in n for n in m.notes)
    assert any(f"{phone}: has no column 'description'" in n for n in m.notes)
    assert first_recorded(m.attributes, "label").tolist()[:4] == ["1", "2", "3", "4"]
    # "COL in (...)" and several values
    m = read_markers([job], where="description in ('irf', 'SIGN')")
    assert marker_kinds(m.attributes).tolist() == ["sign", "sign", "sign", "other"]
    # a column no file has, or no expression: an error naming the option and the columns
    with pytest.raises(InputError, match=r"no marker file .* has a column 'desc'.*description"):
        read_markers([job, phone], where="desc=SIGN")
    with pytest.raises(InputError, match="expected COL=V1,V2"):
        read_markers([job], where="description")
    # without it, a described file is read whole, with a note
    m = read_markers([job])
    assert marker_kinds(m.attributes).tolist() == ["sign"] * 4
    assert any("has a 'description' column and no kind column" in n for n in m.notes)


def test_a_point_file_without_a_header_is_named_so(tmp_path):
    path = tmp_path / "job.csv"
    path.write_text("1,1602256.3,617664.5,10.0,SIGN\n2,1602300.0,617700.0,10.0,IRF\n")
    with pytest.raises(InputError, match=r"no header line.*\(1, 1602256.3, 617664.5, 10.0, SIGN\)"):
        read_markers([path], crs="EPSG:2236")
    path.write_text("point,northing,easting,elevation,description\n" + path.read_text())
    m = read_markers([path], crs="EPSG:2236")
    assert (m.x.tolist(), m.y.tolist()) == ([617664.5, 617700.0], [1602256.3, 1602300.0])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.text("abAB *?-", max_size=4)), max_size=12),
    st.sets(st.text("ab*?-", min_size=1, max_size=3), min_size=1, max_size=3),
)
def test_where_match_agrees_with_matching_each_value_alone(values, wanted):
    """Oracle: each value on its own, stripped and case-folded, equal to a wanted value or
    matching it as a shell pattern does (``fnmatchcase``, where ``*`` and ``?`` are the only
    wildcards: brackets are not in the alphabet); a blank (none, or spaces) matches nothing."""
    import fnmatch

    from posting.io import where_match

    def one(v):
        t = v.strip().casefold() if v is not None else ""
        wild = [w for w in wanted if "*" in w or "?" in w]
        return t != "" and (t in wanted or any(fnmatch.fnmatchcase(t, w) for w in wild))

    slow = [one(v) for v in values]
    assert where_match(values, wanted).tolist() == slow


def test_where_match_reads_a_column_of_numbers_by_value():
    """Worked by hand: a column of decimals (a GeoPackage's REAL, GeoJSON's ``1.0``) answers
    ``code=1`` as one of integers does, by value (``1.50`` is 1.5), a whole decimal matches
    patterns as the whole number (``1*``: 12.0, and 1.5 by its own text); text stays text
    (``01`` and ``1.0`` are not ``1``), a flag is not a number, and integers compare exactly
    (2**60 + 1 is not 2**60, which it is as a float)."""
    from decimal import Decimal

    from posting.io import where_match

    decimals = [1.0, 2.0, float("nan"), 1.5, 12.0, -0.0, None]
    assert where_match(decimals, {"1"}).tolist() == [1, 0, 0, 0, 0, 0, 0]
    assert where_match(decimals, {"1.50", "0"}).tolist() == [0, 0, 0, 1, 0, 1, 0]
    assert where_match(decimals, {"1*"}).tolist() == [1, 0, 0, 1, 1, 0, 0]
    assert where_match(decimals, {"1e0"}).tolist() == [1, 0, 0, 0, 0, 0, 0]
    assert where_match(["1.0", "01", " 1 ", "1"], {"1"}).tolist() == [0, 0, 1, 1]
    assert where_match([True, False], {"1", "0"}).tolist() == [0, 0]
    assert where_match([True], {"true"}).tolist() == [1]
    big = pd.array([2**60 + 1, 2**60, None], dtype="Int64")
    assert where_match(big, {str(2**60)}).tolist() == [0, 1, 0]
    assert where_match([Decimal("2.50"), Decimal("2")], {"2.5", "2.0"}).tolist() == [1, 1]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.integers(-300, 300)), max_size=12),
    st.sets(st.text("0123-.*?", min_size=1, max_size=4), min_size=1, max_size=3),
)
def test_where_match_chooses_whole_numbers_alike_as_integers_or_decimals(values, wanted):
    """A column of whole numbers chooses the same rows whether it was read as integers (with
    or without a blank), as decimals (Arrow's reading of one with a blank) or as Python
    numbers: a file read in slices and whole agrees."""
    from posting.io import where_match

    ints = where_match(pd.array(values, dtype="Int64"), wanted).tolist()
    floats = [np.nan if v is None else float(v) for v in values]
    assert where_match(np.array(floats, dtype=float), wanted).tolist() == ints
    assert where_match(values, wanted).tolist() == ints


def test_dwelling_where_on_a_column_of_decimals_chooses_by_value(tmp_path):
    """A land-use code stored as decimals (a GeoPackage's REAL column: ``1.0``) chooses the
    dwellings of ``--dwelling-where use=1``; before, its text ``1.0`` was never ``1`` and no
    lot was a dwelling. The same in a GeoJSON file of signs: ``--signs-where code=1``."""
    from posting.io import parcel_where

    lots = tmp_path / "lots.gpkg"
    gpd.GeoDataFrame(
        {"use": [1.0, 2.0, None, 1.0]},
        geometry=[
            shapely.box(500000 + 100 * i, 3e6, 500100 + 100 * i, 3e6 + 100) for i in range(4)
        ],
        crs="EPSG:32617",
    ).to_file(lots, engine="pyogrio")
    layer = read_parcels(lots)
    assert str(layer.attributes["use"].dtype) == "float64"
    assert parcel_where(layer, "USE=1", "dwelling_where").tolist() == [True, False, False, True]
    signs = tmp_path / "signs.geojson"
    features = ",".join(
        f'{{"type":"Feature","properties":{{"code":{c}}},'
        f'"geometry":{{"type":"Point","coordinates":[{x},{y}]}}}}'
        for (x, y), c in zip(SIGNS, ["1.0", "2.5", "null", "1"], strict=True)
    )
    signs.write_text(f'{{"type":"FeatureCollection","features":[{features}]}}')
    m = read_markers([signs], where="code=1")
    assert marker_kinds(m.attributes).tolist() == ["sign", "other", "other", "sign"]


def test_signs_where_takes_patterns_and_a_bad_expression_is_refused_before_reading(tmp_path):
    from posting.job import Job

    job = tmp_path / "job.csv"
    job.write_text(
        "point,lon,lat,description\n1,-81.30,28.60,SIGN 12\n2,-81.31,28.60,IRF\n"
        "3,-81.32,28.60,sign-nt\n4,-81.33,28.60,NO SIGN\n"
    )
    m = read_markers([job], where="description=sign*")
    assert marker_kinds(m.attributes).tolist() == ["sign", "other", "sign", "other"]
    with pytest.raises(InputError, match="expected COL=V1,V2") as info:
        Job(parcels="lots.geojson", signs=("nowhere.csv",), signs_where="description")
    assert info.value.parameter == "signs_where"


def _plans_gpx(tmp_path: Path) -> Path:
    """Two paint marks in a GPX, as ``posting plan`` writes them (``type`` paint)."""
    plan = tmp_path / "plan.gpx"
    plan.write_text(
        '<?xml version="1.0"?>\n<gpx version="1.1" creator="t" '
        'xmlns="http://www.topografix.com/GPX/1/1">\n'
        '<wpt lat="28.61" lon="-81.31"><name>P1</name><type>paint</type></wpt>\n'
        '<wpt lat="28.62" lon="-81.32"><name>P2</name><type>paint</type></wpt>\n</gpx>\n'
    )
    return plan


def test_a_plans_gpx_read_beside_a_survey_keeps_its_kinds(tmp_path):
    """The paint marks of a plan's GPX (``type`` paint, as ``posting plan`` writes it) read
    with a survey's CSV that has a kind column: paint, not signs (before, the CSV's column won
    and the GPX's rows, blank in it, were signs)."""
    survey = tmp_path / "survey.csv"
    survey.write_text("lon,lat,kind\n-81.30,28.60,sign\n")
    plan = _plans_gpx(tmp_path)
    m = read_markers([survey, plan])
    assert marker_kinds(m.attributes).tolist() == ["sign", "paint", "paint"]


def test_a_plans_gpx_read_beside_a_survey_with_point_types_keeps_its_kinds(tmp_path):
    """A survey CSV whose ``type`` column holds its point types (a monument among the signs)
    read with a plan's GPX (``type`` paint): each file's column is judged alone, so the GPX's
    marks are paint and the survey's rows signs (before: judged as one column, not all kinds,
    and the paint marks counted as signs). A subset of the markers keeps the judgement."""
    survey = tmp_path / "survey.csv"
    survey.write_text("lon,lat,type\n-81.30,28.60,sign\n-81.30,28.61,monument\n")
    plan = _plans_gpx(tmp_path)
    m = read_markers([survey, plan])
    assert m.type_kinds == frozenset({1})
    assert m.kinds().tolist() == ["sign", "sign", "paint", "paint"]
    from posting.distributed import markers_take

    assert markers_take(m, np.array([2])).kinds().tolist() == ["paint"]


@pytest.mark.parametrize("suffix", [".gpkg", ".shp", ".fgb", ".parquet"])
def test_whole_numbers_with_a_blank_are_integers_in_every_slice(tmp_path, suffix):
    """A column of GDAL's 32-bit integers (a Shapefile's or GeoPackage's whole numbers) with a
    blank in one row: pandas' nullable integers whether the rows read have the blank or not
    (a slice of the file, the file whole; a FlatGeobuf file without an index, read without
    Arrow; a plain Parquet table of lon/lat), so that a value read as text is ``2``, never
    ``2.0`` in one reading and ``2`` in another."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from posting.dataset import Given
    from posting.io import _read_ogr_layer, read_layer

    code = pd.array([1, 2, None, 4], dtype="Int32")
    path = tmp_path / f"lots{suffix}"
    if suffix == ".parquet":
        table = pa.table({"lon": [-81.0, -81.1, -81.2, -81.3], "lat": [28.0] * 4})
        pq.write_table(table.append_column("code", pa.array(code, pa.int32())), path)
        whole = read_layer(str(path), kind="markers").frame["code"]
        part = pq.read_table(path).slice(0, 2)  # a piece without the blank
        read = read_layer(str(path), kind="markers", prefetch=Given({str(path): part}))
        first = read.frame["code"]
    else:
        gdf = gpd.GeoDataFrame({"code": code}, geometry=shapely.points(range(4), range(4)))
        kw = {"SPATIAL_INDEX": "NO"} if suffix == ".fgb" else {}
        gdf.set_crs(4326).to_file(path, engine="pyogrio", **kw)
        whole = _read_ogr_layer(str(path), None)[0]["code"]
        first = _read_ogr_layer(str(path), None, features=(0, 2))[0]["code"]
    assert str(whole.dtype) == str(first.dtype) == "Int32"
    assert sorted(whole.astype("string").dropna()) == ["1", "2", "4"]
    assert sorted(first.astype("string").tolist()) == ["1", "2"]


def test_write_text_through_a_symbolic_link_writes_where_it_points(tmp_path):
    """The link is kept and its file written (the rename used to replace the link itself);
    a link to a file in a folder that does not exist is the folder's error."""
    (tmp_path / "shared").mkdir()
    link = tmp_path / "r.json"
    link.symlink_to(tmp_path / "shared" / "today.json")  # (not written yet)
    write_text(link, "new")
    assert link.is_symlink() and (tmp_path / "shared" / "today.json").read_text() == "new"
    write_text(link, "newer")
    assert link.is_symlink() and (tmp_path / "shared" / "today.json").read_text() == "newer"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "shared"]
    (tmp_path / "gone.json").symlink_to(tmp_path / "no" / "r.json")
    with pytest.raises(InputError, match=f"folder {tmp_path / 'no'} does not exist"):
        write_text(tmp_path / "gone.json", "x")


def test_a_geographic_crs_given_for_a_csv_of_lon_lat_is_said_not_to_apply(tmp_path):
    """Columns named lon/lat are WGS 84 (the README); ``--crs EPSG:4267`` given with such a file
    was passed over without a word: NAD27 positions read as WGS 84 stand 35 m (115 ft) off in
    Seminole County (PROJ's NAD27 to WGS 84 shift there), every sign beyond the 30 ft
    tolerance, the lot "unposted". The file is still read as WGS 84 (the same --crs may be meant
    for a parcel layer without one), with a warning that says how to read NAD27 positions:
    x/y columns take the CRS given, and then every sign is in place."""
    from pyproj import Transformer

    ll = (-81.2, 28.7)
    x27, y27 = Transformer.from_crs(4326, 4267, always_xy=True).transform(*ll)
    assert Geod(ellps="WGS84").inv(x27, y27, *ll)[2] > 30  # (the shift the warning is about)
    path = tmp_path / "signs.csv"
    path.write_text(f"lon,lat\n{x27:.9f},{y27:.9f}\n")
    m = read_markers([path], crs="EPSG:4267")
    assert (m.lon[0], m.lat[0]) == (pytest.approx(x27, abs=1e-9), pytest.approx(y27, abs=1e-9))
    said = [n for n in m.notes if "EPSG:4267" in n]
    assert len(said) == 1
    assert said[0].startswith(f"{path}: columns lon/lat are read as WGS 84 longitude/latitude")
    assert "NAD27" in said[0] and "name the columns x/y" in said[0]
    # as x/y columns with that CRS, the positions are NAD27's, shifted to WGS 84 by PROJ
    path.write_text(f"x,y\n{x27:.9f},{y27:.9f}\n")
    m = read_markers([path], crs="EPSG:4267")
    assert Geod(ellps="WGS84").inv(m.lon[0], m.lat[0], *ll)[2] < 0.01
    # WGS 84 itself, NAD83 (PROJ's shift from it is none) or a projected CRS: nothing to say
    path.write_text(f"lon,lat\n{ll[0]},{ll[1]}\n")
    for crs in ("EPSG:4326", "EPSG:4269", "EPSG:2236", None):
        assert not [n for n in read_markers([path], crs=crs).notes if "WGS 84" in n], crs
