"""Registry and current year: postings recorded in a registry, valid for one posting year."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import LOCAL_FT, markers, parcels, profile_file, square

from posting import check
from posting.io import FeatureLayer
from posting.kinds.current_year import posting_year, year_status
from posting.measure import Context

ELECTRONIC = """
[registry]
counts_as_posted = true
required = true
season_start = "08-01"
name = "the state's electronic posting database"
clause = "R 1(b)"
"""


def records(year):
    return FeatureLayer(
        "<memory>",
        np.array([shapely.box(-10, -10, 510, 510)], dtype=object),
        LOCAL_FT,
        np.array([year], dtype=object),
    )


@pytest.mark.parametrize(
    ("today", "year", "status", "posted_by"),
    [
        (dt.date(2026, 7, 31), "2025", "compliant", "registry"),  # 2025-26 season, last day
        (dt.date(2026, 8, 1), "2025", "unposted", None),  # the 2026-27 season began
        (dt.date(2026, 8, 1), "2026", "compliant", "registry"),
        (dt.date(2026, 8, 1), None, "compliant", "registry"),  # a record of no stated year
    ],
)
def test_electronic_posting_for_its_season(tmp_path, today, year, status, posted_by):
    lots = [square(500), square(500, x0=2000)]
    r = check(
        parcels(*lots),
        markers([]),
        profile_file(tmp_path, ELECTRONIC),
        context=Context(registry=records(year), today=today),
    )
    p = r.to_dict()["parcels"]
    assert p[0]["status"] == status and p[0]["posted_by"] == posted_by
    assert p[1]["status"] == "unposted" and p[1]["registry"] is None
    if status == "unposted":
        assert p[0]["registry"] == "recorded for 2025, not the current posting year 2026"
        assert (
            "not recorded in the state's electronic posting database for the posting year "
            "2026" in p[0]["violations"][0]["message"]
        )
    else:
        assert p[0]["registry"].startswith("recorded for")


TOWN = """
[spacing]
max_ft = 400
clause = "V 1"

[current_year]
clause = "V (b)"

[registry]
required = true
name = "the town clerk's office"
clause = "V (c)"
"""


def test_signs_dated_for_the_year_and_recorded_with_the_town(tmp_path):
    pts = [(x, 0) for x in (0, 400)] + [(400, 400), (0, 400)]
    att = pd.DataFrame(
        {
            "sign_year": ["2026", "2026", "2026", "2025"],
            "surveyed": ["2026-03-01"] * 3 + ["2025-12-30"],
        }
    )
    rules = profile_file(tmp_path, TOWN)
    ctx = Context(today=dt.date(2026, 11, 30), registered=np.array([True], dtype=object))
    p = check(parcels(square(400)), markers(pts, attributes=att), rules, context=ctx)
    p = p.to_dict()["parcels"][0]
    [v] = p["violations"]
    assert v["rule"] == "current_year" and v["count"] == 1
    assert "2026 (2026-01-01 to 2026-12-31)" in v["message"]
    [n] = [n for n in p["notes"] if n["rule"] == "current_year_survey"]
    assert n["count"] == 1
    ctx = Context(today=dt.date(2026, 11, 30), registered=np.array([False], dtype=object))
    att.loc[3, "sign_year"] = "2026"
    p = check(parcels(square(400)), markers(pts, attributes=att), rules, context=ctx)
    [v] = p.to_dict()["parcels"][0]["violations"]
    assert v["rule"] == "registry" and "town clerk" in v["message"]


def test_posting_year_and_year_on_a_sign():
    assert posting_year(dt.date(2026, 1, 1)) == 2026
    assert posting_year(dt.date(2026, 1, 1), "08-01") == 2025
    assert year_status(pd.Series(["Posted 2026", "1999", ""]), 2026).tolist() == [0, 2, -1]
