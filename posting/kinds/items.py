"""Per-marker attribute checks ("items"): one column or two of the marker data, a status per
marker, and the findings per parcel.

The kinds about what a marker shows or how it stands (content, paint, posts, facing, renewal,
public notice) each give a list of :class:`Item`; :func:`run_items` evaluates them all on the
assigned markers of the kinds they apply to. A marker that did not record the column is *not
checked*, never failed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from posting.attributes import find_column, measured
from posting.checks import FAIL
from posting.checks import content as ct
from posting.checks.content import NOT_KNOWN, NOT_RECORDED
from posting.kinds import Part
from posting.measure import Measurements
from posting.verdict import empty_findings, findings_frame

__all__ = [
    "KINDS_ALL",
    "Item",
    "at_least_in",
    "item_findings",
    "lettering",
    "range_text",
    "run_items",
]

KINDS_ALL = ("sign", "paint", "post")

_NOUNS = {"sign": "signs", "paint": "paint marks", "post": "painted posts"}


@dataclass(frozen=True)
class Item:
    """One per-marker check.

    Attributes
    ----------
    rule, clause
        The finding's rule name and the clause it applies.
    kinds
        The marker kinds it applies to.
    columns
        The canonical marker columns it reads (:mod:`posting.attributes`).
    fn
        ``fn(*values)`` (``fn(*values, sel)`` with ``with_selection``): OK, FAIL,
        NOT_RECORDED or NOT_KNOWN per marker; ``sel`` are the markers' positions among the
        assigned ones.
    what
        What a failing marker does ("have letters under 2 in").
    limit, unit, level, value
        The limit and unit reported, the finding's level, and the column whose value is
        reported as measured.
    where
        Per assigned marker, True where the item applies (None: every marker of its kinds).
    after
        ``after(values, status, parcel)``: further findings (the name on a sign compared with
        the owner of record).
    unknown
        Why a marker's value can be NOT_KNOWN (said with the count of such markers).
    """

    rule: str
    clause: str
    kinds: tuple[str, ...]
    columns: tuple[str, ...]
    fn: Callable[..., np.ndarray]
    what: str
    limit: float | None = None
    unit: str | None = None
    worst: str = "min"
    level: str = "violation"
    value: str | None = None
    with_selection: bool = False
    unknown: str = ""
    where: np.ndarray | None = None
    after: Callable[[list[pd.Series], np.ndarray, np.ndarray], pd.DataFrame | None] | None = None


def at_least_in(rule: str, spec: Any, column: str, limit: float, what: str) -> Item:
    """An item that fails markers whose ``column`` (inches) is under ``limit``."""
    return Item(
        rule,
        spec.clause,
        spec.kinds,
        (column,),
        lambda v: ct.at_least(v, limit),
        what,
        limit,
        "in",
        value=column,
    )


def lettering(spec: Any, letters_rule: str, words_rule: str) -> list[Item]:
    """The letter-height and required-words items of a sign or paint rule (both have them)."""
    out: list[Item] = []
    if spec.letter_min_in is not None:
        out.append(
            at_least_in(
                letters_rule,
                spec,
                "letter_height_in",
                spec.letter_min_in,
                f"have letters under {spec.letter_min_in:g} in",
            )
        )
    if spec.required_words:
        words = " and ".join(f'"{w}"' for w in spec.required_words)
        out.append(
            Item(
                words_rule,
                spec.clause,
                spec.kinds,
                ("text",),
                lambda v: ct.words_status(v, spec.required_words),
                f"do not show {words}",
            )
        )
    return out


def range_text(lo: float | None, hi: float | None) -> str:
    """``3-5 ft``, ``at least 3 ft`` or ``at most 5 ft``."""
    if lo is not None and hi is not None:
        return f"{lo:g}-{hi:g} ft"
    return f"at least {lo:g} ft" if lo is not None else f"at most {hi:g} ft"


def run_items(
    items: list[Item],
    m: Measurements,
    part: Part,
    missing_reported: set[tuple[str, str]] | None = None,
) -> None:
    """Evaluate ``items`` on the assigned markers; findings and notes go into ``part``.
    ``missing_reported`` holds the (rule, column) pairs already noted as not recorded (shared
    by the calls of one profile's evaluation)."""
    attrs = m.attrs
    parcel = m.asg.parcel[m.am]
    if missing_reported is None:
        missing_reported = set()
    for item in items:
        sel = np.flatnonzero(np.isin(m.kinds, item.kinds))
        if item.where is not None:
            sel = sel[item.where[sel]]
        if len(sel) == 0:
            continue
        cols = [find_column(attrs.columns, c) for c in item.columns]
        if any(c is None for c in cols):
            miss = next(c for c, got in zip(item.columns, cols, strict=True) if got is None)
            if (item.rule, miss) not in missing_reported:
                missing_reported.add((item.rule, miss))
                part.skip(item.rule, item.clause, f"the marker data has no {miss} column")
            continue
        # a measure in its column's unit, where a value gives its own ("3 in", "5 cm")
        values = [
            measured(attrs[c].iloc[sel].reset_index(drop=True), canonical)
            for c, canonical in zip(cols, item.columns, strict=True)
        ]
        status = item.fn(*values, sel) if item.with_selection else item.fn(*values)
        shown = (
            measured(attrs[find_column(attrs.columns, item.value)].iloc[sel], item.value).to_numpy()
            if item.value
            else None
        )
        noun = _NOUNS.get(item.kinds[0] if len(item.kinds) == 1 else "", "markers")
        part.findings.append(
            item_findings(
                parcel[sel],
                status,
                shown,
                rule=item.rule,
                clause=item.clause,
                what=item.what,
                limit=item.limit,
                unit=item.unit,
                level=item.level,
                noun=noun,
                unknown=item.unknown,
            )
        )
        if item.after is not None:
            extra = item.after(values, status, parcel[sel])
            if extra is not None:
                part.findings.append(extra)


def item_findings(
    parcel: np.ndarray,
    status: np.ndarray,
    value: np.ndarray | None,
    *,
    rule: str,
    clause: str,
    what: str,
    limit: float | None = None,
    unit: str | None = None,
    worst: str = "min",
    level: str = "violation",
    noun: str = "signs",
    unknown: str = "",
) -> pd.DataFrame:
    """Findings from a per-marker check (letter height, words, paint colour, facing, ...).

    ``status`` is OK / FAIL / NOT_RECORDED / NOT_KNOWN per marker; ``what`` describes a failing
    marker ("have letters under 2 in"). Markers that did not record the attribute, or whose
    value cannot settle it (``unknown`` says why), make a ``not_checked`` finding each, never a
    violation. For a numeric attribute, the measured value is
    the smallest (``worst="min"``) or largest recorded among the failing markers.
    """
    numeric = value is not None and limit is not None
    df = pd.DataFrame(
        {
            "parcel": np.asarray(parcel, dtype=np.int64),
            "status": status,
            "value": pd.to_numeric(pd.Series(value), errors="coerce").to_numpy(dtype=float)
            if numeric
            else np.nan,
        }
    )
    counts = df.groupby("parcel").size()
    out = [empty_findings()]
    fail = df[df["status"] == FAIL]
    if len(fail):
        agg = fail.groupby("parcel").agg(
            n=("status", "size"), low=("value", "min"), high=("value", "max")
        )
        of = counts.loc[agg.index].to_numpy()
        msgs = [f"{n} of {k} {noun} {what}" for n, k in zip(agg["n"], of, strict=True)]
        measured = agg["low"] if worst == "min" else agg["high"]
        out.append(
            findings_frame(agg.index, rule, level, clause, msgs, measured, limit, unit, agg["n"])
        )
    why = f": {unknown}" if unknown else ""
    for code, said in ((NOT_RECORDED, "not recorded"), (NOT_KNOWN, "not known")):
        miss = df[df["status"] == code]
        if not len(miss):
            continue
        agg = miss.groupby("parcel").size()
        of = counts.loc[agg.index].to_numpy()
        tail = why if code == NOT_KNOWN else ""
        msgs = [f"{said} for {n} of {k} {noun}{tail}" for n, k in zip(agg, of, strict=True)]
        out.append(
            findings_frame(
                agg.index, rule, "not_checked", clause, msgs, np.nan, limit, unit, agg.to_numpy()
            )
        )
    return pd.concat(out, ignore_index=True)
