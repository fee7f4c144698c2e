"""Hypothesis strategies for the fuzz campaign (tests/test_fuzz.py): parcels and markers as a
careless, unlucky or hostile input would give them.

Parcels (:func:`parcel_geometry`): ordinary boxes and star-shaped lots, and bowties, spikes,
zero-area slivers, duplicate vertices, holes touching their shell, multipolygons (overlapping
parts too), empty and missing geometries, geometry collections, points and lines among the
parcels, Z values, NaN and infinite coordinates, huge and tiny lots; in a local feet CRS.
:func:`geographic_case` puts lots astride the antimeridian and at the poles, in longitude and
latitude. Layers (:func:`case`) add identical and overlapping parcels and lots that share a
line. Markers: on vertices, on shared lines, near and far, NaN and infinite, and thousands on
one parcel.

Every strategy records what it drew with :func:`hypothesis.event`, so
``--hypothesis-show-statistics`` says how often each kind was exercised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from helpers import LOCAL_FT
from hypothesis import event
from hypothesis import strategies as st
from pyproj import CRS

PROFILES = (
    "florida",
    "florida-paint",
    "texas",
    "new-york",
    "montana",
    "minnesota-corners",
    "illinois",
    "maine",
    "town-code",
)
"""Profiles the cases are checked against: every kind of spacing, corner and marker rule."""

NASTY = (float("nan"), float("inf"), float("-inf"), 1e300, -1e300, 1e-300, 0.0, -0.0)


@dataclass
class Case:
    """One generated input: parcel geometries and ids, markers, and how to check them."""

    geoms: list[Any]
    crs: CRS | str
    ids: list[str]
    owners: list[str | None]
    mx: np.ndarray
    my: np.ndarray
    marker_crs: CRS | str
    rules: list[str]
    accuracy_ft: float = 0.0
    tags: list[str] = field(default_factory=list)
    markers_from: str | None = None  # how the markers were made, when too many to print

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # hypothesis prints dataclasses
        p.text(repr(self))  # field by field otherwise, thousands of markers included

    def __repr__(self) -> str:  # what hypothesis prints for a failing example
        geoms = [
            None if g is None else shapely.to_wkt(g, rounding_precision=-1) for g in self.geoms
        ]
        marks = (
            f"markers_from={self.markers_from!r}"
            if self.markers_from
            else f"mx={self.mx.tolist()!r}, my={self.my.tolist()!r}"
        )
        return (
            f"Case(geoms={geoms!r}, crs={getattr(self.crs, 'srs', self.crs)!r}, "
            f"ids={self.ids!r}, owners={self.owners!r}, "
            f"{marks}, rules={self.rules!r}, accuracy_ft={self.accuracy_ft!r}, tags={self.tags!r})"
        )


def _tag(tags: list[str], name: str) -> None:
    tags.append(name)
    event(name)


# -- parcels ----------------------------------------------------------------------------------

sizes = st.one_of(
    st.floats(50, 5_000),  # ordinary lots
    st.floats(1e-6, 1.0),  # tiny
    st.floats(1e5, 1e7),  # huge (a county, a state)
)
offsets = st.floats(-20_000, 20_000)


@st.composite
def box(draw: Any, tags: list[str]) -> shapely.Geometry:
    w, h = draw(sizes), draw(sizes)
    x0, y0 = draw(offsets), draw(offsets)
    if min(w, h) < 1:
        _tag(tags, "parcel: tiny")
    elif max(w, h) > 1e5:
        _tag(tags, "parcel: huge")
    else:
        _tag(tags, "parcel: box")
    return shapely.box(x0, y0, x0 + w, y0 + h)


@st.composite
def star(draw: Any, tags: list[str]) -> shapely.Geometry:
    """A star-shaped lot: vertices at increasing angles around a centre (simple, often with
    reflex corners)."""
    n = draw(st.integers(3, 14))
    steps = np.asarray(draw(st.lists(st.floats(0.01, 1.0), min_size=n, max_size=n)))
    angles = np.cumsum(steps) / steps.sum() * (2 * np.pi - 1e-3)  # increasing, distinct
    radii = np.asarray(draw(st.lists(st.floats(20, 2_000), min_size=n, max_size=n)))
    cx, cy = draw(offsets), draw(offsets)
    _tag(tags, "parcel: star-shaped")
    return shapely.Polygon(
        np.column_stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)])
    )


@st.composite
def bowtie(draw: Any, tags: list[str]) -> shapely.Geometry:
    w, h = draw(st.floats(10, 3_000)), draw(st.floats(10, 3_000))
    x0, y0 = draw(offsets), draw(offsets)
    _tag(tags, "parcel: bowtie")
    return shapely.Polygon([(x0, y0), (x0 + w, y0 + h), (x0 + w, y0), (x0, y0 + h)])


@st.composite
def spike(draw: Any, tags: list[str]) -> shapely.Geometry:
    """A box with a spike of zero width (out along a line and back) or a needle of a hair."""
    w = draw(st.floats(50, 2_000))
    x0, y0 = draw(offsets), draw(offsets)
    length = draw(st.floats(1, 5_000))
    hair = draw(st.sampled_from([0.0, 1e-9, 1e-3]))
    _tag(tags, "parcel: spike")
    return shapely.Polygon(
        [
            (x0, y0),
            (x0 + w / 2, y0),
            (x0 + w / 2, y0 - length),
            (x0 + w / 2 + hair, y0),
            (x0 + w, y0),
            (x0 + w, y0 + w),
            (x0, y0 + w),
        ]
    )


@st.composite
def zero_area(draw: Any, tags: list[str]) -> shapely.Geometry:
    x0, y0 = draw(offsets), draw(offsets)
    d = draw(st.floats(0, 1_000))
    pts = [(x0, y0), (x0 + d, y0 + d), (x0 + 2 * d, y0 + 2 * d), (x0, y0)]
    _tag(tags, "parcel: zero area")
    return shapely.Polygon(pts)


@st.composite
def duplicate_vertices(draw: Any, tags: list[str]) -> shapely.Geometry:
    g = draw(box(tags))
    coords = list(g.exterior.coords)[:-1]
    k = draw(st.integers(0, len(coords) - 1))
    times = draw(st.integers(1, 4))
    coords = coords[: k + 1] + [coords[k]] * times + coords[k + 1 :]
    _tag(tags, "parcel: duplicate vertices")
    return shapely.Polygon(coords)


@st.composite
def hole_touching_shell(draw: Any, tags: list[str]) -> shapely.Geometry:
    """A square with a hole touching the shell at a vertex (valid) or along a side (invalid),
    or a hole as large as the shell."""
    s = draw(st.floats(100, 3_000))
    x0, y0 = draw(offsets), draw(offsets)
    how = draw(st.sampled_from(["vertex", "side", "whole"]))
    if how == "vertex":
        hole = [(x0, y0 + s / 2), (x0 + s / 3, y0 + s / 3), (x0 + s / 3, y0 + 2 * s / 3)]
    elif how == "side":
        hole = [
            (x0, y0 + s / 4),
            (x0 + s / 3, y0 + s / 4),
            (x0 + s / 3, y0 + s / 2),
            (x0, y0 + s / 2),
        ]
    else:
        hole = [(x0, y0), (x0 + s, y0), (x0 + s, y0 + s), (x0, y0 + s)]
    _tag(tags, f"parcel: hole touching shell ({how})")
    return shapely.Polygon([(x0, y0), (x0 + s, y0), (x0 + s, y0 + s), (x0, y0 + s)], [hole])


@st.composite
def multipart(draw: Any, tags: list[str]) -> shapely.Geometry:
    parts = draw(st.lists(st.one_of(box(tags), star(tags)), min_size=1, max_size=3))
    _tag(tags, "parcel: multipolygon")
    return shapely.MultiPolygon(parts)


@st.composite
def not_a_polygon(draw: Any, tags: list[str]) -> Any:
    x, y = draw(offsets), draw(offsets)
    which = draw(
        st.sampled_from(
            ["none", "empty", "empty multi", "collection", "point", "line", "empty collection"]
        )
    )
    _tag(tags, f"parcel: {which}")
    return {
        "none": None,
        "empty": shapely.Polygon(),
        "empty multi": shapely.MultiPolygon(),
        "empty collection": shapely.GeometryCollection(),
        "collection": shapely.GeometryCollection(
            [shapely.box(x, y, x + 100, y + 100), shapely.Point(x, y)]
        ),
        "point": shapely.Point(x, y),
        "line": shapely.LineString([(x, y), (x + 100, y)]),
    }[which]


@st.composite
def with_z(draw: Any, tags: list[str]) -> shapely.Geometry:
    g = draw(st.one_of(box(tags), star(tags)))
    z = draw(st.floats(-100, 10_000))
    _tag(tags, "parcel: Z values")
    return shapely.force_3d(g, z)


@st.composite
def non_finite(draw: Any, tags: list[str]) -> shapely.Geometry:
    """A box with one coordinate replaced by NaN, an infinity or an absurd number (not the
    first: shapely cannot build a ring whose first vertex is NaN; the reader's regression test
    covers that one, from a file)."""
    g = draw(box(tags))
    coords = np.asarray(g.exterior.coords)
    k = draw(st.integers(1, len(coords) - 2))  # a NaN first vertex cannot even be built
    coords[k, draw(st.integers(0, 1))] = draw(st.sampled_from(NASTY))
    _tag(tags, "parcel: non-finite or absurd coordinate")
    with np.errstate(invalid="ignore"):
        return shapely.polygons(coords)


def parcel_geometry(tags: list[str]) -> st.SearchStrategy[Any]:
    """One parcel row, of any of the kinds above."""
    return st.one_of(
        box(tags),
        star(tags),
        bowtie(tags),
        spike(tags),
        zero_area(tags),
        duplicate_vertices(tags),
        hole_touching_shell(tags),
        multipart(tags),
        not_a_polygon(tags),
        with_z(tags),
        non_finite(tags),
    )


# -- markers ----------------------------------------------------------------------------------


def _vertices(geoms: list[Any]) -> np.ndarray:
    good = [g for g in geoms if g is not None]
    xy = shapely.get_coordinates(np.asarray(good, dtype=object)) if good else np.empty((0, 2))
    return xy[np.isfinite(xy).all(axis=1)]


@st.composite
def markers_for(draw: Any, geoms: list[Any], tags: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Markers on the parcels' vertices, on points of their edges (shared lines among them),
    near them, anywhere, and with NaN or infinite coordinates; sometimes none at all."""
    verts = _vertices(geoms)
    xs: list[float] = []
    ys: list[float] = []
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.sampled_from(["vertex", "edge", "near", "anywhere", "nasty"]))
        if kind in ("vertex", "edge", "near") and len(verts) >= 2:
            i = draw(st.integers(0, len(verts) - 2))
            (x0, y0), (x1, y1) = verts[i], verts[i + 1]
            t = 0.0 if kind == "vertex" else draw(st.floats(0, 1))
            x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
            if kind == "near":
                x += draw(st.floats(-40, 40))
                y += draw(st.floats(-40, 40))
        elif kind == "nasty":
            x = draw(st.sampled_from([*NASTY, 5.0]))
            y = draw(st.sampled_from([*NASTY, 5.0]))
        else:
            x, y = draw(offsets), draw(offsets)
        _tag(tags, f"marker: {kind}")
        xs.append(x)
        ys.append(y)
    return np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)


