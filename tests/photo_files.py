"""Geotagged test photos, written with Pillow: EXIF GPS position, time, direction, accuracy.

The positions are written as a phone writes them (degrees, minutes and seconds as rationals,
seconds to 1/10,000: about 3 mm) and :func:`write_photo` returns the longitude and latitude the
file holds, worked out here from the numbers written, for the CSV the photos are compared with.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

GPS_IFD, EXIF_IFD = 0x8825, 0x8769


def _dms(value: float) -> tuple[tuple[float, float, float], float]:
    """Degrees, minutes, seconds (to 1/10,000 s) of ``|value|``, and the degrees they hold."""
    v = abs(value)
    d = int(v)
    m = int((v - d) * 60)
    s = round((v - d - m / 60) * 3600, 4)
    if s >= 60:
        m, s = m + 1, 0.0
    return (float(d), float(m), s), d + m / 60 + s / 3600


def write_photo(
    path: Path,
    lon: float | None,
    lat: float | None,
    *,
    camera_deg: float | None = None,
    direction_ref: str = "T",
    taken: str | None = "2026:10:14 09:31:05",
    offset: str | None = "-04:00",
    gps_time: tuple[str, tuple[float, float, float]] | None = None,
    error_m: float | None = 3.0,
    orientation: int = 1,
    size: tuple[int, int] = (64, 48),
    color: tuple[int, int, int] = (200, 30, 30),
    dest: tuple[float, float] | None = None,
    dest_distance_m: float | None = None,
) -> tuple[float, float] | None:
    """Write a photo with EXIF data; return the (lon, lat) it records, or None without GPS.

    A HEIC file (``.heic``) is written through pillow-heif.
    """
    img = Image.new("RGB", size, color)
    # a white block in the top-left corner: where it lands shows how the photo was turned
    img.paste((255, 255, 255), (0, 0, size[0] // 4, size[1] // 4))
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = None
    gps = exif.get_ifd(GPS_IFD)
    if lon is not None and lat is not None:
        (la, la_deg), (lo, lo_deg) = _dms(lat), _dms(lon)
        gps[1], gps[2] = ("N" if lat >= 0 else "S"), la
        gps[3], gps[4] = ("E" if lon >= 0 else "W"), lo
        out = (lo_deg if lon >= 0 else -lo_deg, la_deg if lat >= 0 else -la_deg)
        if error_m is not None:
            gps[31] = float(error_m)
    if camera_deg is not None:
        gps[16], gps[17] = direction_ref, float(camera_deg)
    if gps_time is not None:
        gps[29], gps[7] = gps_time
    if dest is not None:
        (dla, _), (dlo, _) = _dms(dest[1]), _dms(dest[0])
        gps[19], gps[20] = ("N" if dest[1] >= 0 else "S"), dla
        gps[21], gps[22] = ("E" if dest[0] >= 0 else "W"), dlo
    if dest_distance_m is not None:
        gps[25], gps[26] = "K", dest_distance_m / 1000.0
    sub = exif.get_ifd(EXIF_IFD)
    if taken is not None:
        sub[0x9003] = taken
    if offset is not None:
        sub[0x9011] = offset
    if path.suffix.lower() in (".heic", ".heif"):
        from pillow_heif import register_heif_opener

        register_heif_opener()
        img.save(path, exif=exif.tobytes())
    else:
        img.save(path, exif=exif)
    return out
