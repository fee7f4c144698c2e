"""Rule profiles: every shipped profile loads; a bad profile names its file and key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from posting.errors import RulesError
from posting.rules import available, load_rules

GOOD = Path(load_rules("florida").path).read_text()


@pytest.mark.parametrize("name", available())
def test_every_shipped_profile_loads_and_cites_its_law(name):
    p = load_rules(name)
    assert p.name == name
    assert p.citation and p.source_url.startswith("http")
    assert p.verification in ("verified", "partial", "unverified")
    for rule in (p.spacing, p.corners, p.content):
        if rule is not None:
            assert rule.clause


def test_florida_figures_are_the_statutes():
    # Fla. Stat. 810.011(5)(a)1: not more than 500 feet apart along the boundaries and at each
    # corner; letters not less than 2 inches; the words "no trespassing"; the owner's name.
    p = load_rules("florida")
    assert p.spacing.max_ft == 500 and p.spacing.metric == "along_boundary"
    assert p.corners.mode == "at_corner"
    assert p.content.letter_min_in == 2
    assert p.content.required_words == ("no trespassing",)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("max_ft = 500", "max_ft = -5"), r"key 'spacing.max_ft' must be greater than 0"),
        (("max_ft = 500", 'max_ft = "500 feet"'), r"key 'spacing.max_ft' must be a number"),
        (
            ('metric = "along_boundary"', 'metric = "as the crow flies"'),
            "spacing.metric' must be one of",
        ),
        (("schema = 1", "schema = 1\nspaceing = 3"), "key 'spaceing' is not a known key"),
        (
            ('mode = "at_corner"', 'mode = "at_corner"\nradius_ft = 3'),
            "key 'corners.radius_ft' is not a known key",
        ),
        (('citation = "Fla. Stat. 810.011(5)(a)1"\n', ""), "missing key 'citation'"),
        (("schema = 1", "schema = 2"), "must be 1"),
        (("[spacing]", "[spacing"), "not valid TOML"),
    ],
)
def test_bad_profile_names_file_and_key(tmp_path, edit, message):
    path = tmp_path / "mine.toml"
    assert edit[0] in GOOD
    path.write_text(GOOD.replace(edit[0], edit[1], 1))
    with pytest.raises(RulesError, match=message) as exc:
        load_rules(str(path))
    assert str(path) in str(exc.value)


def test_unknown_profile_lists_the_available_ones():
    with pytest.raises(RulesError, match=r"available: .*florida"):
        load_rules("atlantis")
    with pytest.raises(RulesError, match="no such rule profile file"):
        load_rules("missing/profile.toml")


def test_own_profile_file(tmp_path):
    path = tmp_path / "county.toml"
    path.write_text(
        GOOD.replace('name = "florida"', 'name = "county"').replace("max_ft = 500", "max_ft = 300")
    )
    assert load_rules(str(path)).spacing.max_ft == 300


# A profile is "verified" only against the statute's own text: the legislature's site, an
# enrolled bill, or the official code as published by Public.Resource.Org; not an agency's
# statement of it (docs/statutes.md: secondary).
OFFICIAL_HOSTS = (
    "azleg.gov",
    "capitol.texas.gov",
    "moga.mo.gov",
    "nysenate.gov",
    "senate.mn",
    "leg.mt.gov",
    "unicourt.github.io",
)


@pytest.mark.parametrize("name", available())
def test_a_verified_profile_cites_an_official_text(name):
    p = load_rules(name)
    if p.verification == "verified":
        host = p.source_url.split("/")[2]
        assert host.endswith(OFFICIAL_HOSTS), (name, host)
        assert all(rule.verified for _, rule in p.rules()), name
    if p.standard == "guidance":
        assert p.verification != "verified", name


# -- a profile of one's own, written with the mistakes a person makes ------------------------------

MINE = """schema = 1
name = "mytown"
title = "My town: signs every 300 ft"
jurisdiction = "Mytown"
citation = "Mytown Code 9-1"
source_url = "https://example.org/code"
purpose = "general trespass"
verification = "verified"

[spacing]
max_ft = 300
metric = "along_boundary"
clause = "Mytown Code 9-1(a)"
text = "signs not more than 300 feet apart"

