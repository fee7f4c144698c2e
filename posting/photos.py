"""Geotagged photos of signs: a posting survey from a phone's camera roll.

A phone that takes a photo with location services on writes into the file's EXIF data where it
stood (``GPSLatitude``/``GPSLongitude``), when (``DateTimeOriginal`` with its
``OffsetTimeOriginal``, and the satellites' ``GPSDateStamp``/``GPSTimeStamp`` in UTC), which way
the camera looked (``GPSImgDirection``, against true or magnetic north as
``GPSImgDirectionRef`` says) and, on most phones, how sure it is of the position
(``GPSHPositioningError``, metres). :func:`read_photo_layer` reads a folder of such photos (or
one photo) as a marker layer, one row per photo, in name order; :func:`attach_photos` attaches
photos to markers surveyed otherwise; :func:`thumbnail_jpeg` makes the small, upright picture
the evidence record embeds.

**How to take the photo.** Stand in front of the sign, facing it, so that the sign faces you
and fills the middle of the frame, a few steps away, and hold the phone upright. The camera
then looks the opposite way from the sign: a sign that faces south (its face turned towards
someone standing south of it) is photographed by a camera looking north. So the sign's
``facing_deg`` is the camera's direction plus 180°. The photo's position is the camera's: stand
close (a sign stands a few feet inside the line and is read from outside, so the camera is
usually just across the line, well within the check's 30 ft tolerance). When the file records
where the subject was (``GPSDestLatitude``/``GPSDestLongitude``, written by some survey apps),
that position is used instead, and when it records only the distance to the subject
(``GPSDestDistance``), the camera's position is moved that far along the camera's direction.

A photo without a usable position is kept with the reason (the report lists it among the
unassigned markers); nothing is dropped. Pillow reads JPEG and TIFF; HEIC and HEIF (iPhones)
are read through the pillow-heif plugin.
"""

from __future__ import annotations

import datetime as _dt
import io
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from posting.dates import not_dates
from posting.errors import InputError

__all__ = [
    "DEFAULT_PHOTO_ACCURACY_FT",
    "PHOTO_SUFFIXES",
    "PhotoMatches",
    "attach_photos",
    "is_photo_source",
    "list_photos",
    "photos_to_attach",
    "read_photo_layer",
    "read_photo_table",
    "thumbnail_jpeg",
]

PHOTO_SUFFIXES = frozenset({".jpg", ".jpeg", ".jpe", ".heic", ".heif", ".tif", ".tiff"})
"""File name endings read as photos (case-insensitive)."""
FT_M = 0.3048
DEFAULT_PHOTO_ACCURACY_FT = 16.0
"""The accuracy assumed for a photo whose file does not record ``GPSHPositioningError``: a
phone's fix under open sky, about 5 m (see :data:`posting.settings.ACCURACY_GUIDE_FT`)."""
_MAX_DEST_FT = 300.0  # a recorded distance to the subject beyond this is not a sign's

# EXIF tag numbers (Exif 2.32): Pillow's ExifTags names, spelt out so the module loads without
# importing Pillow.
_GPS_IFD, _EXIF_IFD = 0x8825, 0x8769
_DATETIME, _DATETIME_ORIGINAL, _OFFSET_ORIGINAL = 0x0132, 0x9003, 0x9011
_LAT_REF, _LAT, _LON_REF, _LON = 1, 2, 3, 4
_GPS_TIME, _GPS_STATUS, _DIR_REF, _DIR = 7, 9, 16, 17
_DEST_LAT_REF, _DEST_LAT, _DEST_LON_REF, _DEST_LON = 19, 20, 21, 22
_DEST_DIST_REF, _DEST_DIST, _GPS_DATE, _H_ERROR = 25, 26, 29, 31

PHOTO_COLUMNS = [
    "photo",
    "kind",
    "facing_deg",
    "surveyed",
    "accuracy_ft",
    "camera_deg",
    "direction_ref",
    "position_from",
    "camera_lon",
    "camera_lat",
]
"""Columns of a photo layer: the photo's file, ``kind`` (``sign``), the sign's ``facing_deg``
(true, from the camera's direction), ``surveyed`` (ISO date and time, with the UTC offset where
known), ``accuracy_ft`` (the file's horizontal positioning error), ``camera_deg`` (the camera's
true direction), ``direction_ref`` (how the direction was read), ``position_from`` (where the
position comes from) and the camera's own position."""


