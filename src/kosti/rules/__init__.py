"""Rules as data: option dataclasses per family and the preset registry."""

from kosti.rules.options import (
    EXTENDED_LOWER,
    POKER_LOWER,
    UPPER_CELLS,
    YAHTZEE_LOWER,
    YATZY_LOWER,
    CommonOptions,
    Options,
    SheetOptions,
    ShowdownOptions,
    ThousandOptions,
)
from kosti.rules.presets import (
    ALIASES,
    PRESETS,
    Family,
    Preset,
    Variant,
    option_docs,
    preset,
    variant,
)

__all__ = [
    "ALIASES",
    "EXTENDED_LOWER",
    "POKER_LOWER",
    "PRESETS",
    "UPPER_CELLS",
    "YAHTZEE_LOWER",
    "YATZY_LOWER",
    "CommonOptions",
    "Family",
    "Options",
    "Preset",
    "SheetOptions",
    "ShowdownOptions",
    "ThousandOptions",
    "Variant",
    "option_docs",
    "preset",
    "variant",
]
