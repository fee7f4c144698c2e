"""Which rule profiles judge which parcels: ``auto`` (each parcel under its own state's law),
and a warning when a profile given by name is another state's.

How ``auto`` chooses
--------------------
Each parcel's state comes from where it lies (:func:`posting.states.parcel_states`: the Census
Bureau's boundaries shipped with posting, offline). A shipped profile belongs to the state its
``jurisdiction`` names (``"North Dakota"`` -> ``north-dakota``), and the profiles marked
``auto = true`` are that state's defaults: a parcel in the state is judged by them, as
alternative ways to post (a parcel complies if it meets any one; Texas: ``texas`` and
``texas-signs``). Profiles named beside ``auto`` (``auto`` and ``town-code``) are further
alternatives: a town's or one's own of no state for every parcel, a state's for the parcels in
that state alone (``auto`` and ``florida-paint`` judge no Virginia lot by Florida's law). Each
distinct profile is evaluated once, on every parcel; the
Report then chooses, for each parcel, only among the profiles that apply to it
(:func:`posting.assemble.assemble`).

A parcel near a state line (within :data:`posting.states.DEFAULT_MARGIN_FT`), across one, or
outside every state cannot be given a state with confidence: ``auto`` stops with an
:class:`~posting.errors.InputError` that names those parcels and says what to pass. So does a
state with no default profile (its law has no measurable rule, or its profiles apply only to
some land), naming the state's other profiles where there are any.

Examples
--------
>>> spec = rules_spec(["auto", "town-code"])
>>> spec.auto, [p.name for p in spec.named]
(True, ['town-code'])
>>> sorted(auto_profiles()["texas"])
['texas', 'texas-signs']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import shapely

from posting.errors import InputError, RulesError
from posting.rules.loader import Profile, available, load_rules

if TYPE_CHECKING:
    from posting.prepare import PreparedParcels

__all__ = [
    "AUTO",
    "STATES",
    "Applied",
    "Choice",
    "RulesSpec",
    "StateFacts",
    "auto_profiles",
    "choose",
    "decide",
    "named_applied",
    "parcel_state_table",
    "rules_spec",
    "state_of",
]

AUTO = "auto"
"""The rules name that picks each parcel's state's profiles."""

_SHOWN = 5
"""Parcels named in an error message (the rest are counted)."""


@dataclass(frozen=True)
class RulesSpec:
    """The rules asked for: ``auto`` or not, and the profiles named (loaded)."""

    auto: bool
    named: list[Profile]


@dataclass
class Applied:
    """Which profile judges which parcel.

    Attributes
    ----------
    profiles
        Every profile to evaluate, each once.
    applies
        ``(len(profiles), n)``: True where the profile may judge the parcel; None when every
        profile applies to every parcel (profiles given by name).
    state
        Per parcel, its state's profile name (``virginia``), or None where it was not looked
        up or is not known.
    states
        With ``auto``: each state the parcels lie in and the profiles applied there.
    warnings
        A profile given by name is another state's, for some parcels.
    touched
        Per parcel, the profile names of the states it touches (:func:`parcel_state_table`'s
        ``states``: one, several across or near a line, none outside every state), where they
        were looked up; None where not (:mod:`posting.elevation` reads it).
    """

    profiles: list[Profile]
    applies: np.ndarray | None = None
    state: np.ndarray | None = None
    states: dict[str, list[str]] | None = None
    warnings: list[str] = field(default_factory=list)
    touched: np.ndarray | None = None


def rules_spec(rules: str | Profile | Sequence[str | Profile]) -> RulesSpec:
    """The rules asked for, the named profiles loaded (``auto`` when none is named).

    Raises
    ------
    RulesError
        An unknown profile, or one given twice.
    """
    items = [rules] if isinstance(rules, str | Profile) else list(rules)
    auto = not items or any(isinstance(r, str) and r == AUTO for r in items)
    named = [r if isinstance(r, Profile) else load_rules(r) for r in items if r != AUTO]
    names = [p.name for p in named]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise RulesError(f"rule profile {dup!r} is given twice")
    return RulesSpec(auto, named)


STATES = frozenset(
    """alabama alaska arizona arkansas california colorado connecticut delaware
    district-of-columbia florida georgia hawaii idaho illinois indiana iowa kansas kentucky
    louisiana maine maryland massachusetts michigan minnesota mississippi missouri montana
    nebraska nevada new-hampshire new-jersey new-mexico new-york north-carolina north-dakota ohio
    oklahoma oregon pennsylvania rhode-island south-carolina south-dakota tennessee texas utah
    vermont virginia washington west-virginia wisconsin wyoming american-samoa guam
    northern-mariana-islands puerto-rico us-virgin-islands""".split()
)
"""The profile names of the states and territories in :mod:`posting.states`' boundaries (so
that naming a profile's state needs no boundaries read; a test keeps the two the same)."""