def _heif_registered(path: str) -> None:
    """Let Pillow open HEIC/HEIF files (iPhones) through pillow-heif, once.

    Raises
    ------
    InputError
        pillow-heif is not installed: the photo at ``path`` is named with what to do (a missing
        library is no fault of the photo, so it is not listed as unreadable).
    """
    global _HEIF
    if not _HEIF:
        try:
            from pillow_heif import register_heif_opener
        except ImportError:
            raise InputError(
                "is a HEIC/HEIF photo, which is read through the pillow-heif package, not "
                "installed here: install it (pip install pillow-heif), or give the photos as "
                "JPEG (an iPhone exports them so; Settings > Camera > Formats > Most Compatible "
                "takes them so)",
                path=path,
            ) from None
        register_heif_opener()
        _HEIF = True


_HEIF = False


def is_photo_source(path: str | os.PathLike[str]) -> bool:
    """True for a folder (other than a FileGDB) or a file whose name ends like a photo.

    Examples
    --------
    >>> is_photo_source("IMG_0042.HEIC"), is_photo_source("signs.csv")
    (True, False)
    """
    p = Path(os.fspath(path))
    if p.suffix.lower() in PHOTO_SUFFIXES:
        return True
    return p.is_dir() and p.suffix.lower() != ".gdb"


def list_photos(path: str | os.PathLike[str]) -> list[str]:
    """The photo files of a folder (and its subfolders, as a phone's DCIM folder has), sorted by
    their path; a photo file itself as the only one.

    Hidden files (``._IMG_0001.JPG`` left by macOS) are left out.

    Raises
    ------
    InputError
        The path does not exist, or the folder holds no photo.
    """
    p = Path(os.fspath(path))
    if not p.exists():
        raise InputError("no such file or folder", path=str(p))
    if not p.is_dir():
        return [os.fspath(path)]
    found = sorted(
        f
        for f in p.rglob("*")
        if f.suffix.lower() in PHOTO_SUFFIXES
        and f.is_file()
        and not any(part.startswith(".") for part in f.relative_to(p).parts)
    )
    if not found:
        raise InputError(
            "the folder holds no photo (JPEG, HEIC or TIFF) and is not a marker file",
            path=str(p),
        )
    return [str(f) for f in found]


def _float(v: Any) -> float:
    """An EXIF number (a rational, an int, a float, a 1-tuple) as a float; NaN if unusable."""
    try:
        if isinstance(v, tuple | list):
            v = v[0] if len(v) == 1 else float("nan")
        return float(v)
    except (TypeError, ValueError, ZeroDivisionError):
        return float("nan")


def _text(v: Any) -> str:
    if isinstance(v, bytes):
        v = v.decode("ascii", "replace")
    return str(v).strip().strip("\x00").strip() if v is not None else ""


def _degrees(value: Any, ref: Any, letters: str) -> float:
    """Degrees from EXIF's (degrees, minutes, seconds) rationals and a hemisphere letter.

    ``letters`` are the hemispheres' (``NS`` or ``EW``, the second negative). EXIF writes the
    angle unsigned, its side in the letter; a writer that signs it (a negative ``SRATIONAL``,
    as signed decimal degrees are) means the south or west side: the minus applies to the whole
    angle, -28° 42' being -28.7, not -27.3. A minus beside ``N`` or ``E`` contradicts the
    letter: NaN (:func:`_hemisphere_problem` says why). Without a letter, the sign decides.
    """
    if value is None:
        return float("nan")
    parts = value if isinstance(value, tuple | list) else (value,)
    nums = [_float(x) for x in parts[:3]]
    if not nums or not all(math.isfinite(x) for x in nums):
        return float("nan")
    deg = sum(abs(x) / 60.0**k for k, x in enumerate(nums))
    signed = any(x < 0 for x in nums)
    letter = _text(ref).upper()[:1]
    if letter and letter in letters:
        south = letter == letters[1]
        return float("nan") if signed and not south else (-deg if south else deg)
    return -deg if signed else deg


def _hemisphere_problem(value: Any, ref: Any, letters: str, name: str) -> str | None:
    """Why a GPS coordinate's side of the equator or of Greenwich is not known (no letter and
    an unsigned angle), or contradicts itself (a negative angle beside ``N``/``E``); None if
    known."""
    letter = _text(ref).upper()[:1]
    parts = value if isinstance(value, tuple | list) else (value,)
    signed = any(_float(x) < 0 for x in parts[:3])
    if letter and letter in letters:
        if signed and letter == letters[0]:
            return (
                f"the photo's GPS {name} is negative but GPS{name.capitalize()}Ref is "
                f"{letter}: they contradict each other (a negative {name} is {letters[1]})"
            )
        return None
    if signed:
        return None
    return (
        "the photo's GPS position has no hemisphere (GPSLatitudeRef N or S, "
        "GPSLongitudeRef E or W), so it could be on either side of the equator or of "
        "Greenwich"
    )


