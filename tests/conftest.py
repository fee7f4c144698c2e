"""Shared fixtures, and the fuzz campaign's long profile."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SAMPLE
from hypothesis import HealthCheck, settings

# `pytest tests/test_fuzz.py --hypothesis-profile=long`: the fuzz tests take their number of
# examples from the profile (the other property tests set their own); 3,400 a test, 13,600 in
# all over the four fuzz tests, as the release check (see the README). The default
# profile (100 a test) is what CI runs.
settings.register_profile(
    "long",
    max_examples=3_400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


@pytest.fixture
def sample_dir() -> Path:
    return SAMPLE
