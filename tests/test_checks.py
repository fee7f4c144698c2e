"""posting.checks: a figure shown beside its verdict against a limit stays on the verdict's side
of it (:func:`posting.checks.shown`), by hand and as a property."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from posting.checks import FAIL, OK, UNCERTAIN, against_max, shown


def test_a_gap_that_fails_500_ft_by_four_thousandths_is_shown_over_it():
    # 500.004 ft > 500 + 0.001 + 2.5e-6 * 500 = 500.00225 ft: it fails; rounded it reads 500.0
    [verdict] = against_max(np.array([500.004]), 500.0, 0.0)
    assert verdict == FAIL
    assert shown(np.array([500.004]), 2, 500.0, verdict).tolist() == [500.01]
    assert shown(np.array([500.004]), 1, 500.0, verdict).tolist() == [500.1]
    assert shown(np.array([500.004]), 0, 500.0, verdict).tolist() == [501.0]
    assert shown(np.array([500.004]), 3, 500.0, verdict).tolist() == [500.004]  # shows itself


def test_a_gap_that_passes_within_the_slack_is_never_shown_over_the_limit():
    # 500.002 ft <= 500.00225 ft: compliant. Rounded to 2 decimals it is 500.0 already; at 3
    # decimals it would read 500.002, over the limit it passes: 500.0
    [verdict] = against_max(np.array([500.002]), 500.0, 0.0)
    assert verdict == OK
    assert shown(np.array([500.002]), 2, 500.0, verdict).tolist() == [500.002]  # rounds to 500.0
    assert shown(np.array([500.002]), 3, 500.0, verdict).tolist() == [500.0]
    # a mile: the slack is 0.001 + 2.5e-6 * 5280 = 0.0142 ft; 5280.012 passes, not "5280.01"
    assert shown(np.array([5280.012]), 2, 5280.0, OK).tolist() == [5280.0]


def test_a_minimum_failed_or_passed_by_a_hair():
    # letters 1.996 in high fail "at least 2 in" (no slack): shown 1.99, not 2.0; 2.004 passes
    assert shown(np.array([1.996]), 2, 2.0, FAIL, maximum=False).tolist() == [1.99]
    assert shown(np.array([1.996]), 1, 2.0, FAIL, maximum=False).tolist() == [1.9]
    assert shown(np.array([2.004]), 2, 2.0, OK, maximum=False).tolist() == [2.004]
    # a passing figure that Python rounds under its minimum (2.675 is 2.67499... as a float:
    # "2.67"), numpy over it (2.68): shown 2.68 by both
    assert (f"{2.675:.2f}", float(np.round(2.675, 2))) == ("2.67", 2.68)
    assert shown(np.array([2.675]), 2, 2.675, OK, maximum=False).tolist() == [2.68]


def test_uncertain_and_missing_figures_are_left_as_they_are():
    v = np.array([500.004, np.nan, 500.004])
    lim = np.array([500.0, 500.0, np.nan])
    out = shown(v, 2, lim, np.array([UNCERTAIN, FAIL, FAIL]))
    np.testing.assert_array_equal(out, v)


def test_the_side_is_the_verdict_s_never_a_comparison_made_again():
    # a figure said to fail a maximum is shown over it, whatever it is
    assert shown(np.array([499.996]), 2, 500.0, FAIL).tolist() == [500.01]


def test_only_the_figures_on_the_wrong_side_change_and_the_others_are_the_same_floats():
    v = np.array([512.345, 500.004, 499.0, 500.0])
    out = shown(v, 2, 500.0, np.array([FAIL, FAIL, OK, OK]))
    assert out.tolist() == [512.345, 500.01, 499.0, 500.0]
    assert out[0] is not v[0] and out.dtype == float


def test_a_limit_that_is_not_a_whole_number_of_the_decimals():
    # a rod (16.5 ft): a failing 16.504 ft is 16.6 to a tenth (16.5 reads as the limit); to
    # no decimals it rounds to 17 as it is; a passing 16.501 is 16 there, not 17
    assert shown(np.array([16.504]), 1, 16.5, FAIL).tolist() == [16.6]
    assert shown(np.array([16.504]), 0, 16.5, FAIL).tolist() == [16.504]
    assert shown(np.array([16.501]), 0, 16.5, OK).tolist() == [16.0]
    # a limit whose product by the scale is off by an ulp (0.29 * 100 = 28.999999999999996)
    assert shown(np.array([0.2904]), 2, 0.29, FAIL).tolist() == [0.3]
    assert shown(np.array([0.2896]), 2, 0.29, FAIL, maximum=False).tolist() == [0.28]


def _rounded_both(x: float, decimals: int) -> tuple[float, float]:
    """The figure as numpy rounds it (the reports) and as Python formats it (messages)."""
    return float(np.round(x, decimals)), float(f"{x:.{decimals}f}")


@settings(max_examples=400, deadline=None)
@given(
    limit=st.one_of(
        st.sampled_from([2.0, 16.5, 30.0, 100.0, 500.0, 660.0, 1000.0, 1320.0]),
        st.floats(0.01, 1500.0),
    ),
    offset=st.floats(-0.05, 0.05),
    decimals=st.integers(0, 2),
    maximum=st.booleans(),
)
@example(limit=500.0, offset=0.004, decimals=2, maximum=True)
@example(limit=500.0, offset=0.002, decimals=1, maximum=True)
@example(limit=2.0, offset=-0.004, decimals=2, maximum=False)
@example(limit=0.29, offset=0.0025, decimals=2, maximum=True)
def test_the_figure_shown_is_on_the_verdict_s_side_and_a_unit_from_its_rounding(
    limit, offset, decimals, maximum
):
    """For any figure near any limit (under 1,500 ft, to at most two decimals: where the
    slack, 0.001 ft + 2.5e-6 of the limit, is under half a unit of the last decimal): the
    verdict is the check's (against_max; a minimum as the maximum of the negated figures),
    and the figure shown, rounded either way a writer rounds, is over a maximum it fails, at
    or under one it passes, under a minimum it fails, at or over one it passes; and within
    one unit of the last decimal of the plain rounding."""
    x = limit + offset
    if maximum:
        verdict = int(against_max(np.array([x]), limit, 0.0)[0])
    else:
        verdict = int(against_max(np.array([-x]), -limit, 0.0)[0])
    [out] = shown(np.array([x]), decimals, limit, verdict, maximum=maximum).tolist()
    unit = 10.0**-decimals
    for got, plain in zip(_rounded_both(out, decimals), _rounded_both(x, decimals), strict=True):
        if verdict == FAIL and maximum:
            assert got > limit
        elif verdict == FAIL:
            assert got < limit
        elif maximum:
            assert got <= limit
        else:
            assert got >= limit
        assert abs(got - plain) <= unit * (1 + 1e-9)
    if verdict == UNCERTAIN:
        assert out == x
