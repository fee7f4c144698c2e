"""What a land-cover column's values say: forest land and cultivated land.

The rules read forest land where a land-cover value is ``forest`` and cultivated land where it is
``cultivated`` (case aside), unless the user says which values are which
(``forest_where``, ``cultivated_where``: :func:`classified`). A land-cover map names its classes
in its own words: the USGS National Land Cover Database's "Deciduous Forest" (41), "Evergreen
Forest" (42), "Mixed Forest" (43), "Cultivated Crops" (82); a state forestry layer's
"FOREST LAND"; a county's "Woods". Read as they are, none of them is ``forest``, and every gap
through them would be judged at the other land's spacing (1,000 ft in Texas instead of 100 ft):
a false pass, without a word. So a column whose values include none equal to ``forest`` but some
that name forest or woods is refused (:func:`refuse_unread`), naming a few such values and the
setting that says they are forest land; cultivated land alike.

The values are tallied as a :class:`CoverValues`, which a layer read piece by piece (the
partitioned path) merges to the whole column's (:meth:`CoverValues.merged`), so that it is
refused as one run refuses it, with the same message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from posting.errors import InputError

__all__ = [
    "CULTIVATED_WORDS",
    "FOREST_WORDS",
    "NLCD_CULTIVATED",
    "NLCD_FOREST",
    "CoverValues",
    "classified",
    "refuse_unread",
]

FOREST_WORDS = re.compile(
    r"\b(forest(s|ed|land|lands)?|woods|wooded|woodlands?|timber(land|lands)?)\b"
)
"""A land-cover value that names forest land in other words than ``forest`` (``Deciduous
Forest``, ``FOREST LAND``, ``Woods``, ``Timberland``), searched in its case-folded text."""
NEGATED = re.compile(r"\b(non|not|no)\b")
"""A value that says what land is not (``Non-forest``, ``No crops``): no forest land named."""
CULTIVATED_WORDS = re.compile(r"\b(cultivated|crops?|croplands?)\b")
"""A land-cover value that names cultivated land in other words (``Cultivated Crops``,
``Cropland``)."""
NLCD_FOREST = (41, 42, 43)
"""The National Land Cover Database's forest classes: deciduous, evergreen, mixed."""
NLCD_CULTIVATED = (82,)
"""The National Land Cover Database's cultivated crops."""
KEPT = 6
"""How many such values a tally keeps (the first, by their case-folded text), to name and to
give in the setting that mends the column."""

_WHOLE = re.compile(r"^[+-]?\d+(\.0*)?$")


def _whole_number(value: Any) -> int | None:
    """``value`` as a whole number (``41``, ``41.0``, ``"41"``), or None."""
    if isinstance(value, bool | np.bool_):
        return None
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return int(value) if np.isfinite(value) and float(value).is_integer() else None
    text = str(value).strip()
    return int(float(text)) if _WHOLE.match(text) else None


def _first(values: Iterable[tuple[str, str]]) -> tuple[tuple[tuple[str, str], ...], bool]:
    """The first :data:`KEPT` of ``(case-folded, as written)`` pairs by their case-folded text,
    one each (the least as written), and whether there were more."""
    least: dict[str, str] = {}
    for key, text in values:
        least[key] = min(text, least.get(key, text))
    keys = sorted(least)
    return tuple((k, least[k]) for k in keys[:KEPT]), len(keys) > KEPT


def _naming(
    texts: Iterable[tuple[str, str]], words: re.Pattern[str], value: str
) -> Iterator[tuple[str, str]]:
    """The ``(case-folded, as written)`` values that name a class in other ``words`` than its
    ``value`` (not the value itself, nor one that says what the land is not)."""
    return ((k, t) for k, t in texts if k != value and words.search(k) and not NEGATED.search(k))


