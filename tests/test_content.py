"""Sign content: letter height, required words, names; not recorded is not checked."""

from __future__ import annotations

import pandas as pd
from helpers import CORNERS_AND_MIDPOINTS, markers, parcels, square

from posting import check


def run(attrs, owners=None):
    r = check(parcels(square(), owners=owners), markers(CORNERS_AND_MIDPOINTS, attributes=attrs))
    return r, r.to_dict()["parcels"][0]


def test_no_content_columns_means_not_checked_never_a_violation():
    r, p = run(None)
    assert p["status"] == "compliant"
    rules = {n["rule"] for n in r.to_dict()["not_checked"]}
    assert rules == {
        "letter_height",
        "sign_text",
        "name_on_sign",
        "visibility",
        "dwelling",
        "fence",
        "cultivation",
    }


def test_letter_height_words_and_name():
    attrs = pd.DataFrame(
        {
            "Letter_Height_In": ["2", "1.75", "3", "", "2", "2", "2", "2"],
            "TEXT": ["No Trespassing"] * 7 + ["Private property"],
            "name_on_sign": ["J. Smith"] * 6 + ["none", None],
        }
    )
    _, p = run(attrs, owners=["SMITH JOHN"])
    assert p["status"] == "noncompliant"
    v = {x["rule"]: x for x in p["violations"]}
    assert v["letter_height"]["count"] == 1 and v["letter_height"]["measured"] == 1.75
    assert v["letter_height"]["limit"] == 2.0 and v["letter_height"]["unit"] == "in"
    assert v["sign_text"]["count"] == 1 and '"no trespassing"' in v["sign_text"]["message"]
    assert v["name_on_sign"]["count"] == 1
    n = {x["rule"]: x["message"] for x in p["not_checked"]}
    assert n == {
        "letter_height": "not recorded for 1 of 8 signs",
        "name_on_sign": "not recorded for 1 of 8 signs",
    }
    assert p["notes"] == []  # "J. Smith" agrees with the owner of record "SMITH JOHN"


def test_a_lessees_name_is_noted_not_failed():
    attrs = pd.DataFrame({"name_on_sign": ["Hunt Club (lessee)"] * 8})
    _, p = run(attrs, owners=["SMITH JOHN"])
    assert p["status"] == "compliant"
    [note] = p["notes"]
    assert note["count"] == 8 and "lessee or occupant" in note["message"]
