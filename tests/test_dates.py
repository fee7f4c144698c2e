"""Survey dates: the order of day and month decided on the whole file (posting.dates), and
what is no date (a time alone, a day without its year).

Each expected date is worked out by hand: checked on 2026-11-30 with renewal every 365 days,
a survey is old when it is more than 365 days before, i.e. before 2025-11-30.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import CORNERS_AND_MIDPOINTS, LOCAL_FT, one_line_error, profile_file, square
from pyproj import Transformer
from test_cli import Runner

from posting import dates
from posting.checks.content import FAIL, NOT_KNOWN, OK, age_status
from posting.cli import main
from posting.errors import InputError

TO_LONLAT = Transformer.from_crs(LOCAL_FT, "EPSG:4326", always_xy=True)
TODAY = pd.Timestamp("2026-11-30")

RENEWAL = """
[spacing]
max_ft = 600
clause = "Test Code 1(a)"

[renewal]
days = 365
clause = "Test Code 1(c)"
"""


@pytest.fixture
def runner() -> Runner:
    return Runner()


# -- the order, decided on a file's dates ------------------------------------------------------


def test_a_day_over_12_first_makes_the_whole_file_day_first():
    """03/10/2025 beside 13/10/2025 is 3 October (pandas alone read it as 10 March)."""
    values = pd.Series(["03/10/2025", "13/10/2025", "01.12.2025 08:30", "2025-06-01", None])
    t = dates.tally(values, np.arange(5))
    assert t["day_first"] == (1, 1, "13/10/2025")
    assert t["either_slash"] == (1, 0, "03/10/2025")
    assert t["either"] == (1, 2, "01.12.2025 08:30")
    order = dates.decide(t, "eu.csv", "surveyed")
    assert order == dates.DAY_FIRST
    got = dates.settle(values, order).tolist()
    assert got[:4] == ["2025-10-03", "2025-10-13", "2025-12-01 08:30", "2025-06-01"]


def test_a_day_over_12_second_makes_the_whole_file_month_first():
    values = pd.Series(["03/10/2025", "10/13/2025", "3-4-25"])
    t = dates.tally(values, np.array([10, 11, 12]))
    order = dates.decide(t, "us.csv", "date")
    assert order == dates.MONTH_FIRST
    # 3-4-25: month 3, day 4, year 2025 (two digits as strptime's %y reads them)
    assert dates.settle(values, order).tolist() == ["2025-03-10", "2025-10-13", "2025-03-04"]


def test_a_file_with_both_orders_is_refused_naming_two_rows_and_the_cure():
    values = pd.Series(["2025-01-01", "13/10/2025", "03/10/2025", "10/14/2025"])
    with pytest.raises(InputError) as e:
        dates.decide(dates.tally(values, np.arange(4)), "mixed.csv", "survey_date")
    assert str(e.value) == (
        "mixed.csv: its 'survey_date' column has dates written day first and dates written "
        "month first: row 1 '13/10/2025' (a first field over 12: day first) and row 3 "
        "'10/14/2025' (a second field over 12: month first), so which way each of the others "
        "is read cannot be known; write every date one way, best year first (2025-10-13), "
        "and check again"
    )


def test_pieces_tallies_add_up_to_the_whole_file_s():
    values = pd.Series(["03.10.2025", "04.10.2025", "05.10.2025", "14:05", "13.10.2025"])
    whole = dates.tally(values, np.arange(5))
    pieces = [dates.tally(values[k : k + 2], np.arange(k, min(k + 2, 5))) for k in (4, 2, 0)]
    assert dates.combine(pieces) == whole
    assert dates.decide(pieces[2], "a.csv", "d") is None  # rows 0-1 alone settle nothing
    assert dates.decide(dates.combine(pieces), "a.csv", "d") == dates.DAY_FIRST


def test_a_file_no_date_settles_says_so_and_its_ambiguous_dates_are_not_known():
    """All fields 12 or less, written with dots (no US date): no order is guessed.
    03.10.2025 is 2025-10-03 day first, 2025-03-10 month first; 03.03.2025 is one day either
    way; 14:05 and "Oct 3" are no date (pandas: today, this year's 3 October)."""
    values = pd.Series(["03.10.2025", "03.03.2025", "14:05", "Oct 3", "11.12.2025"])
    t = dates.tally(values, np.arange(5))
    assert dates.decide(t, "f.csv", "surveyed") is None
    assert dates.settle(values, None).tolist() == values.tolist()
    assert dates.notes(t, None, "f.csv", "surveyed") == [
        "f.csv: 2 survey date(s) of column 'surveyed' read either way, day first or month "
        "first (row 0: '03.10.2025' is 2025-10-03 day first, 2025-03-10 month first), and no "
        "date of the file settles it (none has a field over 12): their survey age is not "
        "known; write them year first (2025-10-03)",
        "f.csv: 2 value(s) of column 'surveyed' are a time alone or a day without its year "
        "(row 2: '14:05'): no date, so their survey age is not known; write the whole date, "
        "year first (2025-10-03)",
    ]
    # 03.03.2025 is 637 days before the check date (2025-03-03 to 2026-11-30): old
    assert age_status(values, TODAY, 365).tolist() == [NOT_KNOWN, FAIL] + [NOT_KNOWN] * 3


def test_a_file_no_date_settles_written_with_slashes_is_read_the_us_way():
    """All fields 12 or less, every such date written with slashes: month first, as a US
    spreadsheet writes them, with a note saying so (03/10/2025 is 3 October day first);
    one written with dots beside them leaves the file unsettled."""
    values = pd.Series(["03/10/2025", "03/03/2025", "11/12/2025", "2025-06-01"])
    t = dates.tally(values, np.arange(4))
    order = dates.decide(t, "us.csv", "surveyed")
    assert order == dates.MONTH_FIRST
    settled = ["2025-03-10", "2025-03-03", "2025-11-12", "2025-06-01"]
    assert dates.settle(values, order).tolist() == settled
    assert dates.notes(t, order, "us.csv", "surveyed") == [
        "us.csv: 2 survey date(s) of column 'surveyed' read month first, the US way (row 0: "
        "'03/10/2025' is 2025-03-10); no date of the file has a field over 12 to say which "
        "comes first: if they are day first (2025-10-03), write them year first (2025-10-03)"
    ]
    # 2025-03-10 is 630 days before 2026-11-30, 2025-11-12 383: both old at 365 days
    assert age_status(pd.Series(settled), TODAY, 365).tolist() == [FAIL, FAIL, FAIL, FAIL]
    both = pd.Series(["03/10/2025", "04.10.2025"])
    assert dates.decide(dates.tally(both, np.arange(2)), "f.csv", "surveyed") is None


def test_a_time_alone_or_a_day_without_a_year_is_never_today_nor_this_year():
    """Checked on the day of the run (pandas' "today") a time alone read as that day: 0 days
    old, OK; "Oct 3" read as 3 October of this year. Both are not known."""
    today = pd.Timestamp.now().normalize()
    values = pd.Series(["14:05", "2:05 pm", "Oct 3", "3 October", "10/03", "2026-10-03"])
    got = age_status(values, today, 365 * 3)
    assert got.tolist() == [NOT_KNOWN] * 5 + [OK if today.year <= 2029 else FAIL]


def test_a_photo_is_not_matched_on_a_day_no_date_gives():
    """A marker surveyed "03/10/2026" (its file not saying the order), "14:05" or "Oct 3"
    tells no day (a photo of any day may be its); "13/10/2026" is 13 October."""
    from posting.photos import _SurveyedMarkers

    m = _SurveyedMarkers.of(
        np.zeros(4), np.zeros(4), ["03/10/2026", "13/10/2026", "14:05", "Oct 3"]
    )
    assert m.times == [None, _dt.date(2026, 10, 13), None, None]


# -- a European survey file checked for renewal -----------------------------------------------


def _lonlat(x: float, y: float) -> tuple[float, float]:
    lon, lat = TO_LONLAT.transform(x, y)
    return float(lon), float(lat)


def _survey(tmp_path: Path, surveyed: list[str], column: str = "surveyed") -> list[str]:
    """The 1,000 ft square with a sign at each corner and midpoint (8), surveyed on
    ``surveyed``, and a profile of spacing 600 ft and renewal every 365 days: the arguments
    of ``posting check`` on 2026-11-30."""
    outline = shapely.transform(
        square(), lambda xy: np.column_stack(TO_LONLAT.transform(xy[:, 0], xy[:, 1]))
    )
    parcels = tmp_path / "parcels.geojson"
    gpd.GeoDataFrame({"pid": ["P1"]}, geometry=[outline], crs=4326).to_file(parcels)
    rows = [
        {"lon": _lonlat(x, y)[0], "lat": _lonlat(x, y)[1], column: d}
        for (x, y), d in zip(CORNERS_AND_MIDPOINTS, surveyed, strict=True)
    ]
    signs = tmp_path / "signs.csv"
    pd.DataFrame(rows).to_csv(signs, index=False)
    rules = profile_file(tmp_path, RENEWAL)
    return [str(parcels), "--signs", str(signs), "--id-field", "pid", "--rules", rules,
            "--check-date", "2026-11-30"]  # fmt: skip


def _renewal(runner, tmp_path: Path, args: list[str]) -> tuple[dict, list[str]]:
    out = tmp_path / "r.json"
    res = runner.invoke(main, ["check", *args, "--json", str(out), "-q"])
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text())
    [p] = report["parcels"]
    return p, report["warnings"]


