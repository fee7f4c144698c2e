"""A GeoJSON file cut into slices of features, each read as the whole file reads it."""

from __future__ import annotations

import codecs
import json
import warnings

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from posting import jsonslices
from posting.io import _read_ogr_layer
from posting.jsonslices import agree, columns, conform, cut, slice_text


def _feature(i: int, name: str = "") -> dict:
    return {
        "type": "Feature",
        "properties": {"pid": f"P{i}", "name": name or f"lot {i}", "acres": i + 0.5},
        "geometry": {"type": "Point", "coordinates": [-81.0 + i / 1000, 28.0]},
    }


def _write(path, collection: dict, **dump) -> None:
    path.write_text(json.dumps(collection, **dump), encoding="utf-8")


def _sliced_features(path, slices) -> list[dict]:
    out = []
    for s in slices:
        part = json.loads(slice_text(path, s))
        assert len(part["features"]) == s.rows
        out += part["features"]
    return out


def test_features_cut_every_rows_th_between_the_text_before_and_after_the_array(tmp_path):
    """Ten features in slices of 3: 3, 3 and 4 (a last slice of one joins the one before),
    numbered from 0, 3 and 6; each slice is a FeatureCollection with the file's other members
    (its name and crs before the array, a foreign member after it), and its bytes are its
    features' without the commas around them."""
    path = tmp_path / "parcels.geojson"
    crs = {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}}
    collection = {"type": "FeatureCollection", "name": "lots", "crs": crs, "bbox": [1, 2, 3, 4]}
    collection |= {"features": [_feature(i) for i in range(10)], "after": {"a": [1, {"b": 2}]}}
    _write(path, collection)
    got = cut(path, 3)
    assert [(s.first, s.rows) for s in got] == [(0, 3), (3, 3), (6, 4)]
    text = path.read_bytes()
    assert text[got[0].head_end - 1 : got[0].head_end] == b"["
    assert text[got[0].tail_start : got[0].tail_start + 1] == b"]"
    assert text[got[0].end : got[1].start] == b","  # (the blank after it: the next slice's)
    assert got[0].start == got[0].head_end and got[-1].end == got[-1].tail_start
    for s in got:
        part = json.loads(slice_text(path, s))
        assert {k: v for k, v in part.items() if k != "features"} == {
            k: v for k, v in collection.items() if k != "features"
        }
    assert _sliced_features(path, got) == collection["features"]


def test_brackets_commas_and_quotes_inside_strings_cut_nothing(tmp_path):
    """Commas, brackets and braces inside strings, escaped quotes and backslashes before a
    closing quote (``"a\\\\"``: the string ends there) do not move the cuts, nor does a
    ``features`` key inside a feature's properties, read at once or 1 to 48 bytes at a time
    (a run of backslashes cut between two chunks among them)."""
    path = tmp_path / "parcels.geojson"
    names = ['a, "b" [c] {d}', "e\\", 'f\\"], [{', '"features": [1, 2]', "\\\\", "é, ü ]"]
    feats = [_feature(i, names[i % len(names)]) for i in range(13)]
    feats[4]["properties"]["features"] = [{"x": 1}, {"y": [2, 3]}]
    _write(path, {"type": "FeatureCollection", "features": feats}, ensure_ascii=False)
    whole = cut(path, 4)
    old = jsonslices.CHUNK_BYTES
    try:
        for size in range(1, 49):
            jsonslices.CHUNK_BYTES = size
            assert cut(path, 4) == whole, size
    finally:
        jsonslices.CHUNK_BYTES = old
    assert [s.rows for s in whole] == [4, 4, 5]
    assert _sliced_features(path, whole) == feats


