"""Marker content and build: letters, words, names, size, paint, height, facing, age.

Each function takes one value per marker and returns one status per marker: ``OK``, ``FAIL``,
``NOT_RECORDED`` when the survey did not record what the rule needs, or ``NOT_KNOWN`` when what
it records cannot settle it (both reported as not checked, never as a violation). All are
vectorised over pandas/numpy arrays.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pandas as pd

from posting.checks import FAIL, OK

__all__ = [
    "APOSTROPHE",
    "NOT_KNOWN",
    "NOT_RECORDED",
    "NO_NAME",
    "UNKNOWN_AGE",
    "age_status",
    "any_words_status",
    "at_least",
    "color_status",
    "facing_status",
    "hours_status",
    "name_status",
    "names_agree",
    "names_match",
    "normalise_text",
    "numbers",
    "size_status",
    "within",
    "words_status",
]

NOT_RECORDED = -1
NOT_KNOWN = -2
"""Recorded, but not enough to judge: a survey dated by a month or a year alone that spans the
limit (some of its days recent enough, some too old), or dated after the check date."""

UNKNOWN_AGE = (
    "dated by a month or a year that spans the limit, or after the check date, or by no "
    "whole date (a time alone, a day without its year, a day and month that read either way "
    "round: write it year first, 2025-10-03)"
)
"""Why a survey's age can be :data:`NOT_KNOWN` (:func:`age_status`), said in its finding."""

NO_NAME = ("none", "no name", "n a", "na", "blank", "unreadable", "illegible", "no")
"""Values that record a sign showing no (readable) name, address or phone, after
:func:`normalise_text` (so ``N/A`` and ``-`` count too). A blank cell means *not recorded*."""


def _status(ok: np.ndarray, recorded: np.ndarray) -> np.ndarray:
    out = np.where(np.asarray(ok, dtype=bool), OK, FAIL).astype(np.int8)
    out[~np.asarray(recorded, dtype=bool)] = NOT_RECORDED
    return out


def normalise_text(values: pd.Series) -> pd.Series:
    """Case-folded words separated by single spaces; punctuation ignored; missing stays NA.

    Examples
    --------
    >>> normalise_text(pd.Series(["NO-TRESPASSING!", None, "  "])).tolist()
    ['no trespassing', <NA>, <NA>]
    """
    s = pd.Series(values, dtype="string").reset_index(drop=True)
    s = s.str.casefold().str.replace(r"[^\w]+", " ", regex=True).str.strip()
    return s.mask(s == "")


def numbers(values: pd.Series) -> np.ndarray:
    """Numbers from a column that may hold text (``"3"``, ``"2.5"``); NaN where not a finite
    number (``"1e400"`` is no letter height or bearing).

    Examples
    --------
    >>> numbers(pd.Series(["3", "2.5", "3 in", "1e400", None])).tolist()
    [3.0, 2.5, nan, nan, nan]
    """
    v = pd.to_numeric(pd.Series(values).reset_index(drop=True), errors="coerce").to_numpy(
        dtype=float
    )
    return np.where(np.isinf(v), np.nan, v)


def at_least(values: pd.Series, minimum: float) -> np.ndarray:
    """A number at least ``minimum`` (letter height, mark length, ...).

    Examples
    --------
    >>> at_least(pd.Series(["2", "1.5", "", "3 in"]), 2.0).tolist()
    [0, 2, -1, -1]
    """
    v = numbers(values)
    return _status(v >= minimum, np.isfinite(v))


def within(values: pd.Series, low: float | None, high: float | None) -> np.ndarray:
    """A number within ``[low, high]`` (the bottom of a paint mark 3 to 5 ft above ground).

    Examples
    --------
    >>> within(pd.Series([3.0, 5.5, 2.9, None]), 3.0, 5.0).tolist()
    [0, 2, 2, -1]
    """
    v = numbers(values)
    ok = np.ones(len(v), dtype=bool)
    if low is not None:
        ok &= v >= low
    if high is not None:
        ok &= v <= high
    return _status(ok, np.isfinite(v))


