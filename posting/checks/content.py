"""Sign content: letter height, required words, the name on the sign.

Each function takes one value per sign and returns one status per sign: ``OK``, ``FAIL``, or
``NOT_RECORDED`` when the survey did not record the attribute (reported as not checked, never
as a violation).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from posting.checks import FAIL, OK

__all__ = [
    "COLUMNS",
    "NOT_RECORDED",
    "NO_NAME",
    "find_column",
    "letter_height_status",
    "name_status",
    "names_agree",
    "normalise_text",
    "words_status",
]

NOT_RECORDED = -1

COLUMNS: dict[str, tuple[str, ...]] = {
    "letter_height_in": ("letter_height_in", "letter_height", "letters_in", "letter_in"),
    "text": ("text", "sign_text", "wording", "legend"),
    "name_on_sign": ("name_on_sign", "sign_name", "owner_on_sign", "name_shown"),
}
"""Canonical sign columns and the aliases accepted for them (matched case-insensitively).

``name`` is deliberately not an alias of ``name_on_sign``: GPX waypoints carry their label in
``name``.
"""


def find_column(columns: pd.Index | list[str], canonical: str) -> str | None:
    """The column holding ``canonical`` (or one of its aliases), if any."""
    lower = {str(c).lower(): c for c in columns}
    for alias in COLUMNS[canonical]:
        if alias in lower:
            return lower[alias]
    return None


def normalise_text(values: pd.Series) -> pd.Series:
    """Case-folded words separated by single spaces; punctuation ignored; missing stays NA.

    Examples
    --------
    >>> normalise_text(pd.Series(["NO-TRESPASSING!", None, "  "])).tolist()
    ['no trespassing', <NA>, <NA>]
    """
    s = pd.Series(values, dtype="string")
    s = s.str.casefold().str.replace(r"[^\w]+", " ", regex=True).str.strip()
    return s.mask(s == "")


def _status(ok: np.ndarray, recorded: np.ndarray) -> np.ndarray:
    out = np.where(ok, OK, FAIL).astype(np.int8)
    out[~recorded] = NOT_RECORDED
    return out


def letter_height_status(values: pd.Series, min_in: float) -> np.ndarray:
    """Letters at least ``min_in`` inches high.

    Examples
    --------
    >>> letter_height_status(pd.Series(["2", "1.5", "", "3 in"]), 2.0).tolist()
    [0, 2, -1, -1]
    """
    h = pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(dtype=float)
    recorded = np.isfinite(h)
    return _status(h >= min_in, recorded)


def words_status(values: pd.Series, words: tuple[str, ...]) -> np.ndarray:
    """The sign's text contains every required word or phrase (case and punctuation ignored).

    Examples
    --------
    >>> words_status(pd.Series(["No Trespassing - J. Smith", "Private", None]),
    ...              ("no trespassing",)).tolist()
    [0, 2, -1]
    """
    text = normalise_text(values)
    recorded = text.notna().to_numpy()
    padded = " " + text.fillna("") + " "
    ok = np.ones(len(text), dtype=bool)
    for w in words:
        phrase = " " + normalise_text(pd.Series([w])).iloc[0] + " "
        ok &= padded.str.contains(phrase, regex=False).to_numpy(dtype=bool)
    return _status(ok, recorded)


NO_NAME = ("none", "no name", "n a", "na", "blank", "unreadable", "illegible")
"""Values of ``name_on_sign`` that record a sign showing no (readable) name, after
:func:`normalise_text` (so ``N/A`` and ``-`` count too). A blank cell means *not recorded*."""


def name_status(values: pd.Series) -> np.ndarray:
    """A name is shown on the sign.

    Examples
    --------
    >>> name_status(pd.Series(["J. Smith", "none", "-", None])).tolist()
    [0, 2, 2, -1]
    """
    raw = pd.Series(values, dtype="string").reset_index(drop=True)
    text = normalise_text(raw)
    recorded = raw.notna() & (raw.str.strip() != "")
    no_name = text.isna() | text.isin(NO_NAME)
    return _status(~no_name.to_numpy(dtype=bool), recorded.to_numpy(dtype=bool))


_TOKEN = re.compile(r"[^\W\d_]{2,}")


def names_agree(sign_names: pd.Series, owners: pd.Series) -> np.ndarray:
    """Whether the name on each sign shares a word of two or more letters with the owner.

    Tolerant of case, punctuation and word order ("SMITH JOHN A" agrees with "John Smith").
    Returns False where either is missing.

    Examples
    --------
    >>> names_agree(pd.Series(["John A. Smith", "Acme Farms", None]),
    ...             pd.Series(["SMITH JOHN A", "Jones Ranch LLC", "X"])).tolist()
    [True, False, False]
    """
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
