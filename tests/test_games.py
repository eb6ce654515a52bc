"""The engines by family (``kosti.games``): the registry and the functions that dispatch to it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kosti.errors import KostiError
from kosti.games import ENGINES, engine_for, new_game
from kosti.games.sheet.game import SHEET
from kosti.games.showdown.game import SHOWDOWN
from kosti.games.thousand.game import THOUSAND
from kosti.rules import PRESETS, variant


def test_every_preset_has_the_engine_of_its_family() -> None:
    expected = {"sheet": SHEET, "thousand": THOUSAND, "showdown": SHOWDOWN}
    for preset in PRESETS.values():
        assert engine_for(variant(preset.id)) is expected[preset.family]
    assert set(ENGINES) == {p.family for p in PRESETS.values()}


def test_a_family_without_an_engine_is_refused_saying_which() -> None:
    rules = variant("poker-classic")
    chess = replace(rules, preset=replace(rules.preset, family="chess"))  # type: ignore[arg-type]
    with pytest.raises(KostiError, match="'chess'"):
        engine_for(chess)
    with pytest.raises(KostiError, match="no engine"):
        new_game(chess, ["Anna"])
