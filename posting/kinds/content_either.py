"""Either/or sign content: a sign shows one set of things or another (Minnesota 97B.001
subd. 4: "signed by the owner, occupant, lessee, or authorized manager" or showing "the legible
name and telephone number" of one of them).

``options`` lists the sets, each a list of marker columns that must all show something
(:mod:`posting.attributes`: ``signed``, ``name_on_sign``, ``address_on_sign``,
``phone_on_sign``). A sign passes when one set is all shown; fails when every set lacks
something the survey recorded as absent; and is not checked when the survey did not record
enough to tell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.attributes import find_column
from posting.checks import FAIL, OK
from posting.checks import content as ct
from posting.checks.content import NOT_RECORDED
from posting.kinds import Kind, Part, register
from posting.kinds.items import Item
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule

__all__ = ["COLUMNS", "ContentEitherRule", "either_status"]

COLUMNS = ("signed", "name_on_sign", "address_on_sign", "phone_on_sign")
"""The marker columns an option may name."""

_WORDS = {
    "signed": "a signature",
    "name_on_sign": "a name",
    "address_on_sign": "an address",
    "phone_on_sign": "a phone number",
}


@dataclass(frozen=True)
class ContentEitherRule(Rule):
    """Each sign of ``kinds`` shows every item of one of the ``options`` (one option: all of
    its items, Vermont's signature)."""

    options: tuple[tuple[str, ...], ...] = ()
    kinds: tuple[str, ...] = ("sign",)

    def words(self) -> str:
        """``a signature, or a name and a phone number``."""
        return ", or ".join(" and ".join(_WORDS[c] for c in o) for o in self.options)


def parse(t: Reader, kinds: tuple[str, ...]) -> ContentEitherRule:
    raw = t.get("options", list, required=True)
    ok = len(raw) >= 1 and all(
        isinstance(o, list) and o and all(isinstance(c, str) and c in COLUMNS for c in o)
        for o in raw
    )
    if not ok:
        raise t.error(
            "options",
            "must be one or more lists of marker columns (" + ", ".join(COLUMNS) + "), "
            'e.g. [["signed"], ["name_on_sign", "phone_on_sign"]]',
        )
    return ContentEitherRule(
        **t.common(), options=tuple(tuple(o) for o in raw), kinds=t.marker_kinds(("sign",))
    )


def either_status(options: list[list[np.ndarray]]) -> np.ndarray:
    """Per sign, OK when one option's items are all shown, FAIL when each option has an item
    recorded as not shown, else NOT_RECORDED. ``options[k][j]`` is the status
    (:func:`posting.checks.content.name_status`) of option ``k``'s item ``j``, per sign; an
    item whose column is absent is all NOT_RECORDED.

    >>> signed = np.array([0, 2, 2, -1])
    >>> name, phone = np.array([2, 0, 0, 0]), np.array([2, 0, 2, -1])
    >>> either_status([[signed], [name, phone]]).tolist()
    [0, 0, 2, -1]
    """
    n = len(options[0][0])
    passed = np.zeros(n, dtype=bool)
    failed = np.ones(n, dtype=bool)
    for items in options:
        s = np.vstack(items)
        passed |= (s == OK).all(axis=0)
        failed &= (s == FAIL).any(axis=0)
    out = np.full(n, NOT_RECORDED, dtype=np.int8)
    out[failed] = FAIL
    out[passed] = OK
    return out


def items(rule: ContentEitherRule, profile, m: Measurements, part: Part) -> list[Item]:
    present = [c for c in COLUMNS if find_column(m.attrs.columns, c) is not None]
    wanted = [c for o in rule.options for c in o]
    usable = [c for c in dict.fromkeys(wanted) if c in present]
    if not any(all(c in present for c in o) for o in rule.options) and not usable:
        part.skip(
            "sign_content_either",
            rule.clause,
            f"the marker data records none of {rule.words()}",
        )
        return []

    def fn(*values: pd.Series) -> np.ndarray:
        n = len(values[0])
        shown = {c: ct.name_status(v) for c, v in zip(usable, values, strict=True)}
        missing = np.full(n, NOT_RECORDED, dtype=np.int8)
        return either_status([[shown.get(c, missing) for c in o] for o in rule.options])

    return [
        Item(
            "sign_content_either",
            rule.clause,
            rule.kinds,
            tuple(usable),
            fn,
            f"show neither {rule.words().replace(', or ', ' nor ')}",
        )
    ]


register(
    Kind(
        "content_either",
        ContentEitherRule,
        parse,
        "what each sign shows, one way or another",
        items=items,
    )
)