def _exif_datetime(text: str) -> _dt.datetime | None:
    """``2026:10:14 09:31:05`` (EXIF's form) as a naive datetime; None if unreadable."""
    text = _text(text)
    for fmt in ("%Y:%m:%d %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y:%m:%d %H:%M", "%Y-%m-%dT%H:%M:%S"):
        try:
            return _dt.datetime.strptime(text[:19], fmt)
        except ValueError:
            continue
    return None


def _offset(text: str) -> _dt.timezone | None:
    """``-04:00`` as a timezone; None if absent or unreadable."""
    text = _text(text)
    if len(text) >= 6 and text[0] in "+-" and text[3] == ":":
        try:
            minutes = int(text[1:3]) * 60 + int(text[4:6])
        except ValueError:
            return None
        return _dt.timezone(_dt.timedelta(minutes=-minutes if text[0] == "-" else minutes))
    return None


_OFFSETS_IN_USE_MIN = frozenset(
    [60 * h for h in range(-12, 15)]
    + [-570, -210, -150, 210, 270, 330, 345, 390, 525, 570, 630, 765, 825]
)
"""The UTC offsets of the world's local times, in minutes: whole hours from UTC-12 to UTC+14,
and the half and quarter hours in use (-09:30 Marquesas, -03:30 and -02:30 Newfoundland,
+03:30 Iran, +04:30 Afghanistan, +05:30 India, +05:45 Nepal, +06:30 Myanmar, +08:45 Eucla,
+09:30 and +10:30 South Australia, +12:45 and +13:45 Chatham). A camera's clock 20 minutes off
the satellites' time of an older fix (-03:40 at UTC-4) is no offset (not -03:45)."""


def _gps_utc(gps: dict[int, Any]) -> _dt.datetime | None:
    """The satellites' time of the fix (UTC), from ``GPSDateStamp`` and ``GPSTimeStamp``."""
    date = _text(gps.get(_GPS_DATE))
    t = gps.get(_GPS_TIME)
    if not date or not isinstance(t, tuple | list) or len(t) != 3:
        return None
    try:
        day = _dt.datetime.strptime(date[:10].replace("-", ":"), "%Y:%m:%d")
    except ValueError:
        return None
    h, m, s = (_float(x) for x in t)
    if not all(math.isfinite(x) for x in (h, m, s)):
        return None
    return (day + _dt.timedelta(hours=h, minutes=m, seconds=round(s))).replace(tzinfo=_dt.UTC)


def _when(exif_ifd: dict[int, Any], base: dict[int, Any], gps: dict[int, Any]) -> str | None:
    """When the photo was taken, as ISO 8601 local time with its UTC offset where known.

    The camera's clock (``DateTimeOriginal``) is local time; its offset is
    ``OffsetTimeOriginal``, or else worked out from the satellites' UTC time of the same fix
    (to the quarter hour, one of :data:`_OFFSETS_IN_USE_MIN`: a fix some minutes older than
    the photo gives none). With only the satellites' time, the time is given in UTC.
    """
    local = _exif_datetime(exif_ifd.get(_DATETIME_ORIGINAL) or base.get(_DATETIME) or "")
    utc = _gps_utc(gps)
    if local is None:
        return utc.isoformat() if utc is not None else None
    tz = _offset(exif_ifd.get(_OFFSET_ORIGINAL))
    if tz is None and utc is not None:
        minutes = (local - utc.replace(tzinfo=None)).total_seconds() / 60.0
        quarter = round(minutes / 15.0) * 15
        if abs(minutes - quarter) <= 5 and quarter in _OFFSETS_IN_USE_MIN:
            tz = _dt.timezone(_dt.timedelta(minutes=quarter))
    return local.replace(tzinfo=tz).isoformat() if tz is not None else local.isoformat()


def _decimal_year(when: str | None) -> float | None:
    if not when:
        return None
    t = _dt.datetime.fromisoformat(when)
    start = _dt.datetime(t.year, 1, 1, tzinfo=t.tzinfo)
    end = _dt.datetime(t.year + 1, 1, 1, tzinfo=t.tzinfo)
    return t.year + (t - start) / (end - start)


