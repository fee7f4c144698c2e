"""posting.prefetch: marker files read while the program loads, with the same result."""

import subprocess
import sys

import geopandas as gpd
import pyarrow.parquet as pq
import pytest

from posting import read_markers
from posting.errors import InputError
from posting.prefetch import Prefetch


@pytest.fixture
def signs(tmp_path):
    pts = gpd.GeoDataFrame(
        {"kind": ["sign", "paint"]},
        geometry=gpd.points_from_xy([-81.3, -81.2], [28.6, 28.5]),
        crs=4326,
    )
    path = tmp_path / "signs.parquet"
    pts.to_parquet(path)
    return path


def test_a_prefetched_table_is_the_file_and_is_taken_once(signs):
    prefetch = Prefetch([signs, signs, "notes.csv"])  # twice: read once; not Parquet: ignored
    table = prefetch.take(signs)
    assert table.equals(pq.read_table(signs))
    assert prefetch.take(signs) is None  # taken: the cache forgets it
    assert prefetch.take("notes.csv") is None


def test_markers_read_from_a_prefetched_table_are_the_same(signs):
    plain = read_markers([signs])
    prefetch = Prefetch([signs])
    again = read_markers([signs], prefetch=prefetch)
    assert prefetch.take(signs) is None  # the reader took it
    assert again.x.tolist() == plain.x.tolist() == [-81.3, -81.2]
    assert again.attributes["kind"].tolist() == ["sign", "paint"]


def test_an_unreadable_file_is_reported_by_the_reader(tmp_path):
    bad = tmp_path / "signs.parquet"
    bad.write_text("not parquet")
    prefetch = Prefetch([bad])
    with pytest.raises(InputError, match="not a readable Parquet file"):
        read_markers([bad], prefetch=prefetch)
    assert prefetch.take(bad) is None


def test_the_command_starts_without_the_heavy_libraries():
    # what lets the prefetch overlap the imports: `posting.cli` loads neither pandas nor shapely
    heavy = "{'pandas', 'shapely', 'pyproj'}"
    code = f"import sys, posting.cli; print(sorted({heavy} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
