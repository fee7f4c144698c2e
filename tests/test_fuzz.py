"""The fuzz campaign (issue 13, part 4): generated parcels and markers, from the ordinary to
the absurd (tests/fuzz_strategies.py), run through the library, with the invariants every
input must keep:

* no exception but the project's own errors (:class:`posting.PostingError`);
* every parcel once, in input order, with its id;
* every marker assigned to a parcel or listed with the reason, in input order;
* the exit code agrees with the statuses; the reports render (JSON, GeoJSON, CSV);
* the same input gives the same output.

CI runs the default profile (100 examples a test, a few hundred in all, well under a minute
on two cores); ``pytest tests/test_fuzz.py --hypothesis-profile=long`` runs 3,400 a test
(13,600 over the four; figures in the README), before each release. A failing
example is printed as a ``Case(...)`` that rebuilds it.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pandas as pd
import shapely
from fuzz_strategies import (
    ALL_PROFILES,
    Case,
    attributes_for,
    case,
    context_case,
    crowded_case,
    geographic_case,
    parcel_names_for,
    settings_for,
)
from helpers import combine_markers, planned_markers
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from pyproj import CRS

import posting
from posting.errors import PostingError
from posting.io import FeatureLayer, MarkerLayer, ParcelLayer
from posting.measure import Context
from posting.prepare import prepare_parcels
from posting.sanity import check_inputs
from posting.settings import Settings
from posting.verdict import STATUSES

FUZZ = settings(
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
"""No max_examples here: the profile (default or long) says how many."""


def _layers(c: Case) -> tuple[ParcelLayer, MarkerLayer]:
    parcels = ParcelLayer.from_geometries(c.geoms, c.crs, ids=c.ids, owners=c.owners)
    markers = MarkerLayer.from_points(c.mx, c.my, c.marker_crs)
    return parcels, markers


def _context(c: Case, layers: dict) -> Context:
    """The context layers of a :func:`context_case` (name: geometries and values), in the
    lots' CRS."""
    return Context(
        **{
            name: FeatureLayer(
                f"<{name}>",
                np.asarray(geoms, dtype=object),
                CRS.from_user_input(c.crs),
                np.asarray(values, dtype=object),
            )
            for name, (geoms, values) in layers.items()
        }
    )


def _check(c: Case) -> posting.Report | None:
    """The check, or None when it refuses the input with the project's own error."""
    parcels, markers = _layers(c)
    try:
        return posting.check(
            parcels, markers, c.rules, settings=Settings(accuracy_ft=c.accuracy_ft)
        )
    except PostingError as exc:
        event(f"refused: {type(exc).__name__}")
        return None


def _assert_invariants(c: Case, report: posting.Report) -> None:
    n, k = len(c.geoms), len(c.mx)
    p, m = report.parcels, report.markers
    # every parcel once, in input order, with its id
    assert p["row"].tolist() == list(range(n))
    assert p["id"].tolist() == [str(i) for i in c.ids]
    assert set(p["status"]) <= set(STATUSES)
    for s in set(p["status"]):
        event(f"status: {s}")
    # the exit code agrees with the statuses
    ok = p["status"].isin(["compliant", "exempt"]).all()
    assert report.exit_code == (0 if ok else 1)
    # every marker assigned or listed with the reason, in input order
    assert len(m) == k and m["row"].tolist() == list(range(k))
    assigned = (m["parcel"] >= 0).to_numpy()
    ids = np.asarray([str(i) for i in c.ids], dtype=object)
    assert (
        m["parcel_id"].to_numpy(dtype=object)[assigned] == ids[m["parcel"].to_numpy()[assigned]]
    ).all()
    assert m["reason"][~assigned].notna().all()
    unplaceable = ~(np.isfinite(c.mx) & np.isfinite(c.my))
    assert not assigned[unplaceable].any()
    assert p["signs"].tolist() == np.bincount(m["parcel"][assigned], minlength=n).tolist()
    # an invalid parcel says why; a valid one has a perimeter
    invalid = (p["status"] == "invalid").to_numpy()
    assert p["invalid_reason"][invalid].notna().all() or p["duplicate_id"].any()
    # the reports render
    d = json.loads(report.to_json())
    assert [x["id"] for x in d["parcels"]] == [str(i) for i in c.ids]
    assert json.loads(report.to_geojson())["type"] == "FeatureCollection"
    assert report.to_csv().count("\n") >= n + 1


