"""Painted post tops (purple-topped posts): colour, painted length of the top, height of the
cap's bottom above the ground."""

from __future__ import annotations

from dataclasses import dataclass

from posting.checks import content as ct
from posting.kinds import Kind, Part, register
from posting.kinds.items import Item, at_least_in, range_text
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule, range_of

__all__ = ["PostRule"]


@dataclass(frozen=True)
class PostRule(Rule):
    """Painted post tops: colour, painted length of the top, height of the cap's bottom."""

    kinds: tuple[str, ...] = ("post",)
    colors: tuple[str, ...] = ()
    min_length_in: float | None = None
    bottom_min_ft: float | None = None
    bottom_max_ft: float | None = None


def parse(t: Reader, kinds: tuple[str, ...]) -> PostRule:
    return PostRule(
        **t.common(),
        kinds=t.marker_kinds(("post",)),
        colors=tuple(c.lower() for c in (t.strings("colors") or ())),
        min_length_in=t.positive("min_length_in"),
        **range_of(t, "bottom_min_ft", "bottom_max_ft"),
    )


def items(q: PostRule, profile, m: Measurements, part: Part) -> list[Item]:
    k = q.kinds
    out: list[Item] = []
    if q.colors:
        out.append(
            Item(
                "post_color",
                q.clause,
                k,
                ("color",),
                lambda v: ct.color_status(v, q.colors),
                f"are not {' or '.join(q.colors)}",
            )
        )
    if q.min_length_in is not None:
        out.append(
            at_least_in(
                "post_top",
                q,
                "length_in",
                q.min_length_in,
                f"have less than {q.min_length_in:g} in of the top painted",
            )
        )
    if q.bottom_min_ft is not None or q.bottom_max_ft is not None:
        out.append(
            Item(
                "post_height",
                q.clause,
                k,
                ("height_ft",),
                lambda v: ct.within(v, q.bottom_min_ft, q.bottom_max_ft),
                f"have the bottom of the painted top outside "
                f"{range_text(q.bottom_min_ft, q.bottom_max_ft)} above the ground",
                None,
                "ft",
            )
        )
    return out


register(Kind("post", PostRule, parse, "painted post tops", items=items))