@st.composite
def case(draw: Any) -> Case:
    """A parcel layer in local feet (1-6 rows, identical and overlapping ones among them, lots
    sharing a line), its markers, the profiles and the accuracy."""
    tags: list[str] = []
    geoms = draw(st.lists(parcel_geometry(tags), min_size=1, max_size=5))
    extra = draw(st.sampled_from(["none", "identical", "overlapping", "neighbour"]))
    polys = [
        g for g in geoms if g is not None and shapely.get_type_id(g) in (3, 6) and not g.is_empty
    ]
    if extra != "none" and polys:
        g = polys[draw(st.integers(0, len(polys) - 1))]
        x0, y0, x1, y1 = shapely.bounds(g)
        if extra == "identical":
            geoms.append(g)
        elif extra == "overlapping" and np.isfinite(shapely.get_coordinates(g)).all():
            geoms.append(shapely.affinity.translate(g, (x1 - x0) / 3, 0))
        elif np.isfinite([x0, y0, x1, y1]).all():  # a lot sharing its east line
            geoms.append(shapely.box(x1, y0, x1 + max(x1 - x0, 1.0), y1))
        _tag(tags, f"layer: {extra} parcel")
    mx, my = draw(markers_for(geoms, tags))
    n = len(geoms)
    ids = draw(
        st.one_of(
            st.just([str(i) for i in range(n)]),
            st.lists(st.sampled_from(["A", "B", "007", ""]), min_size=n, max_size=n),
        )
    )
    owners = draw(st.lists(st.sampled_from([None, "Doe", "doe ", "Roe"]), min_size=n, max_size=n))
    rules = draw(st.lists(st.sampled_from(PROFILES), min_size=1, max_size=2, unique=True))
    accuracy = draw(st.sampled_from([0.0, 0.0, 3.0, 16.0]))
    return Case(geoms, LOCAL_FT, ids, owners, mx, my, LOCAL_FT, rules, accuracy, tags)


