"""The Report from the profiles' verdicts: each parcel judged by the profile that gives it its
best status, with the tables of that profile, and every input row accounted for."""

from __future__ import annotations

import datetime as _dt

import numpy as np
import pandas as pd

from posting.evaluate import Result
from posting.frames import text
from posting.measure import Measurements
from posting.report import Report
from posting.rules.loader import Profile
from posting.verdict import RANK

__all__ = ["assemble"]


def _per_parcel(r: Result, attr: str) -> np.ndarray:
    """A per-parcel array of a profile's result (``max_gap`` is one of the kinds' columns)."""
    return r.columns[attr] if attr in r.columns else getattr(r, attr)


def _table(r: Result, attr: str) -> pd.DataFrame:
    """A per-place table of a profile's result (``findings``, or one of the kinds' tables)."""
    return r.findings if attr == "findings" else r.tables[attr]


def assemble(m: Measurements, profiles: list[Profile], results: list[Result]) -> Report:
    """The Report: each parcel judged by the first profile that gives it its best status."""
    prep, asg, markers = m.prep, m.asg, m.markers
    n = m.n
    rank = (
        np.vstack([[RANK[s] for s in r.status] for r in results])
        if n
        else np.zeros((len(results), 0), int)
    )
    choice = np.argmin(rank, axis=0) if n else np.empty(0, dtype=np.int64)

    def pick(attr: str) -> np.ndarray:
        stacked = np.vstack([_per_parcel(r, attr) for r in results])
        return stacked[choice, np.arange(n)] if n else stacked[:, :0].ravel()

    def rows(attr: str) -> pd.DataFrame:
        if len(results) == 1:  # one profile: every row is the chosen profile's
            return _table(results[0], attr).reset_index(drop=True)
        parts = []
        for k, r in enumerate(results):
            t = _table(r, attr)
            if len(t):
                parts.append(t[choice[t["parcel"].to_numpy(dtype=np.int64)] == k])
        return (
            pd.concat(parts, ignore_index=True)
            if parts
            else _table(results[0], attr).iloc[:0].reset_index(drop=True)
        )

    status = pick("status")
    ids = prep.layer.ids
    dup = text(ids).duplicated(keep=False).to_numpy()
    warnings = list(prep.layer.notes) + list(markers.notes) + m.warnings
    _input_warnings(prep, markers, ids, dup, warnings)
    labels = np.asarray([c.label for c in prep.crss] + [None], dtype=object)
    names = np.asarray([p.name for p in profiles], dtype=object)
    parcels_df = pd.DataFrame(
        {
            "id": text(ids),
            "row": np.arange(n),
            "owner": text(prep.layer.owners if prep.layer.owners is not None else np.full(n, None)),
            "status": text(status),
            "rules": text(names[choice] if n else np.empty(0, dtype=object)),
            "signs": np.bincount(asg.parcel[m.am], minlength=n),
            "markers_counted": pick("counted"),
            "rings": prep.ring_count,
            "perimeter_ft": prep.perimeter_ft,
            "area_acres": prep.area_acres,
            "max_gap_ft": pick("max_gap"),
            "corners": np.bincount(prep.rings.parcel[prep.corners.ring], minlength=n),
            "repaired": text(prep.repaired),
            "invalid_reason": text(prep.invalid),
            "duplicate_id": dup,
            "working_crs": text(labels[prep.group]),
            "exemption": text(pick("exemption")),
            "posted_by": text(pick("posted_by")),
        }
    )
    land = m.land
    rp = prep.rings.parcel
    if land.water is not None:
        parcels_df["water_frontage_ft"] = land.water.total_by(rp, n)
    if land.dwelling is not None:
        parcels_df["dwelling"] = land.dwelling
    if land.recorded_acres is not None:
        parcels_df["recorded_acres"] = land.recorded_acres
    if land.easements is not None:
        parcels_df["easement_ft"] = land.easements.total_by(rp, n)
    if prep.source_rows is not None and any(len(r) > 1 for r in prep.source_rows):
        parcels_df["source_ids"] = prep.source_ids
    stretches = {}
    for name, st, extra in (
        ("water", land.water, None),
        ("easements", land.easements, land.easement_holder),
    ):
        if st is None:
            continue
        parcel = rp[st.ring]
        table = pd.DataFrame(
            {
                "parcel": parcel,
                "ring": st.ring,
                "length_ft": st.length_ft,
                "geometry": prep.geoms_to_lonlat(prep.group[parcel], st.geometry),
            }
        )
        if extra is not None:
            table["holder"] = pd.Series(extra, dtype=object)
        stretches[name] = table
    alternatives = pd.DataFrame(
        {
            "parcel": np.tile(np.arange(n), len(results)),
            "profile": text(np.repeat(names, n)),
            "status": text(
                np.concatenate([r.status for r in results]) if n else np.empty(0, dtype=object)
            ),
        }
    )
    all_findings = pd.concat([r.findings for r in results], ignore_index=True)
    not_checked = []
    for r in results:
        not_checked += [{**x, "profile": r.profile.name} for x in r.not_checked]
    layer = prep.layer
    inputs = {
        "parcels": {
            "path": layer.source,
            "features": len(layer),
            "crs": layer.crs.name,
            "id_field": layer.id_field,
        },
        "signs": [
            {"path": path, "features": int((markers.file_index == k).sum()), "crs": crs.name}
            for k, (path, crs) in enumerate(markers.files)
        ],
    }
    tables, record_columns = _kinds_own(results, choice, parcels_df, pick, rows)
    return Report(
        profiles=profiles,
        settings=m.settings,
        geometry=prep.geometry,
        inputs=inputs,
        marker_attributes=markers.attributes,
        tables=tables,
        record_columns=record_columns,
        parcels=parcels_df,
        findings=rows("findings"),
        gaps=rows("gaps"),
        corners=rows("corners"),
        access=rows("access"),
        markers=_marker_table(m, ids),
        not_checked=not_checked,
        warnings=warnings,
        alternatives=alternatives,
        all_findings=all_findings,
        water=stretches.get("water"),
        easements=stretches.get("easements"),
        fence_gaps=rows("fence_gaps"),
        generated=_dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
    )


