"""One rule profile's verdict on every parcel, from the shared measurements.

The kinds of rule the profile has (:mod:`posting.kinds`) are asked in the registry's order:
first their measurements (spacing, corners, access points, water banks), then the per-marker
checks (content, paint, posts, facing, renewal, public notice), then what surveyed positions
cannot show; the findings decide each parcel's status (:func:`posting.verdict.decide`); last,
land posted otherwise or exempt (fence, cultivation, the dwelling exemption) settles it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from posting import kinds as registry
from posting.kinds import Land, Part
from posting.kinds.items import run_items
from posting.measure import Measurements
from posting.rules.loader import Profile
from posting.verdict import decide, empty_findings, settle

__all__ = ["Result", "evaluate"]


@dataclass
class Result:
    """One profile's verdict on every parcel (input order).

    ``status``, ``counted`` (markers of the kinds it counts), ``posted_by`` and ``exemption``
    per parcel; ``columns``: the kinds' other per-parcel values (``max_gap`` ...); ``tables``:
    the kinds' per-place tables (``gaps``, ``corners``, ``access``, ``fence_gaps`` ...);
    ``findings`` sorted by parcel, with ``profile`` and ``basis``; ``not_checked``;
    ``gated``: per rule that applies only on some land, per parcel, 1.0 where it applies, 0.0
    where not, NaN unknown (:attr:`posting.kinds.Part.gated`).
    """

    profile: Profile
    status: np.ndarray
    counted: np.ndarray
    posted_by: np.ndarray
    exemption: np.ndarray
    columns: dict[str, np.ndarray]
    tables: dict[str, pd.DataFrame]
    findings: pd.DataFrame
    not_checked: list[dict[str, str]]
    gated: dict[str, np.ndarray] = field(default_factory=dict)


def evaluate(
    profile: Profile,
    m: Measurements,
    *,
    beside: Callable[..., Any] | None = None,
) -> Result:
    """``profile``'s verdict on every parcel.

    ``beside(func, *args)`` may start a measurement step elsewhere and return a Future (the
    runner passes a background thread); the steps' results are always put together in the
    registry's order, so the outcome does not depend on it.
    """
    prep = m.prep
    valid = prep.group >= 0
    used = set(profile.kinds)
    for name, rule in profile.rules():
        if registry.REGISTRY[name].counts_markers:
            used |= set(rule.kinds)
    counted = m.counted(m.mask(tuple(used)))

    part = Part(findings=[empty_findings()])
    steps = []
    for name, kind in registry.REGISTRY.items():
        rule = profile.tables.get(name)
        if rule is not None and kind.measure is not None:
            steps.append((kind.measure, (rule, profile, m), name))
        elif rule is None and kind.empty is not None:
            steps.append((kind.empty, (m,), None))
    # the first step here, the others beside it (their work is mostly in GEOS and numpy)
    later = [beside(f, *a) if beside else None for f, a, _ in steps[1:]]
    parts = [steps[0][0](*steps[0][1])] if steps else []
    parts += [
        job.result() if job else f(*a) for job, (f, a, _) in zip(later, steps[1:], strict=True)
    ]
    guidance = _guidance_tables(profile)
    for (_, _, name), p in zip(steps, parts, strict=True):
        if name in guidance:
            p.findings[:] = [_unsure(t) for t in p.findings]
        part.extend(p)

    items = []
    for name, rule in profile.rules():
        kind = registry.REGISTRY[name]
        if kind.items is not None:
            items.append((name, kind.items(rule, profile, m, part)))
    reported: set[tuple[str, str]] = set()
    for name, its in items:
        with _guidance_of(part, name in guidance):
            run_items(its, m, part, reported)
    for name, rule in profile.rules():
        kind = registry.REGISTRY[name]
        if kind.remark is not None:
            with _guidance_of(part, name in guidance):
                kind.remark(rule, profile, m, part)

    f = _findings(profile, part.findings)
    status = decide(prep.invalid, np.where(valid, counted, 0), f)
    n = m.n
    land = Land(
        status,
        posted_by=np.full(n, None, dtype=object),
        exemption=np.full(n, None, dtype=object),
        fenced=np.zeros(n, dtype=bool),
    )
    found = len(part.findings)
    for kind in registry.settle_order():
        rule = profile.tables.get(kind.table)
        if rule is not None:
            kind.settle(rule, profile, m, land, part)
    if len(part.findings) > found:  # what settling found (land only maybe fenced)
        f = _findings(profile, part.findings[found:], before=f)
    settle(f, status, land.posted_by, land.exemption)
    return Result(
        profile,
        status,
        counted,
        land.posted_by,
        land.exemption,
        part.columns,
        {name: _by_parcel(t) for name, t in part.tables.items()},
        f,
        part.not_checked,
        part.gated,
    )


def _findings(
    profile: Profile, tables: list[pd.DataFrame], *, before: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The kinds' findings ``tables`` as one, with the ``profile`` and each rule's ``basis``,
    after those ``before`` them, sorted by parcel (stable: each parcel's as they came)."""
    f = pd.concat(tables, ignore_index=True)
    f["profile"] = profile.name
    f["basis"] = _basis(profile, f["rule"].to_numpy())
    if before is not None:
        f = pd.concat([before, f], ignore_index=True)
    return f.sort_values("parcel", kind="stable").reset_index(drop=True)