def _same(a: posting.Report, b: posting.Report) -> None:
    pd.testing.assert_frame_equal(a.parcels, b.parcels)
    pd.testing.assert_frame_equal(a.markers, b.markers)
    pd.testing.assert_frame_equal(a.gaps, b.gaps)
    assert a.warnings == b.warnings


@FUZZ
@given(case())
def test_fuzz_parcels_and_markers(c: Case):
    """Bowties, spikes, zero area, duplicate vertices, holes touching shells, multiparts,
    empty and collection geometries, Z values, NaN, infinite and absurd coordinates, huge and
    tiny lots, identical, overlapping and adjoining ones; markers on vertices, on shared lines,
    near, anywhere, NaN. Checked twice: the same input gives the same output."""
    report = _check(c)
    if report is None:
        return
    _assert_invariants(c, report)
    _same(report, _check(c))


_TM = "+proj=tmerc +lat_0=28.7 +lon_0=-81.1 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft +no_defs"
_SLIVER = "POLYGON ((50 0, 50 0, 50 1.0000000000000002e-6, 0 1.0000000000000002e-6, 0 0, 50 0))"


@FUZZ
@given(case())
@example(  # no usable ring at all: a marker off every parcel once raised in the reasons' search
    Case(
        geoms=list(shapely.from_wkt(["POLYGON ((0 0, 0 0, 0 0, 0 0))", _SLIVER] * 2)),
        crs=_TM,
        ids=["0", "1", "2", "3"],
        owners=[None, "Doe", None, "Doe"],
        mx=np.array([0.0]),
        my=np.array([0.0]),
        marker_crs=_TM,
        rules=["florida"],
    )
)
def test_fuzz_merging_and_the_input_checks(c: Case):
    """The same layers with one owner's adjoining parcels merged (every input row in exactly
    one property, in order), and through the checks the command line runs after reading (the
    swap test, the same-owner warning): no exception but the project's own errors."""
    parcels, markers = _layers(c)
    owners = np.asarray([None if o is None else o.strip().casefold() for o in c.owners], object)
    try:
        prep = prepare_parcels(parcels, merge_key=owners)
        notes = check_inputs(prepare_parcels(parcels), markers, same_owner=True).result()
        report = posting.check(prep, markers, c.rules)
    except PostingError as exc:
        event(f"refused: {type(exc).__name__}")
        return
    assert all(isinstance(n, str) for n in notes)
    rows = prep.source_rows or [[i] for i in range(len(c.geoms))]
    assert sorted(r for group in rows for r in group) == list(range(len(c.geoms)))
    assert [group[0] for group in rows] == sorted(group[0] for group in rows)
    event(f"merged: {len(c.geoms) - len(rows)} row(s) into others")
    assert report.parcels["row"].tolist() == list(range(len(rows)))
    assert report.exit_code == (
        0 if report.parcels["status"].isin(["compliant", "exempt"]).all() else 1
    )


@FUZZ
@given(geographic_case())
def test_fuzz_antimeridian_and_poles(c: Case):
    """Lots in longitude/latitude anywhere: astride the antimeridian, at the poles, on the
    equator; a lot measured in degrees or a working CRS that cannot hold it must come out as
    an invalid parcel with the reason, never as an error or a wrong figure of feet."""
    report = _check(c)
    if report is None:
        return
    _assert_invariants(c, report)
    p = report.parcels
    usable = (p["status"] != "invalid").to_numpy()
    perimeter = p["perimeter_ft"].to_numpy()[usable]
    assert np.isfinite(perimeter).all() and (perimeter >= 0).all()
    # no lot is longer round than the Earth (131.5 million ft) and a bit
    assert (perimeter < 2 * 1.32e8).all()


