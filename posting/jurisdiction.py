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
alternatives for every parcel. Each distinct profile is evaluated once, on every parcel; the
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

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from posting.errors import InputError, RulesError
from posting.rules.loader import Profile, available, load_rules

if TYPE_CHECKING:
    from posting.prepare import PreparedParcels

__all__ = [
    "AUTO",
    "STATES",
    "Applied",
    "RulesSpec",
    "auto_profiles",
    "choose",
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
    """

    profiles: list[Profile]
    applies: np.ndarray | None = None
    state: np.ndarray | None = None
    states: dict[str, list[str]] | None = None
    warnings: list[str] = field(default_factory=list)


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
    is looked up as merged).

    A layer whose whole extent (the box around every parcel, in longitude/latitude) lies inside
    one state by the margin is that state's, parcel by parcel, with one lookup: a county's
    100,000 parcels need not be looked up one by one (parcels without usable geometry are
    ``empty``). Otherwise each parcel is looked up.
    """
    from posting.states import parcel_states

    whole = _one_state(prep)
    if whole is not None:
        return whole
    if prep.source_rows is None:
        return parcel_states(prep.layer.geometry, crs=prep.layer.crs).reset_index(drop=True)
    return parcel_states(prep.geometry_lonlat())


def _one_state(prep: PreparedParcels) -> pd.DataFrame | None:
    """Every parcel's row when the layer's extent lies inside one state, else None."""
    import shapely

    from posting.states import parcel_states

    b = prep.bounds_lonlat
    usable = (prep.group >= 0) & np.isfinite(b).all(axis=1)
    if not usable.any():
        return None
    west, south = b[usable, 0].min(), b[usable, 1].min()
    east, north = b[usable, 2].max(), b[usable, 3].max()
    if east - west > 6.0 or north - south > 6.0:  # wider than a UTM zone: parcel by parcel
        return None
    one = parcel_states([shapely.box(west, south, east, north)])
    if one["status"].iat[0] != "ok":
        return None
    rows = one.iloc[np.zeros(len(prep), dtype=np.int64)].reset_index(drop=True)
    empty = ~usable
    rows.loc[empty, ["status", "reason"]] = ["empty", "no geometry"]
    rows.loc[empty, ["state", "usps", "name", "fips"]] = None
    rows.loc[empty, "states"] = pd.Series([()] * int(empty.sum()), dtype=object).to_numpy()
    return rows


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
    ids = prep.ids
    status = table["status"].to_numpy(dtype=object)
    unsure = np.flatnonzero(~np.isin(status, ("ok", "empty")))
    if len(unsure):
        _refuse_unsure(table, ids, unsure)
    state = table["state"].to_numpy(dtype=object).copy()
    known = pd.Series(state[status == "ok"], dtype=object)
    if not len(known):
        raise InputError(
            "no parcel has a geometry to find its state by: give the rule profile with {option}",
            parameter="rules",
        )
    empty = status == "empty"
    state[empty] = known.mode().iat[0]  # no geometry: invalid under any profile
    defaults = auto_profiles()
    present = list(dict.fromkeys(state.tolist()))
    missing = [s for s in present if s not in defaults]
    if missing:
        _refuse_states(missing, state, ids)
    names: list[str] = []
    for s in present:
        names += [n for n in defaults[s] if n not in names]
    named = {p.name for p in spec.named}
    profiles = [load_rules(n) for n in names if n not in named] + list(spec.named)
    applies = np.zeros((len(profiles), len(state)), dtype=bool)
    for k, p in enumerate(profiles):
        if p.name in named:
            applies[k] = True
        else:
            applies[k] = np.isin(state, [s for s in present if p.name in defaults[s]])
    states = {s: list(defaults[s]) + [p.name for p in spec.named] for s in present}
    return Applied(profiles, applies, state, states)


def _named(spec: RulesSpec, prep: PreparedParcels) -> Applied:
    """Profiles given by name judge every parcel; a warning names land in another state."""
    profiles = spec.named
    own = {s for s in (state_of(p) for p in profiles) if s is not None}
    if not own:
        return Applied(profiles)
    table = parcel_state_table(prep)
    state = np.where(table["status"].to_numpy() == "ok", table["state"].to_numpy(object), None)
    counts = elsewhere_counts(state, profiles)
    warnings = [elsewhere_warning(counts, len(state), profiles)] if counts else []
    return Applied(profiles, None, state, None, warnings)


def elsewhere_counts(state: Any, profiles: Sequence[Profile]) -> dict[str, int]:
    """Of parcels' states (profile names, None where unknown), how many lie in each state but
    the named ``profiles``' own (a partition's part of :func:`elsewhere_warning`'s counts)."""
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
    where = " and ".join(
        names[s] + (f" ({k:,})" if len(counts) > 1 else "") for s, k in counts.items()
    )
    rules = " or ".join(p.name for p in profiles)
    juris = " or ".join(sorted(names[s] for s in own))
    return (
        f"{sum(counts.values()):,} of {n:,} parcels lie in {where}, not in {juris}: they "
        f"were checked against {rules} as asked; {{option:rules}} {AUTO} checks each "
        "parcel against its own state's profiles"
    )


def _refuse_unsure(table: pd.DataFrame, ids: np.ndarray, unsure: np.ndarray) -> None:
    shown = "; ".join(
        f"{ids[i]!r} (row {i}): {table['reason'].iat[i]}" for i in unsure[:_SHOWN].tolist()
    )
    more = f"; and {len(unsure) - _SHOWN:,} more" if len(unsure) > _SHOWN else ""
    near = sorted({s for i in unsure for s in table["states"].iat[i]})
    hint = f" (here {' or '.join(near)})" if near else ""
    raise InputError(
        f"the state of {len(unsure):,} parcel(s) is not certain, so {AUTO} cannot choose their "
        f"rules: {shown}{more}. Give the profile of the state whose law applies with "
        f"{{option}}{hint}, or check those parcels on their own",
        parameter="rules",
    )


def _refuse_states(missing: list[str], state: np.ndarray, ids: np.ndarray) -> None:
    from posting.states import states_table

    names = dict(zip(states_table()["slug"], states_table()["name"], strict=True))
    parts = []
    for s in missing:
        rows = np.flatnonzero(state == s)
        others = _others_of(s)
        offer = (
            f"its profiles ({', '.join(others)}) apply only to some land or ways of posting"
            if others
            else "no shipped profile states its posting rule (see docs/jurisdictions.md)"
        )
        parts.append(f"{names[s]}: {len(rows):,} parcel(s), e.g. {ids[rows[0]]!r}; {offer}")
    raise InputError(
        f"{AUTO} has no default rule profile for " + "; ".join(parts) + ". Give a profile "
        "(a shipped name or a .toml file of one's own) with {option}",
        parameter="rules",
    )
