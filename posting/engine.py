"""The check, end to end: prepared parcels and markers in, a :class:`~posting.report.Report` out.

files -> io -> prepare -> assign -> checks -> verdict -> Report
"""

from __future__ import annotations

import datetime as _dt

import numpy as np
import pandas as pd

from posting.assign import assign_markers
from posting.boundary import ring_stretches
from posting.checks import FAIL, OK, UNCERTAIN, against_max
from posting.checks.content import (
    find_column,
    letter_height_status,
    name_status,
    names_agree,
    words_status,
)
from posting.checks.corners import nearest_marker_within, neighbour_distance
from posting.checks.spacing import measured_gap, ring_gaps
from posting.io import MarkerLayer, ParcelLayer
from posting.prepare import PreparedParcels, prepare_parcels
from posting.report import Report
from posting.rules import Profile, load_rules
from posting.settings import Settings
from posting.verdict import (
    _frame,
    corner_findings,
    decide,
    item_findings,
    spacing_findings,
)

__all__ = ["check"]

_GAP_STATUS = {OK: "ok", UNCERTAIN: "uncertain", FAIL: "over"}
_CORNER_STATUS = {OK: "ok", UNCERTAIN: "uncertain", FAIL: "missing"}


def _per_group_lonlat(prep: PreparedParcels, group: np.ndarray, x: np.ndarray, y: np.ndarray):
    lon = np.full(len(x), np.nan)
    lat = np.full(len(x), np.nan)
    for g, wcrs in enumerate(prep.crss):
        sel = group == g
        if sel.any():
            lon[sel], lat[sel] = wcrs.ft_to_lonlat(x[sel], y[sel])
    return lon, lat


def _per_group_geoms_lonlat(prep: PreparedParcels, group: np.ndarray, geoms: np.ndarray):
    out = np.full(len(geoms), None, dtype=object)
    for g, wcrs in enumerate(prep.crss):
        sel = group == g
        if sel.any():
            out[sel] = wcrs.geoms_ft_to_lonlat(geoms[sel])
    return out


