"""Except in: places where a way of posting has no force (Illinois' purple marks: not in a
municipality of over 2,000,000 inhabitants, Chicago; Pennsylvania's: not in Philadelphia or
Allegheny County; Iowa's bills: incorporated areas).

Where the land lies comes from a layer of places (municipalities, counties: ``places``, named
by ``place_field``) or from a parcel attribute (``place_field`` alone). A parcel lies in a place
when at least half its area lies in the excluded places together (a layer: a city drawn in
several rows or parts is one place; the one holding the most of it names it), or when its
attribute names it; a property merged
of lots (``merge_owner``) lies there when every lot's attribute names it, and is
``uncertain`` when only some do (it may lie partly there: the attribute cannot say how much).
Names match without regard to case, and a place's name may go on with its kind ("Chicago
city", "Philadelphia County" match ``Chicago`` and ``Philadelphia``); ``any_place = true``
excludes every place of the layer (an incorporated area's boundary). A parcel in an excluded
place gets a violation that says so: the profile cannot post it, and an alternative profile,
if given, judges it.
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


def excluded(
    rule: ExceptInRule, m: Measurements
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """Per parcel: True in an excluded place (None: where the land lies is unknown), and the
    place's name; and the parcels that may lie partly in one (a property merged of lots whose
    place attributes name an excluded place and another, or none: their names are
    ``m.context.parcel_place``'s tuples)."""
    prep, ctx = m.prep, m.context
    n = m.n
    where = np.full(n, None, dtype=object)
    partly = np.empty(0, dtype=np.int64)
    if ctx.places is not None:
        hit = named(ctx.places.values, rule.places, rule.any_place)
        out = np.zeros(n, dtype=bool)
        for g in range(len(prep.crss)):
            sel = np.flatnonzero(prep.group == g)
            near, polys = layer_in_group(ctx.places, prep, g, 0.0)
            keep = np.flatnonzero(hit[near])
            if not (len(sel) and len(keep)):
                continue
            # half the area in the excluded places together: a city given in several rows or
            # parts (a parcel 30 % in each of two is 60 % in it), or two adjoining towns of
            # ``any_place``
            inside = sel[share_of_area(prep.geometry_ft[sel], polys[keep]) >= 0.5]
            out[inside] = True
            geoms, most = prep.geometry_ft[inside], np.zeros(len(inside))
            for k in keep.tolist():  # each excluded place (a city, a county): the one holding
                share = share_of_area(geoms, polys[[k]])  # the most of the parcel names it
                more = share > most
                most[more] = share[more]
                where[inside[more]] = ctx.places.values[near[k]]
        return out, where, partly
    if ctx.parcel_place is not None:
        values = np.asarray(ctx.parcel_place, dtype=object).copy()
        # a merged property whose lots name different places holds their names as a tuple
        # (posting.land.properties_context); such properties are few
        mixed = np.flatnonzero([isinstance(v, tuple) for v in values.tolist()])
        names = values[mixed]
        values[mixed] = None
        out = named(values, rule.places, rule.any_place)
        where[out] = values[out]
        if len(mixed):  # each name of each mixed property: in an excluded place or not
            sizes = np.array([len(t) for t in names.tolist()])
            flat = np.array([v for t in names.tolist() for v in t], dtype=object)
            of = np.repeat(np.arange(len(mixed)), sizes)
            hit = named(flat, rule.places, rule.any_place)
            some, at = np.unique(of[hit], return_index=True)  # its first excluded name
            where[mixed[some]] = flat[np.flatnonzero(hit)[at]]
            every = np.bincount(of[hit], minlength=len(mixed)) == sizes
            out[mixed[every]] = True
            partly = mixed[np.setdiff1d(some, np.flatnonzero(every))]
        return out, where, partly
    return None, where, partly


def _lots_name(places: tuple) -> str:
    """The places a property's lots name, in words.

    >>> _lots_name(("chicago", "evanston", None))
    'Chicago, Evanston and (blank)'
    """
    words = ["(blank)" if p is None else str(p).title() for p in places]
    return ", ".join(words[:-1]) + " and " + words[-1]


def measure(rule: ExceptInRule, profile, m: Measurements) -> Part:
    """A violation for each parcel in an excluded place; uncertain where it may lie partly in
    one (its lots' place attributes differ)."""
    part = Part(findings=[empty_findings()])
    out, where, partly = excluded(rule, m)
    which = "any incorporated place" if rule.any_place else " or ".join(rule.places)
    if out is None:
        part.skip(
            "except_in",
            rule.clause,
            f"whether the land lies in {which} (where this way of posting does not apply) is "
            "unknown: give {option:places} or {option:place_field}",
        )
        return part
    mine = m.prep.group >= 0
    hit = np.flatnonzero(out & mine)
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
    partly = partly[mine[partly]]
    if len(partly):
        msgs = [
            f"the land may lie partly in {str(w).title()}, where this way of posting does not "
            f"apply: its lots' places are {_lots_name(t)} (a layer of places would measure "
            "whether half of it lies there)"
            for w, t in zip(
                where[partly].tolist(), m.context.parcel_place[partly].tolist(), strict=True
            )
        ]
        part.findings.append(
            findings_frame(
                partly, "except_in", "uncertain", rule.clause, msgs, np.nan, np.nan, None, 1
            )
        )
    return part


register(Kind("except_in", ExceptInRule, parse, "places where it does not apply", measure=measure))
