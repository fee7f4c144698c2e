"""Sign content: letter height, required words, names; not recorded is not checked."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from helpers import AT_SEA, CORNERS_AND_MIDPOINTS, content_violations, markers, parcels, square
from hypothesis import example, given, settings
from hypothesis import strategies as st

from posting import check
from posting.checks import FAIL, OK
from posting.checks.content import NOT_KNOWN, NOT_RECORDED, age_status


def run(attrs, owners=None):
    r = check(
        parcels(square(), owners=owners),
        markers(CORNERS_AND_MIDPOINTS, attributes=attrs),
        settings=AT_SEA,
    )
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


def test_a_spreadsheet_s_headers_with_blanks_and_units_are_the_marker_columns(tmp_path):
    """A landowner's spreadsheet saved as CSV names its columns as people write them: ``Sign
    Text``, ``Letter Height (in)``, ``Name On Sign``. They were not read (only ``sign_text``,
    ``letter_height_in`` ... were), so the 1.75-inch letters and the sign without the words
    went unseen: every content rule 'not checked' and the parcel compliant. Read as the
    columns they name, the check finds what the same table with the canonical names gives:
    one letter height of 1.75 in (under Florida's 2 in), one sign without "no trespassing"."""
    from helpers import LOCAL_FT

    from posting.io import read_markers

    heights = ["2", "1.75", "3", "", "2", "2", "2", "2"]
    texts = ["No Trespassing"] * 7 + ["Private property"]
    names = ["J. Smith"] * 6 + ["none", ""]
    xy = pd.DataFrame(CORNERS_AND_MIDPOINTS, columns=["X", "Y"])
    sheet = xy.assign(**{"Sign Text": texts, "Letter Height (in)": heights, "Name On Sign": names})
    path = tmp_path / "signs.csv"
    sheet.to_csv(path, index=False)
    r = check(
        parcels(square(), owners=["SMITH JOHN"]), read_markers(path, crs=LOCAL_FT), settings=AT_SEA
    )
    p = r.to_dict()["parcels"][0]
    content_violations(p)
    # the second method: the same table under the canonical names, built in code
    canonical = pd.DataFrame(
        {"sign_text": texts, "letter_height_in": heights, "name_on_sign": names}
    ).replace("", None)
    _, q = run(canonical, owners=["SMITH JOHN"])
    assert p["violations"] == q["violations"] and p["not_checked"] == q["not_checked"]


def test_letter_heights_that_give_their_unit_are_read_in_inches():
    """A survey that writes the unit: '3 in', '2"', '0.2 ft' (2.4 in) pass the 2-inch letter;
    '5 cm' (1.97 in, 5 / 2.54) and '40 mm' (1.57 in) fail, and the smaller is the one reported;
    '2 deg' (no length) and 'big' are not recorded, never a violation."""
    heights = ["3 in", '2"', "0.2 ft", "5 cm", "40 mm", "2 deg", "big", "2.5 inches"]
    _, p = run(pd.DataFrame({"letter_height_in": heights}))
    [v] = [x for x in p["violations"] if x["rule"] == "letter_height"]
    assert v["count"] == 2 and v["measured"] == pytest.approx(40 / 25.4, abs=0.01)
    assert [x["message"] for x in p["not_checked"] if x["rule"] == "letter_height"] == [
        "not recorded for 2 of 8 signs"
    ]


def test_a_lessees_name_is_noted_not_failed():
    attrs = pd.DataFrame({"name_on_sign": ["Hunt Club (lessee)"] * 8})
    _, p = run(attrs, owners=["SMITH JOHN"])
    assert p["status"] == "compliant"
    [note] = p["notes"]
    assert note["count"] == 8 and "lessee or occupant" in note["message"]


_MONTH_NAMES = ["January", "Feb", "Mar.", "april", "MAY", "June", "Jul", "Aug", "Sept", "Oct"]
_MONTH_NAMES += ["Nov", "December"]


@st.composite
def _period(draw) -> tuple[object, pd.Timestamp, pd.Timestamp]:
    """A year or a month alone, as a survey may write it, with its first day and the first day
    after it, worked out with the calendar."""
    year = draw(st.integers(1990, 2040))
    month = draw(st.none() | st.integers(1, 12))
    if month is None:
        value = draw(st.sampled_from([str(year), f" {year} ", year, float(year)]))
        return value, pd.Timestamp(year, 1, 1), pd.Timestamp(year + 1, 1, 1)
    value = draw(
        st.sampled_from(
            [
                f"{year}-{month:02d}",
                f"{year}/{month}",
                f"{month}/{year}",
                f"{month:02d}.{year}",
                f"{_MONTH_NAMES[month - 1]} {year}",
            ]
        )
    )
    after = pd.Timestamp(year + month // 12, month % 12 + 1, 1)
    return value, pd.Timestamp(year, month, 1), after


@settings(max_examples=120, deadline=None)
@given(_period(), st.dates(dt.date(1995, 1, 1), dt.date(2045, 1, 1)), st.integers(1, 800))
@example(("2026", pd.Timestamp(2026, 1, 1), pd.Timestamp(2027, 1, 1)), dt.date(2026, 6, 15), 365)
@example(
    ("Dec 2026", pd.Timestamp(2026, 12, 1), pd.Timestamp(2027, 1, 1)), dt.date(2026, 11, 30), 9
)
@example(("2027-01", pd.Timestamp(2027, 1, 1), pd.Timestamp(2027, 2, 1)), dt.date(2026, 11, 30), 9)
def test_a_year_or_a_month_alone_is_judged_over_every_day_of_it(period, today, days):
    """The oracle: every day of the period that can have been (up to a day after ``today``)
    judged as a full date, and its last such moment; the period is OK where all are, a
    failure where all are, not known otherwise or where none can have been (after the check
    date)."""
    value, first, after = period
    limit = pd.Timestamp(today) + pd.Timedelta(days=1)
    last = min(after - pd.Timedelta(microseconds=1), limit)
    day = pd.date_range(first, last, freq="D")
    moments = pd.Series([*day.strftime("%Y-%m-%d"), str(last)] if first <= limit else [])
    each = age_status(moments, pd.Timestamp(today), days)
    want = OK if (each == OK).all() else FAIL if (each == FAIL).all() else NOT_KNOWN
    if not len(moments):
        want = NOT_KNOWN
    assert age_status(pd.Series([value], dtype=object), pd.Timestamp(today), days)[0] == want


def test_not_a_period_nor_a_date_is_not_recorded():
    today = pd.Timestamp("2026-11-30")
    values = ["Foo 2025", "13/2025", "2025-13", "2025-00", "soon", "", None, 1850, 45000.0]
    values += [2025.5, float("inf")]
    got = age_status(pd.Series(values, dtype=object), today, 365)
    assert got.tolist() == [NOT_RECORDED] * len(values)
    full = ["2026-11-29", "2025-11-30", "2025-11-29", "11/29/2025", "2026-01-01T10:00:00+02:00"]
    assert age_status(pd.Series(full), today, 365).tolist() == [OK, OK, FAIL, FAIL, OK]


def test_letters_a_hair_under_the_minimum_are_never_shown_at_it():
    """Letters 1.996 in high fail "at least 2 inches" (no slack): the violation's measured
    figure read 2.0 beside its limit 2.0; it is 1.99 (the limit less one unit of the last
    decimal), in the JSON report and in the GeoJSON's parcel properties alike. Letters
    2.004 in high pass and are no violation."""
    import json

    heights = ["2", "1.996", "3", "2.004", "2", "2", "2", "2"]
    r, p = run(pd.DataFrame({"letter_height_in": heights}))
    [v] = [x for x in p["violations"] if x["rule"] == "letter_height"]
    assert (v["count"], v["measured"], v["limit"], v["unit"]) == (1, 1.99, 2.0, "in")
    assert r.findings.loc[r.findings["rule"] == "letter_height", "measured"].tolist() == [1.996]
    [parcel] = [
        f["properties"]
        for f in json.loads(r.to_geojson())["features"]
        if f["properties"]["layer"] == "parcel"
    ]
    [g] = [x for x in parcel["violations"] if x["rule"] == "letter_height"]
    assert g["measured"] == 1.99
