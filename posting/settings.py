"""Measurement settings, with the defaults and the reasons for them.

The statutes give the spacing (500 ft in Florida) but not how close to the line a sign must
stand, nor how near a corner "at each corner" is. These settings make those choices explicit;
the report records the values used.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from posting.errors import InputError

__all__ = ["ACCURACY_GUIDE_FT", "ELEVATION_RANGE_FT", "Settings"]

ACCURACY_GUIDE_FT = {
    "phone": 16.0,
    "handheld GPS": 10.0,
    "mapping-grade GNSS": 3.0,
    "survey-grade RTK": 0.1,
}
"""Typical horizontal accuracy of a surveyed position (about 95 %), in feet.

Smartphones give about 5 m (16 ft) under open sky and worse under trees or in town (7-13 m
measured with an iPhone and Avenza); recreational handheld receivers 3-15 m, typically about
3 m (10 ft) in the open; mapping-grade receivers about 1 m; RTK survey equipment 1-2 cm.
"""

ELEVATION_RANGE_FT = (-300.0, 20_500.0)
"""The elevations ``elevation_ft`` may state, in feet: the lowest and highest land in the United
States (Badwater Basin, 282 ft below sea level; Denali, 20,310 ft above) with some room."""


@dataclass(frozen=True)
class Settings:
    """How markers are matched to boundaries and corners, and how sure a verdict must be.

    Parameters
    ----------
    tolerance_ft
        A marker farther than this from every boundary is not posting any of them. 30 ft
        (about 9 m) covers a phone GPS fix (about 16 ft), a sign set a few feet inside the
        line, and the feet-scale error of county parcel lines, without reaching the signs of a
        lot across a road.
    corner_tolerance_ft
        A corner is marked when a marker of the same parcel stands within this distance of it
        (straight line). Same error budget as ``tolerance_ft``.
    corner_angle_deg
        Smallest change of direction that makes a corner.
    corner_noise_ft
        Digitising noise removed before corners are looked for (Douglas-Peucker tolerance).
    corner_merge_ft
        Turning within this length of boundary is one corner: a corner cut by a chamfer shorter
        than this is one corner; a curve is a corner only when tighter than
        ``corner_merge_ft / corner_angle`` in radius (38 ft with the defaults).
    access_tolerance_ft
        An access point (a driveway, road or trail crossing the boundary, a gate) is marked when
        a marker of the same parcel stands within this distance of the crossing. 50 ft: a sign
        beside a driveway stands off its centreline by half the road's width and a shoulder
        (10-25 ft), plus a phone fix (16 ft).
    water_tolerance_ft
        A stretch of boundary within this distance of water (of a water polygon's edge or
        inside it, or of a stream line) is formed by water. 30 ft: wetland and water layers are
        mapped from imagery at 1:12,000 to 1:24,000, where lines are good to tens of feet, and a
        parcel line "along the river" rarely follows the mapped edge more closely. Stretches
        shorter than three times this are where a line merely crosses or touches narrow water;
        a side that ends at the water counts as water for its last ``water_tolerance_ft``.
    merge_snap_ft
        Merging one owner's parcels: parcels within this distance along a shared stretch of
        boundary adjoin (digitising slivers narrower than it are closed).
    accuracy_ft
        The survey's stated accuracy. A finding within this distance of its limit could go
        either way, so the parcel is ``uncertain`` rather than passed or failed. See
        :data:`ACCURACY_GUIDE_FT`.
    elevation_ft
        The land's height above sea level, in feet (within :data:`ELEVATION_RANGE_FT`). The
        statutes' feet are on the ground, longer than the same span on the ellipsoid (sea
        level) by ``(R + h) / R``: at 5,280 ft, 500 ft measures 499.87 ft at sea level. Given,
        every length, position and area is a ground figure (the working CRS is scaled to the
        ground: :func:`posting.crs.local_tm`); 0 is land at sea level. The geoid lies within
        200 ft of the ellipsoid in the United States: a height above sea level changes the
        factor by under 1e-5 (0.005 ft in 500 ft). None (the default: not given) measures at
        sea level and takes each parcel's elevation to lie anywhere between its state's lowest
        and highest points (:mod:`posting.elevation`): a figure that is within a limit at one
        and not at the other is uncertain.
    """

    tolerance_ft: float = 30.0
    corner_tolerance_ft: float = 30.0
    corner_angle_deg: float = 30.0
    corner_noise_ft: float = 1.0
    corner_merge_ft: float = 20.0
    access_tolerance_ft: float = 50.0
    water_tolerance_ft: float = 30.0
    merge_snap_ft: float = 1.0
    accuracy_ft: float = 0.0
    elevation_ft: float | None = None

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if name == "elevation_ft":
                continue
            if not (value >= 0) or value != value or value == float("inf"):
                raise InputError(f"{name} must be a finite number >= 0, not {value!r}")
        low, high = ELEVATION_RANGE_FT
        if self.elevation_ft is not None and not (low <= self.elevation_ft <= high):  # NaN too
            raise InputError(
                f"{{option}} is the land's height above sea level in feet, from {low:,g} "
                f"(Badwater Basin, -282 ft) to {high:,g} (Denali, 20,310 ft), not "
                f"{self.elevation_ft!r}",
                parameter="elevation_ft",
            )
        if self.tolerance_ft <= 0 or self.corner_angle_deg <= 0 or self.corner_angle_deg >= 180:
            raise InputError("tolerance_ft must be > 0 and corner_angle_deg within (0, 180)")

    def as_dict(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict (``elevation_ft`` only when given, 0 included: not
        given, the reports of before it came).

        >>> "elevation_ft" in Settings().as_dict()
        False
        >>> [Settings(elevation_ft=h).as_dict()["elevation_ft"] for h in (5280, 0)]
        [5280, 0]
        """
        out = asdict(self)
        if self.elevation_ft is None:
            del out["elevation_ft"]
        return out

    @property
    def ground_ft(self) -> float:
        """The elevation the working frame measures at: the one given, else 0 (sea level)."""
        return float(self.elevation_ft or 0.0)
