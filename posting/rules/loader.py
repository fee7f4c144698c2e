"""Rule profiles: one TOML file per jurisdiction, validated into frozen dataclasses.

A profile chooses and parametrises the *kinds* of rule the code implements (spacing along the
boundary, corners, sign content); adding a jurisdiction needs no code unless it brings a new kind
of rule. Every value carries its unit in its key (``max_ft``, ``letter_min_in``) and every rule
its clause, so each verdict cites the law it applies.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from posting.errors import RulesError

__all__ = [
    "ContentRule",
    "CornerRule",
    "Profile",
    "SpacingRule",
    "VisibilityRule",
    "available",
    "load_rules",
]

SPACING_METRICS = ("along_boundary", "straight", "either")
CORNER_MODES = ("none", "at_corner")
VERIFICATION = ("verified", "partial", "unverified")


@dataclass(frozen=True)
class SpacingRule:
    """Markers not more than ``max_ft`` apart, measured by ``metric``.

    ``along_boundary`` measures along the boundary (Florida's "along"); ``straight`` measures
    the straight line between consecutive markers; ``either`` passes a gap when either measure
    is within the limit (statutes that only say "apart").
    """

    max_ft: float
    metric: str
    clause: str
    text: str = ""


@dataclass(frozen=True)
class CornerRule:
    """A marker at each corner of the boundary (``at_corner``), or no corner rule."""

    mode: str
    clause: str
    text: str = ""


@dataclass(frozen=True)
class ContentRule:
    """What each sign must show: letter height, required words, a name."""

    clause: str
    letter_min_in: float | None = None
    required_words: tuple[str, ...] = ()
    name: str | None = None
    text: str = ""


@dataclass(frozen=True)
class VisibilityRule:
    """Placement that the data cannot show (line of sight, "noticeable from outside")."""

    clause: str
    text: str = ""


@dataclass(frozen=True)
class Profile:
    """One jurisdiction's posting rule, as loaded from its TOML file."""

    name: str
    title: str
    jurisdiction: str
    citation: str
    source_url: str
    purpose: str
    verification: str
    path: str
    verification_note: str = ""
    effective_date: str | None = None
    spacing: SpacingRule | None = None
    corners: CornerRule | None = None
    content: ContentRule | None = None
    visibility: VisibilityRule | None = None

    def summary(self) -> dict[str, Any]:
        """The profile as a JSON-ready dict (for the report)."""
        out: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "jurisdiction": self.jurisdiction,
            "citation": self.citation,
            "source_url": self.source_url,
            "purpose": self.purpose,
            "verification": self.verification,
        }
        if self.effective_date:
            out["effective_date"] = self.effective_date
        if self.spacing:
            out["spacing_ft"] = self.spacing.max_ft
            out["spacing_metric"] = self.spacing.metric
        if self.corners:
            out["corners"] = self.corners.mode
        if self.content:
            out["letter_min_in"] = self.content.letter_min_in
            out["required_words"] = list(self.content.required_words)
            out["name_on_sign"] = self.content.name
        return out


def _rules_dir() -> Path:
    return Path(str(resources.files("posting.rules")))


def available() -> list[str]:
    """Names of the profiles shipped with posting.

    Examples
    --------
    >>> "florida" in available()
    True
    """
    return sorted(p.stem for p in _rules_dir().glob("*.toml"))


