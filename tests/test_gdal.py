"""GDAL's messages in threads other than the one that imported pyogrio: never printed raw."""

from __future__ import annotations

import threading
import warnings

import geopandas as gpd
import shapely
from helpers import gpkg_sql

from posting.io import read_parcels

# A ring that is not closed, which GDAL's KML reader closes with a message ("Non closed ring
# detected"); the reader says so in a note.
OPEN_RING = (
    '<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2">'
    "<Document><Placemark><name>lot</name><Polygon><outerBoundaryIs><LinearRing><coordinates>"
    "-81.5,27.1 -81.4,27.1 -81.4,27.2 -81.5,27.2</coordinates></LinearRing></outerBoundaryIs>"
    "</Polygon></Placemark></Document></kml>"
)


def test_a_file_read_in_another_thread_has_gdal_print_nothing(tmp_path, capfd):
    """Without pyogrio's handler in the reading thread, GDAL printed "Warning 1: Non closed
    ring detected" on stderr by itself; the reader's note says it instead."""
    path = tmp_path / "lot.kml"
    path.write_text(OPEN_RING)
    read = {}

    def work() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            read["parcels"] = read_parcels(str(path))

    for _ in range(2):  # a new thread each time
        t = threading.Thread(target=work)
        t.start()
        t.join()
    err = capfd.readouterr().err
    assert "Warning 1" not in err and "Non closed ring" not in err, err
    parcels = read["parcels"]
    assert len(parcels.geometry) == 1 and any("not closed" in n for n in parcels.notes)


def test_an_unreadable_geometry_in_another_thread_is_a_row_without_one(tmp_path, capfd):
    """A GeoPackage geometry that is not a GeoPackage blob: GDAL printed "ERROR 1: Unable to
    read geometry"; the row is read without its geometry (and reported invalid)."""

    path = tmp_path / "lots.gpkg"
    gpd.GeoDataFrame(
        {"pid": ["a", "b"]}, geometry=[shapely.box(0, 0, 0.01, 0.01)] * 2, crs=4326
    ).to_file(path, layer="lots")
    gpkg_sql(path, "UPDATE lots SET geom = X'00112233' WHERE pid = 'b'")
    read = {}
    t = threading.Thread(target=lambda: read.update(p=read_parcels(str(path), id_field="pid")))
    t.start()
    t.join()
    assert "ERROR 1" not in capfd.readouterr().err
    assert shapely.is_missing(read["p"].geometry).tolist() == [False, True]
