"""Current year: a posting valid for one posting year, a calendar year or a season (Vermont:
"all land postings are only valid for the calendar year", signs "dated for the current year",
10 V.S.A. 5201(b)-(c); North Dakota's electronic posting, 1 August to 31 July).

The posting year is the one in which the season containing the date of the check began
(``season_start``, ``MM-DD``; ``01-01``: the calendar year). With ``sign_year``, each sign must
show that year (the marker data's ``sign_year``); markers surveyed before the season began are
noted (the signs seen then may not be this year's). :mod:`~posting.kinds.registry` reads a
registry record's year the same way.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.checks import content as ct
from posting.kinds import Kind, Part, register
from posting.kinds.items import KINDS_ALL, Item
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule

__all__ = ["CurrentYearRule", "posting_year", "season_of", "year_status"]


@dataclass(frozen=True)
class CurrentYearRule(Rule):
    """A posting valid for the posting year beginning each ``season_start`` (``MM-DD``);
    with ``sign_year``, each sign of ``kinds`` shows that year."""

    season_start: str = "01-01"
    sign_year: bool = True
    kinds: tuple[str, ...] = ("sign",)


def season_of(t: Reader, key: str = "season_start") -> str:
    """The table's ``MM-DD`` season start (default ``01-01``), checked."""
    value = t.get(key, str) or "01-01"
    try:
        _dt.date.fromisoformat(f"2001-{value}")
    except ValueError:
        raise t.error(key, f"must be a month and day as MM-DD (08-01), not {value!r}") from None
    return value


def parse(t: Reader, kinds: tuple[str, ...]) -> CurrentYearRule:
    sign_year = t.get("sign_year", bool)
    return CurrentYearRule(
        **t.common(),
        season_start=season_of(t),
        sign_year=True if sign_year is None else sign_year,
        kinds=t.marker_kinds(("sign",)),
    )


def posting_year(today: pd.Timestamp | _dt.date, season_start: str = "01-01") -> int:
    """The year in which the posting season containing ``today`` began.

    >>> posting_year(_dt.date(2026, 7, 31), "08-01"), posting_year(_dt.date(2026, 8, 1), "08-01")
    (2025, 2026)
    >>> posting_year(_dt.date(2026, 11, 30))
    2026
    """
    month, day = (int(x) for x in season_start.split("-"))
    return today.year if (today.month, today.day) >= (month, day) else today.year - 1


def season_bounds(year: int, season_start: str) -> tuple[_dt.date, _dt.date]:
    """First and last day of the posting year ``year``.

    >>> [str(d) for d in season_bounds(2025, "08-01")]
    ['2025-08-01', '2026-07-31']
    """
    first = _dt.date.fromisoformat(f"{year}-{season_start}")
    return first, _dt.date.fromisoformat(f"{year + 1}-{season_start}") - _dt.timedelta(days=1)


def year_status(values: pd.Series, year: int) -> np.ndarray:
    """Per value (a year, or a date whose year is read), OK when it is ``year``.

    >>> year_status(pd.Series(["2026", "2025-06-01", 2026.0, None, "undated"]), 2026).tolist()
    [0, 2, 0, -1, -1]
    """
    raw = pd.Series(values, dtype=object).reset_index(drop=True)
    text = raw.astype("string").str.strip()
    found = text.str.extract(r"(?<!\d)(\d{4})(?!\d)", expand=False)
    y = pd.to_numeric(found, errors="coerce").to_numpy(dtype=float)
    return ct._status(y == year, np.isfinite(y))


def items(rule: CurrentYearRule, profile, m: Measurements, part: Part) -> list[Item]:
    year = posting_year(m.today, rule.season_start)
    first, last = season_bounds(year, rule.season_start)
    out = []
    if rule.sign_year:
        out.append(
            Item(
                "current_year",
                rule.clause,
                rule.kinds,
                ("sign_year",),
                lambda v: year_status(v, year),
                f"do not show the current posting year, {year} ({first} to {last})",
            )
        )
    days = (pd.Timestamp(m.today) - pd.Timestamp(first)).days
    out.append(
        Item(
            "current_year_survey",
            rule.clause,
            KINDS_ALL,
            ("surveyed",),
            lambda v: ct.age_status(v, m.today, days),
            f"were surveyed before the current posting year began ({first}): the posting "
            "must be renewed each year; survey them again",
            level="note",
            unknown=ct.UNKNOWN_AGE,
        )
    )
    return out


def summary(rule: CurrentYearRule) -> dict:
    return {"posting_year_starts": rule.season_start}


register(
    Kind(
        "current_year",
        CurrentYearRule,
        parse,
        "a posting for the current year",
        items=items,
        summary=summary,
    )
)