@dataclass(frozen=True)
class CoverValues:
    """A land-cover column's distinct values, as far as :func:`refuse_unread` needs them.

    ``forest``, ``cultivated``: whether a value is ``forest`` (``cultivated``), case aside;
    ``numbers``: whether every value (blanks aside) is a whole number, as a column of NLCD
    codes is; ``codes``: which of NLCD's forest and cultivated codes are among them;
    ``forest_like``, ``cultivated_like``: the first :data:`KEPT` values (case-folded, as
    written) naming forest land (:data:`FOREST_WORDS`) or cultivated land in other words,
    and ``more_forest``, ``more_cultivated``: whether there are more.
    """

    forest: bool = False
    cultivated: bool = False
    numbers: bool = True
    codes: tuple[int, ...] = ()
    forest_like: tuple[tuple[str, str], ...] = ()
    more_forest: bool = False
    cultivated_like: tuple[tuple[str, str], ...] = ()
    more_cultivated: bool = False

    @classmethod
    def of(cls, values: Any) -> CoverValues:
        """The tally of a column as read (None, NA or spaces for blank); each distinct value
        looked at once.

        >>> t = CoverValues.of(["Deciduous Forest", "Pasture/Hay", None, "deciduous forest"])
        >>> t.forest, t.numbers, t.forest_like
        (False, False, (('deciduous forest', 'Deciduous Forest'),))
        >>> CoverValues.of([41, 82.0, 11]).codes
        (41, 82)
        """
        uniques = pd.unique(pd.Series(values, dtype=object).dropna())
        texts = [(str(u).strip().casefold(), str(u).strip()) for u in uniques]
        texts = [(k, t) for k, t in texts if k]
        keys = {k for k, _ in texts}
        numbers = [_whole_number(u) for u in uniques if str(u).strip()]
        whole = all(n is not None for n in numbers)
        codes = sorted({n for n in numbers if n in NLCD_FOREST + NLCD_CULTIVATED}) if whole else []
        forest_like, more_forest = _first(_naming(texts, FOREST_WORDS, "forest"))
        cult_like, more_cult = _first(_naming(texts, CULTIVATED_WORDS, "cultivated"))
        return cls(
            forest="forest" in keys,
            cultivated="cultivated" in keys,
            numbers=whole,
            codes=tuple(codes),
            forest_like=forest_like,
            more_forest=more_forest,
            cultivated_like=cult_like,
            more_cultivated=more_cult,
        )

    @classmethod
    def merged(cls, parts: Iterable[CoverValues | None]) -> CoverValues:
        """The tally of a column whose pieces' tallies are ``parts`` (None: a piece not
        tallied), as :meth:`of` gives it of the whole column.

        >>> a, b = CoverValues.of(["Mixed Forest", 1]), CoverValues.of([42, "forest"])
        >>> CoverValues.merged([a, b]) == CoverValues.of(["Mixed Forest", 1, 42, "forest"])
        True
        """
        parts = [p for p in parts if p is not None]
        numbers = all(p.numbers for p in parts)
        forest_like, more_forest = _first(x for p in parts for x in p.forest_like)
        cult_like, more_cult = _first(x for p in parts for x in p.cultivated_like)
        return cls(
            forest=any(p.forest for p in parts),
            cultivated=any(p.cultivated for p in parts),
            numbers=numbers,
            codes=tuple(sorted({c for p in parts for c in p.codes})) if numbers else (),
            forest_like=forest_like,
            more_forest=more_forest or any(p.more_forest for p in parts),
            cultivated_like=cult_like,
            more_cultivated=more_cult or any(p.more_cultivated for p in parts),
        )


def _option_value(text: str) -> str:
    """A value as the ``COL=V1,V2`` syntax can take it: a comma or a quote in it matched by
    ``?`` (any one character)."""
    return re.sub(r"[,'\"]", "?", text)


def _unread(
    like: Sequence[tuple[str, str]], more: bool, codes: Sequence[int], word: str
) -> tuple[str, list[str]] | None:
    """What a column says of one class that the rules would not read (``word``: how its
    values name it), and the values to give; None when nothing."""
    if like:
        shown = ", ".join(repr(t) for _, t in like) + (", ..." if more else "")
        return f"values that name {word} ({shown})", [t for _, t in like]
    if codes:
        shown = ", ".join(str(c) for c in codes)
        return f"the National Land Cover Database's {word} classes ({shown})", [
            str(c) for c in codes
        ]
    return None


