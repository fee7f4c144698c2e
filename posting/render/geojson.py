"""The GeoJSON FeatureCollection of a report (WGS 84): parcels, markers, reported gaps, corners,
access points."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import pandas as pd
import shapely

from posting.draw import gap_lines, geojson_geometries
from posting.records import (
    SCHEMA,
    _num,
    _text,
    header,
    marker_why,
    parcel_properties,
)
from posting.render import register

if TYPE_CHECKING:
    from posting.report import Report

__all__ = ["to_geojson"]


def opening(report: Any) -> str:
    """The FeatureCollection's text up to its first feature: its name and the report's schema,
    rules, working CRS and summary (of a :class:`~posting.report.Report`, or of anything
    :func:`posting.records.header` reads, as a partitioned run's totals)."""
    top = header(report)
    head = json.dumps(
        {
            "type": "FeatureCollection",
            "name": "posting",
            "posting": {
                "schema": SCHEMA,
                "rules": top["rules"],
                "crs": top["crs"],
                "summary": top["summary"],
            },
        }
    )
    return head[:-1] + ', "features": [\n'


@register("geojson", "report", (".geojson",), "parcels, markers, gaps, corners and access points")
def to_geojson(report: Report) -> str:
    """A GeoJSON FeatureCollection (WGS 84): parcels, markers, reported gaps, corners,
    access points.

    Each feature's ``layer`` property says which it is. Every parcel and every marker
    appears, a row without usable geometry with a null geometry.
    """
    ids = report.parcels["id"].to_numpy()
    feats = [
        *_parcels(report),
        *_markers(report),
        *_gaps(report, ids),
        *_corners(report.corners, ids),
        *_access(report.access, ids),
    ]
    return opening(report) + ",\n".join(feats) + "\n]}\n"


def _points(table: pd.DataFrame) -> list[str | None]:
    return geojson_geometries(
        shapely.points(table["lon"].to_numpy(dtype=float), table["lat"].to_numpy(dtype=float))
    )


def _parcels(report: Report) -> Iterator[str]:
    geoms = geojson_geometries(report.geometry.geometry_lonlat())
    props = parcel_properties(report).to_pylist()  # JSON text already
    for geom, text in zip(geoms, props, strict=True):
        g = "null" if geom is None else geom
        yield '{"type": "Feature", "geometry": ' + g + ', "properties": ' + text + "}"


def _markers(report: Report) -> Iterator[str]:
    m = report.markers
    for rec, geom, why in zip(
        m.itertuples(index=False), _points(m), marker_why(report), strict=True
    ):
        assigned = rec.parcel >= 0
        props = {
            "layer": "marker",
            "source": rec.source,
            "row": int(rec.row),
            "name": _text(getattr(rec, "label", None)),
            "kind": _text(rec.kind),
            "parcel": rec.parcel_id if assigned else None,
            "ring": {"part": int(rec.part), "hole": int(rec.hole)} if assigned else None,
            "assigned_by": _text(rec.assigned_by),
            "distance_ft": _num(rec.distance_ft),
            "position_ft": _num(rec.position_ft),
            "why": why,
        }
        yield _feature(geom, props)


def _gaps(report: Report, ids: np.ndarray) -> Iterator[str]:
    reported = (report.gaps["status"] != "ok").to_numpy()
    g = report.gaps[reported]
    geoms = geojson_geometries(gap_lines(report)[reported])
    for rec, geom in zip(g.itertuples(index=False), geoms, strict=True):
        props = {
            "layer": "gap",
            "parcel": ids[rec.parcel],
            "status": rec.status,
            "ring": {"part": int(rec.part), "hole": int(rec.hole)},
            "length_ft": _num(rec.length_ft),
            "straight_ft": _num(rec.straight_ft),
            "limit_ft": _num(rec.limit_ft),
        }
        yield _feature(geom, props)


def _corners(c: pd.DataFrame, ids: np.ndarray) -> Iterator[str]:
    for rec, geom in zip(c.itertuples(index=False), _points(c), strict=True):
        props = {
            "layer": "corner",
            "parcel": ids[rec.parcel],
            "status": rec.status,
            "turn_deg": _num(rec.turn_deg, 1),
            "nearest_marker_ft": _num(rec.nearest_ft),
        }
        yield _feature(geom, props)


def _access(a: pd.DataFrame, ids: np.ndarray) -> Iterator[str]:
    if not len(a):
        return
    for rec, geom in zip(a.itertuples(index=False), _points(a), strict=True):
        props = {
            "layer": "access",
            "parcel": ids[int(rec.parcel)],
            "status": rec.status,
            "type": _text(rec.type),
            "nearest_marker_ft": _num(rec.nearest_ft),
        }
        yield _feature(geom, props)


def _feature(geometry: str | None, props: dict[str, Any]) -> str:
    g = "null" if geometry is None else geometry
    return (
        '{"type": "Feature", "geometry": '
        + g
        + ', "properties": '
        + orjson.dumps(props).decode()
        + "}"
    )
