"""A KML placemark's attributes as ArcGIS writes them: an HTML table in its description."""

from __future__ import annotations

import pandas as pd
import pytest
from helpers import (
    AT_SEA,
    CORNERS_AND_MIDPOINTS,
    LOCAL_FT,
    content_violations,
    markers,
    parcels,
    square,
)
from pyproj import Transformer

from posting import check
from posting.io import read_markers, read_parcels
from posting.kmltables import field_table

HEAD = '<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2">'


def arcgis_description(fields: dict[str, str], layer: str = "signs") -> str:
    """A description as ArcGIS' Layer To KML writes it: an outer table whose first row is the
    layer's name, its second a table of the fields (every other row shaded)."""
    rows = "".join(
        f"<tr{' bgcolor=#D4E4F3' if i % 2 else ''}><td>{k}</td><td>{v}</td></tr>"
        for i, (k, v) in enumerate(fields.items())
    )
    return (
        '<html xmlns:fo="http://www.w3.org/1999/XSL/Format"><head><META http-equiv="Content-'
        'Type" content="text/html"></head><body style="margin:0px"><table style="width:100%">'
        f'<tr style="text-align:center;font-weight:bold;background:#9CBCE2"><td>{layer}</td>'
        f'</tr><tr><td><table style="border-spacing:0px">{rows}</table></td></tr></table>'
        "</body></html>"
    )


def test_arcgis_s_table_of_fields_is_read_as_its_fields():
    """The table nested in the header's: its rows, as written (``&amp;`` is ``&``; ArcGIS'
    ``<Null>`` and a blank cell record nothing)."""
    desc = arcgis_description(
        {
            "FID": "0",
            "SIGN_TEXT": "NO TRESPASSING",
            "OWNER": "Smith &amp; Sons",
            "LETTER_HT": "&lt;Null&gt;",
            "PHOTO": " ",
        }
    )
    assert field_table(desc) == {
        "FID": "0",
        "SIGN_TEXT": "NO TRESPASSING",
        "OWNER": "Smith & Sons",
        "LETTER_HT": None,
        "PHOTO": None,
    }


@pytest.mark.parametrize(
    "desc",
    [
        "Sign on the oak by the gate, 2 in letters",
        None,
        '<a href="IMG_0042.jpg">photo</a><br>north side',
        "<table><tr><td>a</td><td>b</td><td>c</td></tr></table>",  # three columns: no fields
        "<table><tr><td>just one cell</td></tr></table>",
    ],
)
def test_a_description_that_is_no_table_of_fields_is_left_as_it_is(desc):
    assert field_table(desc) is None


def test_a_header_row_of_th_cells_is_not_a_field():
    """A table headed ``Field | Value`` in ``<th>`` cells: the header is not a field."""
    desc = "<table><tr><th>Field</th><th>Value</th></tr><tr><td>KIND</td><td>paint</td></tr>"
    assert field_table(desc + "</table>") == {"KIND": "paint"}


def _lonlat(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    to = Transformer.from_crs(LOCAL_FT, "EPSG:4326", always_xy=True)
    return [to.transform(x, y) for x, y in points]


def _kml(path, descriptions: list[str], names: list[str] | None = None) -> None:
    marks = "".join(
        f"<Placemark><name>{names[i] if names else i}</name><description><![CDATA[{d}]]>"
        f"</description><Point><coordinates>{lon:.10f},{lat:.10f}</coordinates></Point>"
        "</Placemark>"
        for i, (d, (lon, lat)) in enumerate(
            zip(descriptions, _lonlat(CORNERS_AND_MIDPOINTS), strict=True)
        )
    )
    path.write_text(f"{HEAD}<Document><Folder><name>signs</name>{marks}</Folder></Document></kml>")


def test_an_arcgis_kml_s_sign_text_letters_and_name_are_checked(tmp_path):
    """ArcGIS' Layer To KML of the eight signs of a 1,000 ft square (corners and midpoints):
    their text, letter height and name were in the descriptions' tables, which GDAL gives as
    one HTML text, so each content rule was 'not checked' and the lot compliant. Read as
    columns, the check finds what the same table built in code gives: one letter height of
    1.75 in (under 2 in), one sign without "no trespassing", one without the owner's name
    (blank: not recorded), the sign given '<Null>' letters not recorded. A ninth placemark's
    free-text description would be left as it is (below)."""
    heights = ["2", "1.75", "3", "&lt;Null&gt;", "2", "2", "2", "2"]
    texts = ["No Trespassing"] * 7 + ["Private property"]
    names = ["J. Smith"] * 6 + ["none", ""]
    descs = [
        arcgis_description(
            {"FID": str(i), "SIGN_TEXT": t, "LETTER_HEIGHT_IN": h, "NAME_ON_SIGN": n}
        )
        for i, (t, h, n) in enumerate(zip(texts, heights, names, strict=True))
    ]
    path = tmp_path / "signs.kml"
    _kml(path, descs)
    read = read_markers([path])
    assert read.attributes["sign_text"].tolist() == texts
    assert read.attributes["description"].isna().all()  # (the fields, not a description)
    lot = parcels(square(), owners=["SMITH JOHN"])
    p = check(lot, read, settings=AT_SEA).to_dict()["parcels"][0]
    content_violations(p)
    # the second method: the same table under the canonical names, built in code
    canonical = pd.DataFrame(
        {"sign_text": texts, "letter_height_in": heights, "name_on_sign": names}
    ).replace({"": None, "&lt;Null&gt;": None})
    q = check(lot, markers(CORNERS_AND_MIDPOINTS, attributes=canonical), settings=AT_SEA).to_dict()[
        "parcels"
    ][0]
    assert p["violations"] == q["violations"] and p["not_checked"] == q["not_checked"]
    assert {x["rule"]: x["message"] for x in p["not_checked"]}["letter_height"] == (
        "not recorded for 1 of 8 signs"
    )


def test_a_free_text_description_stays_a_description(tmp_path):
    """Beside ArcGIS' tables, a placemark described in words keeps its description, and has
    no field of the others'."""
    descs = [arcgis_description({"SIGN_TEXT": "NO TRESPASSING"})] * 7 + ["by the gate"]
    path = tmp_path / "signs.kml"
    _kml(path, descs)
    a = read_markers([path]).attributes
    assert a["description"].tolist()[7] == "by the gate"
    assert a["description"].isna().sum() == 7
    assert a["sign_text"].isna().tolist() == [False] * 7 + [True]


def test_a_parcel_kml_s_table_gives_the_id_and_owner_columns(tmp_path):
    """Parcels saved by Layer To KML: ``--id-field PARCEL_ID`` and ``--owner-field OWNER``
    name fields of the tables (they were no columns: refused)."""
    ring = "-81.1,28.7 -81.09,28.7 -81.09,28.71 -81.1,28.71 -81.1,28.7"
    fields = {"PARCEL_ID": "007", "OWNER": "SMITH JOHN"}
    path = tmp_path / "lots.kml"
    path.write_text(
        f"{HEAD}<Document><Placemark><name>lot</name><description><![CDATA["
        f"{arcgis_description(fields, 'lots')}]]></description><Polygon><outerBoundaryIs>"
        f"<LinearRing><coordinates>{ring}</coordinates></LinearRing></outerBoundaryIs>"
        "</Polygon></Placemark></Document></kml>"
    )
    lay = read_parcels(path, id_field="PARCEL_ID", owner_field="OWNER")
    assert list(lay.ids) == ["007"] and list(lay.owners) == ["SMITH JOHN"]
