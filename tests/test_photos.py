"""Geotagged photos of signs as a posting survey (posting.photos and read_markers).

The photos are made here with Pillow at known positions around a 1,000 ft square; the same
positions, facings and times given as a CSV are the reference: both must give the same markers,
the same facing and the same verdict.
"""

from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import LOCAL_FT, square
from photo_files import write_photo
from PIL import Image
from pyproj import Geod, Transformer

from posting import check, read_markers, read_parcels
from posting.errors import InputError
from posting.photos import (
    attach_photos,
    is_photo_source,
    list_photos,
    magnetic_declination_deg,
    read_photo,
    thumbnail_jpeg,
)

TO_LONLAT = Transformer.from_crs(LOCAL_FT, "EPSG:4326", always_xy=True)
GEOD = Geod(ellps="WGS84")
FT = 0.3048

# Signs 3 ft inside a 1,000 ft square (feet on the ground around 28.7 N, 81.1 W): the four
# corners and three side midpoints; the east side's midpoint is missing, so the east side is one
# gap of about 1,000 ft. Each sign faces out (degrees from true north), except the north
# midpoint's, photographed from inside the parcel: it faces in (180 degrees).
SIGNS = [
    # x_ft, y_ft, facing_deg (corner signs a foot nearer one side: no tie between two sides)
    (4, 3, 225),
    (500, 3, 180),
    (997, 4, 135),
    (996, 997, 45),
    (500, 997, 180),  # faces in
    (3, 996, 315),
    (3, 500, 270),
]


def _lonlat(x: float, y: float) -> tuple[float, float]:
    lon, lat = TO_LONLAT.transform(x, y)
    return float(lon), float(lat)


@pytest.fixture
def survey(tmp_path):
    """A parcel file, a folder of photos of its signs (and one without GPS), and the CSV of the
    same positions, facings and times."""
    outline = shapely.transform(
        square(), lambda xy: np.column_stack(TO_LONLAT.transform(xy[:, 0], xy[:, 1]))
    )
    parcels = tmp_path / "parcels.geojson"
    gpd.GeoDataFrame({"pid": ["P1"], "owner": ["Ann Lee"]}, geometry=[outline], crs=4326).to_file(
        parcels
    )
    folder = tmp_path / "photos"
    folder.mkdir()
    rows = []
    for k, (x, y, facing) in enumerate(SIGNS):
        lon, lat = _lonlat(x, y)
        camera = (facing + 180) % 360  # the camera looks at the sign's face
        held = write_photo(folder / f"IMG_{k:04d}.JPG", lon, lat, camera_deg=camera)
        rows.append(
            {
                "lon": f"{held[0]:.10f}",
                "lat": f"{held[1]:.10f}",
                "kind": "sign",
                "facing_deg": facing,
                "surveyed": "2026-10-14T09:31:05-04:00",
            }
        )
    write_photo(folder / "IMG_0099.JPG", None, None, camera_deg=90)  # location was off
    (folder / "notes.txt").write_text("not a photo")
    csv = tmp_path / "signs.csv"
    pd.DataFrame(rows).to_csv(csv, index=False)
    return parcels, folder, csv


def _check(parcels, signs, rules="florida"):
    return check(read_parcels(parcels, id_field="pid", owner_field="owner"), signs, rules)