def check(
    parcels: ParcelLayer,
    markers: MarkerLayer | None = None,
    rules: str | Profile = "florida",
    *,
    settings: Settings | None = None,
) -> Report:
    """Check parcels and their markers against a rule profile.

    Parameters
    ----------
    parcels
        From :func:`posting.io.read_parcels`.
    markers
        From :func:`posting.io.read_markers`; None means no markers (every parcel unposted).
    rules
        A profile name (``"florida"``), a path to a profile file, or a loaded profile.
    settings
        Tolerances and survey accuracy.
    """
    settings = settings or Settings()
    profile = rules if isinstance(rules, Profile) else load_rules(rules)
    markers = markers if markers is not None else MarkerLayer.empty()
    acc = settings.accuracy_ft

    prep = prepare_parcels(parcels, settings)
    asg = assign_markers(prep, markers, tolerance_ft=settings.tolerance_ft)
    n = len(prep)
    rings = prep.rings
    valid = prep.group >= 0
    am = np.flatnonzero(asg.assigned)
    signs = np.bincount(asg.parcel[am], minlength=n)
    mx, my = asg.x_ft[am], asg.y_ft[am]
    findings = []
    not_checked: list[dict[str, str]] = []

    # -- spacing -------------------------------------------------------------------------
    gaps = ring_gaps(asg.ring[am], asg.position_ft[am], rings.length_ft)
    sm, em = gaps.start_marker, gaps.end_marker
    two = (sm >= 0) & (sm != em)
    straight = np.full(len(gaps), np.nan)
    straight[two] = np.hypot(mx[em[two]] - mx[sm[two]], my[em[two]] - my[sm[two]])
    gap_parcel = rings.parcel[gaps.ring]
    gap_df = pd.DataFrame(
        {
            "parcel": gap_parcel,
            "ring": gaps.ring,
            "part": rings.part[gaps.ring],
            "hole": rings.hole[gaps.ring],
            "start_ft": gaps.start_ft,
            "length_ft": gaps.length_ft,
            "straight_ft": straight,
            "unmarked": gaps.unmarked,
            "start_marker": np.where(sm >= 0, am[np.maximum(sm, 0)] if len(am) else -1, -1),
            "end_marker": np.where(em >= 0, am[np.maximum(em, 0)] if len(am) else -1, -1),
        }
    )
    max_gap = np.full(n, np.nan)
    if len(gaps):
        np.fmax.at(max_gap, gap_parcel, gaps.length_ft)
    max_gap[signs == 0] = np.nan
    if profile.spacing is not None:
        gap_df["measured_ft"] = measured_gap(gaps.length_ft, straight, profile.spacing.metric)
        code = against_max(gap_df["measured_ft"].to_numpy(), profile.spacing.max_ft, acc)
        code[gaps.unmarked] = FAIL
        gap_df["code"] = code
        findings.append(
            spacing_findings(
                gap_df.rename(columns={"code": "status"}),
                signs,
                prep.perimeter_ft,
                valid,
                profile.spacing,
                acc,
            )
        )
        status = np.asarray([_GAP_STATUS[c] for c in range(3)], dtype=object)[code]
        status[gaps.unmarked] = "unmarked"
    else:
        gap_df["measured_ft"] = gaps.length_ft
        status = np.full(len(gaps), "ok", dtype=object)
    gap_df["status"] = status
    gap_df = gap_df.drop(columns=["code"], errors="ignore")
    _gap_geometry(prep, gap_df)

    # -- corners -------------------------------------------------------------------------
    c = prep.corners
    c_parcel = rings.parcel[c.ring]
    corner_tol = settings.corner_tolerance_ft
    nearest = nearest_marker_within(c.x, c.y, c_parcel, mx, my, asg.parcel[am], corner_tol + acc)
    neighbour = neighbour_distance(
        c.ring,
        c.position_ft,
        c.x,
        c.y,
        asg.ring[am],
        asg.position_ft[am],
        mx,
        my,
        rings.length_ft,
    )
    c_code = against_max(nearest, corner_tol, acc)
    c_lon, c_lat = _per_group_lonlat(prep, prep.group[c_parcel], c.x, c.y)
    corner_df = pd.DataFrame(
        {
            "parcel": c_parcel,
            "ring": c.ring,
            "part": rings.part[c.ring],
            "hole": rings.hole[c.ring],
            "position_ft": c.position_ft,
            "x_ft": c.x,
            "y_ft": c.y,
            "lon": c_lon,
            "lat": c_lat,
            "turn_deg": c.turn_deg,
            "nearest_ft": nearest,
            "neighbour_ft": neighbour,
            "status": c_code,
        }
    )
    if profile.corners is not None and profile.corners.mode != "none":
        findings.append(corner_findings(corner_df, signs, profile.corners, corner_tol, acc))
    corner_df["status"] = np.asarray([_CORNER_STATUS[k] for k in range(3)], dtype=object)[c_code]

    # -- sign content --------------------------------------------------------------------
    if profile.content is not None:
        findings += _content(profile, markers, prep, asg.parcel[am], am, not_checked)
    if profile.visibility is not None:
        not_checked.append(
            {
                "rule": "visibility",
                "clause": profile.visibility.clause,
                "reason": f"{profile.visibility.text or 'visibility'}: line of sight cannot be "
                "judged from surveyed positions",
            }
        )

    # -- verdict -------------------------------------------------------------------------
    findings_df = (
        pd.concat(findings, ignore_index=True)
        if findings
        else _frame([], "", "", "", "", np.nan, np.nan, "", 0)
    )
    findings_df = findings_df.sort_values(["parcel"], kind="stable").reset_index(drop=True)
    status = decide(prep.invalid, signs, findings_df)

    ids = parcels.ids
    dup = pd.Series(ids).duplicated(keep=False).to_numpy()
    warnings = list(parcels.notes) + list(markers.notes)
    if dup.any():
        dups = pd.Series(ids[dup]).unique()
        shown = ", ".join(repr(x) for x in dups[:5])
        warnings.append(
            f"{parcels.source}: {len(dups)} parcel id(s) appear more than once ({shown}"
            f"{', ...' if len(dups) > 5 else ''}); each row is checked on its own, not merged"
        )
    for i in np.flatnonzero(~pd.isna(prep.repaired)):
        warnings.append(f"{parcels.source}: parcel {ids[i]!r} (row {i}): {prep.repaired[i]}")
    for i in np.flatnonzero(~pd.isna(prep.invalid)):
        warnings.append(
            f"{parcels.source}: parcel {ids[i]!r} (row {i}) is invalid: {prep.invalid[i]}"
        )
    unusable = ~pd.isna(markers.reason)
    if unusable.any():
        warnings.append(
            f"{int(unusable.sum())} marker row(s) have no usable position; they are listed "
            "among the unassigned signs with the reason"
        )

    labels = np.asarray([c.label for c in prep.crss] + [None], dtype=object)
    parcels_df = pd.DataFrame(
        {
            "id": ids,
            "row": np.arange(n),
            "owner": parcels.owners
            if parcels.owners is not None
            else np.full(n, None, dtype=object),
            "status": status,
            "signs": signs,
            "rings": prep.ring_count,
            "perimeter_ft": prep.perimeter_ft,
            "area_acres": prep.area_acres,
            "max_gap_ft": max_gap,
            "corners": np.bincount(c_parcel, minlength=n),
            "repaired": prep.repaired,
            "invalid_reason": prep.invalid,
            "duplicate_id": dup,
            "working_crs": labels[prep.group],
        }
    )

    marker_df = _marker_table(markers, asg, prep, ids)
    generated = _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
    return Report(
        profile=profile,
        settings=settings,
        prepared=prep,
        assignment=asg,
        marker_layer=markers,
        parcels=parcels_df,
        findings=findings_df,
        gaps=gap_df,
        corners=corner_df,
        markers=marker_df,
        not_checked=not_checked,
        warnings=warnings,
        generated=generated,
    )


