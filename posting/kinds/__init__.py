"""Kinds of rule: one module each, registered under its TOML table's name.

A rule profile (a TOML file) chooses and parametrises kinds of rule; this package implements
them. Each module owns everything about its kind: the rule's dataclass, the parsing and
validation of its table, its evaluation (pure and vectorised: the shared measurements in, a
:class:`Part` of findings and tables out) and the wording of its findings. It registers itself
with :func:`register`; the loader and the engine loop over :data:`REGISTRY`, in registration
order, which is also the order of the report's findings and notes.

A kind may take part in four steps of a profile's evaluation, each optional:

``measure(rule, profile, m) -> Part``
    Findings and tables from the measurements (spacing, corners, access points, water banks).
``items(rule, profile, m, part) -> list[Item]``
    Per-marker attribute checks (content, paint, posts, facing, renewal, public notice), run
    together by :mod:`posting.kinds.items`; a kind notes in ``part`` what it cannot check.
``remark(rule, profile, m, part)``
    Notes about what surveyed positions cannot show (visibility, a statement's area); it runs
    after every kind's measurements and items, before the status is decided, so a kind may
    also revise the findings there (:mod:`~posting.kinds.when`: rules for some land only).
``settle(rule, profile, m, land)``
    After the status is decided: land that needs no signs (fence, cultivation, exemption).

Adding a kind of rule is one new module that calls :func:`register` (and is imported by
:mod:`posting.kinds`, or by the user before the profile is loaded); adding a jurisdiction is
one TOML file.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from posting.measure import Measurements
    from posting.rules.loader import Profile
    from posting.rules.schema import Reader, Rule

__all__ = ["REGISTRY", "Kind", "Land", "Part", "get", "register", "settle_order"]


@dataclass
class Part:
    """What one kind of rule found under one profile.

    Attributes
    ----------
    findings
        Findings tables (:data:`posting.verdict.FINDING_COLUMNS`).
    not_checked
        Rules not checked, each ``{"rule", "clause", "reason"}``.
    tables
        Per-place tables for the report (``gaps``, ``corners``, ``access``, ``fence_gaps``, or a
        new kind's own), concatenated across kinds that give the same name.
    columns
        Per-parcel values (arrays of the parcels' length), added to the report's parcel table
        and to each parcel's record under the same name.
    gated
        Per rule that applies only on some land (a ``[when]`` sub-table's name: ``access``,
        ``spacing``, ``profile`` ...), per parcel: 1.0 where it applies, 0.0 where not, NaN
        where the data cannot tell (:mod:`posting.kinds.when`). Kept in memory for the plan,
        which places no marker a rule does not ask for; no output writes it.
    """

    findings: list[pd.DataFrame] = field(default_factory=list)
    not_checked: list[dict[str, str]] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    columns: dict[str, np.ndarray] = field(default_factory=dict)
    gated: dict[str, np.ndarray] = field(default_factory=dict)

    def skip(self, rule: str, clause: str, reason: str) -> None:
        """Note that ``rule`` could not be checked, and why."""
        self.not_checked.append({"rule": rule, "clause": clause, "reason": reason})

    def extend(self, other: Part) -> None:
        """Add ``other``'s findings, notes, tables, columns and gates after this part's."""
        self.findings += other.findings
        self.not_checked += other.not_checked
        for name, table in other.tables.items():
            if name not in self.tables or not len(self.tables[name]):
                self.tables[name] = table
            elif len(table):
                self.tables[name] = pd.concat([self.tables[name], table], ignore_index=True)
        self.columns.update(other.columns)
        self.gated.update(other.gated)


@dataclass
class Land:
    """Per parcel, under one profile: land posted otherwise than by markers, or exempt.

    ``posted_by`` (``fence``, ``cultivation``; None), ``exemption`` (why no posting is needed;
    None) and ``fenced`` (fenced all round), filled by the kinds' ``settle`` steps in order.
    """

    status: np.ndarray
    posted_by: np.ndarray
    exemption: np.ndarray
    fenced: np.ndarray

    def unsure(
        self,
        part: Part,
        parcels: np.ndarray,
        rule: str,
        clause: str,
        messages: Any,
        measured: Any = np.nan,
        limit: Any = np.nan,
        unit: str | None = None,
    ) -> None:
        """Land ``parcels`` may be posted otherwise than by its markers (or exempt), or not,
        and the data cannot tell: ``uncertain``, with a finding each of ``rule`` (its
        ``messages``, and the figures ``measured`` against ``limit`` in ``unit``)."""
        from posting.verdict import findings_frame

        self.status[parcels] = "uncertain"
        part.findings.append(
            findings_frame(parcels, rule, "uncertain", clause, messages, measured, limit, unit, 1)
        )


@dataclass(frozen=True)
class Kind:
    """A kind of rule: its TOML table, its rule type and the steps it takes part in.

    Attributes
    ----------
    table
        The TOML table's name (``spacing``); also the attribute of a loaded profile
        (``profile.spacing``).
    rule
        The rule's dataclass (a :class:`~posting.rules.schema.Rule`).
    parse
        ``parse(table, kinds)``: the rule from its table (a :class:`Reader`); ``kinds`` are the
        profile's marker kinds, the default of a table's own ``kinds``.
    label
        A few words for people (the map's legend, ``posting rules show``).
    counts_markers
        The rule's ``kinds`` count towards a parcel's ``markers_counted`` (a parcel with none
        is ``unposted``).
    summary
        ``summary(rule)``: keys of the profile's one-line summary (older report keys).
    empty
        ``empty(m)``: what the kind puts in the report when a profile has no such rule (its
        tables with no rows, or every corner ``not required``).
    settle_after
        Kinds whose ``settle`` step must come first (the dwelling exemption asks whether the
        land is fenced).
    """

    table: str
    rule: type[Rule]
    parse: Callable[[Reader, tuple[str, ...]], Rule]
    label: str
    measure: Callable[[Any, Profile, Measurements], Part] | None = None
    items: Callable[[Any, Profile, Measurements, Part], list[Any]] | None = None
    remark: Callable[[Any, Profile, Measurements, Part], None] | None = None
    settle: Callable[[Any, Profile, Measurements, Land, Part], None] | None = None
    counts_markers: bool = False
    summary: Callable[[Any], dict[str, Any]] | None = None
    empty: Callable[[Measurements], Part] | None = None
    settle_after: tuple[str, ...] = ()


REGISTRY: dict[str, Kind] = {}
"""Every kind of rule by its table's name, in registration order."""


def register(kind: Kind) -> Kind:
    """Register a kind of rule under its table's name (replacing one of the same name)."""
    REGISTRY[kind.table] = kind
    return kind


def get(table: str) -> Kind:
    """The kind registered under ``table``."""
    return REGISTRY[table]


def settle_order() -> list[Kind]:
    """The kinds with a ``settle`` step, each after those it must follow (else in order)."""
    depth: dict[str, int] = {}

    def level(name: str, seen: tuple[str, ...] = ()) -> int:
        if name not in depth:
            after = [a for a in REGISTRY[name].settle_after if a in REGISTRY and a not in seen]
            depth[name] = 1 + max((level(a, (*seen, name)) for a in after), default=-1)
        return depth[name]

    kinds = [k for k in REGISTRY.values() if k.settle is not None]
    return sorted(kinds, key=lambda k: level(k.table))  # stable: ties keep registry order


BUILTIN = (
    "spacing",
    "corners",
    "access",
    "entrance",
    "content",
    "paint",
    "post",
    "facing",
    "renewal",
    "public",
    "visibility",
    "water",
    "dwelling",
    "fence",
    "cultivation",
    "spacing_by_kind",
    "nearest",
    "density",
    "in_sight",
    "except_in",
    "content_either",
    "mark_height",
    "current_year",
    "registry",
    "when",
)
"""The built-in kinds, in the order their findings and notes are reported."""

for _name in BUILTIN:
    importlib.import_module(f"posting.kinds.{_name}")
# the built-in kinds first, in their order, whatever order their modules were imported in
for _name in [*BUILTIN, *(k for k in list(REGISTRY) if k not in BUILTIN)]:
    REGISTRY[_name] = REGISTRY.pop(_name)
