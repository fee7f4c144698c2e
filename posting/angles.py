"""Longitudes and latitudes written in degrees, minutes and seconds (``28°45'12.3"N``).

A sign's position copied from a phone's compass app or a handheld GPS's screen is often
written so, not in decimal degrees: ``28°45'12.3"N``, ``N28 45.205``, ``28 45 12.3 N``,
``-81:07:01.2``. :func:`parse` reads one such text for its axis (a latitude or a longitude)
strictly: degrees, then minutes, then seconds, each number followed by its mark (``°``, ``'``,
``"`` and their typographic forms) or separated by spaces or colons; a hemisphere letter
before or after (or a sign, not both); minutes and seconds below 60, and whole degrees (and
minutes) before a smaller unit. Anything else is not read.

Two libraries were tried first and not taken: ``lat_lon_parser`` reads any character as a
separator (``1 2 3 4`` is 1.034 degrees; its documentation says it lets anything through
that fits a pattern), and ``pygeodesy``'s ``parseDMS`` read ``28°45'12.3"N`` as 284512.3
with spaces as its separator. A position read wrongly places a sign elsewhere without a word,
so the grammar here is small and strict.
"""

from __future__ import annotations

import re

_NUMBER = r"\d+(?:\.\d+)?"
_DEGREE = "°º˚"
_MINUTE = "'′’‘"
_SECOND = '"″”“'
_TEXT = re.compile(
    rf"""^\s*
    (?P<before>[NSEW])?\s*(?P<sign>[-+])?\s*
    (?P<d>{_NUMBER})
    (?:
        (?:\s*(?P<dmark>[{_DEGREE}:])\s*|\s+)
        (?P<m>{_NUMBER})
        (?:
            (?:\s*(?P<mmark>[{_MINUTE}:])\s*|\s+)
            (?P<s>{_NUMBER})
            (?:\s*(?P<smark>[{_SECOND}]|''|′′))?
        |
            \s*(?P<mlast>[{_MINUTE}])
        )?
    |
        \s*(?P<dlast>[{_DEGREE}])
    )?
    \s*(?P<after>[NSEW])?\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
_AXIS_LETTERS = {"lat": "NS", "lon": "EW"}
_AXIS_NAMES = {"lat": "latitude", "lon": "longitude"}


def parse(text: str, axis: str) -> tuple[float | None, str | None]:
    """``text`` in degrees, minutes and seconds as decimal degrees, for ``axis`` (``"lat"``
    or ``"lon"``): the value and None; or None and why it is not read as such (None for text
    that is no such angle at all).

    Examples
    --------
    >>> parse('28°45\\'12.3"N', "lat")
    (28.753416666666666, None)
    >>> parse("W081 07.020", "lon")
    (-81.117, None)
    >>> parse("28 45 61 N", "lat")
    (None, 'its seconds (61) are not below 60')
    >>> parse("abc", "lat")
    (None, None)
    """
    m = _TEXT.match(text)
    if m is None:
        return None, None
    marks = ("dmark", "dlast", "mmark", "mlast", "smark", "before", "after")
    marked = any(m[g] for g in marks)
    if not marked and m["m"] is None:  # a bare number: not this (nor a number to read here)
        return None, None
    before, after, sign = (m["before"] or "").upper(), (m["after"] or "").upper(), m["sign"]
    if before and after:
        return None, f"it has two hemisphere letters ({before}, {after})"
    letter = before or after
    if letter and sign:
        return None, f"it has both a sign ({sign}) and a hemisphere letter ({letter})"
    if letter and letter not in _AXIS_LETTERS[axis]:
        other = "lon" if axis == "lat" else "lat"
        return None, (
            f"{letter} is a {_AXIS_NAMES[other]}'s hemisphere, in the {_AXIS_NAMES[axis]} "
            "column: are the columns swapped?"
        )
    d, mins, secs = m["d"], m["m"], m["s"]
    if mins is not None and "." in d:
        return None, f"its degrees ({d}) are not whole, and minutes follow"
    if secs is not None and "." in mins:
        return None, f"its minutes ({mins}) are not whole, and seconds follow"
    if mins is not None and float(mins) >= 60:
        return None, f"its minutes ({mins}) are not below 60"
    if secs is not None and float(secs) >= 60:
        return None, f"its seconds ({secs}) are not below 60"
    value = float(d) + float(mins or 0) / 60 + float(secs or 0) / 3600
    negative = sign == "-" or letter in ("S", "W")
    return (-value if negative else value), None