def state_of(profile: Profile) -> str | None:
    """The state whose law ``profile`` is (its ``jurisdiction`` as a state's profile name), or
    None (a town's ordinance, a profile of one's own for no state).

    >>> state_of(load_rules("north-dakota")), state_of(load_rules("town-code"))
    ('north-dakota', None)
    """
    from posting.states import slug_of

    slug = slug_of(profile.jurisdiction)
    return slug if slug in STATES else None


@lru_cache(maxsize=1)
def auto_profiles() -> dict[str, list[str]]:
    """Each state's default profiles (``auto = true``), by the state's profile name."""
    out: dict[str, list[str]] = {}
    for name in available():
        p = load_rules(name)
        if p.auto:
            state = state_of(p)
            if state is None:
                raise RulesError(
                    "a profile marked auto must name a state as its jurisdiction", path=p.path
                )
            out.setdefault(state, []).append(name)
    return out


def _others_of(state: str) -> list[str]:
    return [n for n in available() if n.startswith(state) and state_of(load_rules(n)) == state]


def parcel_state_table(prep: PreparedParcels) -> pd.DataFrame:
    """:func:`posting.states.parcel_states` of each parcel (or merged property, whose outline
    is looked up as merged); a parcel without usable geometry (``prep.group`` -1: no geometry,
    not a polygon, not placed on Earth, collapsed when repaired) is ``empty``.

    Boxes are looked up before parcels (:func:`_by_boxes`): the box around every usable parcel
    (in longitude/latitude), then, for the parcels it does not settle, the boxes around those
    in each of :data:`_GRID` by :data:`_GRID` cells of their extent. A box that lies inside one
    state by the margin settles its parcels as that state's, and one in no state and farther
    than the margin from every line settles them as outside: a county's 100,000 parcels inland
    are one lookup, a coastal county's are a few thousand boxes and the parcels near the shore.
    The rest are looked up one by one. Both give the same table, and a parcel's row never
    depends on the other parcels looked up with it: a partition of a layer gets its parcels'
    rows of the whole layer's table.
    """
    from posting.states import parcel_states

    usable = _usable(prep)
    settled, where = _by_boxes(prep, usable)
    rest = np.flatnonzero(where < 0)
    if not len(rest):
        return settled.iloc[where].reset_index(drop=True)
    if prep.source_rows is None:
        geoms = np.asarray(prep.layer.geometry, dtype=object)[rest]
        looked = parcel_states(np.where(usable[rest], geoms, None), crs=prep.layer.crs)
    else:
        looked = parcel_states(np.where(usable, prep.geometry_lonlat(), None)[rest])
    if not len(settled):
        return looked.reset_index(drop=True)
    where = where.copy()
    where[rest] = len(settled) + np.arange(len(rest))
    rows = pd.concat([settled, looked], ignore_index=True)
    return rows.iloc[where].reset_index(drop=True)


