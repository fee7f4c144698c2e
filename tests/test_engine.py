"""The engine: a kind of rule is one module, the stages travel, and the runner's threads change
nothing."""

from __future__ import annotations

import pickle
from dataclasses import dataclass

import numpy as np
import pytest
from helpers import AT_SEA, CORNERS_AND_MIDPOINTS, SAMPLE, markers, parcels, square

from posting import check, kinds, read_markers, read_parcels
from posting.assign import assign_markers
from posting.engine import run
from posting.job import ContextFiles, Job
from posting.kinds import Kind, Part, register
from posting.prepare import add_corners, prepare_parcels
from posting.render import render
from posting.rules.schema import Reader, Rule
from posting.settings import Settings
from posting.verdict import findings_frame

# -- a kind of rule is one module ---------------------------------------------------------------


@dataclass(frozen=True)
class _SignCount(Rule):
    """A toy kind of rule: at least ``min_signs`` markers on each parcel."""

    min_signs: float = 1.0


def _parse(t: Reader, kinds_: tuple[str, ...]) -> _SignCount:
    return _SignCount(**t.common(), min_signs=t.positive("min_signs", required=True))


def _measure(rule: _SignCount, profile, m) -> Part:
    n = m.counted(m.mask(profile.kinds))
    few = np.flatnonzero((n < rule.min_signs) & (m.prep.group >= 0))
    found = findings_frame(
        few,
        "sign_count",
        "violation",
        rule.clause,
        [f"{k} signs, fewer than {rule.min_signs:g}" for k in n[few].tolist()],
        n[few],
        rule.min_signs,
        "signs",
        1,
    )
    return Part(findings=[found], columns={"sign_count": n})


@pytest.fixture
def toy_kind():
    kind = register(Kind("sign_count", _SignCount, _parse, "at least N signs", measure=_measure))
    yield kind
    del kinds.REGISTRY["sign_count"]


TOY = """schema = 1
name = "toy"
title = "Toy: posted with enough signs"
jurisdiction = "Nowhere"
citation = "Toy Code 1-1"
source_url = "https://example.org/toy"
purpose = "test"
verification = "unverified"

[spacing]
clause = "1-1(a)"
max_ft = 500

[sign_count]
clause = "1-1(b)"
min_signs = 9
"""