_TEXT = st.text(alphabet=st.sampled_from(list('ab ,:[]{}"\\\n\té€𝄞')), max_size=12)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    names=st.lists(_TEXT, min_size=1, max_size=30),
    rows=st.integers(1, 6),
    chunk=st.integers(1, 64),
    indent=st.sampled_from([None, 0, 2]),
    ascii_only=st.booleans(),
)
def test_any_collection_s_slices_are_its_features_in_order(
    tmp_path, names, rows, chunk, indent, ascii_only
):
    """The oracle: Python's own parser. Whatever the strings (quotes, backslashes, brackets,
    line ends, characters of 2 to 4 bytes), the chunk size and the layout, the slices' features
    are the file's, in order, about ``rows`` at a time; a file of at most twice ``rows``
    features is not cut."""
    path = tmp_path / "parcels.geojson"
    feats = [_feature(i, n) for i, n in enumerate(names)]
    _write(path, {"type": "FeatureCollection", "features": feats}, indent=indent,
           ensure_ascii=ascii_only)  # fmt: skip
    old = jsonslices.CHUNK_BYTES
    try:
        jsonslices.CHUNK_BYTES = chunk
        got = cut(path, rows)
    finally:
        jsonslices.CHUNK_BYTES = old
    if len(feats) <= 2 * rows:
        assert got is None
        return
    assert got is not None
    assert sum(s.rows for s in got) == len(feats)
    assert all(s.rows >= rows for s in got[:-1]) and got[-1].rows * 2 >= rows
    assert [s.first for s in got] == [sum(s.rows for s in got[:k]) for k in range(len(got))]
    assert _sliced_features(path, got) == feats


def _collection(n: int = 20) -> str:
    return json.dumps({"type": "FeatureCollection", "features": [_feature(i) for i in range(n)]})


@pytest.mark.parametrize(
    "text, why",
    [
        (json.dumps([_feature(i) for i in range(20)]), "not one JSON object"),
        (
            json.dumps({"type": "FeatureCollection", "items": [_feature(i) for i in range(20)]}),
            "no features array",
        ),
        (_collection()[:-2], "an unclosed array and object"),
        (_collection().replace('"lot 7"', '"lot 7'), "a string left open"),
        (_collection(6), "at most twice the rows"),
        (json.dumps({"type": "FeatureCollection", "features": []}) + " " * 400, "no features"),
    ],
)
def test_a_file_that_cannot_be_cut_alike_is_read_whole(tmp_path, text, why):
    path = tmp_path / "parcels.geojson"
    path.write_text(text, encoding="utf-8")
    assert cut(path, 3) is None, why


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_text_that_is_not_utf_8_is_read_whole(tmp_path, encoding):
    """Latin-1 (one run reads it so, with a note) and UTF-16 are read whole; UTF-8 with its
    mark is cut."""
    path = tmp_path / "parcels.geojson"
    text = _collection().replace("lot 5", "Léan")
    path.write_bytes(text.encode(encoding))
    assert cut(path, 3) is None
    path.write_bytes(codecs.BOM_UTF8 + text.encode("utf-8"))
    assert [s.rows for s in cut(path, 3)] == [3] * 6 + [2]


@pytest.mark.realdata
def test_the_real_layers_slices_read_as_the_files_do_where_their_columns_agree():
    """Pacific County's 5,433 tax lots in slices of 500: every slice has the file's columns and
    types (:func:`agree`), and the slices read by GDAL are the file read whole (its frame, row
    for row).
    Williamsburg's parcels leave properties out where they are empty: its slices' columns
    differ in number and order (GDAL orders them as it meets them), so the file is read whole
    (:func:`posting.distributed._json_settled`)."""
    from helpers import SHARED_DATA, require_real_data

    path = str(require_real_data(SHARED_DATA / "pacific-wa" / "taxlots.geojson"))
    got = cut(path, 500)
    assert [s.rows for s in got] == [500] * 10 + [433]
    assert agree([columns(path, s) for s in got]) == ()
    whole = _read_ogr_layer(path, None)[0]
    parts = [_read_ogr_layer(path, None, None, s)[0] for s in got]
    pd.testing.assert_frame_equal(pd.concat(parts, ignore_index=True), whole)
    w = str(SHARED_DATA / "williamsburg-va" / "parcels.geojson")
    assert agree([columns(w, s) for s in cut(w, 500)]) is None


