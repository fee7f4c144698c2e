"""KML ``<coordinates>`` GDAL would misread: found by their row and line, refused on reading."""

from __future__ import annotations

import warnings
import zipfile

import pyogrio
import pytest
import shapely
from hypothesis import event, given, settings
from hypothesis import strategies as st

from posting.errors import InputError
from posting.io import read_markers, read_parcels
from posting.kmlcoords import first_misread, misreads, tuple_problem


def kml(body: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<kml xmlns="http://www.opengis.net/kml/2.2"><Document>{body}</Document></kml>'
    )


def placemark(name: str, coordinates: str, geometry: str = "Point") -> str:
    return (
        f"<Placemark><name>{name}</name><{geometry}><coordinates>{coordinates}</coordinates>"
        f"</{geometry}></Placemark>"
    )


def gdal_points(tmp_path, texts: list[str]) -> list[tuple[float, float]]:
    """Each text as GDAL reads it in a Point of its own: (x, y)."""
    path = tmp_path / "points.kml"
    path.write_text(kml("".join(placemark(f"p{i}", t) for i, t in enumerate(texts))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        geoms = pyogrio.read_dataframe(path).geometry
    return [(g.x, g.y) for g in geoms]


# Read as written: the standard's form and what GDAL reads as meant beside it.
READ_AS_WRITTEN = {
    "-81.5,27.1": (-81.5, 27.1),
    "-81.5, 27.1": (-81.5, 27.1),
    "-81.5 ,27.1": (-81.5, 27.1),
    "-81.5\t,\t27.1": (-81.5, 27.1),
    "-81.5,27.1,": (-81.5, 27.1),
    "-81.5,27.1,12.5,": (-81.5, 27.1),
    "\n   -81.5,27.1,0\n  ": (-81.5, 27.1),
    "-8.15e1,2.71E1": (-81.5, 27.1),
    "+81.5,27.1": (81.5, 27.1),
    ".5,27.1": (0.5, 27.1),
    "5.,27.1": (5.0, 27.1),
    ",-81.5,27.1": (-81.5, 27.1),
    "-81.5,27.1,abc": (-81.5, 27.1),  # an altitude GDAL reads as 0: not used
}
# Misread: what the writer meant (None where it cannot be told) and what GDAL reads.
MISREAD = {
    "-81.5 27.1": ((-81.5, 27.1), (0, 0)),  # a space for the comma
    "x,27.1": (None, (0, 27.1)),  # not a number
    "81.5.3,27.1": (None, (81.5, 27.1)),  # cut short
    "-81,5,27,1": ((-81.5, 27.1), (-81, 5)),  # decimal commas
    "\u221281.5,27.1": ((-81.5, 27.1), (0, 27.1)),  # a minus sign that is not ASCII
    "-81.5,,27.1": ((-81.5, 27.1), (-81.5, 0)),  # two commas
    "": (None, (0, 0)),  # no position
    "-81.5": (None, (0, 0)),  # no latitude
}


def test_what_gdal_reads_as_written_is_accepted_and_what_it_misreads_is_not(tmp_path):
    """The oracle is GDAL itself: every text accepted is read by GDAL as the numbers written,
    and every text refused is read as other than the writer meant."""
    accepted = gdal_points(tmp_path, list(READ_AS_WRITTEN))
    for (text, meant), got in zip(READ_AS_WRITTEN.items(), accepted, strict=True):
        assert tuple_problem(text, point=True) is None, text
        assert got == pytest.approx(meant), text
    refused = gdal_points(tmp_path, list(MISREAD))
    for (text, (meant, gdal)), got in zip(MISREAD.items(), refused, strict=True):
        assert tuple_problem(text, point=True) is not None, text
        assert got == pytest.approx(gdal), text
        assert meant is None or got != pytest.approx(meant), text


def test_the_reasons_name_the_likely_mistake():
    assert "a space where a comma belongs" in tuple_problem("-81.5 27.1", point=True)
    assert "decimal commas" in tuple_problem("-81,5,27,1", point=True)
    assert "no position" in tuple_problem("  ", point=False)
    assert "'nan'" in tuple_problem("nan,27.1", point=True)
    assert "too large" in tuple_problem("1e400,27.1", point=True)
    # a Point keeps its first position; a line has several
    assert "2 positions" in tuple_problem("-81.5,27.1 -81.4,27.2", point=True)
    assert tuple_problem("-81.5,27.1 -81.4,27.2", point=False) is None


coordinate = st.floats(-180, 180, allow_nan=False).map(lambda v: round(v, 7))
latitude = st.floats(-90, 90, allow_nan=False).map(lambda v: round(v, 7))
spacing = st.sampled_from(["", " ", "  ", "\t", "\n"])


@st.composite
def written(draw) -> tuple[str, float, float]:
    """A position as a KML writer might write it: its numbers in any float form, spaces
    beside the commas, an altitude or a trailing comma."""
    lon, lat = draw(coordinate), draw(latitude)
    form = draw(st.sampled_from(["{!r}", "{:.7f}", "{:.6e}", "{:+.7f}"]))
    a, b = form.format(lon), form.format(lat)
    sep = draw(spacing) + "," + draw(spacing)
    tail = draw(st.sampled_from(["", ",", ",0", ",12.5", ",12.5,"]))
    return draw(spacing) + a + sep + b + tail + draw(spacing), float(a), float(b)


@settings(max_examples=20, deadline=None)
@given(st.lists(written(), min_size=1, max_size=20))
def test_positions_written_in_any_accepted_form_are_read_as_written(tmp_path_factory, points):
    """Property: whatever the form of an accepted position, GDAL reads the numbers written."""
    tmp_path = tmp_path_factory.mktemp("kml")
    got = gdal_points(tmp_path, [t for t, _, _ in points])
    for (text, lon, lat), xy in zip(points, got, strict=True):
        assert tuple_problem(text, point=True) is None, text
        assert xy == pytest.approx((lon, lat), abs=1e-9), text


def test_the_misread_placemark_is_found_by_its_row_as_gdal_numbers_rows(tmp_path):
    """GDAL makes a layer of each Document and Folder (their own placemarks, in the order they
    open), so a Document's placemark after a Folder comes before the Folder's rows: here 'a2'
    is the fourth row (d1, d2, a1, a2), on line 5."""
    path = tmp_path / "signs.kml"
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>signs</name>',
        placemark("d1", "-81.50,27.10"),
        "<Folder><name>A</name>" + placemark("a1", "-81.51,27.11"),
        placemark("a2", "{}"),
        "<Folder><name>AA</name>" + placemark("aa1", "-81.52,27.12") + "</Folder></Folder>",
        placemark("d2", "-81.53,27.13"),
        "</Document></kml>",
    ]
    text = "\n".join(lines)
    path.write_text(text.replace("{}", "-81.54 27.14"))
    found = first_misread(str(path))
    assert (found.row, found.line, found.name) == (3, 5, "a2")
    with pytest.raises(InputError, match=r"row 3 \('a2', line 5\).*-81\.54 27\.14") as err:
        read_markers(str(path))
    assert err.value.row == 3
    path.write_text(text.replace("{}", "-81.54,27.14"))
    assert first_misread(str(path)) is None
    m = read_markers(str(path))
    assert m.row.tolist() == [0, 1, 2, 3, 4]
    assert m.lon.tolist() == pytest.approx([-81.50, -81.53, -81.51, -81.54, -81.52])


def polygon(name: str, ring: str) -> str:
    return (
        f"<Placemark><name>{name}</name><Polygon><outerBoundaryIs><LinearRing><coordinates>"
        f"{ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>"
    )


def test_a_kmz_is_checked_in_its_main_kml_and_a_polygon_in_its_rings(tmp_path):
    """A KMZ's doc.kml is what GDAL reads; a polygon's rings are checked like points."""
    ring = "-81.5,27.1 -81.4,27.1 -81.4,27.2 -81.5,27.2 -81.5,27.1"
    bad_ring = ring.replace("-81.4,27.2", "-81,4,27,2")
    for name, body in [
        ("bad", polygon("lot 1", ring) + polygon("lot 2", bad_ring)),
        ("good", polygon("lot 1", ring)),
    ]:
        with zipfile.ZipFile(tmp_path / f"{name}.kmz", "w") as z:
            z.writestr("files/readme.txt", "not KML")
            z.writestr("doc.kml", kml(body))
    found = first_misread(str(tmp_path / "bad.kmz"))
    assert (found.row, found.name) == (1, "lot 2") and "decimal commas" in found.why
    assert first_misread(str(tmp_path / "good.kmz")) is None


def test_a_file_gdal_writes_is_accepted(tmp_path):
    """KML as GDAL writes it (the form most tools export) passes the check unchanged."""
    import geopandas as gpd

    pts = gpd.GeoDataFrame(
        {"Name": ["a", "b"]},
        geometry=[shapely.Point(-81.123456789, 28.5), shapely.Point(-81.2, 28.987654321)],
        crs=4326,
    )
    path = tmp_path / "signs.kml"
    pts.to_file(path, driver="LIBKML")
    assert first_misread(str(path)) is None
    assert read_markers(str(path)).lon.tolist() == pytest.approx([-81.123456789, -81.2])


def test_with_a_layer_only_its_placemarks_are_checked_and_rows_are_its_own(tmp_path):
    """A Google Earth file of a farm's signs and its lots' outlines in two folders: reading
    the outlines' folder alone (``--layer``), a misread sign does not matter; a misread lot is
    named by its row in that folder (the Document's own placemark and the signs' folder come
    first in the file)."""
    ring = "-81.5,27.1 -81.4,27.1 -81.4,27.2 -81.5,27.2 -81.5,27.1"
    east = ring.replace("-81.5", "-81.3").replace("-81.4", "-81.2")

    def file(second_sign: str, second_lot: str) -> str:
        return kml(
            placemark("home", "-81.45,27.15")
            + "<Folder><name>Signs</name>"
            + placemark("s1", "-81.5,27.11")
            + placemark("s2", second_sign)
            + "</Folder><Folder><name>Outlines</name>"
            + polygon("lot 1", ring)
            + polygon("lot 2", second_lot)
            + "</Folder>"
        )

    path = tmp_path / "farm.kml"
    path.write_text(file("-81.5 27.12", east))
    assert [(m.row, m.name) for m in misreads(str(path))] == [(2, "s2")]
    assert read_parcels(str(path), layer="Outlines").ids.tolist() == ["0", "1"]
    with pytest.raises(InputError, match=r"row 2 \('s2', line 1\)"):
        read_parcels(str(path))
    path.write_text(file("-81.5,27.12", east.replace("-81.2,27.2", "-81.2 27.2")))
    with pytest.raises(InputError, match=r"row 1 \('lot 2', line 1\).*'-81.2'") as err:
        read_parcels(str(path), layer="Outlines")
    assert err.value.row == 1


@st.composite
def coordinates_text(draw) -> str:
    """Tuples as writers write them, sometimes with a mistake spliced in (a comma, a space,
    an exponent, a letter) anywhere."""
    number = st.sampled_from(["1", "-81.5", "+27.1", ".5", "5.", "0", "123.456789"])
    space = st.sampled_from(["", " ", "  ", "\t", "\n"])
    tuples = draw(st.lists(st.lists(number, min_size=1, max_size=4), min_size=1, max_size=4))
    parts = []
    for t in tuples:
        parts.append(
            "".join(
                n + (draw(space) + "," + draw(space) if k < len(t) - 1 else "")
                for k, n in enumerate(t)
            )
        )
    text = draw(space) + " ".join(parts) + draw(space)
    if draw(st.booleans()):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from([",", " ", "e5", "x", ".", "-"])) + text[at:]
    return text


