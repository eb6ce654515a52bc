"""Both catalogs are complete: every key in both languages, with the same placeholders, and
every key the code asks for (literally, or built from a cell, option, hand, level …) exists."""

from __future__ import annotations

import ast
import typing
from dataclasses import fields
from pathlib import Path
from typing import Literal

import pytest

from kosti.errors import OptionError
from kosti.games.showdown.hands import HANDS, Decider
from kosti.i18n import (
    LANGUAGES,
    PLURAL_FORMS,
    Catalog,
    catalog,
    detect_language,
    messages,
    placeholders,
    plural_category,
    preload,
    rules_text,
)
from kosti.rules.options import (
    COLUMN_KINDS,
    LOWER_CELLS,
    UPPER_CELLS,
    SheetOptions,
    ShowdownOptions,
    ThousandOptions,
)

SOURCES = Path(__file__).resolve().parents[2] / "src" / "kosti"


def fields_of(message: str | typing.Mapping[str, str]) -> frozenset[str]:
    if isinstance(message, str):
        return placeholders(message)
    return frozenset().union(*(placeholders(form) for form in message.values()))


def test_both_catalogs_have_the_same_keys_and_placeholders() -> None:
    en, ru = messages("en"), messages("ru")
    assert set(en) == set(ru), set(en) ^ set(ru)
    for key in en:
        assert fields_of(en[key]) == fields_of(ru[key]), key
        for lang, message in (("en", en[key]), ("ru", ru[key])):
            assert message, f"{lang}: {key} is empty"


def test_plural_messages_have_every_form_their_language_needs() -> None:
    for lang in LANGUAGES:
        for key, message in messages(lang).items():
            if not isinstance(message, str):
                assert set(PLURAL_FORMS[lang]) <= set(message), f"{lang}: {key}"


def test_russian_plural_categories() -> None:
    expected = {
        1: "one",
        2: "few",
        4: "few",
        5: "many",
        11: "many",
        12: "many",
        21: "one",
        22: "few",
        111: "many",
    }
    assert {n: plural_category("ru", n) for n in expected} == expected
    assert Catalog("ru").plural("turn.throws_left", 2) == "осталось 2 броска"
    assert Catalog("ru").plural("turn.throws_left", 5) == "осталось 5 бросков"
    assert Catalog("en").plural("turn.throws_left", 1) == "1 throw left"


def test_preload_reads_every_language_and_its_plural_rules() -> None:
    messages.cache_clear()
    plural_category.cache_clear()
    preload()
    assert messages.cache_info().currsize == len(LANGUAGES)
    assert plural_category.cache_info().currsize == len(LANGUAGES)
    # and a plural category asked for afterwards is the same as one worked out cold
    assert plural_category("ru", 1) == "one"
    assert plural_category.cache_info().hits == 1


def literal_keys() -> set[str]:
    """String constants of the interface code that look like catalog keys."""
    sections = {key.split(".")[0] for key in messages("en")}
    found: set[str] = set()
    files = [*(SOURCES / "tui").glob("*.py"), SOURCES / "commands" / "play.py"]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                head = text.split(".")[0]
                if head in sections and "." in text and " " not in text and not text.endswith("."):
                    found.add(text)
    return found


def test_every_key_the_code_names_exists() -> None:
    keys = literal_keys()
    assert len(keys) > 100  # the scan does find the interface's keys
    missing = sorted(k for k in keys if k not in messages("en") and not k.endswith("_"))
    assert missing == []


def test_every_key_built_from_the_rules_exists() -> None:
    en = messages("en")
    needed = {f"cell.{c}" for c in (*UPPER_CELLS, *LOWER_CELLS)}
    needed |= {f"hand.{h}" for h in HANDS}
    needed |= {f"summary.{d}" for d in typing.get_args(Decider)}
    needed |= {f"card.{face}" for face in range(1, 7)}
    needed |= {f"rules.{family}" for family in ("sheet", "thousand", "showdown")}
    needed |= {f"key.stop_{family}" for family in ("thousand", "showdown")}
    needed |= {f"sheet.column_{kind}" for kind in COLUMN_KINDS}
    needed |= {f"{kind}.{level}" for kind in ("level", "bot") for level in ("random", "heuristic", "optimal")}
    for options in (SheetOptions, ThousandOptions, ShowdownOptions):
        hints = typing.get_type_hints(options)
        for f in fields(options):
            needed.add(f"option.{f.name}")
            if typing.get_origin(hints[f.name]) is Literal:
                needed |= {f"value.{f.name}.{v}" for v in typing.get_args(hints[f.name])}
    assert sorted(needed - set(en)) == []


def test_rules_texts_state_the_numbers_of_the_rules() -> None:
    for lang in LANGUAGES:
        from kosti.rules.presets import variant
        from kosti.tui.help_screen import rules_markdown

        thousand = rules_text("thousand", lang)
        for number in ("125", "250", "1000"):
            assert number in thousand, (lang, number)
        # the restrictions, penalties and barrel are stated with each table's own numbers
        classic = rules_markdown(variant("thousand-classic"), Catalog(lang))
        for number in ("555", "880", "120", "200–300", "600–700"):
            assert number in classic, (lang, number)
        v2 = rules_markdown(variant("thousand-v2"), Catalog(lang))
        for number in ("850", "150", "75"):
            assert number in v2, (lang, number)
        sheet = rules_text("sheet", lang)
        for number in ("+50", "×2", "×3", "63", "35"):
            assert number in sheet, (lang, number)
        assert rules_text("showdown", lang).count("\n") > 5


def test_language_comes_from_the_locale() -> None:
    assert detect_language({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert detect_language({"LANG": "ru_RU.UTF-8", "LC_ALL": "en_US.UTF-8"}) == "en"
    assert detect_language({"LC_MESSAGES": "ru_UA"}) == "ru"
    assert detect_language({}) == "en"
    assert catalog("ru").lang == "ru"
    with pytest.raises(OptionError):
        catalog("de")


def test_a_missing_key_shows_itself_rather_than_failing() -> None:
    assert Catalog("en")("no.such.key") == "no.such.key"
    assert Catalog("ru")("log.throw", name="Аня", dice="1 2") == "Аня бросает: 1 2"
