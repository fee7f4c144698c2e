"""What each sign must show and how big it must be: letter height, required words, the owner's
name, address or phone, the sign's size."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.checks import OK
from posting.checks import content as ct
from posting.kinds import Kind, Part, register
from posting.kinds.items import Item, lettering
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule
from posting.verdict import findings_frame

__all__ = ["ContentRule"]


@dataclass(frozen=True)
class ContentRule(Rule):
    """What each sign must show and how big it must be."""

    kinds: tuple[str, ...] = ("sign",)
    letter_min_in: float | None = None
    required_words: tuple[str, ...] = ()
    required_any: tuple[str, ...] = ()
    words_to_that_effect: bool = False
    name: str | None = None
    address: bool = False
    phone: bool = False
    sign_min_in: tuple[float, float] | None = None
    sign_min_sqin: float | None = None
    statement_min_sqin: float | None = None


def parse(t: Reader, kinds: tuple[str, ...]) -> ContentRule:
    return ContentRule(
        **t.common(),
        kinds=t.marker_kinds(("sign",)),
        letter_min_in=t.positive("letter_min_in"),
        required_words=t.strings("required_words") or (),
        required_any=t.strings("required_any") or (),
        words_to_that_effect=bool(t.get("words_to_that_effect", bool)),
        name=t.get("name", str),
        address=bool(t.get("address", bool)),
        phone=bool(t.get("phone", bool)),
        sign_min_in=t.pair("sign_min_in"),
        sign_min_sqin=t.positive("sign_min_sqin"),
        statement_min_sqin=t.positive("statement_min_sqin"),
    )


def summary(rule: ContentRule) -> dict:
    return {
        "letter_min_in": rule.letter_min_in,
        "required_words": list(rule.required_words),
        "name_on_sign": rule.name,
    }


def items(c: ContentRule, profile, m: Measurements, part: Part) -> list[Item]:
    k = c.kinds
    out = lettering(c, "letter_height", "sign_text")
    if c.required_any:
        words = " or ".join(f'"{w}"' for w in c.required_any)
        # where the law takes "similar terms" or "words to that effect", the list is our
        # reading of them: a sign in other words may still say it, which a person must judge
        effect = c.words_to_that_effect
        out.append(
            Item(
                "sign_text",
                c.clause,
                k,
                ("text",),
                lambda v: ct.any_words_status(v, c.required_any),
                f"show none of {words}"
                + (" (the law takes words to that effect: read the sign)" if effect else ""),
                level="uncertain" if effect else "violation",
            )
        )
    if c.name:
        owners = m.prep.layer.owners
        out.append(
            Item(
                "name_on_sign",
                c.clause,
                k,
                ("name_on_sign",),
                ct.name_status,
                f"show no name (the {c.name} must be named)",
                after=None if owners is None else _names_of_others(c.clause, owners),
            )
        )
    if c.address:
        out.append(
            Item(
                "address_on_sign",
                c.clause,
                k,
                ("address_on_sign",),
                ct.name_status,
                "show no address",
            )
        )
    if c.phone:
        out.append(
            Item(
                "phone_on_sign",
                c.clause,
                k,
                ("phone_on_sign",),
                ct.name_status,
                "show no phone number",
            )
        )
    if c.sign_min_in is not None:
        a, b = c.sign_min_in
        out.append(
            Item(
                "sign_size",
                c.clause,
                k,
                ("width_in", "length_in"),
                lambda w, h: ct.size_status(w, h, c.sign_min_in),
                f"are smaller than {a:g} x {b:g} in",
            )
        )
    if c.sign_min_sqin is not None:
        out.append(
            Item(
                "sign_size",
                c.clause,
                k,
                ("width_in", "length_in"),
                lambda w, h: ct.area_status(w, h, c.sign_min_sqin),
                f"are smaller than {c.sign_min_sqin:g} sq in",
            )
        )
    return out


def _names_of_others(clause: str, owners: np.ndarray):
    """A note for signs that name someone other than the owner of record (a lessee may)."""

    def after(values, status, parcel) -> pd.DataFrame | None:
        owner = pd.Series(owners[parcel])
        named = (status == OK) & owner.notna().to_numpy()
        differ = named & ~ct.names_agree(values[0], owner)
        if not differ.any():
            return None
        k = pd.Series(parcel[differ]).value_counts().sort_index()
        return findings_frame(
            k.index,
            "name_on_sign",
            "note",
            clause,
            [
                f"{c} {'signs name' if c > 1 else 'sign names'} someone other than the "
                "owner of record (lawful if it is the lessee or occupant)"
                for c in k
            ],
            np.nan,
            None,
            None,
            k.to_numpy(),
        )

    return after


def remark(c: ContentRule, profile, m: Measurements, part: Part) -> None:
    if c.statement_min_sqin is not None:
        part.skip(
            "statement_size",
            c.clause,
            f"the area of the statement (at least {c.statement_min_sqin:g} sq in) is "
            "not a column of the marker data",
        )


register(
    Kind(
        "content",
        ContentRule,
        parse,
        "what each sign shows",
        items=items,
        remark=remark,
        summary=summary,
    )
)