def size_status(width: pd.Series, length: pd.Series, minimum: tuple[float, float]) -> np.ndarray:
    """A sign at least ``minimum`` inches (either way round: 8 x 11 passes as 11 x 8).

    Examples
    --------
    >>> size_status(pd.Series([11, 12, 8, None]), pd.Series([8, 12, 10, 12]), (8, 11)).tolist()
    [0, 0, 2, -1]
    """
    w, h = numbers(width), numbers(length)
    small, large = np.minimum(w, h), np.maximum(w, h)
    return _status((small >= minimum[0]) & (large >= minimum[1]), np.isfinite(w) & np.isfinite(h))


def area_status(width: pd.Series, length: pd.Series, min_sqin: float) -> np.ndarray:
    """A painted area of at least ``min_sqin`` square inches."""
    w, h = numbers(width), numbers(length)
    return _status(w * h >= min_sqin, np.isfinite(w) & np.isfinite(h))


def words_status(values: pd.Series, words: tuple[str, ...]) -> np.ndarray:
    """The text contains every required word or phrase (case and punctuation ignored).

    Examples
    --------
    >>> words_status(pd.Series(["No Trespassing - J. Smith", "Private", None]),
    ...              ("no trespassing",)).tolist()
    [0, 2, -1]
    """
    return _words(values, words, all_of=True)


def any_words_status(values: pd.Series, words: tuple[str, ...]) -> np.ndarray:
    """The text contains at least one of the words or phrases.

    Examples
    --------
    >>> any_words_status(pd.Series(["POSTED", "Keep out"]), ("posted", "no trespassing")).tolist()
    [0, 2]
    """
    return _words(values, words, all_of=False)


def _words(values: pd.Series, words: tuple[str, ...], *, all_of: bool) -> np.ndarray:
    text = normalise_text(values)
    recorded = text.notna().to_numpy()
    padded = " " + text.fillna("") + " "
    hits = [
        padded.str.contains(
            " " + normalise_text(pd.Series([w])).iloc[0] + " ", regex=False
        ).to_numpy(dtype=bool)
        for w in words
    ]
    if not hits:
        return _status(np.ones(len(text), dtype=bool), recorded)
    ok = np.logical_and.reduce(hits) if all_of else np.logical_or.reduce(hits)
    return _status(ok, recorded)


def name_status(values: pd.Series) -> np.ndarray:
    """Something is shown (a name, an address, a phone number): not blank, not ``none``.

    Examples
    --------
    >>> name_status(pd.Series(["J. Smith", "none", "-", None])).tolist()
    [0, 2, 2, -1]
    """
    raw = pd.Series(values, dtype="string").reset_index(drop=True)
    text = normalise_text(raw)
    recorded = raw.notna() & (raw.str.strip() != "")
    shown = ~(text.isna() | text.isin(NO_NAME))
    return _status(shown.to_numpy(dtype=bool), recorded.to_numpy(dtype=bool))


def color_status(values: pd.Series, colors: tuple[str, ...]) -> np.ndarray:
    """The colour names one of ``colors`` ("OSHA safety purple" is purple).

    Examples
    --------
    >>> color_status(pd.Series(["Purple", "fluorescent ORANGE", "red", None]),
    ...              ("purple",)).tolist()
    [0, 2, 2, -1]
    """
    return any_words_status(values, colors)


def facing_status(
    facing_deg: pd.Series, outward_deg: np.ndarray, tolerance_deg: float
) -> np.ndarray:
    """The sign faces outward: within ``tolerance_deg`` of the outward normal's azimuth.

    Examples
    --------
    >>> facing_status(pd.Series([10, 350, 180, None]), np.array([0.0, 0.0, 0.0, 0.0]), 90).tolist()
    [0, 0, 2, -1]
    >>> facing_status(pd.Series(["1e400"]), np.array([0.0]), 90).tolist()  # no bearing
    [-1]
    """
    f = numbers(facing_deg)
    diff = np.abs((f - np.asarray(outward_deg, dtype=float) + 180.0) % 360.0 - 180.0)
    recorded = np.isfinite(f) & np.isfinite(np.asarray(outward_deg, dtype=float))
    return _status(diff <= tolerance_deg, recorded)