_BOX_SLACK_FT = 10.0
"""How much farther than the margin from every state line a box of parcels must lie for
:func:`_by_boxes` to settle them: a box is measured on a transverse Mercator centred on its
own middle, which at the edge of a box 6° wide errs by up to 0.1 % (0.8 ft at the margin),
and a parcel's box in longitude/latitude is its four projected corners' (a parcel's edges
bow out of it by far less than a foot); each parcel alone is measured on its own meridian.
With this slack, a parcel in the box is beyond the margin however it is measured."""

_BOX_MAX_DEG = 6.0
"""The widest and tallest box :func:`_by_boxes` looks up (a UTM zone's width; the slack's
reckoning): the parcels of a larger one are looked up one by one."""

_GRID = 64
""":func:`_by_boxes` cuts the extent of the parcels its whole box does not settle into
``_GRID`` by ``_GRID`` cells (at most 4,096 boxes to look up)."""


def _usable(prep: PreparedParcels) -> np.ndarray:
    return (prep.group >= 0) & np.isfinite(prep.bounds_lonlat).all(axis=1)


def _by_boxes(prep: PreparedParcels, usable: np.ndarray) -> tuple[pd.DataFrame, np.ndarray]:
    """The rows of the usable parcels that a box around them settles: each one's row in the
    table returned, -1 where none does (to be looked up one by one).

    A box settles its parcels when :func:`~posting.states.parcel_states`, by the margin and
    :data:`_BOX_SLACK_FT`, finds it inside one state (``ok``) or outside every state with no
    line within the margin: each of its parcels lies inside the box, so touches the same
    states and lies at least as far from every line, and those two rows do not depend on the
    geometry (no distance, no line, a fixed reason).
    """
    from posting.states import DEFAULT_MARGIN_FT, parcel_states

    b = prep.bounds_lonlat
    where = np.full(len(b), -1, dtype=np.int64)
    tables = []
    found = 0
    for grid in (1, _GRID):
        todo = np.flatnonzero(usable & (where < 0))
        if not len(todo):
            break
        box, cell = _cell_boxes(b[todo], grid)
        small = (box[:, 2] - box[:, 0] <= _BOX_MAX_DEG) & (box[:, 3] - box[:, 1] <= _BOX_MAX_DEG)
        ask = np.flatnonzero(small)
        if not len(ask):
            continue
        rows = parcel_states(
            shapely.box(*box[ask].T), margin_ft=DEFAULT_MARGIN_FT + _BOX_SLACK_FT
        ).reset_index(drop=True)
        status = rows["status"].to_numpy(dtype=object)
        settles = (status == "ok") | ((status == "outside") & (rows["line"] == "").to_numpy())
        keep = np.flatnonzero(settles)
        if not len(keep):
            continue
        row_of_cell = np.full(len(box), -1, dtype=np.int64)
        row_of_cell[ask[keep]] = found + np.arange(len(keep))
        where[todo] = row_of_cell[cell]
        tables.append(rows.iloc[keep])
        found += len(keep)
    if not tables:
        return pd.DataFrame(), where
    return pd.concat(tables, ignore_index=True), where


def _cell_boxes(bounds: np.ndarray, grid: int) -> tuple[np.ndarray, np.ndarray]:
    """The boxes (west, south, east, north) around the ``bounds`` whose centres fall in each
    cell of ``grid`` by ``grid`` equal cells of their extent (only cells with some), and each
    one's cell (a row of the boxes)."""
    cx = (bounds[:, 0] + bounds[:, 2]) / 2
    cy = (bounds[:, 1] + bounds[:, 3]) / 2
    west, south = bounds[:, 0].min(), bounds[:, 1].min()
    east, north = bounds[:, 2].max(), bounds[:, 3].max()
    i = np.clip(((cx - west) / max(east - west, 1e-300) * grid).astype(np.int64), 0, grid - 1)
    j = np.clip(((cy - south) / max(north - south, 1e-300) * grid).astype(np.int64), 0, grid - 1)
    cells, cell = np.unique(i * grid + j, return_inverse=True)
    box = np.empty((len(cells), 4))
    box[:, :2], box[:, 2:] = np.inf, -np.inf
    np.minimum.at(box[:, :2], cell, bounds[:, :2])
    np.maximum.at(box[:, 2:], cell, bounds[:, 2:])
    return box, cell