def test_a_new_kind_of_rule_is_one_module_and_a_profile_uses_it(toy_kind, tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(TOY)
    # corners and midpoints of a 1,000 ft square: 8 signs, 500 ft apart (spacing passes)
    few = square(1000)
    many = square(1000, x0=2000)
    signs = [(x, y) for x, y in CORNERS_AND_MIDPOINTS]
    signs += [(x + 2000, y) for x, y in CORNERS_AND_MIDPOINTS] + [(2250.0, 0.0)]
    r = check(parcels(few, many), markers(signs), str(path), settings=AT_SEA)
    assert r.profile.sign_count.min_signs == 9.0  # the loader read the kind's own table
    assert r.parcels["status"].tolist() == ["noncompliant", "compliant"]
    d = r.to_dict()
    [v] = d["parcels"][0]["violations"]
    assert (v["rule"], v["clause"], v["measured"], v["limit"]) == ("sign_count", "1-1(b)", 8, 9)
    assert d["parcels"][1]["violations"] == []
    assert [p["sign_count"] for p in d["parcels"]] == [8, 9]  # the kind's per-parcel column
    assert d["rules"]["rules"]["sign_count"]["min_signs"] == 9.0


def test_an_unknown_table_is_refused_without_the_kind(tmp_path):
    from posting.errors import RulesError
    from posting.rules import load_rules

    path = tmp_path / "toy.toml"
    path.write_text(TOY)
    with pytest.raises(RulesError, match="'sign_count' is not a known key"):
        load_rules(path)


# -- stages travel --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample_inputs():
    layer = read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner")
    signs = read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"])
    return layer, signs


def _same_arrays(a, b):
    for name in a.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            if x.dtype == object:
                assert [str(v) for v in x] == [str(v) for v in y], name
            else:
                np.testing.assert_array_equal(x, y, err_msg=name)


def test_prepared_parcels_and_the_assignment_pickle(sample_inputs):
    layer, signs = sample_inputs
    prep = prepare_parcels(layer, Settings())
    back = pickle.loads(pickle.dumps(prep))
    assert len(back) == len(prep) == 29
    np.testing.assert_array_equal(back.rings.length_ft, prep.rings.length_ft)
    np.testing.assert_array_equal(back.corners.position_ft, prep.corners.position_ft)
    assert back.crss[0].label == prep.crss[0].label
    asg = assign_markers(prep, signs, tolerance_ft=30.0)
    _same_arrays(pickle.loads(pickle.dumps(asg)), asg)
    # a stage run on the unpickled parcels gives the same assignment
    _same_arrays(assign_markers(back, signs, tolerance_ft=30.0), asg)


def test_the_report_pickles_and_renders_the_same(sample_inputs):
    layer, signs = sample_inputs
    r = check(layer, signs)
    back = pickle.loads(pickle.dumps(r))
    assert render(back, "csv") == render(r, "csv")
    for fmt in ("geojson", "json"):  # pieces of bytes
        assert b"".join(render(back, fmt)) == b"".join(render(r, fmt))


def test_corners_found_later_are_the_same(sample_inputs):
    layer, _ = sample_inputs
    now = prepare_parcels(layer, Settings())
    later = add_corners(prepare_parcels(layer, Settings(), corners=False))
    np.testing.assert_array_equal(now.corners.x, later.corners.x)
    np.testing.assert_array_equal(now.corner_lonlat[0], later.corner_lonlat[0])


def test_one_thread_gives_the_same_report_as_every_core(sample_inputs):
    layer, signs = sample_inputs
    one = check(layer, signs, threads=1)
    every = check(layer, signs)
    one.generated = every.generated  # the time stamp, to the second: the two may straddle one
    assert b"".join(render(one, "json")) == b"".join(render(every, "json"))


def test_a_job_round_trips_and_runs_like_the_library_calls(sample_inputs):
    job = Job(
        parcels=str(SAMPLE / "parcels.geojson"),
        signs=(str(SAMPLE / "signs.csv"), str(SAMPLE / "signs-added.gpx")),
        id_field="parcel_id",
        owner_field="owner",
        context=ContextFiles(water=str(SAMPLE / "water.geojson")),
    )
    again = Job.from_dict(pickle.loads(pickle.dumps(job)).to_dict())
    assert again == job
    r = run(again, threads=1)
    assert r.parcels["status"].value_counts().to_dict() == (
        run(job).parcels["status"].value_counts().to_dict()
    )
    assert "water_frontage_ft" in r.parcels


@pytest.mark.parametrize(
    "option",
    [
        "public_where",
        "water_where",
        "dwelling_where",
        "cultivated_where",
        "registry_where",
        "forest_where",
    ],
)
def test_a_selection_that_does_not_parse_is_refused_before_any_reading(option):
    from posting.cli import flag
    from posting.errors import InputError

    extra = {"water": "w.geojson"} if option == "water_where" else {}
    with pytest.raises(InputError) as info:
        ContextFiles(**{option: "landuse"}, **extra)
    assert info.value.worded(flag) == (
        f"--{option.replace('_', '-')}: expected COL=V1,V2,... or COL in ('V1','V2'), not 'landuse'"
    )


def test_options_that_need_another_are_refused_by_name():
    from posting.cli import flag
    from posting.errors import InputError

    with pytest.raises(InputError) as info:
        ContextFiles(water_where="WETLAND_TY=Lake")
    assert info.value.worded(flag) == "--water-where needs --water"
    assert str(info.value) == "water_where= needs water="