@st.composite
def geographic_case(draw: Any) -> Case:
    """Lots in longitude/latitude anywhere on Earth, astride the antimeridian and at the poles
    among them, with markers on their vertices and edges."""
    tags: list[str] = []
    geoms = []
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.sampled_from(["anywhere", "antimeridian", "pole", "equator"]))
        size = draw(st.one_of(st.floats(1e-5, 0.05), st.floats(0.05, 20)))
        if where == "antimeridian":
            west = draw(st.floats(179.0, 180.0))
            lat = draw(st.floats(-80, 80))
            east = west + size - 360 if west + size > 180 else west + size
            g = shapely.box(west, lat, east, lat + min(size, 9))  # may wrap: -179.99 < 179.99
        elif where == "pole":
            lat = draw(st.sampled_from([90.0, -90.0, 89.9999, -89.9999]))
            lon = draw(st.floats(-180, 180 - size))
            south = lat - min(size, 5) if lat > 0 else lat
            g = shapely.box(lon, south, lon + size, south + min(size, 5))
        else:
            lat0 = 0.0 if where == "equator" else draw(st.floats(-85, 85 - min(size, 5)))
            lon = draw(st.floats(-180, 180 - size))
            g = shapely.box(lon, lat0 - min(size, 5) / 2, lon + size, lat0 + min(size, 5) / 2)
        _tag(tags, f"parcel: {where}")
        geoms.append(g)
    verts = _vertices(geoms)
    k = draw(st.integers(0, min(12, len(verts))))
    picks = (
        draw(st.lists(st.integers(0, len(verts) - 1), min_size=k, max_size=k)) if len(verts) else []
    )
    mx = verts[picks, 0] if picks else np.empty(0)
    my = verts[picks, 1] if picks else np.empty(0)
    _tag(tags, f"markers: {len(picks)} on vertices")
    n = len(geoms)
    rules = draw(st.lists(st.sampled_from(PROFILES), min_size=1, max_size=1))
    return Case(
        geoms,
        "EPSG:4326",
        [str(i) for i in range(n)],
        [None] * n,
        mx,
        my,
        "EPSG:4326",
        rules,
        0.0,
        tags,
    )


