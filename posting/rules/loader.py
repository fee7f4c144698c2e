"""Rule profiles: one TOML file per jurisdiction, validated into frozen dataclasses.

A profile chooses and parametrises the *kinds* of rule the code implements (spacing along the
boundary, corners, access points, sign content, paint marks, painted posts, facing, renewal,
notice on public property); adding a jurisdiction needs no code unless it brings a new kind of
rule. Every value carries its unit in its key (``max_ft``, ``letter_min_in``) and every rule its
clause, so each verdict cites the law it applies. A rule whose figure could not be checked against
the statute text says so with ``verified = false``.

The schema, key by key, is in the README ("Writing a profile").
"""

from __future__ import annotations

import datetime as _dt
import os
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

from posting.errors import RulesError

__all__ = [
    "KINDS",
    "AccessRule",
    "ContentRule",
    "CornerRule",
    "CultivationRule",
    "DwellingExemption",
    "FacingRule",
    "FenceRule",
    "PaintRule",
    "PostRule",
    "Profile",
    "PublicRule",
    "RenewalRule",
    "SpacingRule",
    "VisibilityRule",
    "WaterRule",
    "available",
    "load_rules",
]

KINDS = ("sign", "paint", "post")
"""Marker kinds: a sign, a paint mark (a stripe or patch on a tree or post), a painted post top."""
SPACING_METRICS = ("along_boundary", "straight", "either")
CORNER_MODES = ("none", "at_corner", "each_side")
VERIFICATION = ("verified", "partial", "unverified")
STANDARDS = ("statute", "guidance")
WATER_MODES = ("post", "exempt", "both_banks")


@dataclass(frozen=True)
class Rule:
    """What every rule carries: the clause it applies, the statute's words, whether verified."""

    clause: str
    text: str = ""
    verified: bool = True


@dataclass(frozen=True)
class SpacingRule(Rule):
    """Markers of ``kinds`` not more than a distance apart, measured by ``metric``.

    Either one limit (``max_ft``), or two by land cover (``forest_ft`` on forest land,
    ``other_ft`` elsewhere). ``along_boundary`` measures along the boundary (Florida's "along");
    ``straight`` the straight line between consecutive markers; ``either`` passes a gap when
    either measure is within the limit (statutes that only say "apart").
    """

    max_ft: float | None = None
    forest_ft: float | None = None
    other_ft: float | None = None
    metric: str = "along_boundary"
    kinds: tuple[str, ...] = ("sign",)

    @property
    def by_landcover(self) -> bool:
        """True when the limit depends on land cover."""
        return self.forest_ft is not None

    @property
    def strictest_ft(self) -> float:
        """The limit that applies when the land cover is unknown."""
        values = [v for v in (self.max_ft, self.forest_ft, self.other_ft) if v is not None]
        return min(values)


@dataclass(frozen=True)
class CornerRule(Rule):
    """A marker at each corner (``at_corner``), one on each side of each corner
    (``each_side``), or no corner rule (``none``)."""

    mode: str = "at_corner"
    kinds: tuple[str, ...] = ("sign",)


@dataclass(frozen=True)
class AccessRule(Rule):
    """A marker at each place where an access feature crosses the boundary.

    ``types`` lists the access feature types that count (matched case-insensitively against the
    access layer's type column: ``road``, ``driveway``, ``trail``, ``gate``, ...); empty means
    every feature.
    """

    types: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ("sign",)


@dataclass(frozen=True)
class ContentRule(Rule):
    """What each sign must show and how big it must be."""

    kinds: tuple[str, ...] = ("sign",)
    letter_min_in: float | None = None
    required_words: tuple[str, ...] = ()
    required_any: tuple[str, ...] = ()
    name: str | None = None
    address: bool = False
    phone: bool = False
    sign_min_in: tuple[float, float] | None = None
    statement_min_sqin: float | None = None


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