@dataclass(frozen=True)
class StateFacts:
    """What ``auto``'s choice needs to know of the parcels' states: small, and added up over
    the parts of a layer (:meth:`combine`), so that a partitioned check decides for the whole
    layer as one run does (:func:`decide`). A parcel's ``key`` is its place in the input order
    (one run: its row; a partition: its first input row, numbered by :meth:`numbered`).

    Attributes
    ----------
    known
        Each state some parcel is found in: its parcels' count, the first one's key and id.
    empty
        The parcels without usable geometry: count, the first one's key and id (None: none).
    unsure
        How many parcels' state is not certain (near or across a line, outside every state).
    unsure_first
        The first :data:`_SHOWN` of them: key, id and why.
    near
        The states those parcels touch.
    outside
        How many of them lie outside every state.
    """

    known: dict[str, tuple[int, int, Any]]
    empty: tuple[int, int, Any] | None = None
    unsure: int = 0
    unsure_first: tuple[tuple[int, Any, str], ...] = ()
    near: frozenset[str] = frozenset()
    outside: int = 0

    @classmethod
    def of(cls, table: pd.DataFrame, ids: np.ndarray, keys: np.ndarray) -> StateFacts:
        """The facts of a :func:`parcel_state_table`, its parcels' ``ids`` and ``keys``."""
        keys = np.asarray(keys, dtype=np.int64)
        status = table["status"].to_numpy(dtype=object)
        state = table["state"].to_numpy(dtype=object)
        order = np.argsort(keys, kind="stable")
        known: dict[str, tuple[int, int, Any]] = {}
        ok = order[status[order] == "ok"]
        if len(ok):
            names, first, counts = np.unique(
                state[ok].astype(str), return_index=True, return_counts=True
            )
            for s, f, c in zip(names.tolist(), first.tolist(), counts.tolist(), strict=True):
                known[s] = (int(c), int(keys[ok[f]]), ids[ok[f]])
        empty = order[status[order] == "empty"]
        unsure = order[~np.isin(status[order], ("ok", "empty"))]
        reason, touched = table["reason"].to_numpy(dtype=object), table["states"].to_numpy(object)
        return cls(
            known=known,
            empty=(len(empty), int(keys[empty[0]]), ids[empty[0]]) if len(empty) else None,
            unsure=len(unsure),
            unsure_first=tuple(
                (int(keys[i]), ids[i], str(reason[i])) for i in unsure[:_SHOWN].tolist()
            ),
            near=frozenset(s for i in unsure.tolist() for s in touched[i]),
            outside=int((status == "outside").sum()),
        )

    @classmethod
    def combine(cls, parts: Sequence[StateFacts]) -> StateFacts:
        """The facts of several parts of a layer (no parcel in two) as one."""
        known: dict[str, tuple[int, int, Any]] = {}
        for p in parts:
            for s, (n, key, pid) in p.known.items():
                if s in known:
                    m, k0, id0 = known[s]
                    known[s] = (m + n, *((key, pid) if key < k0 else (k0, id0)))
                else:
                    known[s] = (n, key, pid)
        empties = [p.empty for p in parts if p.empty is not None]
        empty = None
        if empties:
            _, key, pid = min(empties, key=lambda e: e[1])
            empty = (sum(e[0] for e in empties), key, pid)
        first = sorted((x for p in parts for x in p.unsure_first), key=lambda x: x[0])
        return cls(
            known=known,
            empty=empty,
            unsure=sum(p.unsure for p in parts),
            unsure_first=tuple(first[:_SHOWN]),
            near=frozenset().union(*(p.near for p in parts)),
            outside=sum(p.outside for p in parts),
        )

    def numbered(self, rank: Callable[[np.ndarray], np.ndarray]) -> StateFacts:
        """The facts with each key ``rank``ed: made the parcel's place among the run's (its
        property's, when merged) from its first input row."""

        def r(key: int) -> int:
            return int(rank(np.asarray([key], dtype=np.int64))[0])

        return StateFacts(
            known={s: (n, r(k), i) for s, (n, k, i) in self.known.items()},
            empty=None if self.empty is None else (self.empty[0], r(self.empty[1]), self.empty[2]),
            unsure=self.unsure,
            unsure_first=tuple((r(k), i, why) for k, i, why in self.unsure_first),
            near=self.near,
            outside=self.outside,
        )