@settings(max_examples=400, deadline=None)
@given(coordinates_text(), st.booleans())
def test_the_quick_check_accepts_only_what_the_tuple_by_tuple_check_accepts(text, point):
    """Oracle: where the one-regex check of plain coordinates accepts a text, the slow check,
    tuple by tuple, accepts it too (the quick check is a shortcut, never a wider rule)."""
    from posting.kmlcoords import _PLAIN, _PLAIN_ONE, _tuple_problem

    quick = (_PLAIN_ONE if point else _PLAIN).fullmatch(text)
    event(f"quick check accepts: {bool(quick)}")
    if quick:
        assert _tuple_problem(text, point) is None, text


# -- network links: places Google Earth loads from elsewhere -----------------------------------

LINK = "<NetworkLink><name>live</name><Link><href>{}</href></Link></NetworkLink>"


@pytest.mark.parametrize("root", [True, False], ids=["link-at-root", "link-in-document"])
@pytest.mark.parametrize("kind", ["parcels", "markers"])
def test_a_kml_of_network_links_only_is_refused_naming_the_link(tmp_path, root, kind):
    """GDAL refused the first ("does not fit the OGR model, there is no container element at
    the root") and read no row of the second ("no markers", "no parcels"): a Google Earth
    layer that loads its places from a server."""
    from posting.kmlcoords import network_links

    links = LINK.format("https://example.com/a.kmz") + LINK.format("b.kml")
    text = (
        '<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2">'
        f"{links}</kml>"
        if root
        else kml(f"<name>mine</name>{links}")
    )
    path = tmp_path / "linked.kml"
    path.write_text(text)
    kmz = tmp_path / "linked.kmz"
    with zipfile.ZipFile(kmz, "w") as z:
        z.writestr("doc.kml", text)
    assert (
        network_links(str(path))
        == network_links(str(kmz))
        == ["https://example.com/a.kmz", "b.kml"]
    )
    reader = read_parcels if kind == "parcels" else read_markers
    for p in (path, kmz):
        with pytest.raises(InputError) as info:
            reader(str(p))
        assert str(info.value) == (
            f"{p}: has no placemarks of its own, only a network link to "
            "https://example.com/a.kmz and 1 more, which Google Earth follows and this reader "
            "does not: download what it links to, or save the places Google Earth loaded from "
            "it as KML (Save Place As), and give that file"
        )