@st.composite
def crowded_case(draw: Any) -> Case:
    """Thousands of markers on one parcel: along its boundary (some exactly at vertices, some
    repeated at one spot), inside, and a few beyond the tolerance."""
    tags: list[str] = []
    g = draw(st.one_of(box(tags), star(tags), multipart(tags)))
    n = draw(st.integers(1_000, 3_000))
    seed = draw(st.integers(0, 2**32 - 1))
    noise = draw(st.sampled_from([0.0, 1.0, 20.0]))
    same = draw(st.integers(0, 50))  # one spot surveyed again and again
    xy = thousands(g, n, seed, noise, same)
    _tag(tags, "markers: thousands on one parcel")
    rules = draw(st.lists(st.sampled_from(PROFILES), min_size=1, max_size=1))
    recipe = f"thousands(geoms[0], n={n}, seed={seed}, noise={noise}, same={same})"
    return Case(
        [g], LOCAL_FT, ["0"], [None], xy[:, 0], xy[:, 1], LOCAL_FT, rules, 0.0, tags, recipe
    )


def thousands(g: Any, n: int, seed: int, noise: float, same: int) -> np.ndarray:
    """``n`` marker positions along ``g``'s boundary (seeded), moved by a normal error of
    ``noise`` ft, the first ``same`` of them at one spot."""
    rng = np.random.default_rng(seed)
    bound = shapely.boundary(g)
    along = shapely.line_interpolate_point(bound, rng.uniform(0, shapely.length(bound), n))
    xy = shapely.get_coordinates(along)
    xy += rng.normal(0, noise, xy.shape)
    xy[:same] = xy[0]
    return xy