def test_slices_agree_with_the_same_columns_each_of_one_type_where_it_has_values():
    """The same columns in the same order, each of one type where a slice has a value in it; a
    column with no value in a slice takes the others' type if missing values keep that type
    (decimals, text, dates), not whole numbers or booleans (missing values make them decimals
    or objects, in the file read whole)."""
    a = (("pid", "str", False), ("acres", "float64", False), ("use", "str", True))
    b = (("pid", "str", False), ("acres", "str", True), ("use", "str", True))
    assert agree([a, a]) == ()
    assert agree([a, b, a]) == (("acres", "float64"),)
    assert agree([a, a[::-1]]) is None  # another order
    assert agree([a, a[:2]]) is None  # another column
    assert agree([a, (a[0], ("acres", "int32", False), a[2])]) is None  # decimals, numbers
    for kind in ("int32", "int64", "bool"):
        assert agree([(("n", kind, False),), (("n", "str", True),)]) is None, kind
    for kind in ("Int32", "Int64"):  # whole numbers, read as nullable integers
        assert agree([(("n", kind, False),), (("n", "str", True),)]) == (("n", kind),), kind
    assert agree([(("d", "datetime64[ms]", False),), (("d", "str", True),)]) == (
        ("d", "datetime64[ms]"),
    )
    assert agree([(("e", "str", True),), (("e", "float64", True),)]) is None


def test_a_slice_with_no_value_in_a_column_reads_as_the_whole_file_with_its_cast(tmp_path):
    """The last 6 of 16 lots have no acreage, code or big number: GDAL reads that slice's
    columns as text, the others' as decimals and whole numbers (32 and 64 bits), and the
    whole file's as the same with 6 missing (whole numbers as pandas' nullable integers).
    With the casts that :func:`agree` gives, the slices read are the file read whole, frame
    for frame."""
    path = tmp_path / "parcels.geojson"
    feats = [_feature(i) for i in range(16)]
    for f in feats[10:]:
        f["properties"]["acres"] = None
    for i, f in enumerate(feats[:10]):  # whole numbers, of 32 and 64 bits
        f["properties"] |= {"code": 100 + i, "big": 2**40 + i}
    for f in feats[10:]:
        f["properties"] |= {"code": None, "big": None}
    _write(path, {"type": "FeatureCollection", "features": feats})
    got = cut(path, 5)
    assert [s.rows for s in got] == [5, 5, 6]
    cols = [columns(path, s) for s in got]
    assert cols[2][2] == ("acres", "str", True) and cols[0][2] == ("acres", "float64", False)
    assert cols[2][3:] == (("code", "str", True), ("big", "str", True))
    assert cols[0][3:] == (("code", "Int32", False), ("big", "Int64", False))
    casts = agree(cols)
    assert casts == (("acres", "float64"), ("code", "Int32"), ("big", "Int64"))
    whole = _read_ogr_layer(str(path), None)[0]
    read = [_read_ogr_layer(str(path), None, None, s)[0] for s in got]
    with pytest.raises(AssertionError):  # as GDAL types the slices
        pd.testing.assert_frame_equal(pd.concat(read, ignore_index=True), whole)
    read = [conform(r, casts) for r in read]
    pd.testing.assert_frame_equal(pd.concat(read, ignore_index=True), whole)


def test_the_columns_recorded_as_slices_are_read_are_a_probe_s(tmp_path):
    """:func:`posting.io.columns_read` records each slice's columns as GDAL typed them, before
    its cast, in the order read (what the distribution compares): the same as a read of the
    slice without its geometry (:func:`columns`); nothing for the file read whole."""
    from posting.io import columns_read

    path = tmp_path / "parcels.geojson"
    feats = [_feature(i) for i in range(16)]
    for f in feats[10:]:
        f["properties"]["acres"] = None
    for f in feats[:5]:
        f["properties"]["code"] = 3
    for f in feats[5:10]:
        f["properties"]["code"] = 3.5
    _write(path, {"type": "FeatureCollection", "features": feats})
    got = cut(path, 5)
    with columns_read() as seen:
        _read_ogr_layer(str(path), None)
        for s in [*got[::-1], got[2]]:
            cast = jsonslices.FeatureSlice(**{**s.__dict__, "casts": (("acres", "float64"),)})
            _read_ogr_layer(str(path), None, None, cast)
    assert seen == [columns(path, s) for s in [*got[::-1], got[2]]]
    assert seen[0][2] == ("acres", "str", True) and seen[2][3] == ("code", "Int32", False)
    assert agree(seen) is None  # (whole numbers in one slice, decimals in another)