@dataclass(frozen=True)
class PostRule(Rule):
    """Painted post tops: colour, painted length of the top, height of the cap's bottom."""

    kinds: tuple[str, ...] = ("post",)
    colors: tuple[str, ...] = ()
    min_length_in: float | None = None
    bottom_min_ft: float | None = None
    bottom_max_ft: float | None = None


@dataclass(frozen=True)
class FacingRule(Rule):
    """Signs face outward: their azimuth within ``tolerance_deg`` of the outward normal."""

    kinds: tuple[str, ...] = ("sign",)
    tolerance_deg: float = 90.0


@dataclass(frozen=True)
class RenewalRule(Rule):
    """Posting is renewed every ``days`` days: a survey older than that is flagged."""

    days: float = 365.0


@dataclass(frozen=True)
class PublicRule(Rule):
    """On property the public is invited to part of the day, the notice states the days and
    hours entry is prohibited and that entry then is an offence."""

    offence_words: tuple[str, ...] = ()


@dataclass(frozen=True)
class WaterRule(Rule):
    """Boundaries formed by water: ``post`` them like any boundary (Florida), ``exempt`` them
    from spacing, or mark ``both_banks`` where water crosses the boundary (Montana)."""

    mode: str = "post"


@dataclass(frozen=True)
class DwellingExemption(Rule):
    """No posting needed on land of at most ``max_acres`` with a dwelling; ``requires`` names
    what the exemption also needs that parcel data may not show (Florida: "enclosed")."""

    max_acres: float = 5.0
    requires: tuple[str, ...] = ()


@dataclass(frozen=True)
class FenceRule(Rule):
    """Land enclosed by a fence at least ``min_height_ft`` high counts as posted;
    ``water_excepted``: stretches formed by water need no fence."""

    min_height_ft: float | None = None
    water_excepted: bool = True


@dataclass(frozen=True)
class CultivationRule(Rule):
    """Cultivated land counts as posted (``counts_as_posted``)."""

    counts_as_posted: bool = True


@dataclass(frozen=True)
class VisibilityRule(Rule):
    """Placement that surveyed positions cannot show (line of sight, "noticeable")."""


@dataclass(frozen=True)
class Profile:
    """One jurisdiction's way of posting land, as loaded from its TOML file."""

    name: str
    title: str
    jurisdiction: str
    citation: str
    source_url: str
    purpose: str
    verification: str
    path: str
    standard: str = "statute"
    verification_note: str = ""
    effective_date: str | None = None
    penalty: str | None = None
    notes: str = ""
    spacing: SpacingRule | None = None
    corners: CornerRule | None = None
    access: AccessRule | None = None
    content: ContentRule | None = None
    paint: PaintRule | None = None
    post: PostRule | None = None
    facing: FacingRule | None = None
    renewal: RenewalRule | None = None
    public: PublicRule | None = None
    visibility: VisibilityRule | None = None
    water: WaterRule | None = None
    dwelling: DwellingExemption | None = None
    fence: FenceRule | None = None
    cultivation: CultivationRule | None = None
    kinds: tuple[str, ...] = field(default=("sign",))

    RULES = (
        "spacing",
        "corners",
        "access",
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
    )

    def rules(self) -> list[tuple[str, Rule]]:
        """The rules this profile has, by name, in schema order."""
        return [(n, getattr(self, n)) for n in self.RULES if getattr(self, n) is not None]

    def summary(self) -> dict[str, Any]:
        """The profile as a JSON-ready dict (for the report and ``posting rules show``)."""
        out: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "jurisdiction": self.jurisdiction,
            "citation": self.citation,
            "source_url": self.source_url,
            "purpose": self.purpose,
            "status": self.verification,
            "verification": self.verification,
            "standard": self.standard,
            "effective_date": self.effective_date,
            "penalty": self.penalty,
            "marker_kinds": list(self.kinds),
        }
        if self.spacing:
            out["spacing_ft"] = self.spacing.max_ft if self.spacing.max_ft else None
            if self.spacing.by_landcover:
                out["spacing_forest_ft"] = self.spacing.forest_ft
                out["spacing_other_ft"] = self.spacing.other_ft
            out["spacing_metric"] = self.spacing.metric
        if self.corners:
            out["corners"] = self.corners.mode
        if self.content:
            out["letter_min_in"] = self.content.letter_min_in
            out["required_words"] = list(self.content.required_words)
            out["name_on_sign"] = self.content.name
        out["rules"] = {name: _rule_dict(rule) for name, rule in self.rules()}
        return out


