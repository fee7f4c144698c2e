"""The command's memory settings (posting.memory): the user's environment wins."""

from __future__ import annotations

import os

from numpy._core.multiarray import _set_madvise_hugepage

from posting.memory import small_pages


def test_small_pages_turns_numpys_huge_pages_off(monkeypatch):
    monkeypatch.delenv("NUMPY_MADVISE_HUGEPAGE", raising=False)
    before = _set_madvise_hugepage(True)
    try:
        small_pages()
        assert _set_madvise_hugepage(False) is False  # the setting small_pages left
    finally:
        _set_madvise_hugepage(before)

    assert os.environ["NUMPY_MADVISE_HUGEPAGE"] == "0"  # and the workers it starts inherit


def test_small_pages_leaves_a_users_choice(monkeypatch):
    monkeypatch.setenv("NUMPY_MADVISE_HUGEPAGE", "1")
    before = _set_madvise_hugepage(True)
    try:
        small_pages()
        assert _set_madvise_hugepage(before) is True
    finally:
        _set_madvise_hugepage(before)

    assert os.environ["NUMPY_MADVISE_HUGEPAGE"] == "1"