def magnetic_declination_deg(lon: float, lat: float, year: float | None) -> float | None:
    """Magnetic declination (east positive) from the World Magnetic Model at a place and date.

    None when the model has no coefficients for that date (it covers 2010 to 2030 here).
    Without a date, the newest model at its own epoch.

    Examples
    --------
    >>> round(magnetic_declination_deg(-81.12, 28.74, 2026.8), 1)  # central Florida: west
    -7.2
    """
    from pygeomag import GeoMag

    try:
        model = GeoMag() if year is None else GeoMag(base_year=int(year))
        t = year if year is not None else float(model.life_span[0])
        return float(model.calculate(glat=lat, glon=lon, alt=0.0, time=t).d)
    except (ValueError, AttributeError):
        return None


def _direction(gps: dict[int, Any], lon: float, lat: float, when: str | None):
    """The camera's direction, degrees clockwise from true north, and how it was read."""
    d = _float(gps.get(_DIR))
    if not math.isfinite(d):
        return float("nan"), "not recorded"
    d %= 360.0
    ref = _text(gps.get(_DIR_REF)).upper()
    if ref == "M":
        if not (math.isfinite(lon) and math.isfinite(lat)):
            return float("nan"), "magnetic, without a position to correct it"
        dec = magnetic_declination_deg(lon, lat, _decimal_year(when))
        if dec is None:
            return float("nan"), "magnetic, outside the magnetic model's years"
        return (d + dec) % 360.0, f"magnetic, declination {dec:+.1f}° applied (WMM)"
    return d, "true north" if ref == "T" else "true north (reference not recorded)"


def _dest_distance_ft(gps: dict[int, Any]) -> float:
    d = _float(gps.get(_DEST_DIST))
    unit = _text(gps.get(_DEST_DIST_REF)).upper() or "K"
    per_unit_ft = {"K": 1000.0 / FT_M, "M": 5280.0, "N": 1852.0 / FT_M}.get(unit)
    if not math.isfinite(d) or per_unit_ft is None:
        return float("nan")
    return d * per_unit_ft


@dataclass
class _Photo:
    lon: float = float("nan")
    lat: float = float("nan")
    facing_deg: float = float("nan")
    surveyed: str | None = None
    accuracy_ft: float = float("nan")
    camera_deg: float = float("nan")
    direction_ref: str = "not recorded"
    position_from: str | None = None
    camera_lon: float = float("nan")
    camera_lat: float = float("nan")
    problem: str | None = None


_JPEG_SUFFIXES = frozenset({".jpg", ".jpeg", ".jpe"})


def _open(path: str) -> Any:
    """A photo opened by Pillow (not decoded), for its EXIF data or a thumbnail.

    A JPEG is opened by Pillow's JPEG reader itself, without the guard that ``Image.open``
    keeps against decompression bombs (a warning over 89 megapixels, an error over 179): the
    108- and 200-megapixel photos of today's phones are over it, and a JPEG is decoded here
    only at a reduced scale (:func:`thumbnail_jpeg`), or not at all (its EXIF data). A HEIC or
    HEIF photo is opened so too, by pillow-heif's reader (its EXIF data is read without
    decoding it; a thumbnail decodes it whole). Other files, and a file named ``.jpg`` or
    ``.heic`` that is not one, are opened by ``Image.open``.

    Raises
    ------
    OSError, ValueError, SyntaxError, PIL.Image.DecompressionBombError
        The file cannot be read as a photo (Pillow's errors).
    InputError
        A HEIC/HEIF photo, and pillow-heif is not installed (:func:`_heif_registered`).
    """
    from PIL import Image, JpegImagePlugin

    suffix = Path(path).suffix.lower()
    reader = None
    if suffix in {".heic", ".heif"}:
        _heif_registered(path)
        from pillow_heif.as_plugin import HeifImageFile as reader
    elif suffix in _JPEG_SUFFIXES:
        reader = JpegImagePlugin.JpegImageFile
    if reader is not None:
        try:
            return reader(path)
        except SyntaxError:  # not a JPEG (or HEIC), whatever its name says
            pass
    return Image.open(path)


UNREADABLE = "not a readable photo"
"""How the reason of a photo Pillow cannot read begins (:func:`read_photo`)."""

_PHOTOS_EXPECTED = (
    "{option} takes a photo (JPEG, HEIC or TIFF) or a folder of photos, each attached to the "
    "nearest marker of {option:signs}; a file of markers (CSV, GPX, GeoJSON ...) goes with "
    "{option:signs}"
)