# -- context layers ---------------------------------------------------------------------------

CONTEXT_LAYERS = (
    "access", "water", "fences", "dwellings", "easements", "landcover", "places", "registry",
)  # fmt: skip
"""The context layers :func:`context_case` draws (the registry: land recorded as posted, each
record's year as text)."""

_VALUES = {
    "access": ("road", "driveway", "trail", "gate", "", None),
    "water": ("lake", None),
    "fences": ("4", "4.5", "0", "-1", "tall", "nan", "1e400", None),
    "dwellings": (None, "house"),
    "easements": ("Utility Co", "", None),
    "landcover": ("forest", "cultivated", "grass", "", None),
    "places": ("Chicago", "Springfield", "", None),
    "registry": ("2026", "2025", "1999", "", None, "abc"),
}


@st.composite
def context_feature(draw: Any, rings: list[Any], box: tuple[float, ...], tags: list[str]) -> Any:
    """One feature of a context layer, placed by the parcels: anywhere in their box or near it,
    on a vertex or along a stretch of a boundary, inside a lot touching nothing, across the
    lots, reaching from them across a continent (thousands of miles in the layer's unit), with
    one vertex typed wrong (a stray, in a ring or at a line's end); lines, points, polygons,
    multi-part and empty geometries, None, a bowtie, NaN."""
    x0, y0, x1, y1 = box
    w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
    fx, fy = st.floats(-0.2, 1.2), st.floats(-0.2, 1.2)

    def at(u: float, v: float) -> tuple[float, float]:
        return (x0 + u * w, y0 + v * h)

    kind = draw(
        st.sampled_from(
            [
                "point", "vertex", "short line", "line across", "along a boundary", "polygon",
                "bowtie", "multi line", "collection", "empty", "none", "non-finite",
                "across a continent", "stray vertex",
            ]
        )
    )  # fmt: skip
    _tag(tags, f"context: {kind}")
    if kind == "none":
        return None
    if kind == "empty":
        return draw(
            st.sampled_from(
                [shapely.Point(), shapely.LineString(), shapely.Polygon(), shapely.MultiPoint()]
            )
        )
    if kind in ("vertex", "along a boundary") and rings:
        ring = rings[draw(st.integers(0, len(rings) - 1))]
        xy = shapely.get_coordinates(ring)
        i = draw(st.integers(0, max(len(xy) - 2, 0)))
        if kind == "vertex":
            return shapely.Point(xy[i])
        return shapely.LineString(xy[i : i + 2]) if len(xy) > 1 else shapely.Point(xy[0])
    if kind == "point" or kind in ("vertex", "along a boundary"):
        return shapely.Point(at(draw(fx), draw(fy)))
    if kind == "short line":
        u, v = draw(fx), draw(fy)
        return shapely.LineString([at(u, v), at(u + 0.01, v)])
    if kind == "line across":
        v = draw(fy)
        return shapely.LineString([at(-0.5, v), at(1.5, v)])
    if kind in ("polygon", "bowtie"):
        u0, u1 = sorted((draw(fx), draw(fx)))
        v0, v1 = sorted((draw(fy), draw(fy)))
        a, b, c, d = at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)
        return shapely.Polygon([a, b, c, d] if kind == "polygon" else [a, c, b, d])
    if kind == "across a continent":  # reaching beyond what the parcels' frame holds
        u0, v0 = draw(fx), draw(fy)
        far = draw(st.sampled_from([3e6, 1e7, 2e7, -1e7]))
        a, b = at(u0, v0), at(u0 + 0.1, v0 + 0.1)
        return shapely.Polygon([a, (a[0] + far, a[1]), (b[0] + far, b[1]), b])
    if kind == "stray vertex":  # a polygon or a line by the lots, one vertex far off
        u0, v0 = draw(fx), draw(fy)
        far = draw(st.sampled_from([3e6, 1e7, -1e7]))
        a, b, c = at(u0, v0), at(u0 + 0.1, v0), at(u0 + 0.1, v0 + 0.1)
        if draw(st.booleans()):
            return shapely.Polygon([a, b, (c[0] + far, c[1]), at(u0, v0 + 0.1)])
        return shapely.LineString([a, b, c, (c[0], c[1] + far)])
    if kind == "multi line":
        v = draw(fy)
        return shapely.MultiLineString([[at(-0.5, v), at(0.5, v)], [at(0.5, 1 - v), at(1.5, v)]])
    if kind == "collection":
        return shapely.GeometryCollection(
            [shapely.Point(at(draw(fx), draw(fy))), shapely.LineString([at(0, 0), at(1, 1)])]
        )
    with np.errstate(invalid="ignore"):  # a NaN vertex between finite ones
        return shapely.linestrings([at(0, 0), (draw(st.sampled_from(NASTY)), y0), at(1, 1)])