def test_a_network_link_beside_placemarks_is_said_in_a_note(tmp_path):
    path = tmp_path / "signs.kml"
    body = placemark("s1", "-81.1,28.7") + LINK.format("more.kml")
    path.write_text(kml(body))
    layer = read_markers(str(path))
    assert len(layer) == 1
    assert layer.notes == [
        f"{path}: also links to more.kml (a network link, which Google Earth follows and this "
        "reader does not): the places there were not read; download them, or save them from "
        "Google Earth as KML, and give that file too"
    ]
    plain = tmp_path / "plain.kml"
    plain.write_text(kml(placemark("s1", "-81.1,28.7")))
    assert read_markers(str(plain)).notes == []


# -- a KMZ whose links name KML files inside it ---------------------------------------------


def _kmz(path, doc: str, members: dict[str, str]) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("doc.kml", doc)
        for name, text in members.items():
            z.writestr(name, text)


SIGNS = kml(
    "<Folder><name>signs</name>"
    + placemark("S0", "-81.1,28.7")
    + placemark("S1", "-81.1,28.701")
    + "</Folder>"
)


@pytest.mark.parametrize(
    "href, where",
    [
        ("files/signs.kml", ""),  # GDAL followed it, and left out the main KML's own M
        ("./files/signs.kml", ""),  # GDAL did not follow it: "download them"
        ("files/signs.kml", "<Folder><name>F</name>{}</Folder>"),  # in a folder: not followed
        ("files/signs%20(1).kml", ""),  # (a name with blanks, as a URL writes it)
    ],
    ids=["files", "dot-slash", "in-a-folder", "escaped"],
)
def test_a_kmz_s_link_to_a_kml_inside_it_is_read(tmp_path, href, where):
    """Google Earth saves a layer with the files it loads inside the KMZ, its doc.kml linking
    to them. Each linked file is read after the main KML's own placemark M: three signs, M,
    S0 and S1 in that order, and no note saying the places were not read (before: GDAL read
    1, 2 or none of the 3, and said the places behind the link were not read, or refused the
    file)."""
    link = LINK.format(href)
    doc = kml(placemark("M", "-81.1,28.8") + (where.format(link) if where else link))
    member = "files/signs (1).kml" if "%20" in href else "files/signs.kml"
    path = tmp_path / "survey.kmz"
    _kmz(path, doc, {member: SIGNS})
    m = read_markers(str(path))
    assert m.attributes["name"].tolist() == ["M", "S0", "S1"]
    assert m.lat.tolist() == [28.8, 28.7, 28.701] and m.row.tolist() == [0, 1, 2]
    assert m.notes == []