@FUZZ
@given(crowded_case())
def test_fuzz_thousands_of_markers_on_one_parcel(c: Case):
    report = _check(c)
    if report is None:
        return
    _assert_invariants(c, report)
    p = report.parcels
    # markers along its line: most are its own. Not so on a lot hundreds of miles long, whose
    # straight sides, drawn in one CRS and measured in another, part by miles mid-way; nor on
    # a repaired one, whose parts under 10 sq ft are dropped (with their markers' line).
    valid = p["status"][0] != "invalid" and pd.isna(p["repaired"][0])
    if valid and p["perimeter_ft"][0] < 100_000:
        assert (report.markers["parcel"] == 0).mean() > 0.5


_LOT = Case(
    geoms=[shapely.box(0, 0, 50, 50)],
    crs=_TM,
    ids=["0"],
    owners=[None],
    mx=np.array([0.0]),
    my=np.array([0.0]),
    marker_crs=_TM,
    rules=["florida", "new-mexico"],
)
_BOWTIE = shapely.Polygon([(0, 0), (50, 50), (50, 0), (0, 50)])
_CROSSING = shapely.LineString([(-10, 25), (60, 25)])


@FUZZ
@given(context_case())
@example(  # forest lines and points, one with an edge of 1e-300 ft, under a forest spacing
    (
        replace(_LOT, geoms=[_BOWTIE], mx=np.array([]), my=np.array([]), rules=["texas"]),
        {
            "landcover": (
                [
                    shapely.Point(0, 0),
                    shapely.LineString([(-5, 0), (55, 0)]),
                    shapely.LineString([(0, 0), (1e-300, 0), (50, 50)]),
                ],
                ["forest"] * 3,
            )
        },
    )
)
@example((_LOT, {"access": ([shapely.LineString([(20, 20), (30, 20)])], ["driveway"])}))
@example((_LOT, {"access": ([_BOWTIE], ["road"]), "water": ([_BOWTIE], ["lake"])}))
@example(  # a collection, a coordinate no frame holds
    (
        _LOT,
        {
            "access": ([shapely.GeometryCollection([_CROSSING, shapely.Point(0, 25)])], [None]),
            "fences": ([shapely.LineString([(0, 0), (-1e300, 0), (50, 50)])], ["4"]),
        },
    )
)
def test_fuzz_context_layers(cl: tuple[Case, dict]):
    """Access features, water, fences, dwellings, easements, land cover and places beside the
    lots, on their vertices and boundaries, inside a lot touching nothing, across them; empty,
    missing, multi-part, invalid and non-finite geometries; fence heights that are not heights.
    The profiles that read each layer judge the lots: no exception but the project's own
    errors, and the invariants of every check."""
    c, layers = cl
    context = _context(c, layers)
    parcels, markers = _layers(c)
    try:
        report = posting.check(
            parcels,
            markers,
            c.rules,
            settings=Settings(accuracy_ft=c.accuracy_ft),
            context=context,
        )
    except PostingError as exc:
        event(f"refused: {type(exc).__name__}")
        return
    _assert_invariants(c, report)
    if np.nansum(report.parcels["perimeter_ft"]) > 100_000:  # a plan of thousands of markers
        return
    try:  # the plan reads the same layers (water and access stretches, fenced land)
        planned = posting.plan(report)
    except PostingError as exc:
        event(f"plan refused: {type(exc).__name__}")
        return
    assert planned.exit_code in (0, 1)