def _sequence_records(path, slices) -> list[dict]:
    """The features of each slice of a GeoJSON text sequence as GDAL is handed them: records
    that each begin with a record separator."""
    out = []
    for s in slices:
        text = slice_text(path, s).decode("utf-8")
        assert text.startswith("\x1e")
        records = [json.loads(r) for r in text.split("\x1e")[1:]]
        assert len(records) == s.rows
        out += records
    return out


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    names=st.lists(_TEXT, min_size=1, max_size=30),
    rows=st.integers(1, 6),
    chunk=st.integers(1, 64),
    end=st.sampled_from(["\n", "\r\n"]),
    blanks=st.lists(st.integers(0, 30), max_size=4),
    last_end=st.booleans(),
    rs=st.booleans(),
)
def test_any_sequence_s_slices_are_its_features_in_order(
    tmp_path, names, rows, chunk, end, blanks, last_end, rs
):
    """The oracle for :func:`cut_sequence`: Python's own parser, record by record. Whatever the
    strings (a newline or a record separator only escaped in them), the line ends, empty lines,
    a last line with or without its end, records that begin with a record separator, and the
    chunk size, the slices' features are the file's, in order, about ``rows`` at a time."""
    path = tmp_path / "parcels.geojsonl"
    feats = [_feature(i, n) for i, n in enumerate(names)]
    lines = [json.dumps(f, ensure_ascii=False) for f in feats]
    for k in sorted(blanks, reverse=True):
        lines.insert(min(k, len(lines)), "")
    if rs:
        text = "".join(f"\x1e{line}{end}" for line in lines if line)
    else:
        text = end.join(lines) + (end if last_end else "")
    path.write_bytes(text.encode("utf-8"))
    old = jsonslices.CHUNK_BYTES
    try:
        jsonslices.CHUNK_BYTES = chunk
        got = jsonslices.cut_sequence(path, rows)
    finally:
        jsonslices.CHUNK_BYTES = old
    if len(feats) <= 2 * rows:
        assert got is None
        return
    assert got is not None
    assert {s.lines for s in got} == {not rs}
    assert sum(s.rows for s in got) == len(feats)
    assert all(s.rows >= rows for s in got[:-1]) and got[-1].rows * 2 >= rows
    assert [s.first for s in got] == [sum(s.rows for s in got[:k]) for k in range(len(got))]
    assert _sequence_records(path, got) == feats


def _sequence(n: int = 20) -> str:
    return "".join(json.dumps(_feature(i)) + "\n" for i in range(n))


@pytest.mark.parametrize(
    "text, why",
    [
        (
            "".join(json.dumps(_feature(i), indent=1) + "\n" for i in range(20)),
            "records over lines",
        ),
        (_sequence().replace('{"type"', ' {"type"', 1), "a line that begins otherwise"),
        (_sequence().replace("}\n", "} \n", 1), "a line that ends otherwise"),
        (_sequence()[:-3], "a last record left open"),
        (_sequence(6), "at most twice the rows"),
        ("\ufeff" + _sequence(), "a byte-order mark"),
    ],
)
def test_a_sequence_that_cannot_be_cut_alike_is_read_whole(tmp_path, text, why):
    path = tmp_path / "parcels.geojsonl"
    path.write_bytes(text.encode("utf-8"))
    assert jsonslices.cut_sequence(path, 3) is None, why
    latin = tmp_path / "latin.geojsonl"
    latin.write_bytes(_sequence().replace("lot 5", "Léan").encode("latin-1"))
    assert jsonslices.cut_sequence(latin, 3) is None


def test_a_sequence_s_slices_read_as_the_file_does(tmp_path):
    """The sample's parcels as a GeoJSON text sequence, of lines and of records that begin with
    a record separator, written by GDAL: the slices read (GDAL's GeoJSONSeq driver) are the file
    read whole, frame for frame."""
    import geopandas as gpd
    import pyogrio
    from helpers import SAMPLE

    frame = gpd.read_file(SAMPLE / "parcels.geojson")
    for name, options in (("lines.geojsonl", {}), ("records.geojsons", {"RS": "YES"})):
        path = str(tmp_path / name)
        pyogrio.write_dataframe(frame, path, driver="GeoJSONSeq", layer_options=options)
        got = jsonslices.cut_sequence(path, 4)
        assert [(s.first, s.rows) for s in got] == [(4 * k, 4) for k in range(6)] + [(24, 5)]
        whole = _read_ogr_layer(path, None)[0]
        parts = [_read_ogr_layer(path, None, None, s)[0] for s in got]
        pd.testing.assert_frame_equal(pd.concat(parts, ignore_index=True), whole)