def test_a_kmz_linking_inside_and_to_the_web_reads_one_and_names_the_other(tmp_path):
    """Only links: one to a KML inside (read), one to a server (named in the note), one to a
    file not in the KMZ (named too): the places inside are read and the file is not refused."""
    links = [LINK.format(h) for h in ("https://example.com/live.kmz", "a.kml", "gone.kml")]
    path = tmp_path / "survey.kmz"
    _kmz(path, kml("".join(links)), {"a.kml": SIGNS})
    m = read_markers(str(path))
    assert m.attributes["name"].tolist() == ["S0", "S1"]
    assert m.notes == [
        f"{path}: also links to https://example.com/live.kmz and 1 more (a network link, which "
        "Google Earth follows and this reader does not): the places there were not read; "
        "download them, or save them from Google Earth as KML, and give that file too"
    ]


def test_a_misread_position_in_a_linked_kml_is_named_by_its_row_and_file(tmp_path):
    """The linked file's second placemark is written with a space for the comma (GDAL places
    it at 0, 0): refused, naming its row among all read (M is row 0, so row 2), its line in
    the linked file and the file."""
    bad = kml(placemark("S0", "-81.1,28.7") + "\n" + placemark("S1", "-81.1 28.701"))
    path = tmp_path / "survey.kmz"
    doc = kml(placemark("M", "-81.1,28.8") + LINK.format("files/signs.kml"))
    _kmz(path, doc, {"files/signs.kml": bad})
    with pytest.raises(InputError) as info:
        read_markers(str(path))
    assert str(info.value).startswith(
        f"{path}: the placemark of row 2 ('S1', line 2 of files/signs.kml) has "
        "<coordinates>-81.1 28.701</coordinates>"
    )


