"""The bundled sample: regenerated identically; each scenario gets the verdict it was built for."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from helpers import SAMPLE

from posting import Settings, check, read_markers, read_parcels

_spec = importlib.util.spec_from_file_location("make_sample", SAMPLE / "make_sample.py")
SAMPLE_SCRIPT = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(SAMPLE_SCRIPT)

FILES = [
    "parcels.geojson",
    "signs.csv",
    "signs-added.gpx",
    "water.geojson",
    "dwellings.geojson",
    "fences.geojson",
    "easements.geojson",
]

# What data/make_sample.py builds each parcel to be (see its docstring).
EXPECTED = {
    **dict.fromkeys(
        ["N01", "N02", "N03", "N04", "N05", "N10", "S3", "S5", "CEM", "L01", "L05", "L07"],
        "compliant",
    ),
    **dict.fromkeys(["N06", "N07", "S1", "S2"], "noncompliant"),
    **dict.fromkeys(
        ["N08", "S4", "L02", "L03", "L04", "L06", "L08", "L09", "L10", "L11", "L12"], "unposted"
    ),
    "N09": "compliant",
    "U1": "invalid",
}


def test_sample_is_reproducible(tmp_path):
    subprocess.run([sys.executable, str(SAMPLE / "make_sample.py"), str(tmp_path)], check=True)
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (SAMPLE / name).read_bytes(), name


@pytest.fixture(scope="module")
def layers():
    return (
        read_parcels(SAMPLE / "parcels.geojson", id_field="parcel_id", owner_field="owner"),
        read_markers([SAMPLE / "signs.csv", SAMPLE / "signs-added.gpx"]),
    )


def test_each_scenario_gets_its_verdict(layers):
    r = check(*layers)
    assert dict(zip(r.parcels["id"], r.parcels["status"], strict=True)) == EXPECTED


def test_phone_grade_accuracy_cannot_settle_the_488_ft_gap(layers):
    r = check(*layers, settings=Settings(accuracy_ft=16.0))
    status = dict(zip(r.parcels["id"], r.parcels["status"], strict=True))
    assert status["N09"] == "uncertain"


def test_scenario_details(layers):
    d = {p["id"]: p for p in check(*layers).to_dict()["parcels"]}
    # N06: three of the five interval signs missing on its east line (x = 330 ft, from the road
    # at y = 30 ft to the river bank): one gap of four sixths of that line
    east_line = float(SAMPLE_SCRIPT.bank(330.0)) - 30.0
    assert d["N06"]["max_gap_ft"] == pytest.approx(4 * east_line / 6, abs=10)
    assert [g["status"] for g in d["N06"]["gaps"]] == ["over"]
    # N07: the two road corners have no sign
    assert len(d["N07"]["missing_corners"]) == 2
    # S1: its pond shore, a hole of radius 180 ft, is unmarked
    [ring] = [g for g in d["S1"]["gaps"] if g["status"] == "unmarked"]
    assert ring["ring"] == {"part": 0, "hole": 1}
    assert ring["length_ft"] == pytest.approx(2 * 3.14159 * 180, rel=0.01)
    # S2: letters of 1.5 in on every sign
    [v] = d["S2"]["violations"]
    assert v["rule"] == "letter_height" and v["measured"] == 1.5 and v["limit"] == 2.0
    # S5 has two parts, S3 a hole: both posted all round
    assert d["S5"]["rings"] == 2 and d["S3"]["rings"] == 2
    # L01's chamfered corner is one corner
    assert d["L01"]["corners"] == 4
    assert d["L05"]["repaired"].startswith("repaired: Self-intersection at [-81.10")
    # N05's signs name the lessee: lawful, noted
    assert "lessee" in d["N05"]["notes"][0]["message"]