def test_photos_give_the_markers_facing_and_verdict_of_the_same_csv(survey):
    parcels, folder, csv = survey
    from_photos = read_markers([folder])
    from_csv = read_markers([csv])
    # seven signs and the photo without GPS, in name order; the text file is not read
    assert len(from_photos) == 8
    assert from_photos.attributes["photo"].str.rsplit("/", n=1).str[-1].tolist() == [
        f"IMG_{k:04d}.JPG" for k in (0, 1, 2, 3, 4, 5, 6, 99)
    ]
    np.testing.assert_allclose(from_photos.lon[:7], from_csv.lon, atol=1e-9)
    np.testing.assert_allclose(from_photos.lat[:7], from_csv.lat, atol=1e-9)
    np.testing.assert_allclose(
        from_photos.attributes["facing_deg"].to_numpy(float)[:7],
        [f for _, _, f in SIGNS],
        atol=1e-9,
    )
    assert from_photos.attributes["surveyed"].tolist()[:7] == ["2026-10-14T09:31:05-04:00"] * 7
    for rules in ("florida", "north-dakota"):  # north-dakota checks which way signs face
        a, b = _check(parcels, from_photos, rules), _check(parcels, from_csv, rules)
        assert a.parcels["status"].tolist() == b.parcels["status"].tolist() == ["noncompliant"]
        assert a.parcels["max_gap_ft"].iat[0] == pytest.approx(b.parcels["max_gap_ft"].iat[0])
        # the east side: from the SE corner sign (997, 4), nearest the east line at (1000, 4),
        # round the NE corner to the next sign (996, 997), nearest the north line at
        # (996, 1000): 996 + 4 = 1,000 ft along the boundary (Florida's measure); North
        # Dakota's "apart" takes the straight line too: sqrt(1 + 993^2) = 993.0005 ft
        want = 1000.0 if rules == "florida" else (1 + 993**2) ** 0.5
        assert a.parcels["max_gap_ft"].iat[0] == pytest.approx(want, abs=0.05)
        cols = ["rule", "level", "measured", "limit", "count"]
        pd.testing.assert_frame_equal(
            a.findings[cols].reset_index(drop=True), b.findings[cols].reset_index(drop=True)
        )
        assign = ["parcel", "ring", "assigned_by"]
        pd.testing.assert_frame_equal(a.markers[assign].iloc[:7], b.markers[assign])
        np.testing.assert_allclose(
            a.markers["position_ft"][:7], b.markers["position_ft"], atol=1e-3
        )
    nd = _check(parcels, from_photos, "north-dakota")
    facing = nd.findings[nd.findings["rule"] == "facing"]
    assert facing["level"].tolist() == ["violation"] and facing["count"].tolist() == [1]


def test_a_photo_without_gps_is_listed_with_its_reason(survey):
    parcels, folder, _ = survey
    report = _check(parcels, read_markers([folder]))
    m = report.markers
    assert len(m) == 8
    last = m.iloc[7]
    assert last["parcel"] == -1 and last["row"] == 7
    assert "no GPS position" in last["reason"]
    listed = json.loads(report.to_json())["unassigned_signs"]
    assert [(u["row"], "no GPS position" in u["reason"]) for u in listed] == [(7, True)]


def test_the_sign_faces_the_photographer():
    # a camera looking north (0 degrees) photographs the face of a sign that faces south
    assert read_photo_facing(0.0) == pytest.approx(180.0)
    assert read_photo_facing(90.0) == pytest.approx(270.0)  # looking east: the sign faces west
    assert read_photo_facing(300.0) == pytest.approx(120.0)


def read_photo_facing(camera_deg, tmp=None):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "a.jpg"
        write_photo(p, -81.1, 28.7, camera_deg=camera_deg)
        return read_photo(str(p)).facing_deg


def test_magnetic_direction_is_turned_to_true_north(tmp_path):
    # Central Florida, October 2026: the World Magnetic Model's declination is about 7.2 W
    # (NOAA's calculator, WMM2025, gives -7 deg 10 min there), so a compass bearing of 45 is a
    # true bearing of about 37.8.
    p = tmp_path / "m.jpg"
    write_photo(p, -81.12, 28.74, camera_deg=45.0, direction_ref="M")
    ph = read_photo(str(p))
    # taken 2026-10-14 13:31 UTC: day 286 of 365 and a bit
    dec = magnetic_declination_deg(-81.12, 28.74, 2026 + (286 + 13.5 / 24) / 365)
    assert dec == pytest.approx(-7.17, abs=0.3)
    assert ph.camera_deg == pytest.approx(45.0 + dec, abs=1e-4)
    assert ph.facing_deg == pytest.approx((45.0 + dec + 180.0) % 360.0, abs=1e-4)
    assert "magnetic" in ph.direction_ref


def test_time_offset_from_the_satellites_when_the_camera_gives_none(tmp_path):
    p = tmp_path / "t.jpg"
    # local 09:31:05, satellites 13:31:05 UTC: the photo was taken at UTC-4
    write_photo(p, -81.1, 28.7, offset=None, gps_time=("2026:10:14", (13.0, 31.0, 5.0)))
    assert read_photo(str(p)).surveyed == "2026-10-14T09:31:05-04:00"
    q = tmp_path / "u.jpg"
    write_photo(q, -81.1, 28.7, taken=None, offset=None, gps_time=("2026:10:14", (13, 31, 5)))
    assert read_photo(str(q)).surveyed == "2026-10-14T13:31:05+00:00"