def test_a_european_file_is_aged_day_first(runner, tmp_path):
    """01/12/2025 is 1 December 2025 (364 days before 2026-11-30: not old), not 12 January
    2025 (687 days); 12/01/2025 is 12 January 2025 (687 days: old); 13/10/2026 settles the
    file. Before, pandas read three old surveys (the 01/12/2025s as 12 January) and missed
    the one that is (12/01/2025 as 1 December)."""
    surveyed = ["01/12/2025"] * 3 + ["12/01/2025", "13/10/2026"] + ["2026-10-14"] * 3
    p, warnings = _renewal(runner, tmp_path, _survey(tmp_path, surveyed))
    assert p["status"] == "compliant"  # a renewal finding is a note, never the verdict
    [note] = [n for n in p["notes"] if n["rule"] == "renewal"]
    assert note["count"] == 1
    assert note["message"] == (
        "1 of 8 markers were surveyed more than 365 days ago (posting is renewed yearly): "
        "survey them again"
    )
    assert not [n for n in p.get("not_checked", []) if n["rule"] == "renewal"]
    signs = str(tmp_path / "signs.csv")
    assert (
        f"{signs}: survey dates of column 'surveyed' read day first (row 4: '13/10/2026' has "
        "a first field over 12)"
    ) in warnings