@FUZZ
@given(case(), st.data())
def test_fuzz_marker_attributes(c: Case, data: st.DataObject):
    """Marker attributes as a careless survey gives them (letter heights of "3 in", "abc" or
    1e300, dates of the 13th month, colours, kinds and words of any case, numbers where words
    go and words where numbers go) under profiles of every kind of marker rule: no exception
    but the project's own errors, and the invariants of every check."""
    attrs = data.draw(attributes_for(len(c.mx), c.tags))
    c.rules = data.draw(
        st.lists(st.sampled_from(ALL_PROFILES), min_size=1, max_size=3, unique=True)
    )
    parcels = ParcelLayer.from_geometries(c.geoms, c.crs, ids=c.ids, owners=c.owners)
    markers = MarkerLayer.from_points(c.mx, c.my, c.marker_crs, attributes=attrs)
    try:
        report = posting.check(
            parcels, markers, c.rules, settings=Settings(accuracy_ft=c.accuracy_ft)
        )
    except PostingError as exc:
        event(f"refused: {type(exc).__name__}")
        return
    _assert_invariants(c, report)


@FUZZ
@given(context_case(), st.data())
def test_fuzz_settings_and_named_parcels(cl: tuple[Case, dict], data: st.DataObject):
    """Every measuring setting at its default, small, large or absurd (a tolerance of a
    billionth of a foot or a billion feet, corners of any angle, no merge snap), with the
    context layers, and markers that name their parcel (ids, ids not in the layer, near
    misses, blanks, numbers): no exception but the project's own errors, the invariants of
    every check, and a marker that names a parcel posts that parcel or none."""
    from posting.io import _as_id_strings

    c, layers = cl
    chosen = data.draw(settings_for(c.tags))
    names = data.draw(parcel_names_for(len(c.mx), [str(i) for i in c.ids], c.tags))
    refs = _as_id_strings(names)  # as a file's column is read
    context = _context(c, layers)
    parcels = ParcelLayer.from_geometries(c.geoms, c.crs, ids=c.ids, owners=c.owners)
    markers = MarkerLayer.from_points(c.mx, c.my, c.marker_crs, parcel_ref=refs)
    try:
        report = posting.check(parcels, markers, c.rules, settings=chosen, context=context)
    except PostingError as exc:
        event(f"refused: {type(exc).__name__}")
        return
    _assert_invariants(c, report)
    m = report.markers
    named = pd.notna(refs)
    assigned = (m["parcel"] >= 0).to_numpy()
    got = m["parcel_id"].to_numpy(dtype=object)
    assert (got[named & assigned] == refs[named & assigned]).all()
    assert (m["assigned_by"].to_numpy(dtype=object)[named & assigned] == "named").all()


@settings(FUZZ, max_examples=25)
@given(case())
def test_fuzz_a_plan_rechecks_compliant(c: Case):
    """A plan that says it brings every parcel into compliance does, on the re-check."""
    report = _check(c)
    if report is None:
        return
    plan = posting.plan(report)
    if plan.exit_code != 0 or not len(plan.markers):
        return
    _, markers = _layers(c)
    again = posting.check(
        ParcelLayer.from_geometries(c.geoms, c.crs, ids=c.ids, owners=c.owners),
        combine_markers(markers, planned_markers(plan)),
        c.rules,
        settings=Settings(accuracy_ft=c.accuracy_ft),
    )
    assert again.parcels["status"].isin(["compliant", "exempt"]).all()


def test_case_repr_rebuilds_the_example():
    """A failing example is printed so that it can be pasted back."""
    c = Case(
        [shapely.box(0, 0, 1, 1), None],
        "EPSG:4326",
        ["a", "b"],
        [None, None],
        np.array([0.5]),
        np.array([np.nan]),
        "EPSG:4326",
        ["florida"],
    )
    text = repr(c)
    assert "POLYGON ((0 0" in text or "POLYGON ((1 0" in text
    assert "'b'" in text and "nan" in text