# -- --layer among the linked files' layers; links of linked files, beside a KML, KMZ in KMZ --


def lot(name: str, x: float) -> str:
    """A 0.001-degree square lot at (x, 28.7), as a placemark."""
    ring = f"{x},28.7 {x + 0.001},28.7 {x + 0.001},28.701 {x},28.701 {x},28.7"
    return placemark(name, ring, "Polygon><outerBoundaryIs><LinearRing").replace(
        "</Polygon><outerBoundaryIs><LinearRing>", "</LinearRing></outerBoundaryIs></Polygon>"
    )


def folder(name: str, body: str) -> str:
    return f"<Folder><name>{name}</name>{body}</Folder>"


def _lots_kmz(path, own: str = "A") -> None:
    """doc.kml: folder Own (lot A) and links to files/lots.kml (folder Lots: B, C) and
    files/other.kml (folder Other: D)."""
    doc = kml(
        folder("Own", lot(own, -81.1))
        + LINK.format("files/lots.kml")
        + LINK.format("files/other.kml")
    )
    lots = kml(folder("Lots", lot("B", -81.09) + "\n" + lot("C", -81.08)))
    _kmz(
        path,
        doc,
        {"files/lots.kml": lots, "files/other.kml": kml(folder("Other", lot("D", -81.07)))},
    )


def test_a_layer_named_is_chosen_among_the_places_the_links_lead_to(tmp_path):
    """Without --layer, the KMZ's lots are A (its own), B, C, D (the two linked files'). With
    --layer Lots, GDAL read its own layers of the KMZ: B and C, saying the linked places were
    not read; with --layer Own (the main KML's folder) it refused the file, there being no
    such layer among GDAL's ('files/lots.kml', 'Lots', 'files/other.kml', 'Other'). Now each
    names the folder among the files read link by link: Lots B, C; Own A; Other D, without a
    note; a name of none is refused naming the folders there are."""
    path = tmp_path / "lots.kmz"
    _lots_kmz(path)
    assert read_parcels(str(path)).attributes["Name"].tolist() == ["A", "B", "C", "D"]
    for layer, names in {"Lots": ["B", "C"], "Own": ["A"], "Other": ["D"]}.items():
        p = read_parcels(str(path), layer=layer)
        assert p.attributes["Name"].tolist() == names, layer
        assert p.notes == [], layer
    with pytest.raises(InputError) as info:
        read_parcels(str(path), layer="Roads")
    assert info.value.parameter == "layer"
    assert "there is no layer 'Roads'" in str(info.value)
    assert "'Own', 'Lots', 'Other'" in str(info.value)


def test_a_misread_position_in_a_layer_named_is_named_by_its_row_in_the_layer(tmp_path):
    """C, the second lot of Lots (line 2 of files/lots.kml), written with a space for a comma:
    with --layer Lots it is row 1 (B is row 0); with --layer Other it is not read, and D is."""
    path = tmp_path / "lots.kmz"
    _lots_kmz(path)
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n).decode() for n in z.namelist()}
    members["files/lots.kml"] = members["files/lots.kml"].replace("-81.08,28.7 ", "-81.08 28.7 ")
    doc = members.pop("doc.kml")
    _kmz(path, doc, members)
    with pytest.raises(InputError) as info:
        read_parcels(str(path), layer="Lots")
    assert str(info.value).startswith(
        f"{path}: the placemark of row 1 ('C', line 2 of files/lots.kml) has <coordinates>"
    )
    assert read_parcels(str(path), layer="Other").attributes["Name"].tolist() == ["D"]