def test_a_file_no_date_settles_is_not_known_for_renewal(runner, tmp_path):
    """Every date of 1-12 of a month, written with dots: 01.12.2025 is 1 December (recent)
    or 12 January 2025 (old); not known, with the note saying why and how to settle it;
    12.12.2025 is the same day either way (350 days: recent); "Oct 3" and 14:05 are no date.
    Before, pandas read the five 01.12.2025s as old and the others as recent."""
    surveyed = ["01.12.2025"] * 5 + ["12.12.2025", "Oct 3", "14:05"]
    p, warnings = _renewal(runner, tmp_path, _survey(tmp_path, surveyed))
    assert not [n for n in p["notes"] if n["rule"] == "renewal"]
    [unknown] = [n["message"] for n in p["not_checked"] if n["rule"] == "renewal"]
    assert unknown == (
        "not known for 7 of 8 markers: dated by a month or a year that spans the limit, or "
        "after the check date, or by no whole date (a time alone, a day without its year, a "
        "day and month that read either way round: write it year first, 2025-10-03)"
    )
    signs = str(tmp_path / "signs.csv")
    assert (
        f"{signs}: 5 survey date(s) of column 'surveyed' read either way, day first or month "
        "first (row 0: '01.12.2025' is 2025-12-01 day first, 2025-01-12 month first), and no "
        "date of the file settles it (none has a field over 12): their survey age is not "
        "known; write them year first (2025-10-03)"
    ) in warnings
    assert (
        f"{signs}: 2 value(s) of column 'surveyed' are a time alone or a day without its year "
        "(row 6: 'Oct 3'): no date, so their survey age is not known; write the whole date, "
        "year first (2025-10-03)"
    ) in warnings