@dataclass(frozen=True)
class Choice:
    """``auto``'s choice for a whole layer (:func:`decide`), which :meth:`applied` gives any
    part of it.

    Attributes
    ----------
    profiles
        Every profile to evaluate, each once: the defaults of the states in the order the
        parcels first lie in them, then the profiles given by name.
    fill
        The state of the parcels without usable geometry (the most common; they are invalid
        under any profile).
    states
        Each state the parcels lie in, in that order, and the profiles applied there (its
        defaults, and those given by name that are its law or no state's).
    """

    profiles: list[Profile]
    fill: str
    states: dict[str, list[str]]

    def applied(
        self, status: np.ndarray, state: np.ndarray, touched: np.ndarray | None = None
    ) -> Applied:
        """Which profile may judge which of some parcels of the layer, from their
        :func:`parcel_state_table` ``status`` and ``state`` (none unsure), and ``states``
        (``touched``)."""
        state = np.asarray(state, dtype=object).copy()
        state[np.asarray(status, dtype=object) == "empty"] = self.fill
        present = list(self.states)
        applies = np.zeros((len(self.profiles), len(state)), dtype=bool)
        for k, p in enumerate(self.profiles):
            applies[k] = np.isin(state, [s for s in present if p.name in self.states[s]])
        return Applied(
            list(self.profiles), applies, state, dict(self.states), touched=touched_array(touched)
        )


def decide(spec: RulesSpec, facts: StateFacts) -> Choice:
    """``auto``'s choice for a layer whose parcels' states are ``facts`` (keys numbered as
    one run numbers its parcels).

    Raises
    ------
    InputError
        A parcel near or across a state line or outside every state, no parcel with geometry,
        land in a state with no default profile, or a state's profile named beside ``auto``
        whose state none of the parcels lies in (``parameter="rules"``).
    """
    if facts.unsure:
        _refuse_unsure(facts)
    if not facts.known:
        raise InputError(
            "no parcel has a geometry to find its state by: give the rule profile with {option}",
            parameter="rules",
        )
    # the parcels without geometry take the most common state (the first by name of a tie,
    # as pandas' mode gives it)
    most = max(n for n, _, _ in facts.known.values())
    fill = min(s for s, (n, _, _) in facts.known.items() if n == most)
    where = {s: (n, key, pid) for s, (n, key, pid) in facts.known.items()}
    if facts.empty is not None:
        n, key, pid = where[fill]
        e_n, e_key, e_id = facts.empty
        where[fill] = (n + e_n, *((e_key, e_id) if e_key < key else (key, pid)))
    present = sorted(where, key=lambda s: where[s][1])  # in the order first met
    defaults = auto_profiles()
    missing = [s for s in present if s not in defaults]
    if missing:
        _refuse_states([(s, *where[s]) for s in missing])
    idle = [p for p in spec.named if state_of(p) not in (None, *present)]
    if idle:
        _refuse_idle(idle, present)
    names: list[str] = []
    for s in present:
        names += [n for n in defaults[s] if n not in names]
    named = {p.name for p in spec.named}
    profiles = [load_rules(n) for n in names if n not in named] + list(spec.named)
    # a profile named beside auto: another way to post where its law is the land's (a
    # state's, in that state; one of no state, a town's, everywhere)
    states = {
        s: list(
            dict.fromkeys(defaults[s] + [p.name for p in spec.named if state_of(p) in (None, s)])
        )
        for s in present
    }
    return Choice(profiles, fill, states)