def test_subject_position_and_distance(tmp_path):
    sign_lon, sign_lat = -81.1, 28.7
    # the camera 20 ft south of the sign, looking north
    cam_lon, cam_lat, _ = GEOD.fwd(sign_lon, sign_lat, 180.0, 20 * FT)
    a = tmp_path / "dist.jpg"
    write_photo(a, cam_lon, cam_lat, camera_deg=0.0, dest_distance_m=20 * FT)
    ph = read_photo(str(a))
    _, _, d = GEOD.inv(ph.lon, ph.lat, sign_lon, sign_lat)
    assert d / FT < 0.05  # within the 3 mm of the written seconds, and the rounding
    assert "GPSDestDistance" in ph.position_from
    b = tmp_path / "dest.jpg"
    write_photo(b, cam_lon, cam_lat, camera_deg=0.0, dest=(sign_lon, sign_lat))
    ph = read_photo(str(b))
    _, _, d = GEOD.inv(ph.lon, ph.lat, sign_lon, sign_lat)
    assert d / FT < 0.05 and ph.position_from.startswith("subject")
    assert (ph.camera_lon, ph.camera_lat) == pytest.approx((cam_lon, cam_lat), abs=1e-7)


def test_heic_photos_are_read(tmp_path):
    p = tmp_path / "IMG_0001.HEIC"
    held = write_photo(p, -81.1, 28.7, camera_deg=10.0)
    m = read_markers([p, tmp_path / "IMG_0001.HEIC"])  # one file given twice: two markers
    assert len(m) == 2
    assert (m.lon[0], m.lat[0]) == pytest.approx(held, abs=1e-9)
    assert m.attributes["facing_deg"].tolist() == [190.0, 190.0]
    q = tmp_path / "turned.heic"
    write_photo(q, -81.1, 28.7, orientation=6, size=(64, 48))
    import io

    with Image.open(io.BytesIO(thumbnail_jpeg(str(q), 200))) as im:
        assert im.size == (48, 64)  # upright, turned once (not twice)


def test_unreadable_and_odd_photos_are_kept_with_the_reason(tmp_path):
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    write_photo(tmp_path / "zero.jpg", 0.0, 0.0)
    m = read_markers([tmp_path])
    assert list(m.reason) == [
        m.reason[0],
        "the photo's GPS position is 0, 0 (a phone's placeholder, not a fix)",
    ]
    assert m.reason[0].startswith("not a readable photo")


def test_folders_and_photo_names():
    assert is_photo_source("a.JPG") and is_photo_source("b.jpeg") and is_photo_source("c.heic")
    assert not is_photo_source("signs.csv") and not is_photo_source("x.gpkg")


def test_an_empty_folder_is_an_error(tmp_path):
    (tmp_path / "readme.txt").write_text("x")
    with pytest.raises(InputError, match="holds no photo"):
        list_photos(tmp_path)
    with pytest.raises(InputError, match="holds no photo"):
        read_markers([tmp_path])


def test_hidden_files_and_subfolders(tmp_path):
    (tmp_path / "100APPLE").mkdir()
    write_photo(tmp_path / "100APPLE" / "IMG_0002.JPG", -81.1, 28.7)
    write_photo(tmp_path / "IMG_0001.JPG", -81.1, 28.7)
    (tmp_path / "._IMG_0001.JPG").write_bytes(b"resource fork")
    names = [p.rsplit("/", 1)[-1] for p in list_photos(tmp_path)]
    assert names == ["IMG_0002.JPG", "IMG_0001.JPG"]  # by path: 100APPLE/... sorts first


def test_thumbnail_is_turned_upright(tmp_path):
    # orientation 6: the camera was turned a quarter clockwise; the viewer turns the picture a
    # quarter clockwise back, so a 64 x 48 frame shows 48 x 64, its top-left corner at the
    # top right
    p = tmp_path / "o6.jpg"
    write_photo(p, -81.1, 28.7, orientation=6, size=(64, 48))
    import io

    with Image.open(io.BytesIO(thumbnail_jpeg(str(p), 200))) as im:
        assert im.size == (48, 64)
        px = im.convert("RGB")
        assert min(px.getpixel((44, 3))) > 200  # the white block, now top right
        assert px.getpixel((3, 3))[1] < 100  # red at the top left
        assert im.getexif().get(0x0112) in (None, 1)
    assert thumbnail_jpeg(str(p), 200) == thumbnail_jpeg(str(p), 200)  # no clock in it


