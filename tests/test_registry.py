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


def dated_records(*years, field="year"):
    """Records of the two lots' land (the first over the lot at 0, the second over the lot at
    2,000 ft), each of its ``year``, in a layer with a year column ``field``."""
    return FeatureLayer(
        "<memory>",
        np.array(
            [shapely.box(-10, -10, 510, 510), shapely.box(1990, -10, 2510, 510)][: len(years)],
            dtype=object,
        ),
        LOCAL_FT,
        np.array(list(years), dtype=object),
        field,
    )


@pytest.mark.parametrize("unreadable", ["25-26", "FY26", None])
def test_a_record_of_no_readable_year_is_uncertain_not_current(tmp_path, unreadable):
    # The 2026-27 season (the check on 2026-08-01): the second lot's record says 2026, the
    # first lot's gives no year of four digits (or none: a blank cell in a layer whose year
    # column the others fill). It may be this season's or an earlier one's: the first lot is
    # uncertain (it was posted by the registry, compliant, as though the record were current),
    # its record an uncertain finding, not the violation of no record.
    lots = [square(500), square(500, x0=2000)]
    r = check(
        parcels(*lots),
        markers([]),
        profile_file(tmp_path, ELECTRONIC),
        context=Context(registry=dated_records(unreadable, "2026"), today=dt.date(2026, 8, 1)),
    )
    p = r.to_dict()["parcels"]
    assert (p[0]["status"], p[0]["posted_by"]) == ("uncertain", None)
    assert (p[1]["status"], p[1]["posted_by"]) == ("compliant", "registry")
    assert p[0]["registry"].startswith("recorded, for a posting year not known (the record's year")
    assert not p[0]["violations"]
    [u] = [u for u in p[0]["uncertain"] if u["rule"] == "registry"]
    assert (
        "may not be recorded in the state's electronic posting database for the posting "
        in (u["message"])
    )
    assert "year 2026" in u["message"]


def test_a_record_of_no_readable_year_beside_a_stale_one(tmp_path):
    # The first lot recorded for 2025 and, again, for a year not known: not surely stale, so
    # uncertain; a required record of a year not known is no violation of the town's rule.
    rules = profile_file(tmp_path, TOWN)
    ctx = Context(registry=dated_records("2025", "?"), today=dt.date(2026, 11, 30))
    lots = [square(400), square(500, x0=2000)]
    pts = [(0, 0), (400, 0), (400, 400), (0, 400), (2000, 0), (2500, 0), (2500, 500), (2000, 500)]
    pts += [(2250, 0), (2500, 250), (2250, 500), (2000, 250)]
    att = pd.DataFrame({"sign_year": ["2026"] * len(pts)})
    r = check(parcels(*lots), markers(pts, attributes=att), rules, context=ctx)
    p = r.to_dict()["parcels"]
    # the first lot: its record is 2025's, a violation of "recorded each year"
    assert p[0]["status"] == "noncompliant"
    assert p[0]["registry"] == "recorded for 2025, not the current posting year 2026"
    # the second: its signs are in order; its record's year is not known
    assert p[1]["status"] == "uncertain" and not p[1]["violations"]
    [u] = p[1]["uncertain"]
    assert u["rule"] == "registry" and "town clerk" in u["message"]
