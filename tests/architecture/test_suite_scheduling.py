"""The suite's own xdist scheduler (tests/utils/scheduling.py; docs/testing.md, "Parallel"):
a worker is sent one file's tests at a time, fewer as the suite nears its end, and the longest
files one test at a time."""
from __future__ import annotations

from tests.utils.scheduling import next_run

COLLECTION = ["tests/a.py::one", "tests/a.py::two", "tests/a.py::three", "tests/b.py::one", "tests/b.py::two",
              "tests/heavy.py::one", "tests/heavy.py::two"]


def test_a_run_is_the_tests_that_follow_from_one_file() -> None:
    assert next_run(COLLECTION, [0, 1, 2, 3, 4], cap=10, single=()) == 3
    assert next_run(COLLECTION, [3, 4, 5], cap=10, single=()) == 2


def test_a_run_is_no_longer_than_its_cap() -> None:
    assert next_run(COLLECTION, [0, 1, 2, 3], cap=2, single=()) == 2
    assert next_run(COLLECTION, [0, 1, 2], cap=0, single=()) == 1  # a worker always gets a test


def test_the_files_named_single_go_one_test_at_a_time() -> None:
    assert next_run(COLLECTION, [5, 6], cap=10, single=("tests/heavy.py",)) == 1


def test_tests_of_one_file_apart_in_the_order_are_separate_runs() -> None:
    # what was sent back (a crashed worker's) or is left: only the tests next to each other count
    assert next_run(COLLECTION, [0, 3, 1], cap=10, single=()) == 1


def test_nothing_left_is_no_run() -> None:
    assert next_run(COLLECTION, [], cap=10, single=()) == 0