@st.composite
def context_case(draw: Any) -> tuple[Case, dict[str, tuple[list[Any], list[Any]]]]:
    """A :func:`case` and context layers around its parcels: each layer's geometries and values
    (feature types, fence heights as the text of a column, holders, place names)."""
    c = draw(case())
    polys = [
        g
        for g in c.geoms
        if g is not None
        and shapely.get_type_id(g) in (3, 6)
        and not g.is_empty
        and np.isfinite(shapely.get_coordinates(g)).all()
    ]
    rings = [r for g in polys for r in shapely.get_rings(shapely.get_parts(g))]
    box = tuple(shapely.total_bounds(polys)) if polys else (0.0, 0.0, 1000.0, 1000.0)
    layers = {}
    for name in draw(st.lists(st.sampled_from(CONTEXT_LAYERS), min_size=1, unique=True)):
        geoms = draw(st.lists(context_feature(rings, box, c.tags), max_size=4))
        values = draw(
            st.lists(st.sampled_from(_VALUES[name]), min_size=len(geoms), max_size=len(geoms))
        )
        layers[name] = (geoms, values)
    c.rules = draw(st.lists(st.sampled_from(CONTEXT_PROFILES), min_size=1, max_size=3, unique=True))
    return c, layers


CONTEXT_PROFILES = (
    "florida",
    "new-mexico",
    "north-dakota-fenced",
    "illinois",
    "maine",
    "montana",
    "texas",
    "new-york",
    "virginia",
    "vermont",
    "oregon",
    "minnesota",
    "north-dakota-electronic",
    "illinois-signs",
)
"""Profiles that read the context layers: access points, water, fences, dwellings, forest,
places, the registry (with their other rules)."""


# -- marker attributes ------------------------------------------------------------------------

_TEXTS = (
    None, "", "  ", "NO TRESPASSING", "no trespassing", "POSTED", "purple", "PURPLE", "orange",
    "sign", "paint", "post", "tree", "none", "-", "A. Owner", "3", "3 in", "2.5", "-1", "0",
    "abc", "1e400", "nan", "2026-10-14", "2026-13-45", "14/10/2026", "10:30", "1899", "3000",
    "Ωmega ☃", "x" * 300, "2025", "Oct 2025", "Foo 2025", "13/2025", "2025-00", "4' 6\"",
    "5 cm", "1e300 in", "45°", "3 in 4 ft", ".5 ft", "9" * 400 + " in", "-2 mm", "2 deg",
    "NE", "north-west", "N 45 E", "S 95 W", "S 45", "45° 61'", "9" * 400 + "°",
    "Doe, John\nNO TRESPASSING", 'say "no"', "a;b", "tab\there", "\r\n",
)  # fmt: skip
_NUMBERS = (
    float("nan"), float("inf"), -1.0, 0.0, 2.0, 3.0, 12.0, 400.0, 1e300, -0.0, 2025.0, 1900.0,
)  # fmt: skip


