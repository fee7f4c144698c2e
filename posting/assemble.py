"""The Report from the profiles' verdicts: each parcel judged by the profile that gives it its
best status among those that apply to it (:mod:`posting.jurisdiction`), with the tables of that
profile, and every input row accounted for."""

from __future__ import annotations

import datetime as _dt

import numpy as np
import pandas as pd

from posting.attributes import first_recorded
from posting.boundary import stretch_start_ft
from posting.evaluate import Result
from posting.frames import text
from posting.jurisdiction import Applied
from posting.measure import Measurements
from posting.report import Report
from posting.rules.loader import Profile
from posting.verdict import RANK

__all__ = ["assemble"]


class _Choice:
    """Each parcel's profile: the first that gives it its best status (:data:`RANK`)."""

    def __init__(self, results: list[Result], n: int, applies: np.ndarray | None = None) -> None:
        self.results, self.n = results, n
        rank = (
            np.vstack([[RANK[s] for s in r.status] for r in results])
            if n
            else np.zeros((len(results), 0), int)
        )
        if applies is not None:  # a profile that does not apply to a parcel is never chosen
            rank = np.where(applies, rank, len(RANK))
        self.of = np.argmin(rank, axis=0) if n else np.empty(0, dtype=np.int64)

    def pick(self, attr: str) -> np.ndarray:
        """Per parcel, the chosen profile's value (a result's field or a kind's column)."""
        stacked = np.vstack(
            [r.columns[attr] if attr in r.columns else getattr(r, attr) for r in self.results]
        )
        return stacked[self.of, np.arange(self.n)] if self.n else stacked[:, :0].ravel()

    def rows(self, attr: str) -> pd.DataFrame:
        """The chosen profile's rows of a per-place table (findings, or a kind's table)."""

        def table(r: Result) -> pd.DataFrame:
            return r.findings if attr == "findings" else r.tables[attr]

        if len(self.results) == 1:  # one profile: every row is the chosen profile's
            return table(self.results[0]).reset_index(drop=True)
        parts = []
        for k, r in enumerate(self.results):
            t = table(r)
            if len(t):
                parts.append(t[self.of[t["parcel"].to_numpy(dtype=np.int64)] == k])
        return (
            pd.concat(parts, ignore_index=True)
            if parts
            else table(self.results[0]).iloc[:0].reset_index(drop=True)
        )


def assemble(
    m: Measurements,
    profiles: list[Profile],
    results: list[Result],
    applied: Applied | None = None,
    *,
    partial: bool = False,
) -> Report:
    """The Report: each parcel judged by the first profile that gives it its best status, among
    the profiles that apply to it (``applied.applies``; every profile when None); ``partial``:
    of part of a larger check's parcels (:func:`landcover_counted`)."""
    prep, markers = m.prep, m.markers
    applies = None if applied is None else applied.applies
    choice = _Choice(results, m.n, applies)
    ids = prep.layer.ids
    dup = text(ids).duplicated(keep=False).to_numpy()
    warnings = list(prep.layer.notes) + list(markers.notes) + m.context.warnings() + m.warnings
    if applied is not None:
        warnings += applied.warnings
    _input_warnings(prep, markers, ids, dup, warnings)
    parcels_df = _parcel_table(m, profiles, choice, dup)
    if applied is not None and applied.state is not None:
        parcels_df["state"] = text(applied.state)
    tables, record_columns = _kinds_own(results, parcels_df, choice)
    stretches = _stretch_tables(m)
    not_checked = []
    for r in results:
        not_checked += [{**x, "profile": r.profile.name} for x in r.not_checked]
    gaps = _gap_markers(choice.rows("gaps"), m.origin)
    known = m.context.landcover is not None or m.context.parcel_landcover is not None
    judged = parcels_df["rules"].to_numpy(dtype=object)
    not_checked = landcover_counted(
        not_checked, gaps, judged, landcover_known=known and not partial
    )
    return Report(
        profiles=profiles,
        settings=m.settings,
        geometry=prep.geometry,
        inputs=_inputs(m),
        marker_attributes=markers.attributes,
        tables=tables,
        record_columns=record_columns,
        parcels=parcels_df,
        findings=choice.rows("findings"),
        gaps=gaps,
        corners=choice.rows("corners"),
        access=choice.rows("access"),
        markers=_marker_table(m, ids),
        not_checked=not_checked,
        warnings=warnings,
        alternatives=_alternatives(profiles, results, m.n, applies),
        all_findings=pd.concat([r.findings for r in results], ignore_index=True),
        water=stretches.get("water"),
        easements=stretches.get("easements"),
        fence_gaps=choice.rows("fence_gaps"),
        states=None if applied is None else applied.states,
        parcels_crs=prep.layer.crs,
        ground=m.ground,
        gated=_gated(results, choice),
        generated=_dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
    )