@pytest.mark.realdata
def test_the_real_tax_lots_as_a_sequence_read_in_slices_as_whole(tmp_path):
    """Pacific County's 5,433 tax lots (up to 1,176 vertices, GDAL's own typing of their
    columns) written as a GeoJSON text sequence: slices of 500 read as the file does, frame for
    frame."""
    import pyogrio
    from helpers import SHARED_DATA, require_real_data

    src = require_real_data(SHARED_DATA / "pacific-wa" / "taxlots.geojson")
    path = str(tmp_path / "taxlots.geojsonl")
    pyogrio.write_dataframe(pyogrio.read_dataframe(src), path, driver="GeoJSONSeq")
    got = jsonslices.cut_sequence(path, 500)
    assert [s.rows for s in got] == [500] * 10 + [433]
    assert agree([columns(path, s) for s in got]) == ()
    whole = _read_ogr_layer(path, None)[0]
    parts = [_read_ogr_layer(path, None, None, s)[0] for s in got]
    pd.testing.assert_frame_equal(pd.concat(parts, ignore_index=True), whole)


@pytest.mark.parametrize("rs", [False, True])
def test_a_record_gdal_would_leave_out_is_named_with_its_row_and_line(tmp_path, rs):
    """GDAL's GeoJSONSeq driver leaves out a record that is not JSON without a word (the
    features after it would take its row). Reading the file whole, or a slice of it, names the
    record by its row in the file and the line it begins on (worked out here: the 13th record,
    row 12, after 12 one-line records); a sequence of records that each begin with a record
    separator and run over several lines too."""
    from posting.errors import InputError
    from posting.io import read_layer

    path = tmp_path / "parcels.geojsonl"
    records = [json.dumps(_feature(i), indent=1 if rs else None) for i in range(20)]
    records[12] = records[12][:40]  # cut short
    if rs:
        text = "".join(f"\x1e{r}\n" for r in records)
        line = 1 + sum(r.count("\n") + 1 for r in records[:12])
    else:
        text, line = "".join(f"{r}\n" for r in records), 13
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=rf"record of row 12 \(line {line}\) is not JSON"):
        read_layer(str(path), crs=None, kind="parcels")
    whole = jsonslices.unread_record(path)
    assert whole == (12, (12, line, whole[1][2]))
    got = jsonslices.cut_sequence(path, 5)
    if rs:  # (a record over lines is cut only where records begin with a separator)
        assert [s.rows for s in got] == [5, 5, 5, 5]
        with pytest.raises(InputError, match=rf"record of row 12 \(line {line}\)"):
            _read_ogr_layer(str(path), None, None, got[2])
        assert len(_read_ogr_layer(str(path), None, None, got[1])[0]) == 5
    else:  # a record cut short ends otherwise than with }: the file is read whole
        assert got is None


@pytest.mark.parametrize(
    "member, why",
    [
        ({"foo": 1}, "not a GeoJSON Feature"),
        ([1, 2], "not a JSON object"),
        (7, "not a JSON object"),
    ],
)
def test_a_member_gdal_would_leave_out_is_named_with_its_row(tmp_path, member, why):
    """GDAL's GeoJSON reader leaves out a member of the ``features`` array that is not a
    Feature without a word (the features after it would take its row). Reading the file whole,
    or a slice of it, names the member by its row in the file (the 13th of 20: row 12)."""
    from posting.errors import InputError
    from posting.io import read_layer

    path = tmp_path / "parcels.geojson"
    feats = [_feature(i) for i in range(20)]
    feats[12] = member
    _write(path, {"type": "FeatureCollection", "features": feats})
    assert len(jsonslices.member_bounds(path)) == 21  # (the [ and ] around 19 commas)
    with pytest.raises(InputError, match=rf"the feature of row 12 is {why}, which GDAL"):
        read_layer(str(path), crs=None, kind="parcels")
    got = cut(path, 5)
    assert [s.rows for s in got] == [5, 5, 5, 5]
    with pytest.raises(InputError, match=rf"the feature of row 12 is {why}"):
        _read_ogr_layer(str(path), None, None, got[2])
    assert len(_read_ogr_layer(str(path), None, None, got[1])[0]) == 5
    assert jsonslices.unread_member(path) == (12, (12, why))
    feats[12] = _feature(12)
    _write(path, {"type": "FeatureCollection", "features": feats})
    assert len(read_layer(str(path), crs=None, kind="parcels").frame) == 20


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    names=st.lists(st.text(alphabet='ab,[]{}"\\ é', max_size=8), min_size=1, max_size=12),
    indent=st.sampled_from([None, 1]),
)
def test_each_member_s_text_is_the_member_as_python_parses_the_file(tmp_path, names, indent):
    """Oracle: the text :func:`member_texts` finds for each member (brackets, commas and quotes
    inside names included) parses to the member Python's parser finds in the whole file."""
    path = tmp_path / "f.geojson"
    doc = {"type": "FeatureCollection", "features": [_feature(i, n) for i, n in enumerate(names)]}
    _write(path, doc, indent=indent)
    bounds = jsonslices.member_bounds(path)
    assert len(bounds) == len(names) + 1
    texts = jsonslices.member_texts(path, bounds, range(len(names)))
    assert [json.loads(texts[r]) for r in range(len(names))] == doc["features"]