_OWN = {"gaps", "corners", "access", "fence_gaps"}
"""The kinds' tables the Report has a field for; any other goes to ``Report.tables``."""


def _kinds_own(results, choice, parcels_df, pick, rows):
    """Tables and per-parcel columns of kinds of rule beyond the built-in ones: each parcel's
    from the profile it is judged by. The columns go into ``parcels_df`` (and each record)."""
    names = [t for r in results for t in r.tables if t not in _OWN]
    tables = {t: rows(t) for t in dict.fromkeys(names) if all(t in r.tables for r in results)}
    extra = [c for r in results for c in r.columns if c != "max_gap"]
    columns = tuple(c for c in dict.fromkeys(extra) if all(c in r.columns for r in results))
    for c in columns:
        parcels_df[c] = pick(c)
    return tables, columns


def _input_warnings(prep, markers, ids, dup, warnings: list[str]) -> None:
    source = prep.layer.source
    if dup.any():
        dups = pd.Series(ids[dup]).unique()
        shown = ", ".join(repr(x) for x in dups[:5])
        warnings.append(
            f"{source}: {len(dups)} parcel id(s) appear more than once ({shown}"
            f"{', ...' if len(dups) > 5 else ''}); each row is checked on its own, not merged"
        )
    for i in np.flatnonzero(~pd.isna(prep.repaired)):
        warnings.append(f"{source}: parcel {ids[i]!r} (row {i}): {prep.repaired[i]}")
    for i in np.flatnonzero(~pd.isna(prep.invalid)):
        warnings.append(f"{source}: parcel {ids[i]!r} (row {i}) is invalid: {prep.invalid[i]}")
    unusable = ~pd.isna(markers.reason)
    if unusable.any():
        warnings.append(
            f"{int(unusable.sum())} marker row(s) have no usable position; they are listed "
            "among the unassigned signs with the reason"
        )


def _marker_table(m: Measurements, ids: np.ndarray) -> pd.DataFrame:
    markers, asg, prep = m.markers, m.asg, m.prep
    p = asg.parcel
    ok = p >= 0
    ring = asg.ring
    has_rings = len(prep.rings) > 0
    part = np.where(ok, prep.rings.part[np.maximum(ring, 0)] if has_rings else -1, -1)
    hole = np.where(ok, prep.rings.hole[np.maximum(ring, 0)] if has_rings else -1, -1)
    parcel_id = np.full(len(p), None, dtype=object)
    parcel_id[ok] = ids[p[ok]]
    kind = m.all_kinds
    # the columns as they are (copy=False): a million rows, consolidated into blocks, would be
    # copied once more for nothing
    return pd.DataFrame(
        {
            "source": text(markers.source),
            "row": markers.row,
            "lon": markers.lon,
            "lat": markers.lat,
            "kind": text(kind),
            "parcel": p,
            "parcel_id": text(parcel_id),
            "ring": ring,
            "part": part,
            "hole": hole,
            "assigned_by": text(asg.how),
            "distance_ft": asg.distance_ft,
            "position_ft": asg.position_ft,
            "reason": text(asg.reason),
            "x_ft": asg.x_ft,
            "y_ft": asg.y_ft,
        },
        copy=False,
    )