def age_status(dates: pd.Series, today: pd.Timestamp, days: float) -> np.ndarray:
    """Surveyed no more than ``days`` days before ``today``.

    Examples
    --------
    >>> age_status(pd.Series(["2026-10-14", "2024-01-01", "soon"]),
    ...            pd.Timestamp("2026-11-30"), 365).tolist()
    [0, 2, -1]

    A number is not a date (pandas would read 45000, a spreadsheet's day, as 45,000 ns after
    1970): not recorded, unless it is a year (a whole number from 1900 to 2200).

    >>> age_status(pd.Series([45000.0, 2026.5]), pd.Timestamp("2026-11-30"), 365).tolist()
    [-1, -1]

    A year or a month alone (``2025``, ``2025-10``, ``10/2025``, ``Oct 2025``) is a period, not
    its first day: OK where even its first day is recent enough, a failure where even its last
    is too old, and :data:`NOT_KNOWN` where it straddles the limit. A date after ``today`` (by
    more than a day, the year 3000 too) tells nothing of the posting on that day: not known
    either.

    >>> age_status(pd.Series(["2026", "2025", "2024", "2025-12", "Nov 2025", 2023]),
    ...            pd.Timestamp("2026-11-30"), 365).tolist()
    [0, -2, 2, 0, -2, 2]
    >>> age_status(pd.Series(["2026-12-01", "2026-12-02", "2027", "3000", "3000-01-01"]),
    ...            pd.Timestamp("2026-11-30"), 365).tolist()
    [0, -2, -2, -2, -2]

    A time alone or a day without its year is no date (pandas reads today's date, a day of
    this year), and a day and month that read either way round (``03/10/2025``: 3 October or
    10 March) are not known either, unless their file said which comes first and had them
    written year first (:mod:`posting.dates`); ``13/10/2025`` reads one way only.

    >>> age_status(pd.Series(["14:05", "Oct 3", "03/10/2025", "13/10/2025", "11/29/2025"]),
    ...            pd.Timestamp("2026-11-30"), 365).tolist()
    [-2, -2, -2, 2, 2]
    """
    from posting.dates import not_dates

    s = pd.Series(dates).reset_index(drop=True)
    undated = not_dates(s)  # a time alone, a day of no year, a day and month either way round
    s = s.where(~undated, None)
    start, end = _periods(s)
    kind = pd.api.types.infer_dtype(s, skipna=True)
    if kind in ("integer", "floating", "decimal", "mixed-integer-float", "boolean", "complex"):
        s = pd.Series(None, index=s.index, dtype=object)
    elif kind.startswith("mixed"):  # numbers among texts or dates: the numbers left out
        s = s.where(~s.map(lambda v: isinstance(v, (int, float, complex, np.number))), None)
    d = pd.to_datetime(s.where(start.isna(), None), errors="coerce", utc=True, format="mixed")
    now = pd.Timestamp(today).tz_localize("UTC")
    oldest = (now - d.fillna(start)).dt.total_seconds().to_numpy(dtype=float) / 86400.0
    youngest = (now - d.fillna(end)).dt.total_seconds().to_numpy(dtype=float) / 86400.0
    period = start.notna().to_numpy(dtype=bool)
    ok = oldest <= days
    fail = np.where(period, youngest >= days, ~ok)  # (a period's last moment is before its end)
    future = oldest < -1.0  # after the check date (a day's grace for time zones): a mistake
    dated = np.isfinite(oldest)
    out = _status(ok, dated & (ok | fail) & ~future)
    out[dated & (future | ~(ok | fail))] = NOT_KNOWN
    out[undated] = NOT_KNOWN
    return out


_PERIOD = re.compile(
    r"^\s*(?:(?P<y1>\d{4})(?:\s*[-/.]\s*(?P<m1>\d{1,2}))?"
    r"|(?P<m2>\d{1,2})\s*[-/.]\s*(?P<y2>\d{4})"
    r"|(?P<mn>[^\W\d_]{3,9})\.?,?\s*(?P<y3>\d{4}))\s*$"
)
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}