@pytest.mark.parametrize(
    ("geometry", "why"),
    [
        (None, None),
        ({"type": "Point", "coordinates": ["-81.5", 28.0]}, 'Point is "-81.5", not a number'),
        ({"type": "Point", "coordinates": [-81.5]}, "position of its Point is [-81.5]"),
        ({"type": "Polygon", "coordinates": [[[0, 0], [1, None], [1, 1], [0, 0]]]}, "null"),
        ({"type": "Polygon", "coordinates": [[0, 0], [1, 0], [1, 1], [0, 0]]}, "0 where a list"),
        ({"type": "Pointe", "coordinates": [-81.5, 28.0]}, 'type "Pointe" is none'),
        ({"type": "Point"}, "its Point has no coordinates"),
        ("POINT (-81.5 28)", 'is "POINT (-81.5 28)", not a geometry object'),
    ],
)
@pytest.mark.parametrize("form", ["collection", "lines", "rs"])
def test_why_gdal_gives_a_feature_no_geometry_is_said_per_row(tmp_path, geometry, why, form):
    """GDAL's reader gives a feature whose geometry it cannot read none, without a word; the
    reader says why, read whole or in slices, and a null geometry stays "no geometry": in a
    FeatureCollection, and in a text sequence of lines or of RS-led records."""
    from posting.io import read_layer

    feats = [_feature(i) for i in range(12)]
    feats[7]["geometry"] = geometry
    if form == "collection":
        path = tmp_path / "signs.geojson"
        _write(path, {"type": "FeatureCollection", "features": feats})
    else:
        path = tmp_path / ("signs.geojsonl" if form == "lines" else "signs.geojsons")
        lead = "" if form == "lines" else "\x1e"
        path.write_text("".join(lead + json.dumps(f) + "\n" for f in feats), encoding="utf-8")
    problem = jsonslices.geometry_problem(feats[7])
    assert (problem is None) == (why is None) and (why is None or why in problem), problem
    sliced = {}
    slices = cut(path, 4) if form == "collection" else jsonslices.cut_sequence(path, 4)
    assert len(slices) == 3
    with warnings.catch_warnings():  # (GDAL's, on some: the command shows them)
        warnings.simplefilter("ignore")
        whole = read_layer(str(path), crs=None, kind="markers")
        for s in slices:
            sliced.update(
                {s.first + r: w for r, w in _read_ogr_layer(str(path), None, None, s)[1].items()}
            )
    expected = {} if why is None else {7: f"its geometry cannot be read: {problem}"}
    assert whole.problems == expected and sliced == expected


@pytest.mark.parametrize("lead", ["", "\x1e"])
def test_each_record_s_text_is_the_record_as_python_parses_its_line(tmp_path, lead):
    """Oracle: the text :func:`record_texts` finds for each record of a text sequence (lines,
    or RS-led, blank lines between) parses to the record Python parses from its line."""
    feats = [_feature(i, name) for i, name in enumerate(["a", 'b "quoted"', "c,\\n", "d"])]
    path = tmp_path / "f.geojsonl"
    path.write_text(
        "".join(lead + json.dumps(f) + ("\n\n" if i == 1 else "\n") for i, f in enumerate(feats)),
        encoding="utf-8",
    )
    bounds = jsonslices.record_bounds(path)
    assert len(bounds) == len(feats) + 1
    texts = jsonslices.record_texts(path, bounds, range(len(feats)))
    assert [json.loads(texts[r]) for r in range(len(feats))] == feats
