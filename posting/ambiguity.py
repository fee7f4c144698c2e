"""GPS error on shared lines: markers that could stand on either side of a line two parcels share.

A marker recorded within the survey's stated accuracy of a neighbour's boundary may truly stand
across it, and then posts the neighbour, not the parcel its recorded position puts it in. What
the data says settles it first: a sign whose name agrees with one parcel's owner of record and
not the other's posts that parcel (a marker naming its parcel in a column was never in doubt).
A doubtful marker between two parcels of one owner of record posts the line they share for
that owner, so it counts for both (:func:`shared_by_one_owner`). Where nothing settles it, the
verdict says so (:func:`combine`):

* a parcel that complies even without its doubtful markers complies whichever way they fall;
* one that fails even with every doubtful marker it could have fails whichever way;
* any other is ``uncertain``, naming the markers and the neighbour.

A marker standing inside two parcels or more whose boundaries are within the tolerance of it
(a county's repeated row, stacked estates drawn on the surface lot:
:attr:`posting.assign.Assignment.in_several`) is in doubt the same way, whatever the accuracy:
the assignment gave it to the first in the input, a choice of row order, not of the land.

The two bounds come from two more evaluations of each profile, on the same measurements:
without the doubtful markers (each parcel's worst case), and with each doubtful marker counted
for every parcel it could post (each parcel's best case: a marker posts one parcel, so no real
assignment does better for any of them). Both run only where some marker is in doubt (with no
accuracy stated, only a marker on a shared line, within :data:`ON_LINE_FT`, or inside parcels
that overlap), and only on the
parcels a doubtful marker concerns (:func:`bounds`); a check with no doubt is unchanged, and so
is every parcel no doubtful marker concerns.
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from posting.assign import Assignment, LinesNear
from posting.attributes import find_column, first_recorded
from posting.boundary import RingIndex
from posting.checks.content import NO_NAME, names_match, normalise_text
from posting.evaluate import Result
from posting.index import unique_ints
from posting.io import MarkerLayer
from posting.measure import Measurements, restrict
from posting.prepare import PreparedParcels
from posting.verdict import findings_frame, ft, plural

__all__ = [
    "Doubt",
    "bounds",
    "combine",
    "doubtful_markers",
    "near_other_parcel",
    "shared_by_one_owner",
    "touched",
    "with_doubtful",
    "without_doubtful",
]

ON_LINE_FT = 0.01
"""A marker this close to another parcel's line is on it, whatever the stated accuracy: drawn
onto the line (a GIS's snapping puts signs on parcel lines exactly), where no GPS fix lands.
With no accuracy stated it went to whichever of the two parcels came first in the input."""

_PASS = ("compliant", "exempt")
_FAIL = ("noncompliant", "unposted")


@dataclass(frozen=True)
class Doubt:
    """Markers that could post another parcel than the one they are assigned to.

    One row per (marker, other parcel): ``marker`` (index into the markers), ``parcel`` (the
    other parcel), ``ring`` and ``position_ft`` (where on the other parcel's boundary it would
    stand), ``distance_ft`` (from the recorded position to that boundary, within the accuracy,
    or, where the marker stands inside the other parcel too, within the tolerance), and
    ``inside`` (the marker stands inside the other parcel too, farther than
    :data:`ON_LINE_FT` from its line: the two parcels overlap there).
    """

    marker: np.ndarray
    parcel: np.ndarray
    ring: np.ndarray
    position_ft: np.ndarray
    distance_ft: np.ndarray
    inside: np.ndarray

    def __len__(self) -> int:
        return len(self.marker)

    def take(self, keep: np.ndarray) -> Doubt:
        return Doubt(*(getattr(self, f.name)[keep] for f in dataclasses.fields(self)))


def doubtful_markers(
    prep: PreparedParcels,
    markers: MarkerLayer,
    asg: Assignment,
    accuracy_ft: float,
    tolerance_ft: float,
    lines: LinesNear | None = None,
) -> tuple[Assignment, Doubt]:
    """Markers placed by their position within ``accuracy_ft`` of another parcel's boundary,
    less those the name on the sign settles; and the assignment with the markers whose name
    agrees only with the other parcel's owner moved to it.

    A marker placed by position is in doubt when another parcel's boundary lies within
    ``accuracy_ft`` of it (and within ``tolerance_ft``, beyond which it posts nothing), or,
    with no accuracy stated, within :data:`ON_LINE_FT` (a marker on the line two parcels
    share: only those on their own parcel's line are asked).
    Vectorised: the ``lines`` the assignment found near the markers
    (:func:`posting.assign.assign_near`) where given (within the reach), else one ring index
    per working CRS, asked for the markers placed by position.
    """
    rows = []
    placed = np.flatnonzero(asg.assigned & np.isin(asg.how, ("inside", "nearest")))
    several = placed[asg.in_several[placed]]  # inside other parcels too (few: overlaps)
    if len(several):
        rows.append(_inside_others(prep, asg, several, tolerance_ft))
    if accuracy_ft < ON_LINE_FT:
        accuracy_ft = ON_LINE_FT
        placed = placed[asg.distance_ft[placed] <= ON_LINE_FT]
    reach = min(accuracy_ft, tolerance_ft)  # beyond the tolerance it could post nothing
    ask = placed
    if lines is not None and lines.reach_ft >= reach:
        # the lines the assignment found near each marker: those of a marker with two
        # parcels' lines near; a marker with one, its own or (its own line farther: a parcel
        # within another) asked again; the others have none
        told = np.zeros(len(asg.parcel), dtype=bool)
        told[placed] = True
        at = np.flatnonzero(told[lines.marker] & (lines.distance_ft <= reach))
        rows.append(
            _nearest_others(
                prep,
                asg,
                lines.marker[at],
                lines.ring[at],
                lines.distance_ft[at],
                lines.position_ft[at],
            )
        )
        ask = placed[lines.lone[placed] & ~(asg.distance_ft[placed] <= reach)]
    ring_group = prep.group[prep.rings.parcel]
    mgroup = prep.group[np.maximum(asg.parcel, 0)]
    for g in range(len(prep.crss)):
        mk = ask[mgroup[ask] == g]
        rings_g = np.flatnonzero(ring_group == g)
        if not len(mk) or not len(rings_g):
            continue
        near = RingIndex(prep.vertices, rings_g, reach).near(asg.x_ft[mk], asg.y_ft[mk])
        rows.append(
            _nearest_others(
                prep, asg, mk[near.point], near.ring, near.distance_ft, near.position_ft
            )
        )
    if rows:
        doubt = Doubt(*(np.concatenate(c) for c in zip(*rows, strict=True)))
        order = np.lexsort((doubt.parcel, doubt.marker))
        doubt = doubt.take(order)
        if len(several) and len(doubt):  # (a marker and parcel found by its line and inside)
            new = np.r_[True, (np.diff(doubt.marker) != 0) | (np.diff(doubt.parcel) != 0)]
            inside = np.logical_or.reduceat(doubt.inside, np.flatnonzero(new))
            doubt = dataclasses.replace(doubt.take(new), inside=inside)
    else:
        e = np.empty(0, dtype=np.int64)
        doubt = Doubt(e, e, e, np.empty(0), np.empty(0), np.empty(0, dtype=bool))
    return _settle_by_names(prep, markers, asg, doubt)


def _inside_others(
    prep: PreparedParcels, asg: Assignment, several: np.ndarray, tolerance_ft: float
) -> tuple[np.ndarray, ...]:
    """For the markers ``several`` (:attr:`posting.assign.Assignment.in_several`: inside two
    parcels or more whose boundaries are within ``tolerance_ft``), the nearest ring of each
    other parcel they stand inside (on its line too), within the tolerance: the columns of
    :class:`Doubt`, ``inside`` where farther than :data:`ON_LINE_FT` from that line. A search
    of these markers alone (few: where parcels overlap), told in or out as the assignment
    tells them (:func:`posting.assign._side_at_nearest`; a tie, by GEOS)."""
    from posting.assign import _side_at_nearest

    out = []
    ring_group = prep.group[prep.rings.parcel]
    mgroup = prep.group[asg.parcel[several]]
    for g in unique_ints(mgroup):
        mk = several[mgroup == g]
        rings_g = np.flatnonzero(ring_group == g)
        near = RingIndex(prep.vertices, rings_g, tolerance_ft).near(asg.x_ft[mk], asg.y_ft[mk])
        m_, pp = mk[near.point], prep.rings.parcel[near.ring]
        side = _side_at_nearest(
            m_ * len(prep.ring_count) + pp,
            near.ring,
            near.distance_ft,
            near.side,
            prep.ring_count[pp],
        )
        tie = np.flatnonzero(side == 0)  # on a vertex's bisector, or within 1e-6 ft
        if len(tie):
            hit = shapely.intersects_xy(
                prep.geometry_ft[pp[tie]], asg.x_ft[m_[tie]], asg.y_ft[m_[tie]]
            )
            side[tie] = np.where(hit, 1, -1)
        keep = np.flatnonzero(side > 0)
        found = _nearest_others(
            prep,
            asg,
            m_[keep],
            near.ring[keep],
            near.distance_ft[keep],
            near.position_ft[keep],
        )
        out.append((*found[:5], found[4] > ON_LINE_FT))
    e = np.empty(0, dtype=np.int64)
    parts = out or [(e, e, e, np.empty(0), np.empty(0), np.empty(0, dtype=bool))]
    return tuple(np.concatenate(c) for c in zip(*parts, strict=True))


def _nearest_others(
    prep: PreparedParcels,
    asg: Assignment,
    marker: np.ndarray,
    ring: np.ndarray,
    distance_ft: np.ndarray,
    position_ft: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """Of the rings near markers (one row per marker and ring), the nearest ring of each
    other parcel than the marker's (ties: the first ring): the columns of :class:`Doubt`."""
    other = np.flatnonzero(prep.rings.parcel[ring] != asg.parcel[marker])
    m_, r_, d_, s_ = marker[other], ring[other], distance_ft[other], position_ft[other]
    p_ = prep.rings.parcel[r_]
    order = np.lexsort((r_, d_, p_, m_))
    first = (
        order[np.r_[True, (np.diff(m_[order]) != 0) | (np.diff(p_[order]) != 0)]]
        if len(order)
        else order
    )
    return m_[first], p_[first], r_[first], s_[first], d_[first], np.zeros(len(first), bool)


def _settle_by_names(
    prep: PreparedParcels, markers: MarkerLayer, asg: Assignment, doubt: Doubt
) -> tuple[Assignment, Doubt]:
    """A sign whose name agrees with exactly one of the parcels it could post posts that one."""
    owners = prep.layer.owners
    col = (
        find_column(markers.attributes.columns, "name_on_sign")
        if len(markers.attributes.columns)
        else None
    )
    if owners is None or col is None or not len(doubt):
        return asg, doubt
    names = markers.attributes[col].iloc[doubt.marker].reset_index(drop=True)
    blank = normalise_text(names).isin(("", *NO_NAME)).to_numpy() | names.isna().to_numpy()
    own = pd.Series(owners[asg.parcel[doubt.marker]])
    other = pd.Series(owners[doubt.parcel])
    with_own = names_match(names, own) & ~blank
    with_other = names_match(names, other) & ~blank
    # per marker: does the name agree with its own parcel, and with which others
    marker = doubt.marker
    agrees_own = pd.Series(with_own).groupby(marker).any()
    others_agreeing = pd.Series(with_other).groupby(marker).sum()
    settled_here = agrees_own & (others_agreeing == 0)
    moved = ~agrees_own & (others_agreeing == 1)
    move_row = np.flatnonzero(with_other & moved.reindex(marker).to_numpy())
    if len(move_row):
        mm = marker[move_row]
        fields = {f.name: getattr(asg, f.name) for f in dataclasses.fields(asg)}
        for k in ("parcel", "ring", "position_ft", "distance_ft", "how"):  # (those changed)
            fields[k] = fields[k].copy()
        fields["parcel"][mm] = doubt.parcel[move_row]
        fields["ring"][mm] = doubt.ring[move_row]
        fields["position_ft"][mm] = doubt.position_ft[move_row]
        fields["distance_ft"][mm] = doubt.distance_ft[move_row]
        fields["how"][mm] = "sign_name"  # the name on the sign is this parcel's owner's
        asg = Assignment(**fields)
    settled = (settled_here | moved).reindex(marker).to_numpy()
    return asg, doubt.take(~settled)


def near_other_parcel(
    geometry: PreparedParcels,
    parcel: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    within_ft: np.ndarray,
    indexes: dict[tuple[int, float], Future[RingIndex]] | None = None,
    build_ft: float = 0.0,
) -> np.ndarray:
    """Whether another parcel's boundary lies nearer than ``within_ft`` (per point) to each point
    (``x``, ``y`` in the working frame of its ``parcel``): where GPS error of that size could
    put it across a shared line. Points with ``within_ft`` 0 are never near.

    ``indexes``: the rings' indexes a caller keeps, by working frame and the distance each
    reaches (:func:`posting.assign.assign_markers`'s): one that reaches as far as the points
    ask is used (it finds every ring within its distance, so the rings nearer than
    ``within_ft`` are the same), and one built here is kept there, reaching at least
    ``build_ft`` (the distance the caller's assignments will ask of it: one index serves
    both).
    """
    within = np.broadcast_to(np.asarray(within_ft, dtype=float), (len(x),))
    out = np.zeros(len(x), dtype=bool)
    ask = np.flatnonzero((within > 0) & (parcel >= 0) & np.isfinite(x) & np.isfinite(y))
    if not len(ask):
        return out
    ring_group = geometry.group[geometry.rings.parcel]
    pgroup = geometry.group[parcel[ask]]
    for g in unique_ints(pgroup):
        sub = ask[pgroup == g]
        need = float(within[sub].max())
        index = _reaching(geometry, ring_group, int(g), need, max(need, build_ft), indexes)
        near = index.near(x[sub], y[sub])
        hit = (geometry.rings.parcel[near.ring] != parcel[sub][near.point]) & (
            near.distance_ft < within[sub][near.point]
        )
        out[sub[near.point[hit]]] = True
    return out


def _reaching(
    geometry: PreparedParcels,
    ring_group: np.ndarray,
    g: int,
    distance_ft: float,
    build_ft: float,
    indexes: dict[tuple[int, float], Future[RingIndex]] | None,
) -> RingIndex:
    """The rings' index of working frame ``g`` reaching at least ``distance_ft``: the nearest
    reaching one of ``indexes``, else a new one reaching ``build_ft`` (kept in ``indexes``)."""
    if indexes is not None:
        reach = [d for k, d in list(indexes) if k == g and d >= distance_ft]
        if reach:
            return indexes[(g, min(reach))].result()
    index = RingIndex(geometry.vertices, np.flatnonzero(ring_group == g), build_ft)
    if indexes is not None:
        built: Future[RingIndex] = Future()
        built.set_result(index)
        indexes[(g, build_ft)] = built
    return index


def shared_by_one_owner(prep: PreparedParcels, asg: Assignment, doubt: Doubt) -> np.ndarray:
    """Rows of ``doubt`` between two parcels of the same owner, of record (``--owner-field``)
    or as ``--merge-owner`` keys them (``prep.owner_key``: lots of one owner that touch at a
    point, left apart); False without either: such a marker posts their shared line for that
    owner either way."""
    same = np.zeros(len(doubt), dtype=bool)
    if not len(doubt):
        return same
    mine = asg.parcel[doubt.marker]
    for owners in (prep.layer.owners, prep.owner_key):
        if owners is None:
            continue
        a = pd.Series(owners[mine], dtype=object)
        b = pd.Series(owners[doubt.parcel], dtype=object)
        same |= (a.notna() & b.notna() & (normalise_text(a) == normalise_text(b))).to_numpy(
            dtype=bool
        )
    return same


def without_doubtful(m: Measurements, doubt: Doubt) -> Measurements:
    """The measurements with the doubtful markers counting for no parcel (each parcel's worst
    case)."""
    keep = ~np.isin(m.am, doubt.marker)
    return dataclasses.replace(
        m,
        am=m.am[keep],
        kinds=m.kinds[keep],
        attrs=m.attrs[keep].reset_index(drop=True),
        outward_az=None if m.outward_az is None else m.outward_az[keep],
        _masks={},
    )


def with_doubtful(m: Measurements, doubt: Doubt) -> Measurements:
    """The measurements with each doubtful marker counting for its own parcel and for every
    other parcel it could post (each parcel's best case). The copies are markers of their own
    (indices past the last marker), standing where the marker is, on the other boundary."""
    from posting.measure import outward_azimuth

    asg, n = m.asg, len(m.asg.parcel)
    copies = np.arange(n, n + len(doubt))
    src = doubt.marker
    grown = Assignment(
        parcel=np.r_[asg.parcel, doubt.parcel],
        ring=np.r_[asg.ring, doubt.ring],
        how=np.r_[asg.how, np.full(len(doubt), "nearest", dtype=object)],
        distance_ft=np.r_[asg.distance_ft, doubt.distance_ft],
        position_ft=np.r_[asg.position_ft, doubt.position_ft],
        x_ft=np.r_[asg.x_ft, asg.x_ft[src]],
        y_ft=np.r_[asg.y_ft, asg.y_ft[src]],
        reason=np.r_[asg.reason, np.full(len(doubt), None, dtype=object)],
        in_several=np.r_[asg.in_several, np.zeros(len(doubt), dtype=bool)],
    )
    pos = np.searchsorted(m.am, src)  # where each copied marker is among the assigned
    attrs = pd.concat([m.attrs, m.attrs.iloc[pos]], ignore_index=True)
    origin = np.arange(n) if m.origin is None else m.origin
    out = dataclasses.replace(
        m,
        asg=grown,
        origin=np.r_[origin, origin[src]],
        am=np.r_[m.am, copies],
        kinds=np.r_[m.kinds, m.kinds[pos]],
        attrs=attrs,
        all_kinds=np.r_[m.all_kinds, m.all_kinds[src]],
        outward_az=None,
        _masks={},
    )
    if m.outward_az is not None:
        extra = outward_azimuth(m.prep, grown, copies)
        out.outward_az = np.r_[m.outward_az, extra]
    return out


def touched(m: Measurements, doubt: Doubt) -> np.ndarray:
    """The parcels (places, ascending) the doubtful markers concern: each one's own and every
    other it could post."""
    return unique_ints(np.r_[m.asg.parcel[doubt.marker], doubt.parcel])


def bounds(m: Measurements, doubt: Doubt) -> tuple[np.ndarray, Measurements, Measurements]:
    """The parcels the doubtful markers concern (:func:`touched`), and their measurements
    without the doubtful markers and with them (:func:`without_doubtful`,
    :func:`with_doubtful`), of those parcels alone (:func:`posting.measure.restrict`).

    No other parcel's markers change, so its bounds are its verdict: judging those parcels
    alone gives each profile's two more evaluations the same verdicts as judging every parcel,
    at the cost of the few parcels on lines in doubt.
    """
    parcels = touched(m, doubt)
    sub, rows = restrict(m, parcels)
    at = np.searchsorted(parcels, doubt.parcel)  # the other parcel's place among them
    ring = sub.prep.ring_start[at] + (doubt.ring - m.prep.ring_start[doubt.parcel])
    d = dataclasses.replace(doubt, marker=np.searchsorted(rows, doubt.marker), parcel=at, ring=ring)
    return parcels, without_doubtful(sub, d), with_doubtful(sub, d)


def combine(
    actual: Result,
    worst: Result,
    best: Result,
    doubt: Doubt,
    m: Measurements,
    parcels: np.ndarray | None = None,
) -> Result:
    """One profile's verdict with its doubtful markers: each parcel's status where both bounds
    agree, else ``uncertain`` with a finding that names the markers and the neighbours.

    ``worst`` and ``best`` judge ``parcels`` (places; None: every parcel, as ``actual``); the
    others' bounds are their verdict in ``actual``.
    """
    lo, hi = worst.status, best.status
    if parcels is not None:
        lo, hi = actual.status.copy(), actual.status.copy()
        lo[parcels], hi[parcels] = worst.status, best.status
    passes = np.isin(lo, _PASS) & np.isin(hi, _PASS)
    fails = np.isin(lo, _FAIL) & np.isin(hi, _FAIL)
    failing = np.isin(actual.status, _FAIL)
    status = np.where(
        lo == hi,
        lo,
        np.where(passes, lo, np.where(fails, np.where(failing, actual.status, hi), "uncertain")),
    ).astype(object)
    undecided = status == "uncertain"
    undecided &= lo != hi
    findings = actual.findings
    if undecided.any():
        extra = _doubt_findings(np.flatnonzero(undecided), lo, hi, doubt, m, actual)
        findings = (
            pd.concat([findings, extra], ignore_index=True)
            .sort_values("parcel", kind="stable")
            .reset_index(drop=True)
        )
    return dataclasses.replace(actual, status=status, findings=findings)


def _names_of(markers: MarkerLayer) -> np.ndarray:
    """What the survey called each marker (None where it did not)."""
    attrs = markers.attributes
    if not len(attrs.columns) or len(attrs) != len(markers):
        return np.full(len(markers), None, dtype=object)
    return first_recorded(attrs, "label")


def _lists_by(key: np.ndarray, value: np.ndarray, keys: np.ndarray) -> list[np.ndarray]:
    """For each of ``keys`` (ascending), the distinct ``value``s paired with it, ascending."""
    order = np.lexsort((value, key))
    key, value = key[order], value[order]
    first = np.r_[True, (np.diff(key) != 0) | (np.diff(value) != 0)] if len(key) else key > 0
    key, value = key[first], value[first]
    lo = np.searchsorted(key, keys, side="left")
    hi = np.searchsorted(key, keys, side="right")
    return [value[a:b] for a, b in zip(lo.tolist(), hi.tolist(), strict=True)]


def _same_boundary(m: Measurements, p: np.ndarray, q: np.ndarray) -> dict[int, set[int]]:
    """For each parcel of ``p``, those of ``q`` paired with it whose boundary is the same as
    its own (a row repeated, stacked estates drawn on one lot): a few pairs, where markers
    stand inside both."""
    out: dict[int, set[int]] = {}
    if not len(p):
        return out
    pairs = np.unique(np.c_[p, q], axis=0)
    geom, group = m.prep.geometry_ft, m.prep.group
    same = (group[pairs[:, 0]] == group[pairs[:, 1]]) & shapely.equals(
        geom[pairs[:, 0]], geom[pairs[:, 1]]
    )
    for a, b in pairs[same].tolist():
        out.setdefault(a, set()).add(b)
    return out


def _doubt_findings(
    parcels: np.ndarray, lo: np.ndarray, hi: np.ndarray, doubt: Doubt, m: Measurements, r: Result
) -> pd.DataFrame:
    """For each undecided parcel: the doubtful markers it has or could have, and the
    neighbours on the other side of the line, or the parcels it overlaps where they stand
    inside both (:attr:`Doubt.inside`)."""
    asg, ids, src, row = m.asg, m.prep.ids, m.markers.source, m.markers.row
    label = _names_of(m.markers)
    own = asg.parcel[doubt.marker]
    acc = m.settings.accuracy_ft
    # each doubt row concerns both parcels: its marker's and the other; per undecided parcel,
    # its markers and its neighbours, distinct and ascending (one sort, not a scan a parcel),
    # those by a line and those inside both apart
    p_of = np.r_[own, doubt.parcel]
    m_of = np.r_[doubt.marker, doubt.marker]
    n_of = np.r_[doubt.parcel, own]
    in_of = np.r_[doubt.inside, doubt.inside]
    keep = np.isin(p_of, parcels)
    p_of, m_of, n_of, in_of = p_of[keep], m_of[keep], n_of[keep], in_of[keep]
    lists = [
        (_lists_by(p_of[k], m_of[k], parcels), _lists_by(p_of[k], n_of[k], parcels))
        for k in (~in_of, in_of)
    ]
    markers_all = _lists_by(p_of, m_of, parcels)
    same = _same_boundary(m, p_of[in_of], n_of[in_of])

    def shown(mk: np.ndarray) -> str:
        text = ", ".join(
            f"{src[k]} row {row[k]}" + (f" {label[k]!r}" if label[k] is not None else "")
            for k in mk[:5].tolist()
        )
        return text + (f" and {len(mk) - 5} more" if len(mk) > 5 else "")

    def stand(mk: np.ndarray) -> str:
        return f"{len(mk)} {plural(len(mk), 'marker stands', 'markers stand')}"

    def named(nb: np.ndarray) -> str:
        """The neighbours' ids, the first three and how many more: 'A', 'B' and 'C'."""
        names = [repr(str(ids[q])) for q in nb[:3].tolist()]
        if len(nb) > 3:
            names.append(f"{len(nb) - 3} more")
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    where = (
        f"within {ft(acc)} (the stated survey accuracy) of"
        if acc >= ON_LINE_FT
        else f"on (within {ON_LINE_FT:g} ft of)"
    )
    msgs, counts = [], []
    for i, p in enumerate(parcels.tolist()):
        (line_mk, line_nb), (in_mk, in_nb) = ((mk[i], nb[i]) for mk, nb in lists)
        parts = []
        if len(line_mk):
            shared = (
                "the line shared with parcel"
                if len(line_nb) == 1
                else "the lines shared with parcels"
            )
            parts.append(f"{stand(line_mk)} {where} {shared} {named(line_nb)} ({shown(line_mk)})")
        if len(in_mk):
            others = named(in_nb)
            both = same.get(p, set()) >= set(in_nb.tolist())
            if len(in_nb) == 1:
                inside = f"inside both this parcel and parcel {others}"
                why = "the two boundaries are the same" if both else "they overlap"
            else:
                inside = f"inside this parcel and each of parcels {others}"
                why = "their boundaries are the same" if both else "they overlap"
            parts.append(f"{stand(in_mk)} {inside} ({why}) ({shown(in_mk)})")
        n = len(markers_all[i])
        they = plural(n, "it posts", "they post")
        if not len(in_mk):
            tail = (
                f"{lo[p]} if {they} the neighbour, {hi[p]} if this parcel; name the owner on "
                "each sign, or survey them more precisely"
            )
        else:
            other = "the other parcel" if not len(line_mk) else "the other parcels"
            tail = (
                f"{lo[p]} if {they} {other}, {hi[p]} if this parcel; name the owner on each "
                "sign, or record in the survey which parcel each sign posts"
                + (", or survey them more precisely" if len(line_mk) else "")
            )
        msgs.append("; ".join(parts) + ": " + tail)
        counts.append(n)
    clause = r.profile.spacing.clause if r.profile.spacing is not None else r.profile.citation
    out = findings_frame(
        parcels,
        "shared_line",
        "uncertain",
        clause,
        msgs,
        np.nan,
        max(acc, ON_LINE_FT),
        "ft",
        counts,
    )
    out["profile"] = r.profile.name
    out["basis"] = "guidance" if r.profile.standard == "guidance" else "statute"
    return out
