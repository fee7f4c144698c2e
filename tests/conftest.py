"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SAMPLE


@pytest.fixture
def sample_dir() -> Path:
    return SAMPLE
