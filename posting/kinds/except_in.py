"""Except in: places where a way of posting has no force (Illinois' purple marks: not in a
municipality of over 2,000,000 inhabitants, Chicago; Pennsylvania's: not in Philadelphia or
Allegheny County; Iowa's bills: incorporated areas).

Where the land lies comes from a layer of places (municipalities, counties: ``places``, named
by ``place_field``) or from a parcel attribute (``place_field`` alone). A parcel lies in a place
when at least half its area does (a layer), or when its attribute names it. Names match without
regard to case, and a place's name may go on with its kind ("Chicago city", "Philadelphia
County" match ``Chicago`` and ``Philadelphia``); ``any_place = true`` excludes every place of
the layer (an incorporated area's boundary). A parcel in an excluded place gets a violation that
says so: the profile cannot post it, and an alternative profile, if given, judges it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.checks.land import share_of_area
from posting.kinds import Kind, Part, register
from posting.land import layer_in_group
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import empty_findings, findings_frame

__all__ = ["ExceptInRule", "named"]


@dataclass(frozen=True)
class ExceptInRule(Rule):
    """The profile does not apply in the ``places`` named (or, ``any_place``, in any place of
    the places layer)."""

    places: tuple[str, ...] = ()
    any_place: bool = False


def parse(t: Reader, kinds: tuple[str, ...]) -> ExceptInRule:
    places = t.strings("places") or ()
    any_place = bool(t.get("any_place", bool))
    if not places and not any_place:
        raise t.error("places", "or 'any_place = true' is required")
    return ExceptInRule(**t.common(), places=places, any_place=any_place)


def named(values: np.ndarray, places: tuple[str, ...], any_place: bool) -> np.ndarray:
    """Per value (a place's name, None blank): True where it is one of ``places`` (or any
    place, with ``any_place``).

    >>> named(np.array(["Chicago city", "chicago", "Chicagoland", None], dtype=object),
    ...       ("Chicago",), False).tolist()
    [True, True, False, False]
    """
    text = pd.Series(values, dtype="string").str.strip().str.casefold()
    if any_place:
        return (text.notna() & (text != "")).to_numpy(dtype=bool)
    hit = np.zeros(len(text), dtype=bool)
    for p in places:
        p = p.casefold()
        hit |= ((text == p) | text.str.startswith(p + " ")).fillna(False).to_numpy(dtype=bool)
    return hit


def excluded(rule: ExceptInRule, m: Measurements) -> tuple[np.ndarray | None, np.ndarray]:
    """Per parcel: True in an excluded place (None: where the land lies is unknown), and the
    place's name."""
    prep, ctx = m.prep, m.context
    n = m.n
    where = np.full(n, None, dtype=object)
    if ctx.places is not None:
        hit = named(ctx.places.values, rule.places, rule.any_place)
        out = np.zeros(n, dtype=bool)
        for g in range(len(prep.crss)):
            sel = np.flatnonzero(prep.group == g)
            near, polys = layer_in_group(ctx.places, prep, g, 0.0)
            keep = hit[near]
            for k in np.flatnonzero(keep).tolist():  # each excluded place: a city, a county
                inside = share_of_area(prep.geometry_ft[sel], polys[[k]]) >= 0.5
                out[sel[inside]] = True
                where[sel[inside]] = ctx.places.values[near[k]]
        return out, where
    if ctx.parcel_place is not None:
        values = np.asarray(ctx.parcel_place, dtype=object)
        out = named(values, rule.places, rule.any_place)
        where[out] = values[out]
        return out, where
    return None, where


def measure(rule: ExceptInRule, profile, m: Measurements) -> Part:
    """A violation for each parcel in an excluded place."""
    part = Part(findings=[empty_findings()])
    out, where = excluded(rule, m)
    which = "any incorporated place" if rule.any_place else " or ".join(rule.places)
    if out is None:
        part.skip(
            "except_in",
            rule.clause,
            f"whether the land lies in {which} (where this way of posting does not apply) is "
            "unknown: give {option:places} or {option:place_field}",
        )
        return part
    hit = np.flatnonzero(out & (m.prep.group >= 0))
    if len(hit):
        msgs = [
            f"this way of posting does not apply here: the land lies in {str(w).title()}"
            for w in where[hit].tolist()
        ]
        part.findings.append(
            findings_frame(
                hit, "except_in", "violation", rule.clause, msgs, np.nan, np.nan, None, 1
            )
        )
    return part


register(Kind("except_in", ExceptInRule, parse, "places where it does not apply", measure=measure))