@st.composite
def attributes_for(draw: Any, n: int, tags: list[str]) -> Any:
    """Marker attributes as a careless survey gives them: any of the columns the rules read
    (by their canonical names or an alias), as text or as numbers, with blank, absurd and
    malformed values, units written out and dates of a year or a month alone."""
    import pandas as pd

    from posting.attributes import COLUMNS

    names = draw(st.lists(st.sampled_from(sorted(COLUMNS)), max_size=8, unique=True))
    frame = {}
    for canonical in names:
        column = draw(st.sampled_from(COLUMNS[canonical]))
        if draw(st.booleans()):
            values = draw(st.lists(st.sampled_from(_TEXTS), min_size=n, max_size=n))
            _tag(tags, "attribute: text")
        else:
            values = draw(st.lists(st.sampled_from(_NUMBERS), min_size=n, max_size=n))
            _tag(tags, "attribute: numbers")
        frame[column] = values
    return pd.DataFrame(frame, index=range(n))


ALL_PROFILES = (
    "alabama", "alaska", "arizona", "arkansas-paint", "california", "connecticut", "florida",
    "florida-paint", "idaho", "illinois", "illinois-posts", "illinois-signs", "indiana",
    "kansas", "kentucky", "kentucky-signs", "maine", "maryland-paint", "michigan", "minnesota",
    "missouri-mixed", "missouri-signs",
    "montana", "nebraska", "nevada", "new-hampshire", "new-jersey", "new-mexico", "new-york",
    "north-carolina",
    "north-dakota", "ohio", "oregon", "pennsylvania-paint", "south-carolina", "south-dakota",
    "tennessee-paint", "texas", "texas-signs", "town-code", "utah", "vermont", "virginia-paint",
    "washington", "west-virginia-paint", "wyoming",
)  # fmt: skip
"""Profiles of every kind of marker rule: content, sizes, heights, colours, facing, dates."""


# -- the measuring settings and markers that name their parcel ---------------------------------

_SETTINGS = {  # each setting's values: its default first, then small, large and absurd ones
    "tolerance_ft": (30.0, 1e-6, 0.5, 5.0, 100.0, 2_000.0, 1e9),
    "corner_tolerance_ft": (30.0, 0.0, 1.0, 100.0, 2_000.0, 1e9),
    "corner_angle_deg": (30.0, 1e-6, 1.0, 89.9, 90.0, 170.0, 179.999),
    "corner_noise_ft": (1.0, 0.0, 10.0, 500.0, 1e9),
    "corner_merge_ft": (20.0, 0.0, 3.0, 300.0, 1e9),
    "access_tolerance_ft": (50.0, 0.0, 5.0, 1_000.0, 1e9),
    "water_tolerance_ft": (30.0, 0.0, 1.0, 300.0, 1e9),
    "merge_snap_ft": (1.0, 0.0, 10.0, 300.0, 1e9),
    "accuracy_ft": (0.0, 1.0, 16.0, 100.0, 1e9),
}


@st.composite
def settings_for(draw: Any, tags: list[str]) -> Any:
    """The measuring settings as a user may set them: each at its default, or small, large or
    absurd (a billion feet), some at zero where zero is allowed."""
    from posting.settings import Settings

    values = {}
    for name, choices in _SETTINGS.items():
        values[name] = draw(st.sampled_from(choices))
        if values[name] != choices[0]:
            _tag(tags, f"setting: {name} {'absurd' if values[name] >= 1e9 else 'other'}")
    return Settings(**values)