def _rule_dict(rule: Rule) -> dict[str, Any]:
    out = {}
    for f in fields(rule):
        v = getattr(rule, f.name)
        if v is None or v == () or v == "":
            continue
        out[f.name] = list(v) if isinstance(v, tuple) else v
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
        if kind is float:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise self.error(key, f"must be a number, not {value!r}")
            return float(value)
        if kind is bool and not isinstance(value, bool):
            raise self.error(key, f"must be true or false, not {value!r}")
        if not isinstance(value, kind):
            name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise self.error(key, f"must be a {name}, not {value!r}")
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

    def pair(self, key: str) -> tuple[float, float] | None:
        value = self.get(key, list)
        if value is None:
            return None
        if len(value) != 2 or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in value
        ):
            raise self.error(key, f"must be two positive numbers, not {value!r}")
        return (float(min(value)), float(max(value)))

    def table(self, key: str) -> _Reader | None:
        value = self.get(key, dict)
        return None if value is None else _Reader(value, self.path, f"{self._key(key)}.")

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


def _range(t: _Reader, lo: str, hi: str) -> dict[str, float | None]:
    a, b = t.positive(lo), t.positive(hi)
    if a is not None and b is not None and a > b:
        raise t.error(lo, f"({a:g}) must not exceed {t._key(hi)} ({b:g})")
    return {lo: a, hi: b}