def _parcel_table(
    m: Measurements, profiles: list[Profile], choice: _Choice, dup: np.ndarray
) -> pd.DataFrame:
    """One row per parcel (see :class:`~posting.report.Report`), the land's columns with it."""
    prep, n = m.prep, m.n
    labels = np.asarray([c.label for c in prep.crss] + [None], dtype=object)
    names = np.asarray([p.name for p in profiles], dtype=object)
    owners = prep.layer.owners
    out = pd.DataFrame(
        {
            "id": text(prep.layer.ids),
            "row": np.arange(n),
            "owner": text(owners if owners is not None else np.full(n, None)),
            "status": text(choice.pick("status")),
            "rules": text(names[choice.of] if n else np.empty(0, dtype=object)),
            # the input markers assigned to it (one counted for two parcels: for the one it
            # stands in)
            "signs": np.bincount(m.asg.parcel[m.am[m.am < len(m.markers)]], minlength=n),
            "markers_counted": choice.pick("counted"),
            "rings": prep.ring_count,
            "perimeter_ft": prep.perimeter_ft,
            "area_acres": prep.area_acres,
            "max_gap_ft": choice.pick("max_gap"),
            "corners": np.bincount(prep.rings.parcel[prep.corners.ring], minlength=n),
            "repaired": text(prep.repaired),
            "invalid_reason": text(prep.invalid),
            "duplicate_id": dup,
            "working_crs": text(labels[prep.group]),
            "exemption": text(choice.pick("exemption")),
            "posted_by": text(choice.pick("posted_by")),
        }
    )
    land, rp = m.land, prep.rings.parcel
    if land.water is not None:
        out["water_frontage_ft"] = land.water.total_by(rp, n)
    if land.dwelling is not None:
        out["dwelling"] = land.dwelling
    if land.recorded_acres is not None:
        out["recorded_acres"] = land.recorded_acres
    if land.easements is not None:
        out["easement_ft"] = land.easements.total_by(rp, n)
    if prep.source_rows is not None:
        # merged by owner: every parcel's, merged or not (a run whose lots merge into none
        # writes the keys of one whose lots do)
        out["source_ids"] = prep.source_ids
    return out


def _labels(markers) -> pd.Series:
    """What the surveyor called each marker (a ``name`` column, a GPX waypoint's name, a
    ``sign_id``), None where not recorded."""
    attrs = markers.attributes
    if not len(attrs.columns) or len(attrs) != len(markers):
        return text(np.full(len(markers), None, dtype=object))
    return text(first_recorded(attrs, "label"))


def _gap_markers(gaps: pd.DataFrame, origin: np.ndarray | None) -> pd.DataFrame:
    """Gaps whose end is a marker counted for a second parcel name the input marker."""
    if origin is None or not len(gaps):
        return gaps
    for col in ("start_marker", "end_marker"):
        v = gaps[col].to_numpy()
        gaps[col] = np.where(v >= 0, origin[np.maximum(v, 0)], v)
    return gaps


def _stretch_tables(m: Measurements) -> dict[str, pd.DataFrame]:
    """Stretches of boundary formed by water and inside easements (WGS 84 lines)."""
    prep, land = m.prep, m.land
    out = {}
    for name, st, extra in (
        ("water", land.water, None),
        ("easements", land.easements, land.easement_holder),
    ):
        if st is None:
            continue
        parcel = prep.rings.parcel[st.ring]
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
        else:  # where each starts along its ring (the plan posts the boundary off the water)
            table["start_ft"] = stretch_start_ft(prep.rings, st.ring, st.geometry, st.length_ft)
        out[name] = table
    return out


def _alternatives(
    profiles: list[Profile], results: list[Result], n: int, applies: np.ndarray | None
) -> pd.DataFrame:
    """Each parcel's status under every profile given that applies to it."""
    names = np.asarray([p.name for p in profiles], dtype=object)
    out = pd.DataFrame(
        {
            "parcel": np.tile(np.arange(n), len(results)),
            "profile": text(np.repeat(names, n)),
            "status": text(
                np.concatenate([r.status for r in results]) if n else np.empty(0, dtype=object)
            ),
        }
    )
    return out if applies is None else out[applies.ravel()].reset_index(drop=True)


