"""Test helpers for plans: check again with the planned markers, and count the fewest interval
markers each gap needs with a slow, obvious loop over the re-check's own positions."""

from __future__ import annotations

import math

import numpy as np
from helpers import combine_markers, planned_markers

from posting import check
from posting.checks import EPSILON_FT


def recheck(parcel_layer, existing, plan, settings=None, context=None):
    """Check again with the existing markers plus the plan's (settings and rules: the plan's)."""
    settings = settings or plan.report.settings
    both = combine_markers(existing, planned_markers(plan)) if existing else planned_markers(plan)
    return check(parcel_layer, both, plan.report.profiles, settings=settings, context=context)


def interval_oracle(plan, again, only=None) -> tuple[int, int]:
    """(interval markers the plan placed, the fewest its gaps need), ring by ring.

    On each planned ring, the fixed positions are the existing markers and the new corner
    markers, where the re-check counted them. A gap between two fixed positions needs
    ``ceil(g / T) - 1`` markers to bring every piece within ``T`` (the plan's spacing for the
    ring: its limit, less the accuracy, on its parcel's highest land, less the margin) unless it
    is within ``T`` already, or it lies between two existing markers that the first check
    passed; a ring without any fixed position needs ``ceil(length / T)`` (at least one).
    ``only`` restricts the count to some parcels (input rows).
    """
    spacing = plan.ring_spacing_ft  # per ring: each parcel's band (posting.elevation)
    first = plan.report
    m = again.markers
    planned = (m["source"] == "<plan>").to_numpy()
    role = np.full(len(m), "existing", dtype=object)
    role[planned] = plan.markers["role"].to_numpy(dtype=object)[m["row"].to_numpy()[planned]]
    # the first check's verdict on each gap between two existing markers, by its two markers
    # (a doubtful marker between two others made two gaps of what is one for the plan)
    ok_gap = {
        (int(r), int(s), int(e)): st == "ok"
        for r, s, e, st in zip(
            first.gaps["ring"],
            first.gaps["start_marker"],
            first.gaps["end_marker"],
            first.gaps["status"],
            strict=True,
        )
        if s >= 0
    }
    n_existing = len(first.markers)
    # existing markers GPS error could put across a shared line are no fixed spot for the plan
    doubtful = set(np.flatnonzero(first.markers["doubtful"].to_numpy(dtype=bool)).tolist())
    length = first.geometry.rings.length_ft
    placed = needed = 0
    pp = plan.parcels
    planned_parcels = set(
        pp.loc[(pp["status"] != "invalid") & ~pp["note"].str.startswith("same boundary"), "parcel"]
    )
    if only is not None:
        planned_parcels &= set(only)
    rings = [r for r in range(len(length)) if first.geometry.rings.parcel[r] in planned_parcels]
    counted = m[(m["parcel"] >= 0).to_numpy()]
    groups = dict(tuple(counted.groupby("ring")))
    for r in rings:
        on = groups.get(r, counted.iloc[:0])
        kinds = role[on.index.to_numpy()]
        pos = on["position_ft"].to_numpy()
        idx = on.index.to_numpy()
        fixed = [
            (p, i)
            for p, i, k, row in zip(pos, idx, kinds, on["row"].to_numpy(), strict=True)
            if k != "interval" and not (k == "existing" and row in doubtful)
        ]
        placed += int((kinds == "interval").sum())
        L, T = length[r], spacing[r]
        if not np.isfinite(T):  # no spacing rule on this ring
            continue
        if not fixed:
            needed += max(1, math.ceil(L / T - 1e-9))
            continue
        fixed.sort()
        for j, (a, ia) in enumerate(fixed):
            b, ib = fixed[(j + 1) % len(fixed)]
            g = (b - a) % L if len(fixed) > 1 else L
            if len(fixed) > 1 and g == 0:
                continue
            both_existing = ia < n_existing and ib < n_existing
            if both_existing and ok_gap.get((r, int(ia), int(ib)), False):
                continue
            if g > T + EPSILON_FT:
                needed += math.ceil(g / T - 1e-9) - 1
    return placed, needed