def choose(spec: RulesSpec, prep: PreparedParcels) -> Applied:
    """Which profiles to evaluate and which of them may judge each parcel.

    Raises
    ------
    InputError
        With ``auto``: a parcel near or across a state line or outside every state, or land
        in a state with no default profile (``parameter="rules"``).
    """
    if not spec.auto:
        return _named(spec, prep)
    table = parcel_state_table(prep)
    choice = decide(spec, StateFacts.of(table, prep.ids, np.arange(len(prep))))
    return choice.applied(
        table["status"].to_numpy(dtype=object),
        table["state"].to_numpy(object),
        table["states"].to_numpy(object),
    )


def touched_array(values: Any) -> np.ndarray | None:
    """``values`` (tuples) as an array of objects (None stays None)."""
    if values is None:
        return None
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


def _named(spec: RulesSpec, prep: PreparedParcels) -> Applied:
    """Profiles given by name judge every parcel; a warning names land in another state."""
    if not any(state_of(p) for p in spec.named):
        return Applied(spec.named)
    table = parcel_state_table(prep)
    return named_applied(
        spec.named,
        table["status"].to_numpy(object),
        table["state"].to_numpy(object),
        table["states"].to_numpy(object),
    )


def named_applied(
    profiles: Sequence[Profile],
    status: np.ndarray,
    state: np.ndarray,
    touched: np.ndarray | None = None,
) -> Applied:
    """Profiles given by name (some a state's) judging parcels whose :func:`parcel_state_table`
    ``status``, ``state`` and ``states`` (``touched``) are given: each parcel's state where
    known, and the warning when some lie in another state than the profiles'."""
    profiles = list(profiles)
    where = placed(status, state)
    counts = elsewhere_counts(where, profiles)
    state = np.where(where == OUTSIDE, None, where)
    warnings = [elsewhere_warning(counts, len(state), profiles)] if counts else []
    return Applied(profiles, None, state, None, warnings, touched=touched_array(touched))


OUTSIDE = "(outside every state)"
"""What :func:`placed` says of a parcel outside every state, for :func:`elsewhere_counts`."""


def placed(status: Any, state: Any) -> np.ndarray:
    """Each parcel's state (its profile name) where :func:`parcel_state_table` is sure of it,
    :data:`OUTSIDE` where it lies outside every state (abroad, at sea, or in a CRS that is
    not its own), else None."""
    status = np.asarray(status, dtype=object)
    out = np.where(status == "ok", np.asarray(state, dtype=object), None)
    out[status == "outside"] = OUTSIDE
    return out


def elsewhere_counts(state: Any, profiles: Sequence[Profile]) -> dict[str, int]:
    """Of parcels' states (profile names, :data:`OUTSIDE`, None where unknown: :func:`placed`),
    how many lie in each state but the named ``profiles``' own, or outside every state (a
    partition's part of :func:`elsewhere_warning`'s counts)."""
    own = [s for s in (state_of(p) for p in profiles) if s is not None]
    v = pd.Series(np.asarray(state, dtype=object), dtype=object)
    v = v[v.notna() & ~v.isin(own)]
    return {str(k): int(n) for k, n in v.value_counts().items()} if own else {}


