"""Registry: a posting recorded with the state or the town (North Dakota's electronic posting,
NDCC 20.1-01-17(1)(b): land designated as posted "in an online database ... maintained or
authorized by the state"; Vermont's posting recorded each year with the town clerk, 10 V.S.A.
5201(c)).

Which parcels are recorded comes from a layer of the recorded land (``registry``: at least half
a parcel's area inside it; its ``year`` column, where there is one, says for which posting
year) or from a parcel attribute (``registry_where``). A record counts for the current posting
year only (the year in which the season containing the date of the check began,
``season_start``). In a layer with a year column, a record whose year is blank or holds no
year of four digits (``25-26``, ``FY26``) may be for any year: land recorded only by such
records is ``uncertain`` where nothing else posts it (and, where the record is ``required``,
an ``uncertain`` finding, not a violation). Then:

* ``counts_as_posted``: a recorded parcel is posted whatever stands on the ground (North
  Dakota); it is ``compliant``, posted by ``registry``;
* ``required``: the posting must be recorded (Vermont; a way of posting that is the record
  itself, as North Dakota's electronic posting, has both); a parcel that is not gets a
  violation.

Each parcel's record is reported (``registry``: ``recorded for 2026``, ``recorded for 2024, not
the current posting year 2026``, or nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.checks.land import share_of_area
from posting.kinds import Kind, Land, Part, register
from posting.kinds.current_year import posting_year, season_of
from posting.land import layer_in_group
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import empty_findings, findings_frame

__all__ = ["RegistryRule", "recorded"]


@dataclass(frozen=True)
class RegistryRule(Rule):
    """A posting recorded in ``name`` (a registry): it ``counts_as_posted``, or it is
    ``required``; records are for the posting year starting ``season_start``."""

    name: str = "the registry"
    counts_as_posted: bool = False
    required: bool = False
    season_start: str = "01-01"


def parse(t: Reader, kinds: tuple[str, ...]) -> RegistryRule:
    counts, required = bool(t.get("counts_as_posted", bool)), bool(t.get("required", bool))
    if not (counts or required):
        raise t.error("counts_as_posted", "or 'required' (or both) must be true")
    return RegistryRule(
        **t.common(),
        name=t.get("name", str) or "the registry",
        counts_as_posted=counts,
        required=required,
        season_start=season_of(t),
    )


def recorded(m: Measurements, year: int) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """Per parcel: recorded for ``year`` (None: no registry given), the record in words, and
    whether it may be recorded for ``year`` only by records of a year not known (a blank or
    unreadable year in a layer with a year column)."""
    prep, ctx = m.prep, m.context
    n = m.n
    words = np.full(n, None, dtype=object)
    maybe = np.zeros(n, dtype=bool)
    if ctx.registry is not None:
        values = pd.Series(ctx.registry.values, dtype="string")
        years = pd.to_numeric(
            values.str.extract(r"(\d{4})", expand=False), errors="coerce"
        ).to_numpy(dtype=float)
        # with no year column, every record is the current year's; with one, a record of no
        # readable year may be any year's
        dated = ctx.registry.field is not None or bool(values.notna().any())
        unknown = np.isnan(years) if dated else np.zeros(len(years), dtype=bool)
        current = (years == year) if dated else (np.isnan(years) | (years == year))
        now = np.zeros(n, dtype=bool)
        before = np.full(n, np.nan)
        for g in range(len(prep.crss)):
            sel = np.flatnonzero(prep.group == g)
            near, polys = layer_in_group(ctx.registry, prep, g, 0.0)
            geoms = prep.geometry_ft[sel]
            now[sel] = share_of_area(geoms, polys[current[near]]) >= 0.5
            if unknown[near].any():
                either = current[near] | unknown[near]
                maybe[sel] = ~now[sel] & (share_of_area(geoms, polys[either]) >= 0.5)
            old = ~current[near] & ~unknown[near]
            for y in np.unique(years[near][old]).tolist():  # the few earlier years recorded
                hit = share_of_area(geoms, polys[old & (years[near] == y)]) >= 0.5
                before[sel[hit]] = np.fmax(before[sel[hit]], y)
        words[now] = f"recorded for {year}"
        stale = ~now & ~maybe & np.isfinite(before)
        words[stale] = [
            f"recorded for {int(y)}, not the current posting year {year}" for y in before[stale]
        ]
        words[maybe] = (
            f"recorded, for a posting year not known (the record's {ctx.registry.field or 'year'} "
            "is blank or not a year of four digits)"
        )
        return now, words, maybe
    if ctx.registered is not None:
        now = pd.Series(ctx.registered, dtype=object).fillna(False).astype(bool).to_numpy()
        words[now] = f"recorded for {year}"  # an attribute: taken as this year's
        return now, words, maybe
    return None, words, maybe


def _unknown_year(rule: RegistryRule, year: int, parcels: np.ndarray) -> pd.DataFrame:
    """The uncertain findings of ``parcels``, recorded only for a posting year not known."""
    words = (
        f"the posting may not be recorded in {rule.name} for the posting year {year}: its "
        "record gives no year of four digits (blank, or such as '25-26'); give the year the "
        f"posting was recorded for (the year its season began: {year} for this one)"
    )
    return findings_frame(
        parcels, "registry", "uncertain", rule.clause, words, np.nan, np.nan, None, 1
    )


def measure(rule: RegistryRule, profile, m: Measurements) -> Part:
    """Each parcel's record; with ``required``, a violation where there is none."""
    year = posting_year(m.today, rule.season_start)
    now, words, maybe = recorded(m, year)
    part = Part(findings=[empty_findings()], columns={"registry": words})
    if now is None:
        part.skip(
            "registry",
            rule.clause,
            f"which land is recorded in {rule.name} is unknown: give {{option:registry}} or "
            "{option:registry_where}",
        )
        return part
    if rule.required:
        valid = m.prep.group >= 0
        unsure = np.flatnonzero(~now & maybe & valid)
        if len(unsure):
            part.findings.append(_unknown_year(rule, year, unsure))
        miss = np.flatnonzero(~now & ~maybe & valid)
        msgs = [
            f"the posting is not recorded in {rule.name} for the posting year {year}"
            + (f" ({w})" if w else "")
            for w in words[miss].tolist()
        ]
        part.findings.append(
            findings_frame(
                miss, "registry", "violation", rule.clause, msgs, np.nan, np.nan, None, 1
            )
        )
    return part


def settle(rule: RegistryRule, profile, m: Measurements, land: Land, part: Part) -> None:
    """A recorded parcel is posted (``counts_as_posted``)."""
    if not rule.counts_as_posted:
        return
    year = posting_year(m.today, rule.season_start)
    now, _, maybe = recorded(m, year)
    if now is None:
        return
    land.posted_by[now & (m.prep.group >= 0) & pd.isna(land.posted_by)] = "registry"
    # recorded only for a year not known: land its markers do not post is uncertain (posted
    # by the record, or not); a required record's measure says why
    unsure = np.flatnonzero(
        maybe
        & (m.prep.group >= 0)
        & pd.isna(land.posted_by)
        & np.isin(land.status, ["noncompliant", "unposted"])
    )
    if len(unsure):
        land.status[unsure] = "uncertain"
        if not rule.required:  # (a required record's measure has said why)
            part.findings.append(_unknown_year(rule, year, unsure))


register(
    Kind(
        "registry",
        RegistryRule,
        parse,
        "a posting recorded in a registry",
        measure=measure,
        settle=settle,
    )
)