def photos_to_attach(path: str | os.PathLike[str]) -> list[str]:
    """The photo files of a ``photos`` argument (:func:`list_photos`), refusing one that is a
    single file and no photo (the marker file given there by mistake): its header is read, not
    the picture.

    Raises
    ------
    InputError
        The path does not exist, a folder holds no photo, or the file is no photo.
    """
    files = list_photos(path)
    if os.path.isdir(path):
        return files
    try:
        with _open(files[0]):
            pass
    except InputError:  # pillow-heif missing: not the photo's fault
        raise
    except _unreadable():
        raise InputError(
            f"holds no photo (Pillow cannot read it as an image): {_PHOTOS_EXPECTED}",
            path=os.fspath(path),
            parameter="photos",
        ) from None
    return files


def no_photo_read(path: str | os.PathLike[str], reasons: Sequence[Any]) -> InputError | None:
    """The error for a ``photos`` argument none of whose photos could be read (each reason
    begins with :data:`UNREADABLE`), else None: a folder of files named like photos that are
    none holds no photo at all; one unreadable photo among good ones is listed, not refused."""
    if not len(reasons) or not all(
        isinstance(r, str) and r.startswith(UNREADABLE) for r in reasons
    ):
        return None
    return InputError(
        f"holds no photo Pillow can read ({len(reasons):,} file(s) named like photos, none "
        f"readable; the first: {reasons[0]}): {_PHOTOS_EXPECTED}",
        path=os.fspath(path),
        parameter="photos",
    )


def _unreadable() -> tuple[type[BaseException], ...]:
    """What Pillow raises for a file that is not a photo it can read (a text file named .jpg,
    one cut short, a picture past its decompression-bomb limit): said as a reason, not a
    traceback. (Pillow is imported when a photo is read.)"""
    from PIL import Image, UnidentifiedImageError

    return (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError)


def read_photo(path: str) -> _Photo:
    """Position, time, direction and accuracy of one photo, from its EXIF data.

    Never raises for a bad photo: the reason is in ``problem``.

    Raises
    ------
    InputError
        A HEIC/HEIF photo, and pillow-heif is not installed: no fault of the photo, so not
        listed as unreadable (its sign would count as missing) but refused, saying what to do.
    """

    out = _Photo()
    try:
        with _open(path) as im:
            exif = im.getexif()
            gps = dict(exif.get_ifd(_GPS_IFD))
            sub = dict(exif.get_ifd(_EXIF_IFD))
            base = dict(exif)
    except InputError:  # pillow-heif missing: not the photo's fault
        raise
    except _unreadable() as exc:
        out.problem = f"{UNREADABLE} ({exc})"
        return out
    out.surveyed = _when(sub, base, gps)
    lat = _degrees(gps.get(_LAT), gps.get(_LAT_REF), "NS")
    lon = _degrees(gps.get(_LON), gps.get(_LON_REF), "EW")
    side = _hemisphere_problem(
        gps.get(_LAT), gps.get(_LAT_REF), "NS", "latitude"
    ) or _hemisphere_problem(gps.get(_LON), gps.get(_LON_REF), "EW", "longitude")
    if not gps or _LAT not in gps or _LON not in gps:
        out.problem = (
            "the photo has no GPS position in its EXIF data (location was off for the camera, "
            "or an app or a messenger removed it)"
        )
    elif _text(gps.get(_GPS_STATUS)).upper() == "V":
        out.problem = "the photo's GPS status is void (no fix when it was taken)"
    elif side:
        out.problem = side
    elif not (math.isfinite(lat) and math.isfinite(lon)):
        out.problem = "the photo's GPS position is not readable"
    elif abs(lat) > 90 or abs(lon) > 180:
        out.problem = f"the photo's GPS position ({lat:g}, {lon:g}) is not on Earth"
    elif lat == 0 and lon == 0:
        out.problem = "the photo's GPS position is 0, 0 (a phone's placeholder, not a fix)"
    err_m = _float(gps.get(_H_ERROR))  # (0: no fix is exact; apps write it for "unknown")
    out.accuracy_ft = err_m / FT_M if math.isfinite(err_m) and err_m > 0 else float("nan")
    out.camera_deg, out.direction_ref = _direction(gps, lon, lat, out.surveyed)
    if math.isfinite(out.camera_deg):
        out.facing_deg = (out.camera_deg + 180.0) % 360.0  # the sign faces the camera
    if out.problem:
        return out
    out.camera_lon, out.camera_lat = lon, lat
    out.lon, out.lat, out.position_from = lon, lat, "camera"
    dlat = _degrees(gps.get(_DEST_LAT), gps.get(_DEST_LAT_REF), "NS")
    dlon = _degrees(gps.get(_DEST_LON), gps.get(_DEST_LON_REF), "EW")
    dist_ft = _dest_distance_ft(gps)
    from pyproj import Geod

    geod = Geod(ellps="WGS84")
    if _subject_position(geod, lon, lat, dlon, dlat):
        out.lon, out.lat, out.position_from = dlon, dlat, "subject (GPSDest position)"
    elif 0 < dist_ft <= _MAX_DEST_FT and math.isfinite(out.camera_deg):
        lon2, lat2, _ = geod.fwd(lon, lat, out.camera_deg, dist_ft * FT_M)
        out.lon, out.lat = float(lon2), float(lat2)
        out.position_from = f"camera moved {dist_ft:.1f} ft along its direction (GPSDestDistance)"
    return out