def test_attach_photos_nearest_within_accuracy_and_same_day(tmp_path):
    lon = np.array([-81.10, -81.10, -81.09, np.nan])
    lat = np.array([28.70, 28.701, 28.70, np.nan])
    days = ["2026-10-14", "2026-10-14T08:00:00-04:00", "2026-09-01", None]

    def near(k, dist_ft, bearing=90.0):
        x, y, _ = GEOD.fwd(lon[k], lat[k], bearing, dist_ft * FT)
        return x, y

    write_photo(tmp_path / "a.jpg", *near(0, 5.0), error_m=3.0)  # 9.8 ft: attached, 5 ft
    write_photo(tmp_path / "b.jpg", *near(1, 12.0), error_m=3.0)  # 12 ft > 9.8 ft: none
    write_photo(tmp_path / "c.jpg", *near(1, 12.0), error_m=None)  # 16 ft assumed: attached
    write_photo(tmp_path / "d.jpg", *near(2, 2.0))  # marker surveyed on another day
    write_photo(tmp_path / "e.jpg", None, None)  # no position
    m = attach_photos(list_photos(tmp_path), lon, lat, days)
    ph = m.photos.set_index(m.photos["photo"].str.rsplit("/", n=1).str[-1])
    assert ph.loc["a.jpg", "marker"] == 0
    assert ph.loc["a.jpg", "distance_ft"] == pytest.approx(5.0, abs=0.02)
    assert ph.loc["b.jpg", "marker"] == -1
    assert ph.loc["b.jpg", "reason"] == "no marker within 9.8 ft of the photo"
    assert ph.loc["c.jpg", "marker"] == 1
    assert ph.loc["d.jpg", "marker"] == -1 and "another day" in ph.loc["d.jpg", "reason"]
    assert "no GPS position" in ph.loc["e.jpg", "reason"]
    assert m.by_marker() == {0: [str(tmp_path / "a.jpg")], 1: [str(tmp_path / "c.jpg")]}


def test_check_takes_a_folder_of_photos_on_the_command_line(survey):
    from click.testing import CliRunner

    from posting.cli import main

    parcels, folder, _ = survey
    res = CliRunner().invoke(
        main, ["check", str(parcels), "--signs", str(folder), "--id-field", "pid", "--json", "-"]
    )
    assert res.exit_code == 1, res.output
    d = json.loads(res.stdout)
    assert d["summary"]["markers_read"] == 8 and d["summary"]["markers_assigned"] == 7
    assert d["parcels"][0]["status"] == "noncompliant"


# -- found by an audit ---------------------------------------------------------------------------


def test_same_local_day_across_midnight_utc(tmp_path):
    """A GPX waypoint's time is UTC: 00:30 UTC on the 15th is 20:30 on the 14th at UTC-4, the
    day the photo (20:30 at -04:00) was taken; a photo whose local day is unknown (UTC only)
    goes with a marker of any day an offset from UTC-12 to UTC+14 can give it."""
    from posting.photos import same_local_day

    evening = "2026-10-14T20:30:00-04:00"
    assert same_local_day(evening, "2026-10-15T00:30:00Z")
    assert same_local_day(evening, pd.Timestamp("2026-10-15T00:30:00", tz="UTC"))
    assert same_local_day(evening, "2026-10-14")
    assert not same_local_day(evening, "2026-10-15")
    assert not same_local_day(evening, "2026-10-15T16:00:00Z")  # noon on the 15th, at UTC-4
    assert same_local_day("2026-10-15T03:50:00+00:00", "2026-10-14")  # 15:50 on the 14th at -12
    assert not same_local_day("2026-10-15T15:00:00+00:00", "2026-10-14")  # 03:00 on the 15th
    assert same_local_day(None, "2026-10-14") and same_local_day(evening, None)
    # attached: the photo at the waypoint, the evening before the waypoint's UTC date
    lon, lat = -81.1, 28.7
    write_photo(tmp_path / "evening.jpg", lon, lat, taken="2026:10:14 20:30:00", offset="-04:00")
    m = attach_photos(
        list_photos(tmp_path),
        np.array([lon]),
        np.array([lat]),
        [pd.Timestamp("2026-10-15T00:30:00", tz="UTC")],
    )
    assert m.photos["marker"].tolist() == [0], m.photos["reason"].tolist()


def test_a_position_without_its_hemisphere_is_not_used(tmp_path):
    p = tmp_path / "norefs.jpg"
    write_photo(p, -81.1, 28.7)
    with Image.open(p) as im:
        exif = im.getexif()
        gps = exif.get_ifd(0x8825)
        del gps[1], gps[3]  # GPSLatitudeRef, GPSLongitudeRef
        im.save(tmp_path / "stripped.jpg", exif=exif)
    ph = read_photo(str(tmp_path / "stripped.jpg"))
    assert ph.problem.startswith("the photo's GPS position has no hemisphere")
    assert np.isnan(ph.lon) and np.isnan(ph.lat)  # not 81.1 E, in China


