"""Paint marks (purple paint): colour, size of the stripe or patch, height of its bottom above
the ground, any lettering, and what the mark stands on (``on``: Arkansas' marks "on posts"
off forest land; the marker data's ``support``)."""

from __future__ import annotations

from dataclasses import dataclass

from posting.checks import content as ct
from posting.kinds import Kind, Part, register
from posting.kinds.items import Item, at_least_in, lettering, range_text
from posting.measure import Measurements
from posting.rules.schema import Reader, Rule, range_of

__all__ = ["PaintRule"]


@dataclass(frozen=True)
class PaintRule(Rule):
    """Paint marks: colour, size of the stripe or patch, height of its bottom above ground."""

    kinds: tuple[str, ...] = ("paint",)
    colors: tuple[str, ...] = ()
    min_length_in: float | None = None
    min_width_in: float | None = None
    min_area_sqin: float | None = None
    bottom_min_ft: float | None = None
    bottom_max_ft: float | None = None
    letter_min_in: float | None = None
    required_words: tuple[str, ...] = ()
    on: tuple[str, ...] = ()


def parse(t: Reader, kinds: tuple[str, ...]) -> PaintRule:
    return PaintRule(
        **t.common(),
        kinds=t.marker_kinds(("paint",)),
        colors=tuple(c.lower() for c in (t.strings("colors") or ())),
        min_length_in=t.positive("min_length_in"),
        min_width_in=t.positive("min_width_in"),
        min_area_sqin=t.positive("min_area_sqin"),
        **range_of(t, "bottom_min_ft", "bottom_max_ft"),
        letter_min_in=t.positive("letter_min_in"),
        required_words=t.strings("required_words") or (),
        on=tuple(x.lower() for x in (t.strings("on") or ())),
    )


def items(p: PaintRule, profile, m: Measurements, part: Part) -> list[Item]:
    k = p.kinds
    out: list[Item] = []
    if p.colors:
        out.append(
            Item(
                "paint_color",
                p.clause,
                k,
                ("color",),
                lambda v: ct.color_status(v, p.colors),
                f"are not {' or '.join(p.colors)}",
            )
        )
    if p.min_length_in is not None:
        out.append(
            at_least_in(
                "paint_length",
                p,
                "length_in",
                p.min_length_in,
                f"are shorter than {p.min_length_in:g} in",
            )
        )
    if p.min_width_in is not None:
        out.append(
            at_least_in(
                "paint_width",
                p,
                "width_in",
                p.min_width_in,
                f"are narrower than {p.min_width_in:g} in",
            )
        )
    if p.min_area_sqin is not None:
        out.append(
            Item(
                "paint_area",
                p.clause,
                k,
                ("width_in", "length_in"),
                lambda w, h: ct.area_status(w, h, p.min_area_sqin),
                f"cover less than {p.min_area_sqin:g} sq in",
            )
        )
    if p.bottom_min_ft is not None or p.bottom_max_ft is not None:
        out.append(
            Item(
                "paint_height",
                p.clause,
                k,
                ("height_ft",),
                lambda v: ct.within(v, p.bottom_min_ft, p.bottom_max_ft),
                f"have their bottom outside {range_text(p.bottom_min_ft, p.bottom_max_ft)} "
                "above the ground",
                None,
                "ft",
            )
        )
    out += lettering(p, "paint_letters", "paint_text")
    if p.on:
        out.append(
            Item(
                "paint_support",
                p.clause,
                k,
                ("support",),
                lambda v: ct.color_status(v, p.on),  # the same loose match: "fence post"
                f"stand on something other than {' or '.join(f'a {x}' for x in p.on)}",
            )
        )
    return out


register(Kind("paint", PaintRule, parse, "paint marks", items=items))