def _subject_position(geod: Any, lon: float, lat: float, dlon: float, dlat: float) -> bool:
    """Whether a photo's ``GPSDestLatitude``/``GPSDestLongitude`` is where its subject stood:
    a position on Earth, not ``0, 0`` (an app's placeholder), within :data:`_MAX_DEST_FT` of
    the camera (a sign is photographed from a few steps away). Otherwise the camera's position
    is used."""
    if not (math.isfinite(dlat) and math.isfinite(dlon) and abs(dlat) <= 90 and abs(dlon) <= 180):
        return False
    if dlat == 0 and dlon == 0:
        return False
    _, _, d_m = geod.inv(lon, lat, dlon, dlat)
    return float(d_m) / FT_M <= _MAX_DEST_FT


def read_photo_table(paths: Sequence[str]) -> pd.DataFrame:
    """One row per photo: the :data:`PHOTO_COLUMNS`, ``lon``/``lat`` and ``problem``."""
    rows = []
    for p in paths:
        ph = read_photo(p)
        rows.append(
            {
                "photo": p,
                "kind": "sign",
                "facing_deg": ph.facing_deg,
                "surveyed": ph.surveyed,
                "accuracy_ft": ph.accuracy_ft,
                "camera_deg": ph.camera_deg,
                "direction_ref": ph.direction_ref,
                "position_from": ph.position_from,
                "camera_lon": ph.camera_lon,
                "camera_lat": ph.camera_lat,
                "lon": ph.lon,
                "lat": ph.lat,
                "problem": ph.problem,
            }
        )
    cols = [*PHOTO_COLUMNS, "lon", "lat", "problem"]
    return pd.DataFrame(rows, columns=cols)


def read_photo_layer(path: str | os.PathLike[str]):
    """A folder of photos, or one photo, as a marker layer (:class:`posting.io.Layer`).

    One row per photo, in the order of :func:`list_photos`; the position in WGS 84; the
    attributes are :data:`PHOTO_COLUMNS` (``facing_deg`` and ``surveyed`` are the marker columns
    the rules read). A photo without a usable position is kept with a ``None`` geometry and the
    reason in ``problems``.
    """
    import shapely

    from posting.crs import WGS84
    from posting.io import Layer

    path = os.fspath(path)
    table = read_photo_table(list_photos(path))
    problems = {int(i): w for i, w in enumerate(table["problem"]) if isinstance(w, str)}
    geometry = shapely.points(table["lon"].to_numpy(float), table["lat"].to_numpy(float))
    if problems:
        geometry[np.fromiter(problems, dtype=np.int64)] = None
    frame = table[PHOTO_COLUMNS].reset_index(drop=True)
    return Layer(path, frame, geometry, WGS84, problems)


# -- photos attached to markers surveyed otherwise ---------------------------------------------


@dataclass
class PhotoMatches:
    """Photos matched to markers.

    Attributes
    ----------
    photos
        One row per photo: ``photo`` (its file), ``lon``, ``lat``, ``surveyed``,
        ``accuracy_ft`` (recorded, or :data:`DEFAULT_PHOTO_ACCURACY_FT`), ``marker`` (the row of
        the marker table it is attached to, or -1), ``distance_ft`` and ``reason`` (why it is
        attached to none).
    """

    photos: pd.DataFrame

    def by_marker(self) -> dict[int, list[str]]:
        """The photo files attached to each marker, in photo order."""
        out: dict[int, list[str]] = {}
        for m, p in zip(self.photos["marker"], self.photos["photo"], strict=True):
            if m >= 0:
                out.setdefault(int(m), []).append(p)
        return out

    def unattached(self) -> pd.DataFrame:
        """The photos attached to no marker, with the reason."""
        return self.photos[self.photos["marker"] < 0]


