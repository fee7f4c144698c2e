"""JSON text of columns (posting.jsontext): the bytes orjson writes for the same values."""

from __future__ import annotations

import numpy as np
import orjson
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from posting import jsontext

finite = st.floats(allow_nan=False, allow_infinity=False)
any_float = st.floats(allow_nan=True, allow_infinity=True)


def _orjson_numbers(values: np.ndarray, decimals: int) -> list[str]:
    """The slow, obvious spelling: each value rounded as the records round it, then orjson."""
    out = []
    for v in np.round(values, decimals).tolist():
        out.append(orjson.dumps(v if np.isfinite(v) else None).decode())
    return out


@settings(max_examples=300)
@given(st.lists(any_float, max_size=40), st.sampled_from([0, 1, 2, 4, 7]))
def test_numbers_are_spelled_as_orjson_spells_them(values, decimals):
    a = np.asarray(values, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):  # rounding 1e308 overflows: null
        assert jsontext.numbers(a, decimals).to_pylist() == _orjson_numbers(a, decimals)


def test_numbers_across_magnitudes_match_orjson():
    # every decade from 1e-9 to 1e17, both signs, rounded as lengths and as longitudes are
    rng = np.random.default_rng(5)
    a = rng.choice([-1.0, 1.0], 200_000) * 10 ** rng.uniform(-9, 17, 200_000)
    a[:50] = [0.0, -0.0, 1e-5, -1e-5, 9.99999e-6, 1e15, 1e16, 123.0, np.nan, np.inf] * 5
    for decimals in (2, 4, 7):
        assert jsontext.numbers(a, decimals).to_pylist() == _orjson_numbers(a, decimals)


@settings(max_examples=200)
@given(st.lists(st.one_of(st.none(), st.text()), max_size=20))
def test_texts_are_escaped_as_orjson_escapes_them(values):
    column = np.asarray([*values, None], dtype=object)[:-1]  # an object array, Nones kept
    expected = [orjson.dumps(v).decode() for v in values]
    assert jsontext.texts(column).to_pylist() == expected


def test_integers_and_pairs():
    assert jsontext.integers(np.array([0, -7, 2**40])).to_pylist() == ["0", "-7", "1099511627776"]
    got = jsontext.pairs([-81.123456789, 1.0, np.nan], [27.0, np.inf, 2.0], 7).to_pylist()
    assert got == ["[-81.1234568,27.0]", "null", "null"]


@settings(max_examples=200)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(-3, 3)), max_size=30))
def test_arrays_group_rows_by_owner_in_order(rows):
    # the oracle: each owner's values gathered in a Python list, written by orjson
    n = 6
    owner = np.asarray([o for o, _ in rows], dtype=np.int64)
    items = pa.array([str(v) for _, v in rows], type=pa.string())
    got = jsontext.join(*jsontext.arrays(items, owner, n)).to_pylist()
    expected = [orjson.dumps([v for o, v in rows if o == k]).decode() for k in range(n)]
    assert got == expected
    # several parts, literal text among them, joined row by row before grouping
    got = jsontext.join(*jsontext.arrays(['{"v":', items, "}"], owner, n)).to_pylist()
    wrapped = [[{"v": v} for o, v in rows if o == k] for k in range(n)]
    assert got == [orjson.dumps(x).decode() for x in wrapped]


def test_span_and_dumped_values():
    text = pa.array(['{"a":1},', '{"b":[2]},', "3"], type=pa.large_string())
    assert bytes(jsontext.span(text)) == b'{"a":1},{"b":[2]},3'
    assert bytes(jsontext.span(text.slice(1, 1))) == b'{"b":[2]},'
    assert bytes(jsontext.span(text.slice(3))) == b""
    values = [{"k": [1, None]}, "x", 2.5, None]
    assert jsontext.dumped(values).to_pylist() == [orjson.dumps(v).decode() for v in values]
    assert jsontext.booleans(np.array([True, False])).to_pylist() == ["true", "false"]


def test_where_leaves_an_optional_key_out():
    text = pa.array([',"name":"a"', ',"name":"b"'])
    assert jsontext.where(np.array([False, True]), text).to_pylist() == ["", ',"name":"b"']
    # scatter: the text of the rows that have the key only
    got = jsontext.scatter(np.array([True, False, True]), text).to_pylist()
    assert got == [',"name":"a"', "", ',"name":"b"']
    assert jsontext.scatter(np.array([False, False]), text.slice(0, 0)).to_pylist() == ["", ""]


def _python_rounded(values: np.ndarray, decimals: int) -> list[float]:
    """The slow, obvious rounding: Python's ``round`` of each value (NaN and infinities kept)."""
    return [round(v, decimals) if np.isfinite(v) else v for v in values.tolist()]


@settings(max_examples=300)
@given(st.lists(any_float, max_size=40), st.sampled_from([0, 1, 2, 4, 7]))
def test_rounded_is_pythons_round(values, decimals):
    a = np.asarray(values, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        got = jsontext.rounded(a, decimals)
    want = np.asarray(_python_rounded(a, decimals), dtype=float)
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(want))


def test_rounded_settles_the_halves_numpy_gets_wrong():
    # values a hair from a half once scaled, where np.round's product crosses the half: of
    # 300,000 such values np.round disagrees with Python on about a tenth
    rng = np.random.default_rng(11)
    for decimals in (1, 2, 7):
        a = np.round(rng.uniform(-1e3, 1e3, 100_000), decimals) + 0.5 * 10.0**-decimals
        a = np.concatenate([a, np.nextafter(a, np.inf), np.nextafter(a, -np.inf)])
        want = np.asarray(_python_rounded(a, decimals))
        assert (np.round(a, decimals) != want).any()  # the case is real
        assert np.array_equal(jsontext.rounded(a, decimals), want)
        spelled = jsontext.numbers(a, decimals, exact=True).to_pylist()
        assert spelled == [orjson.dumps(v).decode() for v in want.tolist()]
