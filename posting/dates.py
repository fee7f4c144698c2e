"""Survey dates: the order of day and month in a file's dates, decided on the whole file, and
what is no date at all (a time alone, a day without its year).

pandas reads each value on its own (``format="mixed"``): within one file ``03/10/2025`` was
10 March (the month first) but ``13/10/2025`` 13 October, ``03.10.2025`` 10 March too, a time
alone (``14:05``) today's date and ``Oct 3`` a day of this year. A survey date feeds the renewal
notes, the posting year, the evidence record an officer takes to court, a photo's attachment
(the same local day) and what is after the check date: a date misread is worse than none.

The order is the file's, for each of its date columns (:func:`tally`, :func:`decide`):

- a column where some date has a first field over 12 (``13/10/2025``) is day-first (as a
  European surveyor, a phone set to UK English or a GNSS receiver's export writes them);
- one where some date has a second field over 12 (``10/13/2025``) is month-first (the US way);
- one with both is refused (:func:`decide`): its dates were written two ways, and which way
  each of the others was written cannot be known;
- one where no date settles it (every field 12 or less) and whose dates that could be read
  either way are all written with slashes (``10/03/2025``) is read month-first, **the US way**,
  with a note saying so (:func:`notes`): a US spreadsheet's or phone's way of writing a date,
  and this is a checker of US law for US landowners, surveyors and officers. A survey is
  usually done in a day or two, so a whole file often holds dates of the 1st to the 12th
  only: were such files not read, two in five of them would have no survey date at all;
- one where no date settles it and some such date is written otherwise (``03.10.2025``, the
  European way, or ``03-10-2025``) is **not read either way**: each date whose day and month
  could be swapped (``03.10.2025``, not ``03.03.2025``) is *not known*, with a note giving both
  readings and the cure (the dates written year first, ``2025-10-03``, which read one way
  only). The renewal and posting-year findings are notes, never a verdict.

A file the order is decided for has its dates written year first (:func:`settle`:
``13/10/2025 14:05`` is ``2025-10-13 14:05``), so every later reader (the checks, the evidence
record, the photos) reads them one way.

A value that pandas reads as a date but that has no year of four digits and is no
day-month-year date (``14:05``, ``Oct 3``, ``10/03``) is no date either (:func:`not_dates`):
not known, never today's date nor this year's.

A file is read in pieces by the partitioned run: each piece's :func:`tally` adds up
(:func:`combine`) to the whole file's, which decides the order for every piece.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
import pandas as pd

from posting.errors import InputError

__all__ = [
    "DAY_FIRST",
    "MONTH_FIRST",
    "Tally",
    "combine",
    "date_columns",
    "decide",
    "not_dates",
    "notes",
    "settle",
    "tally",
]

DAY_FIRST = "day-first"
MONTH_FIRST = "month-first"

_NUMERIC = re.compile(
    r"^\s*(?P<a>\d{1,2})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})"
    r"(?P<rest>(?:[\sT,].*)?)$",
    re.DOTALL,
)
"""A date of two fields of day and month (which first, the file says) and a year after them,
then perhaps a time: ``03/10/2025``, ``3.10.25``, ``10-13-2025 14:05``."""

_YEAR = re.compile(r"\d{4}")

# what each distinct value is (:func:`_classes`)
_NONE, _DAY, _MONTH, _EITHER, _UNDATED, _EITHER_SLASH = 0, 1, 2, 3, 4, 5
_KINDS = ("day_first", "month_first", "either", "undated", "either_slash")

Tally = dict[str, tuple[int, int, str]]
"""Per kind of value (``day_first``: a first field over 12; ``month_first``: a second one
over 12; ``either``: both fields 12 or less and unequal, written with dots or dashes;
``either_slash``: the same written with slashes; ``undated``: a time or a day without its
year), how many rows have one, the first of them (its input row, -1 for none) and its text."""


def date_columns(columns: Iterable[object]) -> list[object]:
    """The columns of a marker file that hold its survey dates (``surveyed`` or an alias,
    as :func:`posting.attributes.column_key` matches names).

    Examples
    --------
    >>> date_columns(["lon", "lat", "Survey Date", "time", "text"])
    ['Survey Date', 'time']
    """
    from posting.attributes import COLUMNS, column_key

    names = set(COLUMNS["surveyed"])
    return [c for c in columns if column_key(c) in names]


def _texts(values: pd.Series) -> tuple[np.ndarray, pd.Series]:
    """Each value's code among the distinct values (-1: missing), and each distinct value's
    text (NA where it is not text: a number, a date read as one)."""
    s = pd.Series(values).reset_index(drop=True)
    if not (s.dtype == object or pd.api.types.is_string_dtype(s.dtype)):
        return np.full(len(s), -1, dtype=np.int64), pd.Series([], dtype="string")
    codes, uniques = pd.factorize(s)  # a few distinct dates in a million rows
    u = pd.Series(np.asarray(uniques, dtype=object), dtype=object)
    text = u.where(u.map(lambda v: isinstance(v, str)), None).astype("string")
    return codes.astype(np.int64), text


def _parts(text: pd.Series) -> pd.DataFrame:
    """The fields of each day-month-year date (``a``, ``b``: the first two; ``y``: the year,
    two digits read as ``strptime``'s ``%y`` does, 69-99 as 19xx; ``rest``), NaN elsewhere."""
    p = text.str.extract(_NUMERIC)
    a = pd.to_numeric(p["a"], errors="coerce").to_numpy(dtype=float)
    b = pd.to_numeric(p["b"], errors="coerce").to_numpy(dtype=float)
    y = pd.to_numeric(p["y"], errors="coerce").to_numpy(dtype=float)
    short = p["y"].str.len().to_numpy(dtype=float, na_value=np.nan) == 2
    y = np.where(short, np.where(y >= 69, 1900 + y, 2000 + y), y)
    return pd.DataFrame({"a": a, "b": b, "y": y, "sep": p["sep"], "rest": p["rest"].fillna("")})


def _classes(text: pd.Series) -> tuple[np.ndarray, pd.DataFrame]:
    """What each distinct value is (``_NONE``, ``_DAY`` ... ``_UNDATED``) and its fields."""
    p = _parts(text)
    a, b = p["a"].to_numpy(), p["b"].to_numpy()
    numeric = np.isfinite(a) & np.isfinite(b)
    ok_a, ok_b = (a >= 1) & (a <= 31), (b >= 1) & (b <= 31)
    out = np.full(len(text), _NONE, dtype=np.int8)
    out[numeric & ok_a & ok_b & (a > 12) & (b <= 12)] = _DAY
    out[numeric & ok_a & ok_b & (b > 12) & (a <= 12)] = _MONTH
    either = numeric & (a <= 12) & (b <= 12) & ok_a & ok_b & (a != b)
    slash = (p["sep"] == "/").to_numpy(dtype=bool, na_value=False)
    out[either] = np.where(slash[either], _EITHER_SLASH, _EITHER)
    rest = ~numeric & text.notna().to_numpy(dtype=bool)
    rest &= ~text.str.contains(_YEAR).fillna(True).to_numpy(dtype=bool)
    if rest.any():  # read as a date by pandas, yet no year: a time, a day of no year
        read = pd.to_datetime(text[rest].astype(object), errors="coerce", format="mixed")
        undated = np.zeros(len(text), dtype=bool)
        undated[np.flatnonzero(rest)] = read.notna().to_numpy(dtype=bool)
        out[undated] = _UNDATED
    return out, p


def tally(values: pd.Series, rows: np.ndarray) -> Tally:
    """What the survey dates ``values`` (of input rows ``rows``) say of their order: the
    :data:`Tally` of a file, or of a piece of one (the pieces' :func:`combine` is the file's).

    Examples
    --------
    >>> t = tally(pd.Series(["03/10/2025", "13/10/2025", "14:05", None]), np.arange(4))
    >>> t["day_first"], t["either_slash"], t["undated"], t["month_first"], t["either"]
    ((1, 1, '13/10/2025'), (1, 0, '03/10/2025'), (1, 2, '14:05'), (0, -1, ''), (0, -1, ''))
    """
    codes, text = _texts(values)
    rows = np.asarray(rows, dtype=np.int64)
    out: Tally = dict.fromkeys(_KINDS, (0, -1, ""))
    if not len(text):
        return out
    cls, _ = _classes(text)
    each = np.append(cls, _NONE)[codes]  # (-1: missing)
    for k, name in enumerate(_KINDS, start=1):
        at = np.flatnonzero(each == k)
        if len(at):
            first = at[np.argmin(rows[at])]
            out[name] = (len(at), int(rows[first]), str(text.iloc[codes[first]]))
    return out


def combine(tallies: Iterable[Tally]) -> Tally:
    """The tallies of a file's pieces as the whole file's: counts added, the first row kept.

    Examples
    --------
    >>> a = {"day_first": (0, -1, ""), "month_first": (1, 7, "10/13/2025"),
    ...      "either": (2, 5, "03/10/2025"), "undated": (0, -1, ""), "either_slash": (0, -1, "")}
    >>> b = {"day_first": (0, -1, ""), "month_first": (0, -1, ""),
    ...      "either": (1, 2, "04/10/2025"), "undated": (0, -1, ""), "either_slash": (0, -1, "")}
    >>> combine([a, b])["either"], combine([a, b])["month_first"]
    ((3, 2, '04/10/2025'), (1, 7, '10/13/2025'))
    """
    out: Tally = dict.fromkeys(_KINDS, (0, -1, ""))
    for t in tallies:
        for k in _KINDS:
            n, row, text = t[k]
            m, first, said = out[k]
            if n and (first < 0 or row < first):
                first, said = row, text
            out[k] = (m + n, first, said)
    return out


def decide(t: Tally, path: str, column: str) -> str | None:
    """The order of a file's dates (:data:`DAY_FIRST`, :data:`MONTH_FIRST`), or None where no
    date settles it.

    Raises
    ------
    InputError
        Some dates are day-first and others month-first: the file, a row of each, the cure.

    Examples
    --------
    >>> decide(tally(pd.Series(["03/10/2025", "13/10/2025"]), np.arange(2)), "a.csv", "date")
    'day-first'
    >>> decide(tally(pd.Series(["03/10/2025"]), np.arange(1)), "a.csv", "date")
    'month-first'
    >>> decide(tally(pd.Series(["03.10.2025"]), np.arange(1)), "a.csv", "date") is None
    True
    >>> decide(tally(pd.Series(["13/10/2025", "10/14/2025"]), np.arange(2)), "a.csv", "date")
    Traceback (most recent call last):
    ...
    posting.errors.InputError: a.csv: its 'date' column has dates written day first and dates \
written month first: row 0 '13/10/2025' (a first field over 12: day first) and row 1 \
'10/14/2025' (a second field over 12: month first), so which way each of the others is read \
cannot be known; write every date one way, best year first (2025-10-13), and check again
    """
    (nd, rd, vd), (nm, rm, vm) = t["day_first"], t["month_first"]
    if nd and nm:
        raise InputError(
            f"its {column!r} column has dates written day first and dates written month "
            f"first: row {rd} {vd!r} (a first field over 12: day first) and row {rm} {vm!r} "
            "(a second field over 12: month first), so which way each of the others is "
            "read cannot be known; write every date one way, best year first (2025-10-13), "
            "and check again",
            path=path,
            row=min(rd, rm),
            column=str(column),
        )
    if nd or nm:
        return DAY_FIRST if nd else MONTH_FIRST
    # none settles it: the US way where every date read either way is written with slashes
    return MONTH_FIRST if t["either_slash"][0] and not t["either"][0] else None


def _readings(text: str) -> tuple[str, str]:
    """A day-month-year date read day first and month first, year first (ISO)."""
    p = _parts(pd.Series([text], dtype="string")).iloc[0]
    y, a, b = int(p["y"]), int(p["a"]), int(p["b"])
    return f"{y:04d}-{b:02d}-{a:02d}", f"{y:04d}-{a:02d}-{b:02d}"


def notes(t: Tally, order: str | None, path: str, column: str) -> list[str]:
    """What a file's survey dates make the check say: the order read (where it was needed to
    read some date), the dates not known for want of one, and the values that are no date.

    Examples
    --------
    >>> t = tally(pd.Series(["03/10/2025", "07/10/2025", "10:30"]), np.arange(3))
    >>> for n in notes(t, None, "signs.csv", "surveyed"):
    ...     print(n)
    signs.csv: 2 survey date(s) of column 'surveyed' read either way, day first or month \
first (row 0: '03/10/2025' is 2025-10-03 day first, 2025-03-10 month first), and no date \
of the file settles it (none has a field over 12): their survey age is not known; write \
them year first (2025-10-03)
    signs.csv: 1 value(s) of column 'surveyed' are a time alone or a day without its year \
(row 2: '10:30'): no date, so their survey age is not known; write the whole date, year \
first (2025-10-03)
    """
    out = []
    (n, row, text), (n_slash, row_slash, text_slash) = t["either"], t["either_slash"]
    if n_slash and (not n or 0 <= row_slash < row):
        row, text = row_slash, text_slash
    n += n_slash
    key = "day_first" if order == DAY_FIRST else "month_first"
    if n and order is not None and t[key][0]:
        _, r, v = t[key]
        out.append(
            f"{path}: survey dates of column {column!r} read {order.replace('-', ' ')} (row "
            f"{r}: {v!r} has a {'first' if order == DAY_FIRST else 'second'} field over 12)"
        )
    elif n and order is not None:  # the US way, no date saying otherwise
        day, month = _readings(text)
        out.append(
            f"{path}: {n:,} survey date(s) of column {column!r} read month first, the US way "
            f"(row {row}: {text!r} is {month}); no date of the file has a field over 12 to "
            f"say which comes first: if they are day first ({day}), write them year first "
            "(2025-10-03)"
        )
    elif n:
        day, month = _readings(text)
        out.append(
            f"{path}: {n:,} survey date(s) of column {column!r} read either way, day first or "
            f"month first (row {row}: {text!r} is {day} day first, {month} month first), and "
            "no date of the file settles it (none has a field over 12): their survey age is "
            "not known; write them year first (2025-10-03)"
        )
    n, row, text = t["undated"]
    if n:
        out.append(
            f"{path}: {n:,} value(s) of column {column!r} are a time alone or a day without "
            f"its year (row {row}: {text!r}): no date, so their survey age is not known; "
            "write the whole date, year first (2025-10-03)"
        )
    return out


def settle(values: pd.Series, order: str | None) -> pd.Series:
    """``values`` with each day-month-year date written year first (ISO), read in ``order``
    (the file's, :func:`decide`); as they are where the order is None.

    Examples
    --------
    >>> settle(pd.Series(["03/10/2025", "13.10.25 14:05", "2025-10-01", None]),
    ...        DAY_FIRST).tolist()
    ['2025-10-03', '2025-10-13 14:05', '2025-10-01', nan]
    >>> settle(pd.Series(["03/10/2025", "10/13/2025"]), MONTH_FIRST).tolist()
    ['2025-03-10', '2025-10-13']
    """
    s = pd.Series(values)
    if order is None:
        return s
    codes, text = _texts(s)
    if not len(text):
        return s
    cls, p = _classes(text)
    a, b = p["a"].to_numpy(), p["b"].to_numpy()
    day, month = (a, b) if order == DAY_FIRST else (b, a)
    ok = np.isin(cls, (_DAY, _MONTH, _EITHER, _EITHER_SLASH))
    ok |= np.isfinite(a) & (a == b) & (a >= 1) & (a <= 12)
    if not ok.any():
        return s
    at = np.flatnonzero(ok)
    iso = [
        f"{int(p['y'].iat[i]):04d}-{int(month[i]):02d}-{int(day[i]):02d}{p['rest'].iat[i]}"
        for i in at  # (one per distinct date)
    ]
    new = np.array(text.astype(object), dtype=object)
    new[at] = iso
    rows = np.isin(codes, at)
    out = s.to_numpy(dtype=object, copy=True)
    out[rows] = new[codes[rows]]
    return pd.Series(out, index=s.index, name=s.name, dtype=s.dtype)


def not_dates(values: pd.Series) -> np.ndarray:
    """Per value, whether it is no date a survey's age can be read from: a day-month-year date
    whose day and month could be either way round (left so by :func:`settle`: its file did
    not say), or a time or a day without its year. Such a value is *not known*, never read as
    pandas reads it (the month first; today's date; this year).

    Examples
    --------
    >>> not_dates(pd.Series(["03/10/2025", "13/10/2025", "03/03/2025", "14:05", "Oct 3",
    ...                      "Oct 2025", "2025-10-03", "soon", None])).tolist()
    [True, False, False, True, True, False, False, False, False]
    """
    codes, text = _texts(values)
    if not len(text):
        return np.zeros(len(codes), dtype=bool)
    cls, _ = _classes(text)
    bad = np.append(np.isin(cls, (_EITHER, _EITHER_SLASH, _UNDATED)), False)
    return bad[codes]