def _gap_geometry(prep: PreparedParcels, gap_df: pd.DataFrame) -> None:
    """WGS 84 geometry and end points of every reported gap (status other than ``ok``)."""
    rep = np.flatnonzero(gap_df["status"].to_numpy() != "ok")
    geom = np.full(len(gap_df), None, dtype=object)
    ends = np.full((len(gap_df), 4), np.nan)
    if len(rep):
        ring = gap_df["ring"].to_numpy()[rep]
        lines = ring_stretches(
            prep.rings.geometry,
            ring,
            gap_df["start_ft"].to_numpy()[rep],
            gap_df["length_ft"].to_numpy()[rep],
        )
        group = prep.group[prep.rings.parcel[ring]]
        lonlat = _per_group_geoms_lonlat(prep, group, lines)
        geom[rep] = lonlat
        marked = ~gap_df["unmarked"].to_numpy()[rep]
        import shapely

        first = shapely.get_point(lonlat, 0)
        last = shapely.get_point(lonlat, -1)
        ends[rep] = np.column_stack(
            [shapely.get_x(first), shapely.get_y(first), shapely.get_x(last), shapely.get_y(last)]
        )
        ends[rep[~marked]] = np.nan
    gap_df["geometry"] = geom
    gap_df["start_lon"], gap_df["start_lat"] = ends[:, 0], ends[:, 1]
    gap_df["end_lon"], gap_df["end_lat"] = ends[:, 2], ends[:, 3]