@st.composite
def parcel_names_for(draw: Any, n: int, ids: list[str], tags: list[str]) -> Any:
    """A column of ``n`` markers naming their parcel (``--sign-parcel-field``), as text: the
    ids of the layer, ids that are not in it, near misses (another case, a space), blank and
    missing names; or as numbers (whole and not, where the ids are row numbers)."""
    import pandas as pd

    if draw(st.booleans()):
        near = [f"{i} " for i in ids] + [i.lower() for i in ids if i != i.lower()]
        names = [*ids, *near, "nope", "", " ", None]
        values = draw(st.lists(st.sampled_from(names), min_size=n, max_size=n))
        _tag(tags, "names: text")
        return pd.Series(values, dtype=object)
    numbers = [float(i) for i in range(len(ids))] + [0.5, -1.0, 1e19, float("nan")]
    values = draw(st.lists(st.sampled_from(numbers), min_size=n, max_size=n))
    _tag(tags, "names: numbers")
    return pd.Series(values, dtype=float)


# -- parcel attributes the context options read ------------------------------------------------

_LOT_TEXTS = {  # each parcel column's text values, then its numbers (a column is one or other)
    "use": (
        (None, "", "RESIDENTIAL", "residential ", "AG", "PARK", "public", "Doe, John", "0"),
        (float("nan"), 0.0, 1.0, 12.0),
    ),
    "acres": (
        (None, "", "5", "4.99", "5.0 ac", "abc", "-1", "1e300", "nan", "9" * 400),
        (float("nan"), float("inf"), 0.0, 4.999, 5.0, 10.0, 1e300, -3.0, -0.0),
    ),
    "place": ((None, "", "Chicago", "chicago", "Cook County", "Ωmega ☃"), (float("nan"), 1.0)),
    "posted": ((None, "", "Y", "N", "yes", "Yes "), (float("nan"), 0.0, 1.0)),
    "cover": ((None, "", "forest", "FOREST", "Forest ", "field"), (float("nan"), 1.0)),
}
_LOT_OPTIONS = {  # each context option's values over those columns (None first)
    "public_where": (None, "use=PARK,public"),
    "dwelling_where": (None, "use=RESIDENTIAL", "use in ('residential', 'AG')"),
    "cultivated_where": (None, "use=AG", "use=0,12"),
    "registry_where": (None, "posted=Y,yes", "posted=1"),
    "acres_field": (None, "acres"),
    "place_field": (None, "place"),
    "landcover_field": (None, "cover"),
    "sight_ft": (None, 40.0, 500.0, 1e9),
    "check_date": (None, "2026-12-04", "1990-01-01", "2100-02-28"),
}
LOT_PROFILES = (
    "florida", "town-code", "north-dakota-electronic", "vermont", "illinois-mixed", "michigan",
    "new-jersey", "california", "minnesota", "new-york", "nevada-grazing", "hawaii-state-lands",
    "texas", "idaho", "maryland-paint",
)  # fmt: skip
"""Profiles whose rules read parcel attributes: dwellings and acreage, cultivation, public
land, registries, places, land cover and sight, densities, renewal dates."""


@st.composite
def lot_attributes_for(draw: Any, n: int, tags: list[str]) -> Any:
    """Parcel columns (``use``, ``acres``, ``place``, ``posted``, ``cover``, each as text or as
    numbers, blank, absurd and malformed) and the context options that read them, now and then
    one of them naming a column that is not there, as ``(columns, options)``."""
    import datetime as dt

    columns = {}
    for name, (texts, numbers) in _LOT_TEXTS.items():
        pool = texts if draw(st.booleans()) else numbers
        columns[name] = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
        _tag(tags, f"lot column: {name} {'text' if pool is texts else 'numbers'}")
    options = {}
    for name, values in _LOT_OPTIONS.items():
        value = draw(st.sampled_from(values))
        if value is not None:
            options[name] = dt.date.fromisoformat(value) if name == "check_date" else value
            _tag(tags, f"option: {name}")
    named = sorted(k for k in options if k.endswith(("_where", "_field")))
    if named and draw(st.integers(0, 7)) == 7:
        name = draw(st.sampled_from(named))
        options[name] = "nope" if name.endswith("_field") else "nope=1"
        _tag(tags, f"option: {name} of no column")
    return columns, options
