"""posting.memory: freed memory is given back, except where a runner keeps it for its next task."""

from __future__ import annotations

import pytest

from posting import distributed, memory


@pytest.fixture
def trims(monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda: calls.append)
    return calls


def test_release_memory_trims(trims):
    memory.release_memory()
    assert trims == [0]


def test_keeping_memory_trims_nothing_and_is_restored(trims):
    with memory.keeping_memory():
        memory.release_memory()
        with memory.keeping_memory():
            memory.release_memory()
        memory.release_memory()  # still kept: the outer block's choice
    assert trims == []
    memory.release_memory()
    assert trims == [0]


def test_a_worker_task_keeps_its_memory_for_the_next(trims):
    @distributed._task
    def task():
        memory.release_memory()  # as the check does after the assignment
        return "done"

    assert task() == "done"
    assert trims == []
    memory.release_memory()  # outside the task, memory is given back again
    assert trims == [0]