def refuse_unread(
    tally: CoverValues,
    source: str,
    column: str,
    *,
    forest: bool = True,
    cultivated: bool = False,
    parameter: str = "landcover_field",
) -> None:
    """Refuse a land-cover column (``column`` of ``source``) whose values include none equal
    to ``forest`` but some that name forest land in other words (or, in a column of numbers,
    NLCD's forest classes), which the rules would read as other land; and, where
    ``cultivated`` (a land-cover layer whose cultivated land no other setting gives), one
    that names cultivated land so. ``forest``: whether to look at forest land (not where
    ``forest_where`` says which values are forest land). The message names a few such values
    and the setting that says they are forest (cultivated) land.

    >>> refuse_unread(CoverValues.of(["Woods", "Field"]), "lc.gpkg", "LC")
    Traceback (most recent call last):
    ...
    posting.errors.InputError: lc.gpkg: the land cover's column 'LC' (landcover_field=) \
has no value 'forest', the one that marks forest land, but has values that name forest or \
woods ('Woods'), which would be read as land other than forest land; say which values are \
forest land: forest_where= "LC=Woods"
    """
    found, fixes = [], []
    codes = tally.codes if tally.numbers else ()
    # (the class's value, its land, how values name it, how they would be read, its setting)
    checks = []
    if forest and not tally.forest:
        checks.append(
            (
                tally.forest_like,
                tally.more_forest,
                NLCD_FOREST,
                "forest",
                "forest land",
                "forest or woods",
                "land other than forest land",
                "forest_where",
            )
        )
    if cultivated and not tally.cultivated:
        checks.append(
            (
                tally.cultivated_like,
                tally.more_cultivated,
                NLCD_CULTIVATED,
                "cultivated",
                "cultivated land",
                "cultivated land or crops",
                "land not cultivated",
                "cultivated_where",
            )
        )
    for like, more, nlcd, value, land, word, read_as, option in checks:
        what = _unread(like, more, [c for c in codes if c in nlcd], word)
        if what:
            found.append(
                f"no value '{value}', the one that marks {land}, but has {what[0]}, which "
                f"would be read as {read_as}"
            )
            values = ",".join(_option_value(v) for v in what[1])
            fixes.append(f'say which values are {land}: {{option:{option}}} "{column}={values}"')
    if found:
        raise InputError(
            f"the land cover's column {column!r} ({{option}}) has "
            + "; and ".join(found)
            + "; "
            + "; and ".join(fixes),
            path=source,
            parameter=parameter,
        )


def classified(
    raw: Any,
    values: np.ndarray,
    classes: Sequence[tuple[str, set[str], str]],
    source: str,
    column: str,
) -> np.ndarray:
    """A land-cover column's values (``values``: its text, case-folded, None where blank) with
    the classes the user says which values are: for each ``(name, wanted, parameter)`` of
    ``classes`` (``("forest", {"deciduous forest", "4*"}, "forest_where")``), each feature
    whose value as read (``raw``) ``wanted`` matches (:func:`posting.io.where_match`) is
    ``name``, and one it does not match is not (a value ``forest`` that ``forest_where``
    leaves out is no longer forest land: the setting says which values are). A value that two
    classes choose is refused (``source``, ``column`` name it): its land is one or the other.

    >>> classified(["Deciduous Forest", "Cultivated Crops", "forest", None],
    ...            np.array(["deciduous forest", "cultivated crops", "forest", None]),
    ...            [("forest", {"deciduous*"}, "forest_where")], "lc.gpkg", "LC").tolist()
    ['forest', 'cultivated crops', None, None]
    """
    from posting.io import where_match

    out = np.asarray(values, dtype=object).copy()
    as_read = np.asarray(pd.Series(raw, dtype=object), dtype=object)
    chosen = np.zeros(len(out), dtype=bool)
    chooser = np.full(len(out), None, dtype=object)
    for name, wanted, parameter in classes:
        hit = where_match(raw, wanted)  # (as read: numbers match as numbers)
        both = hit & chosen
        if both.any():
            i = int(np.flatnonzero(both)[0])
            shown = as_read[i]
            raise InputError(
                f"the value {shown!r} of the land cover's column {column!r} is chosen by both "
                f"{{option:{chooser[i]}}} and {{option}}: its land is one or the other; "
                "leave it out of one",
                path=source,
                parameter=parameter,
            )
        out[(out == name) & ~hit] = None
        out[hit] = name
        chosen |= hit
        chooser[hit] = parameter
    return out