def _inputs(m: Measurements) -> dict:
    """The input files: the parcel layer and each marker file, with their features and CRS."""
    layer, markers = m.prep.layer, m.markers
    return {
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


def _gated(results: list[Result], choice: _Choice) -> dict[str, np.ndarray]:
    """Per rule a profile's ``[when]`` gates, per parcel, whether it applies under the profile
    the parcel is judged by (1.0, 0.0, NaN unknown; 1.0 under a profile that does not gate it:
    the rule applies wherever that profile has it)."""
    names = dict.fromkeys(name for r in results for name in r.gated)
    out = {}
    for name in names:
        stacked = np.vstack(
            [np.asarray(r.gated.get(name, np.ones(choice.n)), dtype=float) for r in results]
        )
        out[name] = stacked[choice.of, np.arange(choice.n)]
    return out


_OWN = {"gaps", "corners", "access", "fence_gaps"}
"""The kinds' tables the Report has a field for; any other goes to ``Report.tables``."""


def _kinds_own(
    results: list[Result], parcels_df: pd.DataFrame, choice: _Choice
) -> tuple[dict[str, pd.DataFrame], tuple[str, ...]]:
    """Tables and per-parcel columns of kinds of rule beyond the built-in ones: each parcel's
    from the profile it is judged by. The columns go into ``parcels_df`` (and each record)."""
    names = [t for r in results for t in r.tables if t not in _OWN]
    tables = {
        t: choice.rows(t) for t in dict.fromkeys(names) if all(t in r.tables for r in results)
    }
    extra = [c for r in results for c in r.columns if c != "max_gap"]
    columns = tuple(c for c in dict.fromkeys(extra) if all(c in r.columns for r in results))
    for c in columns:
        parcels_df[c] = choice.pick(c)
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
    """One row per input marker (a marker counted for a second parcel is listed once, for the
    parcel it stands in)."""
    markers, prep = m.markers, m.prep
    asg = m.asg
    n = len(markers)
    if len(asg.parcel) > n:  # extra counts past the input's rows
        asg = type(asg)(*(getattr(asg, f)[:n] for f in asg.__dataclass_fields__))
    p = asg.parcel
    ok = p >= 0
    ring = asg.ring
    has_rings = len(prep.rings) > 0
    part = np.where(ok, prep.rings.part[np.maximum(ring, 0)] if has_rings else -1, -1)
    hole = np.where(ok, prep.rings.hole[np.maximum(ring, 0)] if has_rings else -1, -1)
    parcel_id = np.full(len(p), None, dtype=object)
    parcel_id[ok] = ids[p[ok]]
    kind = m.all_kinds[:n]
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
            "doubtful": m.doubtful if m.doubtful is not None else np.zeros(n, dtype=bool),
            "label": _labels(markers),
        },
        copy=False,
    )


def landcover_counted(
    not_checked: list[dict[str, str]],
    gaps: pd.DataFrame,
    judged: np.ndarray,
    keep: np.ndarray | None = None,
    *,
    landcover_known: bool = False,
) -> list[dict[str, str]]:
    """``not_checked`` (each with its ``profile``), the land-cover note of each profile counting
    the gaps of the parcels it judges (``judged``: each parcel's profile), of those in ``keep``
    only where given (a partition's own parcels: the run's note sums the partitions'). With
    ``landcover_known`` (a land-cover layer or attribute was given), a note that then counts
    no gap of unknown land cover is left out (the spacing rule notes its counts always), and
    so is the note of a profile that judges no gap (an alternative no parcel took), but in a
    partition's (``keep``): the run's note sums them.

    Where several profiles are alternatives, each measures every parcel; the note of one that
    judges few says how many of *their* gaps were spaced by the stricter limit.
    """
    from posting.kinds.spacing import LANDCOVER_COUNTS, landcover_counts

    if "forest" not in gaps:
        return not_checked
    parcel = gaps["parcel"].to_numpy(dtype=np.int64)
    forest = gaps["forest"].to_numpy(dtype=float)
    out = []
    for x in not_checked:
        if x["rule"] == "landcover" and LANDCOVER_COUNTS.search(x["reason"]):
            sel = judged[parcel] == x["profile"]
            if keep is not None:
                sel &= keep[parcel]
            unknown = int(np.isnan(forest[sel]).sum())
            if unknown == 0 and landcover_known:
                continue
            if keep is None and not sel.any():  # it judges no gap: "0 of 0 gaps" says nothing
                continue
            counts = landcover_counts(unknown, int(sel.sum()))
            x = {**x, "reason": LANDCOVER_COUNTS.sub(counts, x["reason"])}
        out.append(x)
    return out