[corners]
mode = "at_corner"
clause = "Mytown Code 9-1(b)"
"""


def test_the_own_profile_of_these_tests_loads(tmp_path):
    path = tmp_path / "mytown.toml"
    path.write_text(MINE)
    p = load_rules(str(path))
    assert (p.spacing.max_ft, p.corners.mode) == (300.0, "at_corner")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        # an empty clause cites no law (it once reached `rules show` as a KeyError, exit 3)
        (('clause = "Mytown Code 9-1(a)"', 'clause = ""'), "key 'spacing.clause' must not be"),
        (('citation = "Mytown Code 9-1"', 'citation = "  "'), "key 'citation' must not be empty"),
        # TOML's inf is a limit nothing exceeds: every gap passed (and the JSON report failed)
        (("max_ft = 300", "max_ft = inf"), "key 'spacing.max_ft' must be a finite number"),
        (("max_ft = 300", "max_ft = nan"), "key 'spacing.max_ft' must be a finite number"),
        # a limit in another unit, or misspelt, is named, not taken for a missing max_ft
        (("max_ft = 300", "max_m = 91"), "key 'spacing.max_m' is not a known key"),
        (("max_ft = 300", "limit_feet = 300"), "key 'spacing.limit_feet' is not a known key"),
        (("max_ft = 300", "forest_ft = 100\nother_ft = 1000\nmax_ft = 300"), "are alternatives"),
        (('metric = "along_boundary"\n', ""), None),  # (the default: loads)
        # a gate on a rule the profile lacks would do nothing
        (
            ("[corners]", '[when.access]\nland = ["forest"]\nclause = "9-1(c)"\n\n[corners]'),
            "table 'when.access' makes a rule conditional that the profile does not have",
        ),
        (
            ("[corners]", '[when.spacing]\nzoning = "R1"\nclause = "9-1(c)"\n\n[corners]'),
            "key 'when.spacing.zoning' is not a known key",
        ),
        # TOML's words for a value of the wrong type, not Python's ("must be a dict")
        (
            ('verification = "verified"', 'verification = "verified"\naccess = true'),
            "key 'access' must be a table ([access] on a line of its own, then its keys)",
        ),
        (
            ('verification = "verified"', 'verification = "verified"\neffective_date = 2024'),
            "key 'effective_date' must be text (in quotes) or a date (2024-07-01), not 2024",
        ),
        (
            ('verification = "verified"', 'verification = "verified"\nkinds = "sign"'),
            "key 'kinds' must be a list ([...]), not 'sign'",
        ),
        # a rule for no kind of marker was read as one for signs
        (('metric = "along_boundary"', "kinds = []"), "key 'spacing.kinds' is empty"),
        (('verification = "verified"', 'verification = "verified"\nkinds = []'), "key 'kinds' is"),
        # a copy of a shipped profile that keeps its name would stand in for it
        (('name = "mytown"', 'name = "florida"'), "key 'name' is 'florida', a shipped profile's"),
    ],
)
def test_a_mistake_in_ones_own_profile_is_named(tmp_path, edit, message):
    path = tmp_path / "mytown.toml"
    assert edit[0] in MINE
    path.write_text(MINE.replace(edit[0], edit[1], 1))
    if message is None:
        assert load_rules(str(path)).spacing.metric == "along_boundary"
        return
    with pytest.raises(RulesError, match=re.escape(message)) as exc:
        load_rules(str(path))
    assert str(path) in str(exc.value)


def test_a_profile_that_checks_nothing_is_refused(tmp_path):
    # Without a rule table every posted parcel passed: the sample's 16 posted parcels were
    # "compliant" under the common keys alone.
    path = tmp_path / "mytown.toml"
    path.write_text(MINE.split("[spacing]")[0])
    with pytest.raises(RulesError, match=r"has no rule table .* it would check nothing"):
        load_rules(str(path))


def test_an_empty_file_and_one_not_utf8_are_named_as_such(tmp_path):
    empty = tmp_path / "empty.toml"
    empty.write_text("\n  \n")
    with pytest.raises(RulesError, match="is empty: a profile holds schema = 1"):
        load_rules(str(empty))
    latin = tmp_path / "latin.toml"
    latin.write_bytes(MINE.replace("My town", "Mÿ town").encode("latin-1"))
    # 'ÿ' (0xff in Latin-1) is on the title's line, the third
    with pytest.raises(RulesError, match=r"line 3 is not UTF-8 text \(byte 0xff\)"):
        load_rules(str(latin))


def test_a_byte_order_mark_is_no_mistake(tmp_path):
    # Windows' Notepad may begin a UTF-8 file with U+FEFF; TOML's reader took it for a
    # statement ("Invalid statement (at line 1, column 1)")
    path = tmp_path / "mytown.toml"
    path.write_bytes(MINE.encode("utf-8-sig"))
    assert load_rules(str(path)).spacing.max_ft == 300.0


def test_the_shipped_file_given_by_its_path_is_no_collision():
    p = load_rules(load_rules("florida").path)
    assert p.name == "florida" and p.spacing.max_ft == 500.0


def test_a_toml_syntax_error_names_its_line(tmp_path):
    path = tmp_path / "mytown.toml"
    path.write_text(MINE.replace("max_ft = 300", "max_ft = 300 ft"))  # line 11
    with pytest.raises(RulesError, match=r"not valid TOML .*at line 11"):
        load_rules(str(path))