def elsewhere_warning(counts: dict[str, int], n: int, profiles: Sequence[Profile]) -> str:
    """The warning that ``counts`` (state: parcels) of ``n`` parcels lie outside the states of
    the profiles given by name (the most first)."""
    from posting.states import states_table

    names = dict(zip(states_table()["slug"], states_table()["name"], strict=True))
    own = {s for s in (state_of(p) for p in profiles) if s is not None}
    counts = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    outside = counts.pop(OUTSIDE, 0)
    rules = " or ".join(p.name for p in profiles)
    juris = " or ".join(sorted(names[s] for s in own))
    said = []
    if counts:
        where = " and ".join(
            names[s] + (f" ({k:,})" if len(counts) > 1 else "") for s, k in counts.items()
        )
        said.append(
            f"{sum(counts.values()):,} of {n:,} parcels lie in {where}, not in {juris}: they "
            f"were checked against {rules} as asked; {{option:rules}} {AUTO} checks each "
            "parcel against its own state's profiles"
        )
    if outside:
        said.append(
            f"{outside:,} of {n:,} parcels lie outside every state (abroad or at sea), not in "
            f"{juris}: they were checked against {rules} as asked. If they are in {juris}, "
            "their layer's CRS is not theirs (State Plane feet labelled as UTM metres, say): "
            "every length measured would be wrong; fix the file's CRS"
        )
    return "; ".join(said)


def _refuse_unsure(facts: StateFacts) -> None:
    shown = "; ".join(f"{pid!r} (row {key}): {why}" for key, pid, why in facts.unsure_first)
    more = f"; and {facts.unsure - _SHOWN:,} more" if facts.unsure > _SHOWN else ""
    near = sorted(facts.near)
    hint = f" (here {' or '.join(near)})" if near else ""
    crs = (
        " If they are in the United States, their layer's CRS is not theirs (State Plane feet "
        "labelled as UTM metres, say): fix the file's CRS; if not,"
        if facts.outside == facts.unsure and not facts.known  # (the whole layer moved)
        else ""
    )
    give = "give" if crs else "Give"
    raise InputError(
        f"the state of {facts.unsure:,} parcel(s) is not certain, so {AUTO} cannot choose their "
        f"rules: {shown}{more}.{crs} {give} the profile of the state whose law applies with "
        f"{{option}}{hint}, or check those parcels on their own",
        parameter="rules",
    )


def _refuse_idle(idle: list[Profile], present: list[str]) -> None:
    """Refuse the profiles named beside ``auto`` whose state none of the parcels lies in
    (``present``): beside ``auto`` they would judge no parcel."""
    from posting.states import states_table

    names = dict(zip(states_table()["slug"], states_table()["name"], strict=True))
    whose = "; ".join(f"{p.name} is the law of {names[state_of(p)]}" for p in idle)
    raise InputError(
        f"{whose}, where none of the parcels lies (they lie in "
        f"{' and '.join(names[s] for s in present)}): beside {AUTO}, a state's profile judges "
        "that state's land alone. To check this land against it, give it without "
        f"{AUTO} ({{option}} {idle[0].name}); else leave it out",
        parameter="rules",
    )


def _refuse_states(missing: list[tuple[str, int, int, Any]]) -> None:
    """Refuse the states without a default profile: each (state, parcels, first key, first
    id)."""
    from posting.states import states_table

    names = dict(zip(states_table()["slug"], states_table()["name"], strict=True))
    parts = []
    for s, n, _, pid in missing:
        others = _others_of(s)
        offer = (
            f"its profiles ({', '.join(others)}) apply only to some land or ways of posting"
            if others
            else "no shipped profile states its posting rule (see docs/jurisdictions.md)"
        )
        parts.append(f"{names[s]}: {n:,} parcel(s), e.g. {pid!r}; {offer}")
    raise InputError(
        f"{AUTO} has no default rule profile for " + "; ".join(parts) + ". Give a profile "
        "(a shipped name or a .toml file of one's own) with {option}",
        parameter="rules",
    )