class _Reader:
    """Typed access to one TOML table, naming file and key in every error."""

    def __init__(self, data: dict[str, Any], path: str, prefix: str = "") -> None:
        self.data = data
        self.path = path
        self.prefix = prefix
        self.used: set[str] = set()

    def _key(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def error(self, key: str, what: str) -> RulesError:
        return RulesError(f"{self.path}: key '{self._key(key)}' {what}")

    def get(self, key: str, kind: type | tuple[type, ...], *, required: bool = False) -> Any:
        self.used.add(key)
        if key not in self.data:
            if required:
                raise RulesError(f"{self.path}: missing key '{self._key(key)}'")
            return None
        value = self.data[key]
        if kind in (float, int) or kind == (float, int):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise self.error(key, f"must be a number, not {value!r}")
            return float(value)
        if not isinstance(value, kind):
            name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise self.error(key, f"must be a {name}, not {value!r}")
        return value

    def positive(self, key: str, *, required: bool = False) -> float | None:
        value = self.get(key, (float, int), required=required)
        if value is not None and not value > 0:
            raise self.error(key, f"must be greater than 0, not {value:g}")
        return value

    def choice(self, key: str, options: tuple[str, ...], *, required: bool = False) -> str | None:
        value = self.get(key, str, required=required)
        if value is not None and value not in options:
            raise self.error(key, f"must be one of {', '.join(options)}, not {value!r}")
        return value

    def table(self, key: str) -> _Reader | None:
        value = self.get(key, dict)
        return None if value is None else _Reader(value, self.path, f"{self._key(key)}.")

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise self.error(unknown[0], "is not a known key (check its spelling)")


def _parse(data: dict[str, Any], path: str) -> Profile:
    r = _Reader(data, path)
    schema = r.get("schema", int, required=True)
    if schema != 1:
        raise r.error("schema", f"must be 1 (this version of posting reads schema 1), not {schema}")
    kw: dict[str, Any] = {
        "name": r.get("name", str, required=True),
        "title": r.get("title", str, required=True),
        "jurisdiction": r.get("jurisdiction", str, required=True),
        "citation": r.get("citation", str, required=True),
        "source_url": r.get("source_url", str, required=True),
        "purpose": r.get("purpose", str, required=True),
        "verification": r.choice("verification", VERIFICATION, required=True),
        "verification_note": r.get("verification_note", str) or "",
        "path": path,
    }
    date = r.get("effective_date", (str, object))
    if date is not None:
        kw["effective_date"] = str(date)
    if (t := r.table("spacing")) is not None:
        kw["spacing"] = SpacingRule(
            max_ft=t.positive("max_ft", required=True),
            metric=t.choice("metric", SPACING_METRICS) or "along_boundary",
            clause=t.get("clause", str, required=True),
            text=t.get("text", str) or "",
        )
        t.finish()
    if (t := r.table("corners")) is not None:
        kw["corners"] = CornerRule(
            mode=t.choice("mode", CORNER_MODES, required=True),
            clause=t.get("clause", str, required=True),
            text=t.get("text", str) or "",
        )
        t.finish()
    if (t := r.table("content")) is not None:
        words = t.get("required_words", list) or []
        if not all(isinstance(w, str) and w.strip() for w in words):
            raise t.error("required_words", "must be a list of non-empty strings")
        kw["content"] = ContentRule(
            clause=t.get("clause", str, required=True),
            letter_min_in=t.positive("letter_min_in"),
            required_words=tuple(w.strip() for w in words),
            name=t.get("name", str),
            text=t.get("text", str) or "",
        )
        t.finish()
    if (t := r.table("visibility")) is not None:
        kw["visibility"] = VisibilityRule(
            clause=t.get("clause", str, required=True), text=t.get("text", str) or ""
        )
        t.finish()
    r.finish()
    return Profile(**kw)


def load_rules(name_or_path: str | os.PathLike[str]) -> Profile:
    """Load a shipped profile by name (``florida``) or a profile file of the user's own.

    Raises
    ------
    RulesError
        Unknown name, unreadable file, bad TOML, or a key that breaks the schema (the message
        names the file and the key).

    Examples
    --------
    >>> load_rules("florida").spacing.max_ft
    500.0
    """
    text = os.fspath(name_or_path)
    if text.endswith(".toml") or os.sep in text or (os.altsep and os.altsep in text):
        path = Path(text)
        if not path.is_file():
            raise RulesError(f"{text}: no such rule profile file")
    else:
        path = _rules_dir() / f"{text}.toml"
        if not path.is_file():
            raise RulesError(
                f"unknown rule profile {text!r}; available: {', '.join(available())} "
                "(or give the path of a .toml profile)"
            )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{path}: not valid TOML ({exc})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError(f"{path}: cannot read ({exc})") from None
    return _parse(data, str(path))