def _content(
    profile: Profile,
    markers: MarkerLayer,
    prep: PreparedParcels,
    parcel: np.ndarray,
    am: np.ndarray,
    not_checked: list[dict[str, str]],
) -> list[pd.DataFrame]:
    """Letter height, required words and name on the sign, for assigned markers."""
    rule = profile.content
    attrs = (
        markers.attributes.iloc[am] if len(markers.attributes.columns) else pd.DataFrame(index=am)
    )
    out = []
    items = []
    if rule.letter_min_in is not None:
        items.append(
            (
                "letter_height",
                "letter_height_in",
                lambda v: letter_height_status(v, rule.letter_min_in),
                f"have letters under {rule.letter_min_in:g} in",
                rule.letter_min_in,
                "in",
            )
        )
    if rule.required_words:
        words = ", ".join(f'"{w}"' for w in rule.required_words)
        items.append(
            (
                "sign_text",
                "text",
                lambda v: words_status(v, rule.required_words),
                f"do not show {words}",
                None,
                None,
            )
        )
    if rule.name:
        items.append(
            (
                "name_on_sign",
                "name_on_sign",
                name_status,
                f"show no name (the {rule.name} must be named)",
                None,
                None,
            )
        )
    for rule_name, canonical, fn, what, limit, unit in items:
        col = find_column(attrs.columns, canonical)
        if col is None:
            not_checked.append(
                {
                    "rule": rule_name,
                    "clause": rule.clause,
                    "reason": f"the sign data has no {canonical} column",
                }
            )
            continue
        values = attrs[col].reset_index(drop=True)
        status = fn(values)
        out.append(
            item_findings(
                parcel,
                status,
                values.to_numpy(),
                rule=rule_name,
                clause=rule.clause,
                what=what,
                limit=limit,
                unit=unit,
            )
        )
        if canonical == "name_on_sign" and prep.layer.owners is not None:
            owners = pd.Series(prep.layer.owners[parcel])
            named = (status == OK) & owners.notna().to_numpy()
            differ = named & ~names_agree(values, owners)
            if differ.any():
                df = pd.DataFrame({"parcel": parcel[differ]}).groupby("parcel").size()
                out.append(
                    _frame(
                        df.index,
                        "name_on_sign",
                        "note",
                        rule.clause,
                        [
                            f"{k} {'signs name' if k > 1 else 'sign names'} someone other than "
                            "the owner of record (lawful if it is the lessee or occupant)"
                            for k in df.to_numpy()
                        ],
                        np.nan,
                        None,
                        None,
                        df.to_numpy(),
                    )
                )
    return out


def _marker_table(
    markers: MarkerLayer, asg, prep: PreparedParcels, ids: np.ndarray
) -> pd.DataFrame:
    p = asg.parcel
    ok = p >= 0
    ring = asg.ring
    part = np.where(ok, prep.rings.part[np.maximum(ring, 0)] if len(prep.rings) else -1, -1)
    hole = np.where(ok, prep.rings.hole[np.maximum(ring, 0)] if len(prep.rings) else -1, -1)
    parcel_id = np.full(len(p), None, dtype=object)
    parcel_id[ok] = ids[p[ok]]
    why = np.asarray(asg.reason, dtype=object).copy()
    how_text = {
        "named": "its parcel column names this parcel",
        "inside": "stands inside this parcel, near its boundary",
        "nearest": "outside every parcel; this is the nearest boundary",
    }
    for k, text in how_text.items():
        sel = asg.how == k
        why[sel] = np.char.add(
            np.full(sel.sum(), f"{text} ("),
            np.char.add(np.char.mod("%.1f", asg.distance_ft[sel]), " ft from it)"),
        ).astype(object)
    return pd.DataFrame(
        {
            "source": markers.source,
            "row": markers.row,
            "lon": markers.lon,
            "lat": markers.lat,
            "parcel": p,
            "parcel_id": parcel_id,
            "ring": ring,
            "part": part,
            "hole": hole,
            "assigned_by": asg.how,
            "distance_ft": asg.distance_ft,
            "position_ft": asg.position_ft,
            "reason": asg.reason,
            "why": why,
        }
    )
