"""Longitudes and latitudes in degrees, minutes and seconds, read strictly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posting.angles import parse

# 28°45'12.3" = 28 + 45/60 + 12.3/3600 = 28.7534166...; 81°07'01.2" = 81.117
LAT, LON = 28 + 45 / 60 + 12.3 / 3600, -(81 + 7 / 60 + 1.2 / 3600)


@pytest.mark.parametrize(
    ("text", "axis", "value"),
    [
        ("28°45'12.3\"N", "lat", LAT),
        ("81°07'01.2\"W", "lon", LON),
        ("28° 45′ 12.3″ N", "lat", LAT),  # typographic marks, spaces
        ("28º45’12.3”n", "lat", LAT),  # an ordinal for the degree, a lower-case letter
        ("28 45 12.3 N", "lat", LAT),
        ("N28 45.205", "lat", LAT),  # a handheld GPS's hddd mm.mmm
        ("W081 07.020", "lon", LON),
        ("28:45:12.3", "lat", LAT),
        ("-81:07:01.2", "lon", LON),
        ("28°45.205'N", "lat", LAT),
        ("28 45 12.3 S", "lat", -LAT),  # S, not a mark for seconds
        ("28.75 N", "lat", 28.75),
        ("28°", "lat", 28.0),
        ("+28 45", "lat", 28.75),
        ("28°45'12.3''N", "lat", LAT),  # two primes for the seconds
    ],
)
def test_the_forms_in_use_are_read(text, axis, value):
    got, why = parse(text, axis)
    assert why is None and got == pytest.approx(value, abs=1e-12), text


@pytest.mark.parametrize(
    ("text", "axis", "why"),
    [
        ("28 45 61 N", "lat", "seconds (61) are not below 60"),
        ("28 60 N", "lat", "minutes (60) are not below 60"),
        ("28.5 45 N", "lat", "degrees (28.5) are not whole"),
        ("28 45.5 12 N", "lat", "minutes (45.5) are not whole"),
        ("28°45'N", "lon", "N is a latitude's hemisphere, in the longitude column"),
        ("81°07'W", "lat", "W is a longitude's hemisphere, in the latitude column"),
        ("N28 45 N", "lat", "two hemisphere letters"),
        ("-28 45 N", "lat", "both a sign (-) and a hemisphere letter (N)"),
    ],
)
def test_what_is_not_an_angle_s_text_says_why(text, axis, why):
    got, said = parse(text, axis)
    assert got is None and why in said


@pytest.mark.parametrize(
    "text", ["28.5", "abc", "", "28,5", "1 2 3 4", "28°45''", "28d45m", "28 45 12.3 N extra"]
)
def test_other_text_is_not_read(text):
    """A bare number is not this parser's (the caller read it); anything outside the grammar
    is not read, and no reason is made up for it."""
    assert parse(text, "lat") == (None, None)


@st.composite
def written(draw) -> tuple[str, str, float]:
    """An angle written by a method of its own: whole degrees, minutes and hundredths of a
    second, in one of the forms in use; the axis; and the value the text means."""
    axis = draw(st.sampled_from(["lat", "lon"]))
    top = 90 if axis == "lat" else 180
    hundredths = draw(st.integers(0, top * 360000 - 1))
    negative = draw(st.booleans())
    d, rest = divmod(hundredths, 360000)
    m, cs = divmod(rest, 6000)
    s = cs / 100
    letter = ("SN" if axis == "lat" else "WE")[not negative]
    sign = "-" if negative else ""
    text = draw(
        st.sampled_from(
            [
                f"{d}°{m:02d}'{s:05.2f}\"{letter}",
                f"{letter}{d} {m + s / 60:.6f}",
                f"{sign}{d}:{m:02d}:{s:05.2f}",
                f"{d} {m} {s:.2f} {letter}",
                f"{letter} {d}° {m}′ {s}″",
            ]
        )
    )
    value = d + m / 60 + s / 3600
    return text, axis, -value if negative else value


@settings(max_examples=300, deadline=None)
@given(written())
def test_written_angles_read_back(case):
    """Property: an angle written in any of the forms reads back as its value (to the
    rounding of the form: a millionth of a minute)."""
    text, axis, value = case
    got, why = parse(text, axis)
    assert why is None and got == pytest.approx(value, abs=1e-6 / 60), text
