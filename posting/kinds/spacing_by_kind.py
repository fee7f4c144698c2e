"""Spacing by marker kind: two spacings in one posting (Illinois, Missouri: purple marks on
trees not more than 100 ft apart, painted posts not more than 36 ft apart; a boundary may be
marked with both, trees along the woods and posts along the fence).

Every gap between consecutive markers of the listed kinds is measured as
:mod:`~posting.kinds.spacing` measures it, and held to the figure of its ends' kind: a gap
between two tree marks to ``paint_ft``, between two posts to ``post_ft``. A gap between
markers of two kinds is held to the smaller of their figures (``mixed = "smaller"``, the
default: neither statute says how far a tree mark may be from a post, so the stricter figure
is the one a landowner can rely on) or the larger (``mixed = "larger"``). Its findings are
spacing findings: the report, the map and the plan read them as such.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from posting.kinds import Kind, Part, register
from posting.kinds import spacing as _spacing
from posting.measure import Measurements
from posting.rules.schema import KINDS, Reader, Rule

__all__ = ["MIXED", "SpacingByKindRule", "gap_limits"]

MIXED = ("smaller", "larger")


@dataclass(frozen=True)
class SpacingByKindRule(Rule):
    """Markers not more than ``<kind>_ft`` apart, by the kind of the two markers of each gap."""

    sign_ft: float | None = None
    paint_ft: float | None = None
    post_ft: float | None = None
    metric: str = "along_boundary"
    mixed: str = "smaller"

    @property
    def kinds(self) -> tuple[str, ...]:
        """The marker kinds with a figure (they count towards each other's gaps)."""
        return tuple(k for k in KINDS if getattr(self, f"{k}_ft") is not None)

    @property
    def strictest_ft(self) -> float:
        """The smallest figure: the limit of a ring with no marker."""
        return min(getattr(self, f"{k}_ft") for k in self.kinds)


def parse(t: Reader, kinds: tuple[str, ...]) -> SpacingByKindRule:
    limits = {f"{k}_ft": t.positive(f"{k}_ft") for k in KINDS}
    if sum(v is not None for v in limits.values()) < 2:
        raise t.error("paint_ft", "and another kind's figure are required (two spacings)")
    return SpacingByKindRule(
        **t.common(),
        **limits,
        metric=t.choice("metric", _spacing.METRICS) or "along_boundary",
        mixed=t.choice("mixed", MIXED) or "smaller",
    )


def gap_limits(rule: SpacingByKindRule, start_kind: np.ndarray, end_kind: np.ndarray) -> np.ndarray:
    """Each gap's limit from the kinds of its two markers (a ring without a marker: the
    smallest figure).

    >>> rule = SpacingByKindRule("x", paint_ft=100.0, post_ft=36.0)
    >>> k = np.array(["paint", "post", "paint", None], dtype=object)
    >>> e = np.array(["paint", "post", "post", None], dtype=object)
    >>> gap_limits(rule, k, e).tolist()
    [100.0, 36.0, 36.0, 36.0]
    """
    figure = {k: float(getattr(rule, f"{k}_ft")) for k in rule.kinds}
    a = pd.Series(start_kind, dtype=object).map(figure).to_numpy(dtype=float)
    b = pd.Series(end_kind, dtype=object).map(figure).to_numpy(dtype=float)
    pick = np.fmin if rule.mixed == "smaller" else np.fmax
    out = pick(a, b)
    return np.where(np.isnan(out), rule.strictest_ft, out)


def _limits(rule: SpacingByKindRule, m: Measurements, df: pd.DataFrame, part: Part):
    start, end = df["start_marker"].to_numpy(), df["end_marker"].to_numpy()
    kinds = np.append(m.all_kinds, None)  # -1 (a ring with no marker): None
    return np.full(len(df), np.nan), gap_limits(rule, kinds[start], kinds[end])


def measure(rule: SpacingByKindRule, profile, m: Measurements) -> Part:
    """Every gap, held to its markers' kinds' figure (see :func:`gap_limits`)."""
    return _spacing.measure(rule, profile, m, limits=_limits)


def summary(rule: SpacingByKindRule) -> dict:
    out: dict = {"spacing_ft": None, "spacing_metric": rule.metric}
    out.update({f"spacing_{k}_ft": getattr(rule, f"{k}_ft") for k in rule.kinds})
    return out


register(
    Kind(
        "spacing_by_kind",
        SpacingByKindRule,
        parse,
        "markers apart by their kind",
        measure=measure,
        counts_markers=True,
        summary=summary,
        empty=None,
    )
)