@pytest.mark.parametrize("dest", [(0.0, 0.0), (-81.1, 29.7)])  # a placeholder; 69 miles off
def test_a_subject_position_that_is_not_the_signs_is_not_used(tmp_path, dest):
    p = tmp_path / "dest.jpg"
    camera = write_photo(p, -81.1, 28.7, dest=dest)
    ph = read_photo(str(p))
    assert ph.problem is None and ph.position_from == "camera"
    assert (ph.lon, ph.lat) == pytest.approx(camera, abs=1e-9)


def test_a_200_megapixel_phone_photo_is_read(tmp_path):
    """A phone's 200-megapixel JPEG (16,320 by 12,240) is over Pillow's guard against
    decompression bombs (179 megapixels): its EXIF data is read all the same, and its
    thumbnail made at a reduced scale. (A small JPEG whose frame header says that size.)"""
    import struct

    p = tmp_path / "big.jpg"
    held = write_photo(p, -81.1, 28.7)
    data = bytearray(p.read_bytes())
    sof = data.index(b"\xff\xc0")  # marker, length (2), precision (1), height (2), width (2)
    data[sof + 5 : sof + 9] = struct.pack(">HH", 12240, 16320)
    p.write_bytes(bytes(data))
    ph = read_photo(str(p))
    assert ph.problem is None and (ph.lon, ph.lat) == pytest.approx(held, abs=1e-9)
    assert isinstance(thumbnail_jpeg(str(p), 200), bytes)


def test_a_positioning_error_of_zero_is_not_recorded(tmp_path):
    # no fix is exact: an app that writes 0 for "unknown" must not make the photo attach only
    # to a marker at exactly its position; it gets the phone's 16 ft, as a photo without one
    lon, lat = np.array([-81.10]), np.array([28.70])
    x, y, _ = GEOD.fwd(lon[0], lat[0], 90.0, 12.0 * FT)
    write_photo(tmp_path / "zero.jpg", x, y, error_m=0.0)
    assert np.isnan(read_photo(tmp_path / "zero.jpg").accuracy_ft)
    m = attach_photos(list_photos(tmp_path), lon, lat, [None])
    assert m.photos.loc[0, "marker"] == 0
    assert m.photos.loc[0, "distance_ft"] == pytest.approx(12.0, abs=0.02)


# -- found by an audit of photos as phones write them ----------------------------------------


def _signed_degrees(path, tags=(2, 4)):
    """Rewrite a photo's GPSLatitude/GPSLongitude (tags 2, 4) as a writer of signed decimal
    degrees does: SRATIONAL (type 10), the degrees' numerator negative, minutes and seconds
    as they were."""
    import struct

    data = bytearray(path.read_bytes())
    tiff = data.index(b"Exif\x00\x00") + 6
    en = "<" if data[tiff : tiff + 2] == b"II" else ">"
    for tag in tags:
        entry = data.index(struct.pack(en + "HHI", tag, 5, 3), tiff)  # RATIONAL, 3 values
        at = tiff + struct.unpack_from(en + "I", data, entry + 8)[0]
        data[entry + 2 : entry + 4] = struct.pack(en + "H", 10)
        struct.pack_into(en + "i", data, at, -struct.unpack_from(en + "I", data, at)[0])
    path.write_bytes(bytes(data))


def _refs(path, lat_ref, lon_ref):
    """Set (or, for None, delete) a photo's GPSLatitudeRef and GPSLongitudeRef."""
    with Image.open(path) as im:
        exif = im.getexif()
        data = im.copy()
    gps = exif.get_ifd(0x8825)
    for tag, ref in ((1, lat_ref), (3, lon_ref)):
        if ref is None:
            del gps[tag]
        else:
            gps[tag] = ref
    data.save(path, exif=exif)


@pytest.mark.parametrize(
    "refs",
    [("S", "W"), ("s", "w"), (None, None)],  # the letters with the minus; none: the minus says
)
def test_a_signed_position_is_south_and_west_of_its_whole_angle(tmp_path, refs):
    # 28.7 S, 81.1 W written as (-28, 42, 0) and (-81, 6, 0): the minus is the whole angle's,
    # -(28 + 42/60) = -28.7 and -(81 + 6/60) = -81.1; read before as 28 - 42/60 = -27.3 (95
    # miles off) with the letter S flipping it to 27.3 N, and W flipping 80.9 to 80.9 E
    p = tmp_path / "signed.jpg"
    write_photo(p, 81.1, 28.7)  # written unsigned, N and E
    _refs(p, *refs)
    _signed_degrees(p)
    ph = read_photo(str(p))
    assert ph.problem is None
    assert (ph.lon, ph.lat) == pytest.approx((-81.1, -28.7), abs=1e-9)