def test_a_us_file_no_date_settles_is_aged_month_first(runner, tmp_path):
    """Every date of 1-12 of a month, with slashes: 01/12/2025 is 12 January 2025, the US
    way (687 days before 2026-11-30: old), five of them; 12/12/2025 is 350 days (recent);
    "Oct 3" and 14:05 are no date."""
    surveyed = ["01/12/2025"] * 5 + ["12/12/2025", "Oct 3", "14:05"]
    p, warnings = _renewal(runner, tmp_path, _survey(tmp_path, surveyed))
    [note] = [n for n in p["notes"] if n["rule"] == "renewal"]
    assert note["count"] == 5
    signs = str(tmp_path / "signs.csv")
    assert (
        f"{signs}: 5 survey date(s) of column 'surveyed' read month first, the US way (row 0: "
        "'01/12/2025' is 2025-01-12); no date of the file has a field over 12 to say which "
        "comes first: if they are day first (2025-12-01), write them year first (2025-10-03)"
    ) in warnings


def test_a_file_of_both_orders_is_refused_with_exit_2(runner, tmp_path):
    surveyed = ["2026-10-14"] * 2 + ["13/10/2026"] + ["2026-10-14"] * 4 + ["10/14/2026"]
    args = _survey(tmp_path, surveyed, column="Survey Date")
    res = runner.invoke(main, ["check", *args, "--json", str(tmp_path / "r.json")])
    one_line_error(
        res,
        f"{tmp_path / 'signs.csv'}: its 'survey date' column has dates written day first and "
        "dates written month first: row 2 '13/10/2026' (a first field over 12: day first) "
        "and row 7 '10/14/2026' (a second field over 12: month first)",
        "write every date one way, best year first (2025-10-13)",
    )


def test_the_evidence_record_shows_a_european_file_s_dates_year_first(runner, tmp_path):
    """The parcel's page (an officer's exhibit) shows 01/12/2025 of a day-first file as
    2025-12-01 (1 December), never as the surveyor's 01/12/2025 a reader may take for
    12 January."""
    surveyed = ["01/12/2025"] * 3 + ["12/01/2025", "13/10/2026"] + ["2026-10-14"] * 3
    args = _survey(tmp_path, surveyed)
    out = tmp_path / "rec"
    res = runner.invoke(main, ["evidence", *args, "--all", "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = (out / "P1.html").read_text()
    assert page.count("2025-12-01") == 3 and "2025-01-12" in page and "2026-10-13" in page
    assert "01/12/2025" not in page and "13/10/2026" not in page


def test_the_evidence_record_says_a_date_that_reads_either_way_is_not_known(runner, tmp_path):
    """A file of dates of the 1st to the 12th only, with dots: the page shows 01.12.2025 as
    the surveyor wrote it, said to be not known (1 December or 12 January: the file does not
    say), and 12.12.2025 (one day either way) as written, without."""
    surveyed = ["01.12.2025"] * 2 + ["12.12.2025"] * 6
    out = tmp_path / "rec"
    res = runner.invoke(main, ["evidence", *_survey(tmp_path, surveyed), "--all", "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = (out / "P1.html").read_text()
    assert page.count('01.12.2025 <span class="small">(not known)</span>') == 2
    assert page.count("12.12.2025") == 6 and page.count("(not known)") == 2
