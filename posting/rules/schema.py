"""What every rule profile is made of: the rule base class and a typed reader of TOML tables.

Kinds of rule (:mod:`posting.kinds`) subclass :class:`Rule` and read their own table with a
:class:`Reader`, which names the file and the key in every error.
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass
from typing import Any

from posting.errors import RulesError

__all__ = ["KINDS", "Reader", "Rule", "range_of"]

KINDS = ("sign", "paint", "post")
"""Marker kinds: a sign, a paint mark (a stripe or patch on a tree or post), a painted post top."""


@dataclass(frozen=True)
class Rule:
    """What every rule carries: the clause it applies, the statute's words, whether verified."""

    clause: str
    text: str = ""
    verified: bool = True


_TOML_TYPES = {
    str: "text (in quotes)",
    dict: "a table",
    list: "a list ([...])",
    int: "a whole number",
    _dt.date: "a date (2024-07-01)",
}
"""What a value of each Python type is called in a TOML file, for messages."""


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


class Reader:
    """Typed access to one TOML table, naming file and key in every error."""

    def __init__(self, data: dict[str, Any], path: str, prefix: str = "") -> None:
        self.data = data
        self.path = path
        self.prefix = prefix
        self.used: set[str] = set()

    def _key(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def error(self, key: str, what: str) -> RulesError:
        return RulesError(f"key '{self._key(key)}' {what}", path=self.path)

    def get(
        self,
        key: str,
        kind: type | tuple[type, ...],
        *,
        required: bool = False,
        blank: bool = False,
    ) -> Any:
        """The value of ``key``, of type ``kind`` (None when absent and not ``required``).

        A number must be finite (TOML's ``inf`` and ``nan`` would make a limit that nothing
        exceeds, or one that fails the report's JSON); a ``required`` text must not be blank
        (an empty ``clause`` would cite no law) unless ``blank``.
        """
        self.used.add(key)
        if key not in self.data:
            if required:
                raise RulesError(f"missing key '{self._key(key)}'", path=self.path)
            return None
        value = self.data[key]
        if kind is float:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise self.error(key, f"must be a number, not {value!r}")
            if not math.isfinite(value):
                raise self.error(key, f"must be a finite number, not {value!r}")
            return float(value)
        if required and not blank and isinstance(value, str) and not value.strip():
            raise self.error(key, "must not be empty")
        if kind is bool and not isinstance(value, bool):
            raise self.error(key, f"must be true or false, not {value!r}")
        if not isinstance(value, kind):
            name = " or ".join(_TOML_TYPES.get(k, k.__name__) for k in _tuple(kind))
            if kind is dict:
                name += f" ([{self._key(key)}] on a line of its own, then its keys)"
            raise self.error(key, f"must be {name}, not {value!r}")
        return value

    def positive(self, key: str, *, required: bool = False) -> float | None:
        value = self.get(key, float, required=required)
        if value is not None and not value > 0:
            raise self.error(key, f"must be greater than 0, not {value:g}")
        return value

    def choice(self, key: str, options: tuple[str, ...], *, required: bool = False) -> str | None:
        value = self.get(key, str, required=required)
        if value is not None and value not in options:
            raise self.error(key, f"must be one of {', '.join(options)}, not {value!r}")
        return value

    def strings(
        self, key: str, *, options: tuple[str, ...] | None = None
    ) -> tuple[str, ...] | None:
        value = self.get(key, list)
        if value is None:
            return None
        if not all(isinstance(w, str) and w.strip() for w in value):
            raise self.error(key, "must be a list of non-empty strings")
        out = tuple(w.strip().lower() if options else w.strip() for w in value)
        if options:
            bad = [w for w in out if w not in options]
            if bad:
                raise self.error(key, f"has {bad[0]!r}; the choices are {', '.join(options)}")
        return out

    def marker_kinds(self, default: tuple[str, ...]) -> tuple[str, ...]:
        """The table's ``kinds`` (marker kinds it applies to), or ``default``; an empty list
        (a rule for no marker) is refused rather than read as the default."""
        value = self.strings("kinds", options=KINDS)
        if value == ():
            raise self.error("kinds", f"is empty: name the marker kinds ({', '.join(KINDS)})")
        return value or default

    def pair(self, key: str) -> tuple[float, float] | None:
        value = self.get(key, list)
        if value is None:
            return None
        if len(value) != 2 or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and 0 < v < math.inf
            for v in value
        ):
            raise self.error(key, f"must be two positive numbers, not {value!r}")
        return (float(min(value)), float(max(value)))

    def table(self, key: str) -> Reader | None:
        value = self.get(key, dict)
        return None if value is None else Reader(value, self.path, f"{self._key(key)}.")

    def common(self) -> dict[str, Any]:
        """clause (required), text and verified: the keys every rule has."""
        verified = self.get("verified", bool)
        return {
            "clause": self.get("clause", str, required=True),
            "text": self.get("text", str) or "",
            "verified": True if verified is None else verified,
        }

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise self.error(unknown[0], "is not a known key (check its spelling)")


def range_of(t: Reader, lo: str, hi: str) -> dict[str, float | None]:
    """Two optional positive bounds ``lo`` <= ``hi`` (keys of the table)."""
    a, b = t.positive(lo), t.positive(hi)
    if a is not None and b is not None and a > b:
        raise t.error(lo, f"({a:g}) must not exceed {t._key(hi)} ({b:g})")
    return {lo: a, hi: b}