def local_date(value: Any) -> _dt.date | None:
    """The calendar day of a survey time as the surveyor wrote it (local time), or None.

    Examples
    --------
    >>> local_date("2026-10-14T23:30:00-04:00"), local_date("2026-10-14"), local_date("")
    (datetime.date(2026, 10, 14), datetime.date(2026, 10, 14), None)
    """
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NaT:
        return None
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    text = str(value).strip()
    if not text:
        return None
    try:
        return _dt.datetime.fromisoformat(text).date()
    except ValueError:
        pass
    t = pd.to_datetime(text, errors="coerce", format="mixed")
    return None if pd.isna(t) else t.date()


def _survey_time(value: Any) -> _dt.date | _dt.datetime | None:
    """A survey time as recorded: a calendar day (a date, or a time without a UTC offset: the
    surveyor's local time), an aware datetime (a time with its UTC offset), or None."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NaT:
        return None
    if isinstance(value, _dt.date) and not isinstance(value, _dt.datetime):
        return value
    t = value
    if not isinstance(t, _dt.datetime):
        text = str(value).strip()
        if not text:
            return None
        try:
            t = _dt.datetime.fromisoformat(text)
        except ValueError:
            t = pd.to_datetime(text, errors="coerce", format="mixed")
            if pd.isna(t):
                return None
    if isinstance(t, pd.Timestamp):
        t = t.to_pydatetime()
    return t if t.utcoffset() is not None else t.date()


_ANY_OFFSET = [_dt.timedelta(minutes=15 * k) for k in range(-12 * 4, 14 * 4 + 1)]
"""The UTC offsets of the world's local times, UTC-12 to UTC+14, by quarter hours."""


def same_local_day(photo: Any, marker: Any) -> bool:
    """Whether a photo and a marker were taken and surveyed on the same local calendar day (True
    when either records no date).

    A date, or a time without an offset, is the local day as written. A time with its UTC
    offset is read at local time: the photo's offset (``OffsetTimeOriginal``), else the
    marker's; a time in UTC (a GPX waypoint's, the satellites' time of a photo) is read at the
    other's offset when it has one, and otherwise could be any local day the world's offsets
    (UTC-12 to UTC+14) give it.

    Examples
    --------
    >>> same_local_day("2026-10-14T20:30:00-04:00", "2026-10-15T00:30:00Z")  # one moment
    True
    >>> same_local_day("2026-10-14T20:30:00-04:00", "2026-10-15")
    False
    >>> same_local_day("2026-10-15T03:50:00+00:00", "2026-10-14")  # local day unknown
    True
    """
    a, b = _survey_time(photo), _survey_time(marker)
    if a is None or b is None:
        return True
    known = [
        t.utcoffset()
        for t in (a, b)
        if isinstance(t, _dt.datetime) and t.utcoffset() != _dt.timedelta(0)
    ]
    for offset in known[:1] or _ANY_OFFSET:
        zone = _dt.timezone(offset)
        days = [t.astimezone(zone).date() if isinstance(t, _dt.datetime) else t for t in (a, b)]
        if days[0] == days[1]:
            return True
    return False


def attach_photos(
    photo_paths: Sequence[str],
    marker_lon: np.ndarray,
    marker_lat: np.ndarray,
    marker_surveyed: Sequence[Any] | None = None,
    *,
    default_accuracy_ft: float = DEFAULT_PHOTO_ACCURACY_FT,
) -> PhotoMatches:
    """Attach each photo to the nearest marker within the photo's accuracy (on the same survey
    day when both record a date).

    Parameters
    ----------
    photo_paths
        The photo files (see :func:`list_photos`).
    marker_lon, marker_lat
        The markers' WGS 84 positions (NaN where a marker has none).
    marker_surveyed
        Each marker's survey date or time, as recorded (None where not).
    default_accuracy_ft
        The search radius for a photo whose file does not record its positioning error.

    Distances are geodesic (WGS 84), in feet.
    """
    from pyproj import Geod

    table = read_photo_table(photo_paths)
    n = len(table)
    acc = table["accuracy_ft"].to_numpy(dtype=float)
    acc = np.where(np.isfinite(acc), acc, default_accuracy_ft)
    marker = np.full(n, -1, dtype=np.int64)
    dist = np.full(n, np.nan)
    reason = table["problem"].to_numpy(dtype=object).copy()
    markers = _SurveyedMarkers.of(marker_lon, marker_lat, marker_surveyed)
    plon, plat = table["lon"].to_numpy(float), table["lat"].to_numpy(float)
    geod = Geod(ellps="WGS84")
    for i in np.flatnonzero(pd.isna(reason)):
        k, d_ft, why = markers.nearest(geod, plon[i], plat[i], acc[i], table["surveyed"].iloc[i])
        marker[i], dist[i] = k, d_ft
        if why is not None:
            reason[i] = why
    out = pd.DataFrame(
        {
            "photo": table["photo"],
            "lon": plon,
            "lat": plat,
            "surveyed": table["surveyed"],
            "accuracy_ft": acc,
            "marker": marker,
            "distance_ft": dist,
            "reason": reason,
        }
    )
    return PhotoMatches(out)