def test_a_kml_s_link_to_a_file_beside_it_is_followed_once_and_the_web_never(tmp_path):
    """main.kml (lot A) links to other.kml beside it (lot B), which links back to main.kml,
    and to a server: A and B, each read once, and one note naming the server's link (not
    fetched). A file linking to itself is read once, without a note. Before: B was not read
    and the note said other.kml was not followed; the file linking to itself said so of
    itself."""
    web = "https://example.com/live.kml"
    (tmp_path / "main.kml").write_text(
        kml(folder("Own", lot("A", -81.1)) + LINK.format("other.kml") + LINK.format(web))
    )
    (tmp_path / "other.kml").write_text(
        kml(folder("Other", lot("B", -81.09)) + LINK.format("main.kml"))
    )
    p = read_parcels(str(tmp_path / "main.kml"))
    assert p.attributes["Name"].tolist() == ["A", "B"]
    assert p.notes == [
        f"{tmp_path / 'main.kml'}: also links to {web} (a network link, which Google Earth "
        "follows and this reader does not): the places there were not read; download them, "
        "or save them from Google Earth as KML, and give that file too"
    ]
    assert read_parcels(str(tmp_path / "other.kml")).attributes["Name"].tolist() == ["B", "A"]
    (tmp_path / "self.kml").write_text(kml(lot("S", -81.1) + LINK.format("self.kml")))
    p = read_parcels(str(tmp_path / "self.kml"))
    assert p.attributes["Name"].tolist() == ["S"] and p.notes == []


def test_a_kmz_in_a_kmz_and_a_linked_file_s_own_link_are_read(tmp_path):
    """outer.kmz: its own lot A, a link to files/inner.kmz (a KMZ inside it: lot I) and one
    to files/deep.kml (lot D), which links to deeper.kml beside it (lot E). Before: A and D
    only, E left out without a word, and inner.kmz named as not read."""
    import io

    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("doc.kml", kml(folder("Inner", lot("I", -81.08))))
    doc = kml(
        folder("Own", lot("A", -81.1))
        + LINK.format("files/inner.kmz")
        + LINK.format("files/deep.kml")
    )
    members = {
        "files/deep.kml": kml(folder("Deep", lot("D", -81.07)) + LINK.format("deeper.kml")),
        "files/deeper.kml": kml(folder("Deeper", lot("E", -81.06))),
    }
    path = tmp_path / "outer.kmz"
    _kmz(path, doc, members)
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("files/inner.kmz", inner.getvalue())
    p = read_parcels(str(path))
    assert p.attributes["Name"].tolist() == ["A", "I", "D", "E"]
    assert p.notes == []
    assert read_parcels(str(path), layer="Inner").attributes["Name"].tolist() == ["I"]


def test_links_are_followed_eight_deep(tmp_path):
    """f0.kml links to f1.kml, ... f9.kml, beside one another, each with one lot: f0 to f8 are
    read (eight links deep: MAX_LINK_DEPTH), and the note names f9.kml as not read."""
    from posting.kmlcoords import MAX_LINK_DEPTH

    assert MAX_LINK_DEPTH == 8
    for i in range(10):
        more = LINK.format(f"f{i + 1}.kml") if i < 9 else ""
        (tmp_path / f"f{i}.kml").write_text(kml(lot(f"L{i}", -81.1 + i * 0.001) + more))
    p = read_parcels(str(tmp_path / "f0.kml"))
    assert p.attributes["Name"].tolist() == [f"L{i}" for i in range(9)]
    assert p.notes == [
        f"{tmp_path / 'f0.kml'}: also links to f9.kml (a network link, which Google Earth "
        "follows and this reader does not): the places there were not read; download them, "
        "or save them from Google Earth as KML, and give that file too"
    ]


def test_a_linked_file_that_cannot_be_read_is_named(tmp_path):
    """signs.kml (a sign) links to broken.kml beside it, cut short: refused naming broken.kml
    (followed, it once said the file had no placemarks of its own)."""
    path = tmp_path / "signs.kml"
    path.write_text(kml(placemark("s1", "-81.1,28.7") + LINK.format("broken.kml")))
    (tmp_path / "broken.kml").write_text("<kml><Document><Placemark><name>B")
    with pytest.raises(InputError) as info:
        read_markers(str(path))
    assert str(info.value).startswith(
        f"{path}: links to {tmp_path / 'broken.kml'}, which cannot be read ("
    )