def _by_parcel(table: pd.DataFrame) -> pd.DataFrame:
    """A per-place table in its parcels' order, each parcel's rows as they came: a table two
    kinds add to (the access points, then Montana's banks where water crosses) comes kind by
    kind, and a partition of the parcels lists its rows parcel by parcel."""
    if "parcel" not in table or len(table) < 2:
        return table
    parcel = table["parcel"].to_numpy(dtype=np.int64)
    if (parcel[1:] >= parcel[:-1]).all():
        return table
    return table.iloc[np.argsort(parcel, kind="stable")].reset_index(drop=True)


GUIDANCE_ONLY = (
    "; a guidance figure (the law sets none): the posting may still be lawful, a question of fact"
)
"""Said of a violation of a guidance rule, which is ``uncertain``, not ``noncompliant``."""


def _guidance_tables(profile: Profile) -> set[str]:
    """The tables of the rules of our guidance layout (:meth:`Profile.ours`: a spacing, a
    corner or an access point of ours, the words we read "notice" as), not the statute's own
    (North Dakota's name on each sign)."""
    return {name for name, rule in profile.rules() if profile.ours(rule)}


def _unsure(findings: pd.DataFrame) -> pd.DataFrame:
    """``findings`` with each violation made ``uncertain``, saying why: where the law gives no
    figure ("reasonably likely to come to the attention of intruders"), land that fails our
    layout is not surely unposted, and a verdict that is not sure says so."""
    hit = (findings["level"] == "violation").to_numpy()
    if not hit.any():
        return findings
    findings = findings.copy()
    findings.loc[hit, "level"] = "uncertain"
    findings.loc[hit, "message"] = findings.loc[hit, "message"] + GUIDANCE_ONLY
    return findings


@contextlib.contextmanager
def _guidance_of(part: Part, guidance: bool) -> Iterator[None]:
    """The findings added to ``part`` inside the block made :func:`_unsure` where
    ``guidance``."""
    before = len(part.findings)
    yield
    if guidance:
        part.findings[before:] = [_unsure(t) for t in part.findings[before:]]


def _basis(profile: Profile, rule_names: np.ndarray) -> np.ndarray:
    """``statute``, ``statute (unverified)`` or ``guidance`` for each finding's rule."""
    out = np.full(
        len(rule_names), "guidance" if profile.standard == "guidance" else "statute", dtype=object
    )
    if profile.standard != "guidance":
        for name, rule in profile.rules():
            if not rule.verified or profile.verification == "unverified":
                out[np.char.startswith(rule_names.astype(str), name)] = "statute (unverified)"
    return out