@dataclass(frozen=True, eq=False)
class _SurveyedMarkers:
    """The markers photos are attached to: WGS 84 positions, the rows that have one, and each
    marker's survey day (None where not recorded)."""

    lon: np.ndarray
    lat: np.ndarray
    usable: np.ndarray
    times: list[_dt.date | _dt.datetime | None]

    @classmethod
    def of(
        cls, lon: np.ndarray, lat: np.ndarray, surveyed: Sequence[Any] | None
    ) -> _SurveyedMarkers:
        """The markers at ``lon``, ``lat``, surveyed when ``surveyed`` says (or None)."""
        mlon = np.asarray(lon, dtype=float)
        mlat = np.asarray(lat, dtype=float)
        usable = np.flatnonzero(np.isfinite(mlon) & np.isfinite(mlat))
        times: list[_dt.date | _dt.datetime | None] = [None] * len(mlon)
        if surveyed is not None:  # a time alone, a day of no year, a day and month either
            # way round (:func:`posting.dates.not_dates`) tell no day: as no date
            values = pd.Series(list(surveyed), dtype=object)
            no_day = not_dates(values)
            times = [None if no else _survey_time(v) for v, no in zip(values, no_day, strict=True)]
        return cls(mlon, mlat, usable, times)

    def nearest(
        self, geod: Any, lon: float, lat: float, acc_ft: float, surveyed: Any
    ) -> tuple[int, float, str | None]:
        """The marker a photo taken at ``lon``, ``lat`` is attached to and its distance in
        feet, or ``(-1, nan, why)`` when it is attached to none."""
        lat_ft = 364_000.0  # feet per degree of latitude, at least: a generous search box
        # candidates in a box a little larger than the radius, then the geodesic distance
        r_deg = 1.5 * acc_ft / lat_ft
        cos = max(math.cos(math.radians(lat)), 1e-6)
        usable = self.usable
        near = usable[
            (np.abs(self.lat[usable] - lat) <= r_deg)
            & (np.abs(self.lon[usable] - lon) <= r_deg / cos)
        ]
        none = f"no marker within {acc_ft:.1f} ft of the photo"
        if not len(near):
            return -1, np.nan, none
        _, _, d_m = geod.inv(
            np.full(len(near), lon), np.full(len(near), lat), self.lon[near], self.lat[near]
        )
        d_ft = np.asarray(d_m, dtype=float) / FT_M
        within = d_ft <= acc_ft
        if not within.any():
            return -1, np.nan, none
        day = local_date(surveyed)
        taken = _survey_time(surveyed)
        same = np.array([same_local_day(taken, self.times[m]) for m in near], dtype=bool)
        ok = within & same
        if not ok.any():
            return (
                -1,
                np.nan,
                f"the markers within {acc_ft:.1f} ft were surveyed on another day than the "
                f"photo was taken ({day})",
            )
        k = int(np.flatnonzero(ok)[np.argmin(d_ft[ok])])
        return int(near[k]), float(d_ft[k]), None


# -- thumbnails ------------------------------------------------------------------------------


def thumbnail_jpeg(path: str, max_px: int = 200, quality: int = 72) -> bytes:
    """A small JPEG of the photo, turned upright by its EXIF orientation.

    JPEGs are decoded at a reduced scale (``draft``), which makes a thumbnail of a 12-megapixel
    photo ten times faster than decoding it whole. The bytes depend only on the photo and these
    arguments (no metadata, no time), so a record made twice is the same.

    Raises
    ------
    InputError
        The photo cannot be read.
    """
    from PIL import Image, ImageOps

    try:
        with _open(path) as im:
            im.draft("RGB", (max_px, max_px))  # JPEG: decoded at 1/2 to 1/8 scale, not below
            up = ImageOps.exif_transpose(im)
            up = up.convert("RGB")
            up.thumbnail((max_px, max_px), Image.Resampling.LANCZOS)
            buf = io.BytesIO()
            up.save(buf, "JPEG", quality=quality, optimize=True)
    except InputError:  # pillow-heif missing: not the photo's fault
        raise
    except _unreadable() as exc:
        raise InputError(f"not a readable photo ({exc})", path=path) from None
    return buf.getvalue()
