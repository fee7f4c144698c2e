"""Rule profiles: every shipped profile loads; a bad profile names its file and key."""

from __future__ import annotations

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
