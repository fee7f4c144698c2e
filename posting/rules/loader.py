"""Rule profiles: one TOML file per jurisdiction, validated into frozen dataclasses.

A profile chooses and parametrises the *kinds* of rule the code implements (spacing along the
boundary, corners, access points, sign content, paint marks, painted posts, facing, renewal,
notice on public property); adding a jurisdiction needs no code unless it brings a new kind of
rule. Every value carries its unit in its key (``max_ft``, ``letter_min_in``) and every rule its
clause, so each verdict cites the law it applies. A rule whose figure could not be checked against
the statute text says so with ``verified = false``.

The schema, key by key, is in the README ("Adding a jurisdiction") and docs/jurisdictions.md.
"""

from __future__ import annotations

import datetime as _dt
import os
import tomllib
from dataclasses import dataclass, field, fields, is_dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from posting import kinds as _kinds
from posting.errors import RulesError
from posting.rules.schema import Reader, Rule

__all__ = ["Profile", "available", "load_rules"]

VERIFICATION = ("verified", "partial", "unverified")
STANDARDS = ("statute", "guidance")


@dataclass(frozen=True)
class Profile:
    """One jurisdiction's way of posting land, as loaded from its TOML file.

    Each rule is reached by its table's name (``profile.spacing``; None when the profile has
    no such table), whatever kind of rule registered it (:mod:`posting.kinds`).
    """

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
    auto: bool = False
    kinds: tuple[str, ...] = field(default=("sign",))
    tables: dict[str, Rule] = field(default_factory=dict, hash=False)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "tables":
            raise AttributeError(name)
        if name in _kinds.REGISTRY:
            return self.tables.get(name)
        raise AttributeError(f"'Profile' has no attribute {name!r}")

    def rules(self) -> list[tuple[str, Rule]]:
        """The rules this profile has, by table name, in the registry's order."""
        return [(n, self.tables[n]) for n in _kinds.REGISTRY if n in self.tables]

    def ours(self, rule: Rule) -> bool:
        """True for a rule of our guidance layout, not the statute's: in a ``guidance`` profile
        (the law gives no figure), one its words do not give (``verified = false``). Failing it
        makes a parcel ``uncertain``, never ``noncompliant``."""
        return self.standard == "guidance" and not rule.verified

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
        for name, rule in self.rules():
            kind = _kinds.REGISTRY[name]
            if kind.summary is not None:
                out.update(kind.summary(rule))
        out["rules"] = {name: _rule_dict(rule) for name, rule in self.rules()}
        return out


def _rule_dict(rule: Rule) -> dict[str, Any]:
    out = {}
    for f in fields(rule):
        v = getattr(rule, f.name)
        if v is None or v == () or v == "":
            continue
        if isinstance(v, tuple):
            v = [_rule_dict(x) if is_dataclass(x) else _plain(x) for x in v]
        out[f.name] = v
    return out


def _plain(v: Any) -> Any:
    return [_plain(x) for x in v] if isinstance(v, tuple) else v


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


def _parse(data: dict[str, Any], path: str) -> Profile:
    r = Reader(data, path)
    schema = r.get("schema", int, required=True)
    if schema != 1:
        raise r.error("schema", f"must be 1 (this version of posting reads schema 1), not {schema}")
    kinds = r.marker_kinds(("sign",))
    kw: dict[str, Any] = {
        "name": r.get("name", str, required=True),
        "title": r.get("title", str, required=True),
        "jurisdiction": r.get("jurisdiction", str, required=True),
        "citation": r.get("citation", str, required=True),
        "source_url": r.get("source_url", str, required=True, blank=True),
        "purpose": r.get("purpose", str, required=True),
        "verification": r.choice("verification", VERIFICATION, required=True),
        "verification_note": r.get("verification_note", str) or "",
        "standard": r.choice("standard", STANDARDS) or "statute",
        "penalty": r.get("penalty", str),
        "notes": r.get("notes", str) or "",
        "auto": bool(r.get("auto", bool)),
        "kinds": kinds,
        "path": path,
    }
    date = r.get("effective_date", (str, _dt.date))
    if date is not None:
        kw["effective_date"] = str(date)
    tables: dict[str, Rule] = {}
    for name, kind in _kinds.REGISTRY.items():
        if (t := r.table(name)) is not None:
            tables[name] = kind.parse(t, kinds)
            t.finish()
    r.finish()
    if not tables:
        raise RulesError(
            "has no rule table ([spacing], [corners], [access], [content] ...): it would check "
            "nothing, and every posted parcel would pass",
            path=path,
        )
    for gate in getattr(tables.get("when"), "gates", ()):
        if gate.rule != "profile" and not any(
            gate.rule == n or gate.rule.startswith(f"{n}_") for n in tables if n != "when"
        ):
            raise RulesError(
                f"table 'when.{gate.rule}' makes a rule conditional that the profile does not "
                f"have: add its table ([{_table_of(gate.rule)}] ...), or remove "
                f"[when.{gate.rule}]",
                path=path,
            )
    return Profile(**kw, tables=tables)


def _table_of(rule: str) -> str:
    """The table whose findings are named ``rule`` (``paint_support``: ``paint``)."""
    if rule in _kinds.REGISTRY:
        return rule
    return next((n for n in _kinds.REGISTRY if rule.startswith(f"{n}_")), rule)


def _own_name(profile: Profile) -> None:
    """Refuse a profile file of one's own named as a shipped profile: beside ``auto`` it
    would take the shipped profile's place for that state's parcels, and every report would
    name it as the shipped one."""
    shipped = _rules_dir() / f"{profile.name}.toml"
    if shipped.is_file() and Path(profile.path).resolve() != shipped.resolve():
        raise RulesError(
            f"key 'name' is {profile.name!r}, a shipped profile's: give your profile a name of "
            "its own (reports and --rules auto tell profiles apart by name)",
            path=profile.path,
        )


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
            raise RulesError("no such rule profile file", path=text)
    else:
        path = _rules_dir() / f"{text}.toml"
        if not path.is_file():
            raise RulesError(
                f"unknown rule profile {text!r}; available: {', '.join(available())} "
                "(or give the path of a .toml profile)"
            )
    try:
        raw = path.read_bytes()
        if not raw.strip():
            raise RulesError(
                "is empty: a profile holds schema = 1, its name, title, citation ... and at "
                "least one rule table (copy the closest one in posting/rules/)",
                path=str(path),
            )
        # (utf-8-sig: a byte-order mark, as Windows' Notepad may write, is no TOML statement)
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"not valid TOML ({exc})", path=str(path)) from None
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise RulesError(
            f"line {line} is not UTF-8 text (byte 0x{raw[exc.start]:02x}): save the file as UTF-8",
            path=str(path),
        ) from None
    except OSError as exc:
        raise RulesError(f"cannot read ({exc})", path=str(path)) from None
    profile = _parse(data, str(path))
    _own_name(profile)
    return profile