def test_a_signed_position_beside_n_or_e_contradicts_itself(tmp_path):
    p = tmp_path / "contradicts.jpg"
    write_photo(p, 81.1, 28.7)  # N and E
    _signed_degrees(p, tags=(2,))  # a negative latitude beside N
    ph = read_photo(str(p))
    assert ph.problem == (
        "the photo's GPS latitude is negative but GPSLatitudeRef is N: they contradict each "
        "other (a negative latitude is S)"
    )
    assert np.isnan(ph.lon) and np.isnan(ph.lat)


def test_a_fix_older_than_the_photo_gives_no_utc_offset(tmp_path):
    # taken at 23:30 local on October 31; the satellites' time is of a fix 20 minutes older,
    # 03:10 UTC on November 1: 23:30 - 27:10 = -3 h 40 min, within 5 minutes of -03:45, which
    # is no place's offset. Without an offset the local time stands, on the 31st (a fix of
    # the same moment, 03:30 UTC, gives -04:00)
    stale, fresh = tmp_path / "stale.jpg", tmp_path / "fresh.jpg"
    taken = "2026:10:31 23:30:00"
    write_photo(stale, -81.1, 28.7, taken=taken, offset=None, gps_time=("2026:11:01", (3, 10, 0)))
    write_photo(fresh, -81.1, 28.7, taken=taken, offset=None, gps_time=("2026:11:01", (3, 30, 0)))
    assert read_photo(str(stale)).surveyed == "2026-10-31T23:30:00"
    assert read_photo(str(fresh)).surveyed == "2026-10-31T23:30:00-04:00"
    # Nepal's +05:45 is an offset: 05:45 local is 00:00 UTC
    nepal = tmp_path / "nepal.jpg"
    write_photo(
        nepal,
        85.3,
        27.7,
        taken="2026:10:14 05:45:00",
        offset=None,
        gps_time=("2026:10:14", (0, 0, 0)),
    )
    assert read_photo(str(nepal)).surveyed == "2026-10-14T05:45:00+05:45"


def test_without_pillow_heif_a_heic_photo_is_one_clear_error(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import posting.photos as photos
    from posting.cli import main

    folder = tmp_path / "roll"
    folder.mkdir()
    write_photo(folder / "IMG_0001.HEIC", -81.1, 28.7)
    write_photo(folder / "IMG_0002.JPG", -81.1, 28.7)
    monkeypatch.setitem(__import__("sys").modules, "pillow_heif", None)  # not installed
    monkeypatch.setattr(photos, "_HEIF", False)
    with pytest.raises(InputError, match=r"pip install pillow-heif") as e:
        read_markers([folder])
    assert e.value.path == str(folder / "IMG_0001.HEIC")
    parcels = tmp_path / "lot.geojson"
    gpd.GeoDataFrame(geometry=[shapely.box(-81.101, 28.699, -81.099, 28.701)], crs=4326).to_file(
        parcels
    )
    res = CliRunner().invoke(main, ["check", str(parcels), "--signs", str(folder)])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and str(folder / "IMG_0001.HEIC") in lines[0]
    assert "Traceback" not in res.output


def test_a_heic_photo_over_pillows_decompression_bomb_guard_is_read(tmp_path, monkeypatch):
    """A HEIC photo over the guard (179 megapixels; here a 64 by 48 photo, 3,072 pixels, under
    a guard lowered to an error over 2 x 1,000) is read as a JPEG over it is: its EXIF data
    without decoding it, and its thumbnail."""
    import io

    p = tmp_path / "IMG_0001.HEIC"
    held = write_photo(p, -81.1, 28.7, camera_deg=10.0)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    ph = read_photo(str(p))
    assert ph.problem is None and (ph.lon, ph.lat) == pytest.approx(held, abs=1e-9)
    assert ph.facing_deg == pytest.approx(190.0)
    thumb = thumbnail_jpeg(str(p), 200)
    monkeypatch.undo()  # the guard back, to open the thumbnail
    with Image.open(io.BytesIO(thumb)) as im:
        assert im.size == (64, 48)
