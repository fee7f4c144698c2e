"""Errors carry their fields; each front end words them."""

import pickle

import pytest

from posting.cli import flag
from posting.errors import CRSError, InputError, RulesError


def test_fields_survive_pickle():
    e = CRSError(
        "no CRS; give it with {option}", path="a.gpkg", row=3, column="geom", parameter="crs"
    )
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is CRSError
    assert (back.message, back.path, back.row, back.column, back.parameter) == (
        e.message,
        "a.gpkg",
        3,
        "geom",
        "crs",
    )
    assert str(back) == "a.gpkg: no CRS; give it with crs="


def test_cli_spells_every_setting_as_its_flag():
    e = InputError(
        "{option} 30 is not under {option:corner_tolerance_ft} 30", parameter="accuracy_ft"
    )
    assert e.worded(flag) == "--accuracy-ft 30 is not under --corner-tolerance-ft 30"
    assert str(e) == "accuracy_ft= 30 is not under corner_tolerance_ft= 30"
    assert InputError("{option} missing", parameter="parcel_field").worded(flag) == (
        "--sign-parcel-field missing"
    )


@pytest.mark.parametrize("cls", [InputError, CRSError, RulesError])
def test_a_message_without_placeholder_is_left_as_it_is(cls):
    assert cls("plain {braces} stay", parameter="crs").worded(flag) == "plain {braces} stay"
