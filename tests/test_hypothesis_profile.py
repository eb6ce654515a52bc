"""The Hypothesis profiles of tests/conftest.py: under ``ci`` a property test draws the same
examples on every run, so a failure seen in CI can be run again as it was."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st


def drawn_under(profile: str) -> list[int]:
    seen: list[int] = []

    @settings(settings.get_profile(profile), max_examples=20)
    @given(st.integers(0, 2**32))
    def probe(seed: int) -> None:
        seen.append(seed)

    probe()
    return seen


def test_the_ci_profile_draws_the_same_examples_every_run() -> None:
    first = drawn_under("ci")
    assert len(set(first)) > 1
    assert drawn_under("ci") == first


def test_the_dev_profile_explores_new_examples() -> None:
    assert drawn_under("dev") != drawn_under("dev")


def test_ci_or_hypothesis_profile_selects_the_profile() -> None:
    wanted = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
    assert settings.default.derandomize == (wanted == "ci")
