"""Checks: pure, vectorised functions from geometry (in working feet) to findings.

No check reads a file, prints, or knows about folium; each takes arrays and returns arrays
aligned with its input.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "AREA_SLACK",
    "EPSILON_FT",
    "FAIL",
    "FOOT_SLACK",
    "OK",
    "UNCERTAIN",
    "acres_at_most",
    "against_max",
    "apart_accuracy",
]

OK, UNCERTAIN, FAIL = 0, 1, 2

EPSILON_FT = 1e-3
"""Floating-point slack in comparisons (0.001 ft, a third of a millimetre): a gap of exactly
500 ft, computed as 500.0000000001 after projection, is not over a 500 ft limit."""

FOOT_SLACK = 2.5e-6
"""Relative slack: the US survey foot is 2 parts per million longer than the international foot,
and statutes written before 2023 may mean either. A gap of 1,320 US survey feet (1,320.0026
international feet) is not over a limit of 1,320 feet."""

AREA_SLACK = (1 + FOOT_SLACK) ** 2 - 1
"""The same for areas: the US survey acre (43,560 square US survey feet) is 4 parts per million
larger than the international acre, so land of exactly 5 US survey acres measures 5.00002
acres, and is not more than 5 acres."""


def acres_at_most(area_acres: np.ndarray, limit_acres: float) -> np.ndarray:
    """True where an area (acres) is not more than a limit, in either acre (:data:`AREA_SLACK`)
    and within a floating-point hair (a thousandth of a square foot).

    >>> acres_at_most(np.array([5.0, 5.00002, 5.0001]), 5.0).tolist()
    [True, True, False]
    """
    area = np.asarray(area_acres, dtype=float)
    return area <= limit_acres * (1 + AREA_SLACK) + 1e-3 / 43_560


def against_max(measured: np.ndarray, limit: float | np.ndarray, accuracy: float) -> np.ndarray:
    """Compare measured values with a maximum, allowing for the stated survey accuracy.

    A value is ``OK`` when it is within the limit even if the survey is off by ``accuracy``
    (``measured <= limit - accuracy``), ``FAIL`` when it exceeds the limit even so
    (``measured > limit + accuracy``), and ``UNCERTAIN`` in between. With ``accuracy = 0``
    this is the plain "not more than" test.

    Examples
    --------
    >>> against_max(np.array([480.0, 500.0, 505.0, 520.0]), 500.0, 0.0).tolist()
    [0, 0, 2, 2]
    >>> against_max(np.array([480.0, 500.0, 505.0, 520.0]), 500.0, 10.0).tolist()
    [0, 1, 1, 2]
    >>> against_max(np.array([500.0000001, 500.01]), 500.0, 0.0).tolist()
    [0, 2]
    >>> against_max(np.array([1320 * 1200 / 3937 / 0.3048]), 1320.0, 0.0).tolist()  # US survey ft
    [0]
    """
    measured = np.asarray(measured, dtype=float)
    limit = np.asarray(limit, dtype=float)
    slack = EPSILON_FT + FOOT_SLACK * np.abs(limit)
    out = np.full(measured.shape, UNCERTAIN, dtype=np.int8)
    out[measured <= limit - accuracy + slack] = OK
    out[measured > limit + accuracy + slack] = FAIL
    return out


def apart_accuracy(accuracy_ft: float) -> float:
    """How far off a distance between two surveyed markers may be, when each is off by up to
    ``accuracy_ft``: twice it (one may be that far one way, the other the other way). A gap of
    515 ft between two phone fixes good to 10 ft each may be 495 ft on the ground; one of
    490 ft, 510 ft. A marker's distance to a place the parcel data fixes (a corner) is off by
    the accuracy alone.

    >>> apart_accuracy(10.0)
    20.0
    """
    return 2.0 * float(accuracy_ft)
