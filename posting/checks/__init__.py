"""Checks: pure, vectorised functions from geometry (in working feet) to findings.

No check reads a file, prints, or knows about folium; each takes arrays and returns arrays
aligned with its input.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "AREA_SLACK",
    "EPSILON_FT",
    "FAIL",
    "FOOT_SLACK",
    "OK",
    "UNCERTAIN",
    "acres_at_most",
    "acres_may_be_at_most",
    "against_max",
    "apart_accuracy",
    "by_ground",
    "shown",
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


def acres_at_most(
    area_acres: np.ndarray, limit_acres: float, scale: tuple[Any, Any] = (1.0, 1.0)
) -> np.ndarray:
    """True where an area (acres) is not more than a limit, in either acre (:data:`AREA_SLACK`)
    and within a floating-point hair (a thousandth of a square foot).

    ``scale`` (``lo``, ``hi``) is how much longer on the ground a length may be than as
    measured (:func:`against_max`): an area is then ``lo**2`` to ``hi**2`` times as large, and
    True means not more than the limit at ``hi`` (surely); :func:`acres_may_be_at_most` tells
    the areas not more than it at ``lo``.

    >>> acres_at_most(np.array([5.0, 5.00002, 5.0001]), 5.0).tolist()
    [True, True, False]
    >>> acres_at_most(np.array([4.99, 4.995, 4.999]), 5.0, (1.0003, 1.0007)).tolist()
    [True, False, False]
    """
    area = np.asarray(area_acres, dtype=float) * np.asarray(scale[1], dtype=float) ** 2
    return area <= limit_acres * (1 + AREA_SLACK) + 1e-3 / 43_560


def acres_may_be_at_most(
    area_acres: np.ndarray, limit_acres: float, scale: tuple[Any, Any]
) -> np.ndarray:
    """True where an area may be not more than a limit on the ground: at the smaller ``scale``
    (:func:`acres_at_most` at ``lo``).

    >>> acres_may_be_at_most(np.array([4.99, 4.995, 4.999]), 5.0, (1.0003, 1.0007)).tolist()
    [True, True, False]
    """
    return acres_at_most(area_acres, limit_acres, (scale[0], scale[0]))


def against_max(
    measured: np.ndarray,
    limit: float | np.ndarray,
    accuracy: float | np.ndarray,
    scale: tuple[Any, Any] = (1.0, 1.0),
) -> np.ndarray:
    """Compare measured values with a maximum, allowing for the stated survey accuracy.

    A value is ``OK`` when it is within the limit even if the survey is off by ``accuracy``
    (``measured <= limit - accuracy``), ``FAIL`` when it exceeds the limit even so
    (``measured > limit + accuracy``), and ``UNCERTAIN`` in between. With ``accuracy = 0``
    this is the plain "not more than" test.

    ``scale`` (``lo``, ``hi``; numbers or arrays aligned with ``measured``) is how much longer
    on the ground the measured figure may be (:class:`posting.elevation.GroundBand`: measured
    at sea level, land whose elevation is known only to lie in a range): ``OK`` only when
    ``measured * hi`` is within, ``FAIL`` only when ``measured * lo`` is over.

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
    >>> against_max(np.array([499.0, 499.8, 499.95]), 500.0, 0.0, (1.00016, 1.00069)).tolist()
    [0, 1, 2]
    """
    measured = np.asarray(measured, dtype=float)
    limit = np.asarray(limit, dtype=float)
    lo, hi = (
        measured if isinstance(k, float | int) and k == 1 else measured * k  # (no copy at 1)
        for k in scale
    )
    slack = EPSILON_FT + FOOT_SLACK * np.abs(limit)
    out = np.full(measured.shape, UNCERTAIN, dtype=np.int8)
    out[hi <= limit - accuracy + slack] = OK
    out[lo > limit + accuracy + slack] = FAIL
    return out


def by_ground(
    measured: np.ndarray,
    limit: float | np.ndarray,
    accuracy: float | np.ndarray,
    scale: tuple[Any, Any],
) -> np.ndarray:
    """True where :func:`against_max` with ``scale`` says otherwise than at the figure as
    measured (the land's elevation decides it: a pass or a close call made uncertain or a
    fail by the ground's longer feet).

    >>> by_ground(np.array([499.0, 499.8, 499.95, 510.0]), 500.0, 0.0, (1.00016, 1.00069)).tolist()
    [False, True, True, False]
    """
    return against_max(measured, limit, accuracy, scale) != against_max(measured, limit, accuracy)


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


def shown(
    values: np.ndarray,
    decimals: int,
    limit: float | np.ndarray,
    verdict: int | np.ndarray,
    maximum: bool | np.ndarray = True,
) -> np.ndarray:
    """Figures to be shown to ``decimals`` beside their verdict against a limit, each kept on
    its verdict's side of the limit: ``values`` as they are, but where rounding would put one
    on the wrong side, the nearest figure of ``decimals`` decimals on the right side.

    A figure that fails a maximum (``verdict`` ``FAIL``, ``maximum`` true) is never shown at
    or under the limit: a gap of 500.004 ft fails "not more than 500 feet" (the slack of
    :func:`against_max` is 0.00225 ft there) and is shown 500.01 at two decimals, not 500.0.
    One that fails a minimum is never shown at or above it (limit less one unit of the last
    decimal); one that passes a maximum (it may exceed it by the slack) never above it, one
    that passes a minimum never under it. ``UNCERTAIN`` figures, and any not finite or
    without a finite limit, are left as they are.

    The figure shown is within one unit of the last decimal of the plain rounding (where the
    slack is under half a unit, as it is at two decimals for limits under 1,600 ft). The
    figures replaced are exact to ``decimals``, so that every writer's rounding (numpy's, or
    Python's ``round`` and ``format``) shows them alike; both roundings are tested. The side is
    the verdict's, never a comparison made again here.

    Parameters
    ----------
    values
        The figures (as measured).
    decimals
        The decimals they are shown to (0 or more).
    limit, verdict, maximum
        Per figure (or one for all): its limit, its verdict against it (``OK``, ``UNCERTAIN``,
        ``FAIL``), and whether the limit is a maximum (else a minimum).

    Examples
    --------
    >>> shown(np.array([500.004, 512.3, 500.004, 500.002, 499.9]), 2, 500.0,
    ...       np.array([FAIL, FAIL, UNCERTAIN, OK, OK])).tolist()
    [500.01, 512.3, 500.004, 500.002, 499.9]
    >>> shown(np.array([500.004]), 1, 500.0, FAIL).tolist()
    [500.1]
    >>> shown(np.array([1.996, 2.0]), 2, 2.0, np.array([FAIL, OK]), maximum=False).tolist()
    [1.99, 2.0]
    >>> shown(np.array([5280.012]), 2, 5280.0, OK).tolist()  # passes within the slack
    [5280.0]
    """
    from posting.jsontext import rounded

    v = np.asarray(values, dtype=float)
    lim = np.broadcast_to(np.asarray(limit, dtype=float), v.shape)
    verdict = np.broadcast_to(np.asarray(verdict), v.shape)
    high = np.broadcast_to(np.asarray(maximum, dtype=bool), v.shape)
    scale = 10.0**decimals
    with np.errstate(invalid="ignore", over="ignore"):
        # the least and the greatest of the two roundings a writer may use
        a, b = np.round(v, decimals), rounded(v, decimals)
        lo, hi = np.fmin(a, b), np.fmax(a, b)
        fail, ok = verdict == FAIL, verdict == OK
        # above the limit (fails a maximum), under it (fails a minimum), at or under it
        # (passes a maximum), at or above it (passes a minimum)
        above = fail & high & (lo <= lim)
        under = fail & ~high & (hi >= lim)
        at_most = ok & high & (hi > lim)
        at_least = ok & ~high & (lo < lim)
        down, up = np.floor(lim * scale), np.ceil(lim * scale)
        out = v.copy()
        for mask, first, second, right in (
            (above, down + 1, down + 2, lambda c, x: c > x),
            (under, up - 1, up - 2, lambda c, x: c < x),
            (at_most, down, down - 1, lambda c, x: c <= x),
            (at_least, up, up + 1, lambda c, x: c >= x),
        ):
            if mask.any():
                # the nearest figure of so many decimals on the right side of the limit (the
                # product of the limit and the scale may be off by an ulp: then the next)
                c1 = np.round(first[mask] / scale, decimals)
                c2 = np.round(second[mask] / scale, decimals)
                out[mask] = np.where(right(c1, lim[mask]), c1, c2)
    return out