def _parse(data: dict[str, Any], path: str) -> Profile:
    r = _Reader(data, path)
    schema = r.get("schema", int, required=True)
    if schema != 1:
        raise r.error("schema", f"must be 1 (this version of posting reads schema 1), not {schema}")
    kinds = r.strings("kinds", options=KINDS) or ("sign",)
    kw: dict[str, Any] = {
        "name": r.get("name", str, required=True),
        "title": r.get("title", str, required=True),
        "jurisdiction": r.get("jurisdiction", str, required=True),
        "citation": r.get("citation", str, required=True),
        "source_url": r.get("source_url", str, required=True),
        "purpose": r.get("purpose", str, required=True),
        "verification": r.choice("verification", VERIFICATION, required=True),
        "verification_note": r.get("verification_note", str) or "",
        "standard": r.choice("standard", STANDARDS) or "statute",
        "penalty": r.get("penalty", str),
        "notes": r.get("notes", str) or "",
        "kinds": kinds,
        "path": path,
    }
    date = r.get("effective_date", (str, _dt.date))
    if date is not None:
        kw["effective_date"] = str(date)

    if (t := r.table("spacing")) is not None:
        limits = {k: t.positive(k) for k in ("max_ft", "forest_ft", "other_ft")}
        if (limits["forest_ft"] is None) != (limits["other_ft"] is None):
            raise t.error("forest_ft", "and 'other_ft' go together (two spacings by land cover)")
        if (limits["max_ft"] is None) == (limits["forest_ft"] is None):
            raise t.error("max_ft", "or the pair forest_ft/other_ft is required, not both")
        kw["spacing"] = SpacingRule(
            **t.common(),
            **limits,
            metric=t.choice("metric", SPACING_METRICS) or "along_boundary",
            kinds=t.strings("kinds", options=KINDS) or kinds,
        )
        t.finish()
    if (t := r.table("corners")) is not None:
        kw["corners"] = CornerRule(
            **t.common(),
            mode=t.choice("mode", CORNER_MODES, required=True),
            kinds=t.strings("kinds", options=KINDS) or kinds,
        )
        t.finish()
    if (t := r.table("access")) is not None:
        kw["access"] = AccessRule(
            **t.common(),
            types=tuple(x.lower() for x in (t.strings("types") or ())),
            kinds=t.strings("kinds", options=KINDS) or kinds,
        )
        t.finish()
    if (t := r.table("content")) is not None:
        kw["content"] = ContentRule(
            **t.common(),
            kinds=t.strings("kinds", options=KINDS) or ("sign",),
            letter_min_in=t.positive("letter_min_in"),
            required_words=t.strings("required_words") or (),
            required_any=t.strings("required_any") or (),
            name=t.get("name", str),
            address=bool(t.get("address", bool)),
            phone=bool(t.get("phone", bool)),
            sign_min_in=t.pair("sign_min_in"),
            statement_min_sqin=t.positive("statement_min_sqin"),
        )
        t.finish()
    if (t := r.table("paint")) is not None:
        kw["paint"] = PaintRule(
            **t.common(),
            kinds=t.strings("kinds", options=KINDS) or ("paint",),
            colors=tuple(c.lower() for c in (t.strings("colors") or ())),
            min_length_in=t.positive("min_length_in"),
            min_width_in=t.positive("min_width_in"),
            min_area_sqin=t.positive("min_area_sqin"),
            **_range(t, "bottom_min_ft", "bottom_max_ft"),
            letter_min_in=t.positive("letter_min_in"),
            required_words=t.strings("required_words") or (),
        )
        t.finish()
    if (t := r.table("post")) is not None:
        kw["post"] = PostRule(
            **t.common(),
            kinds=t.strings("kinds", options=KINDS) or ("post",),
            colors=tuple(c.lower() for c in (t.strings("colors") or ())),
            min_length_in=t.positive("min_length_in"),
            **_range(t, "bottom_min_ft", "bottom_max_ft"),
        )
        t.finish()
    if (t := r.table("facing")) is not None:
        tol = t.positive("tolerance_deg")
        if tol is not None and tol > 180:
            raise t.error("tolerance_deg", f"must be at most 180, not {tol:g}")
        kw["facing"] = FacingRule(
            **t.common(),
            kinds=t.strings("kinds", options=KINDS) or ("sign",),
            tolerance_deg=90.0 if tol is None else tol,
        )
        t.finish()
    if (t := r.table("renewal")) is not None:
        kw["renewal"] = RenewalRule(**t.common(), days=t.positive("days", required=True))
        t.finish()
    if (t := r.table("public")) is not None:
        kw["public"] = PublicRule(**t.common(), offence_words=t.strings("offence_words") or ())
        t.finish()
    if (t := r.table("water")) is not None:
        kw["water"] = WaterRule(**t.common(), mode=t.choice("mode", WATER_MODES) or "post")
        t.finish()
    if (t := r.table("dwelling")) is not None:
        kw["dwelling"] = DwellingExemption(
            **t.common(),
            max_acres=t.positive("max_acres", required=True),
            requires=t.strings("requires") or (),
        )
        t.finish()
    if (t := r.table("fence")) is not None:
        water_excepted = t.get("water_excepted", bool)
        kw["fence"] = FenceRule(
            **t.common(),
            min_height_ft=t.positive("min_height_ft"),
            water_excepted=True if water_excepted is None else water_excepted,
        )
        t.finish()
    if (t := r.table("cultivation")) is not None:
        counts = t.get("counts_as_posted", bool)
        kw["cultivation"] = CultivationRule(
            **t.common(), counts_as_posted=True if counts is None else counts
        )
        t.finish()
    if (t := r.table("visibility")) is not None:
        kw["visibility"] = VisibilityRule(**t.common())
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