def _periods(values: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Where a value is a year or a month alone (text, or a whole number from 1900 to 2200 for
    a year), the period's first moment and the first moment after it (UTC); NaT elsewhere."""
    none = pd.Series(pd.NaT, index=values.index, dtype="datetime64[ns, UTC]")
    kind = pd.api.types.infer_dtype(values, skipna=True)
    if kind in ("string", "empty"):
        text = values.astype("string")
    elif kind in ("integer", "floating", "decimal", "mixed-integer-float") or kind.startswith(
        "mixed"
    ):
        is_text = values.map(lambda v: isinstance(v, str)).to_numpy(dtype=bool)
        num = pd.to_numeric(values.where(~is_text, None), errors="coerce").astype(float)
        whole = ((num == np.floor(num)) & num.between(1900, 2200)).to_numpy(dtype=bool)
        text = pd.Series(pd.NA, index=values.index, dtype="string")
        text[is_text] = values[is_text].astype("string")
        text[whole] = num[whole].map("{:.0f}".format).astype("string")
    else:  # dates, times, booleans ...
        return none, none
    parts = text.str.extract(_PERIOD)
    year = parts["y1"].fillna(parts["y2"]).fillna(parts["y3"])
    month = parts["m1"].fillna(parts["m2"])
    name = parts["mn"].str.casefold().str[:3].map(_MONTHS, na_action="ignore")
    month = pd.to_numeric(month, errors="coerce").fillna(pd.to_numeric(name, errors="coerce"))
    named = parts["mn"].notna() & name.isna()  # "Soon 2025" is no month
    y = pd.to_numeric(year, errors="coerce").where(~named)
    y = y.where(y.between(1700, 2200))  # (pandas' times end in 2262: "3000" is no survey)
    whole_year = month.isna() & parts["mn"].isna()
    m = month.fillna(1).where(month.between(1, 12) | whole_year)
    index = ((y - 1970) * 12 + m - 1).to_numpy(dtype=float, na_value=np.nan)  # months since 1970
    ok = np.isfinite(index)
    if not ok.any():
        return none, none
    months = np.where(whole_year.to_numpy(dtype=bool), 12, 1)
    first, after = none.copy(), none.copy()
    at = index[ok].astype(np.int64)
    first[ok] = pd.to_datetime(at.astype("datetime64[M]"), utc=True)
    after[ok] = pd.to_datetime((at + months[ok]).astype("datetime64[M]"), utc=True)
    return first, after


_TIME = re.compile(
    r"\b(?:\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)|\d{1,2}:\d{2}|dusk|dawn|sunset|"
    r"sunrise|midnight|noon|closed|hours)",
    re.IGNORECASE,
)


def hours_status(values: pd.Series, offence_words: tuple[str, ...]) -> np.ndarray:
    """The notice states when entry is prohibited and that entry then is an offence.

    Examples
    --------
    >>> hours_status(pd.Series(["Park closed 10 pm to 6 am. Violators will be prosecuted",
    ...                         "No trespassing", None]), ("prosecuted", "punishable")).tolist()
    [0, 2, -1]
    """
    raw = pd.Series(values, dtype="string").reset_index(drop=True)
    recorded = raw.notna() & (raw.str.strip() != "")
    when = raw.fillna("").str.contains(_TIME).to_numpy(dtype=bool)
    offence = _words(values, offence_words, all_of=False) == OK if offence_words else True
    return _status(when & offence, recorded.to_numpy(dtype=bool))


_TOKEN = re.compile(r"[^\W\d_]{2,}")


APOSTROPHE = re.compile(r"['\u2018\u2019\u02bc`\u00b4]")
"""An apostrophe (straight, curly, a modifier letter, a grave or acute accent typed for one):
``O'BRIEN`` may be written ``OBRIEN``, one word."""


def _either_spelling(
    compare: Callable[[pd.Series, pd.Series], np.ndarray],
    sign_names: pd.Series,
    owners: pd.Series,
) -> np.ndarray:
    """``compare`` of each sign's name and owner, True also where it holds with the
    apostrophes of both left out (``O'BRIEN`` on the sign, ``OBRIEN`` of record, or the other
    way round), not only with them read as spaces (``O BRIEN``): compared again only where
    either has one and the first reading did not agree."""
    out = compare(sign_names, owners)
    a = pd.Series(sign_names, dtype="string").reset_index(drop=True)
    b = pd.Series(owners, dtype="string").reset_index(drop=True)
    has = (a.str.contains(APOSTROPHE) | b.str.contains(APOSTROPHE)).fillna(False)
    again = np.flatnonzero(has.to_numpy(dtype=bool) & ~out)
    if len(again):
        out[again] = compare(
            a.iloc[again].str.replace(APOSTROPHE, "", regex=True),
            b.iloc[again].str.replace(APOSTROPHE, "", regex=True),
        )
    return out


def names_agree(sign_names: pd.Series, owners: pd.Series) -> np.ndarray:
    """Whether the name on each sign shares a word of two or more letters with the owner.

    Tolerant of case, punctuation and word order ("SMITH JOHN A" agrees with "John Smith"),
    and of an apostrophe written or not ("O'Brien" agrees with "OBRIEN").
    Returns False where either is missing.

    Examples
    --------
    >>> names_agree(pd.Series(["John A. Smith", "Acme Farms", None, "O'Brien"]),
    ...             pd.Series(["SMITH JOHN A", "Jones Ranch LLC", "X", "OBRIEN PAT"])).tolist()
    [True, False, False, True]
    """
    return _either_spelling(_names_agree, sign_names, owners)


def _names_agree(sign_names: pd.Series, owners: pd.Series) -> np.ndarray:
    """:func:`names_agree`, apostrophes read as spaces."""
    a = normalise_text(sign_names).reset_index(drop=True)
    b = normalise_text(owners).reset_index(drop=True)
    ta = a.str.findall(_TOKEN).explode().dropna()
    tb = b.str.findall(_TOKEN).explode().dropna()
    shared = pd.DataFrame({"i": ta.index, "t": ta.to_numpy()}).merge(
        pd.DataFrame({"i": tb.index, "t": tb.to_numpy()}), on=["i", "t"]
    )
    out = np.zeros(len(a), dtype=bool)
    out[shared["i"].to_numpy(dtype=np.int64)] = True
    return out


_GENERIC = frozenset(
    "llc inc co corp corporation company ltd lp llp trust trustee trustees estate of the and "
    "family farms farm ranch properties property land lands holdings group partners partnership "
    "et al ux jr sr".split()
)
"""Words that say what kind of owner, not which: left out when a name must be matched."""


def names_match(sign_names: pd.Series, owners: pd.Series) -> np.ndarray:
    """Whether each sign names this owner: every distinctive word of the owner's name (two or
    more letters, not ``LLC``, ``Trust``, ``Farms`` ...) is on the sign. Stricter than
    :func:`names_agree`: one shared word ("Harney" in "Lake Harney Hunt Club" and "Harney
    Timber LLC") is not enough. An apostrophe may be written or not (``O'BRIEN`` names
    ``OBRIEN JOHN``'s land, as a merge of owners reads them: :func:`posting.io.owner_names`).
    False where either is missing, or the owner's name has no distinctive word.

    Examples
    --------
    >>> signs = pd.Series(["John A. Smith", "Lake Harney Hunt Club", "Harney Timber", None])
    >>> owners = pd.Series(["SMITH JOHN A", "Harney Timber LLC", "Harney Timber LLC", "X"])
    >>> names_match(signs, owners).tolist()
    [True, False, True, False]
    >>> names_match(pd.Series(["John O'Brien", "OBRIEN"]),
    ...             pd.Series(["OBRIEN JOHN", "O'BRIEN"])).tolist()
    [True, True]
    """
    return _either_spelling(_names_match, sign_names, owners)


def _names_match(sign_names: pd.Series, owners: pd.Series) -> np.ndarray:
    """:func:`names_match`, apostrophes read as spaces."""
    a = normalise_text(sign_names).reset_index(drop=True)
    b = normalise_text(owners).reset_index(drop=True)
    ta = a.str.findall(_TOKEN).explode().dropna()
    tb = b.str.findall(_TOKEN).explode().dropna()
    tb = tb[~tb.isin(_GENERIC)]
    need = tb.groupby(level=0).nunique()
    shared = (
        pd.DataFrame({"i": ta.index, "t": ta.to_numpy()})
        .drop_duplicates()
        .merge(pd.DataFrame({"i": tb.index, "t": tb.to_numpy()}).drop_duplicates(), on=["i", "t"])
    )
    got = shared.groupby("i").size()
    out = np.zeros(len(a), dtype=bool)
    full = got.index[got.to_numpy() >= need.reindex(got.index).fillna(np.inf).to_numpy()]
    out[np.asarray(full, dtype=np.int64)] = True
    return out
