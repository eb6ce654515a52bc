"""The preset registry: named option sets, their names in Russian and English, and
the canonical string form of a variant (``poker-classic(stages=free)``)."""

from __future__ import annotations

import json
import re
import types
import typing
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from kosti.errors import OptionError, OptionRefusal
from kosti.rules.options import (
    EXTENDED_LOWER,
    YAHTZEE_LOWER,
    YATZY_LOWER,
    Options,
    SheetOptions,
    ShowdownOptions,
    ThousandOptions,
)

Family = Literal["sheet", "thousand", "showdown"]


@dataclass(frozen=True)
class Preset:
    """A named variant: the family of game and the values of its options."""

    id: str
    family: Family
    name_en: str
    name_ru: str
    summary_en: str
    summary_ru: str
    options: Options

    def name(self, lang: str = "en") -> str:
        """The preset's name in ``lang`` (``ru`` or ``en``)."""
        return self.name_ru if lang == "ru" else self.name_en

    def summary(self, lang: str = "en") -> str:
        """A one-line description in ``lang``."""
        return self.summary_ru if lang == "ru" else self.summary_en


@dataclass(frozen=True)
class Variant:
    """A preset with some options overridden: what a game is played under."""

    preset: Preset
    options: Options

    @property
    def family(self) -> Family:
        return self.preset.family

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset, by name, as JSON values."""
        base = self.preset.options
        return {
            f.name: _to_json(getattr(self.options, f.name))
            for f in fields(self.options)
            if getattr(self.options, f.name) != getattr(base, f.name)
        }

    @property
    def spec(self) -> str:
        """The canonical string: ``preset`` or ``preset(name=value,…)`` sorted by name."""
        changed = self.overrides()
        if not changed:
            return self.preset.id
        parts = [f"{k}={_format_value(v)}" for k, v in sorted(changed.items())]
        return f"{self.preset.id}({','.join(parts)})"

    def __str__(self) -> str:
        return self.spec


_sheet_poker = SheetOptions()
PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        Preset(
            "poker-classic",
            "sheet",
            "Poker dice, classic sheet",
            "Покер на костях, классика",
            "Upper section by deviation from three, then nine combinations; first throw doubles.",
            "Сначала «школа» (отклонение от трёх), потом девять комбинаций; с первого броска ×2.",
            _sheet_poker,
        ),
        Preset(
            "poker-extended",
            "sheet",
            "Poker dice, extended sheet",
            "Покер на костях, расширенный",
            "Classic plus even and odd, straights as runs, settled against the average.",
            "Классика плюс чёт и нечет, стриты любые, расчёт от среднего.",
            replace(_sheet_poker, lower=EXTENDED_LOWER, straights="runs"),
        ),
        Preset(
            "poker-mandatory",
            "sheet",
            "Poker dice, mandatory combinations",
            "Покер на костях, обязательные сочетания",
            "No upper bonus; unused throws are banked and worth 3 each; a prize for four of a kind.",
            "Без премии за школу; неиспользованные броски копятся, по 3 очка; приз за каре.",
            replace(
                _sheet_poker,
                lower=EXTENDED_LOWER,
                straights="runs",
                upper_bonus="none",
                four_bonus=20,
                banked_throws=True,
                bank_value=3,
            ),
        ),
        Preset(
            "poker-free",
            "sheet",
            "Poker dice, free order",
            "Покер на костях, свободный",
            "Any cell any time; upper by sum, combinations by the sum of all dice, poker 50.",
            "Любая клетка в любой момент; школа по сумме, комбинации по сумме костей, покер 50.",
            replace(
                _sheet_poker,
                upper="sum",
                lower_scoring="free",
                straights="runs",
                first_throw="none",
                poker_bonus=0,
                upper_bonus="none",
                stages="free",
            ),
        ),
        Preset(
            "poker-fences",
            "sheet",
            "Poker dice with fences, three columns",
            "Покер с оградами, три столбца",
            "Three columns (free, announced, in order); banked throws; first throw triples.",
            "Три столбца (вольный, с объявлением, по порядку); ограды; с первого броска ×3.",
            replace(
                _sheet_poker,
                first_throw="fences",
                poker_bonus=0,  # seed 003 names no poker bonus (RULES.md §1.3: classic, extended, mandatory)
                upper_bonus="sign",
                stages="free",
                banked_throws=True,
                scratch=True,
                columns="fences",
            ),
        ),
        Preset(
            "yahtzee",
            "sheet",
            "Yahtzee",
            "Yahtzee (покер на костях по-американски)",
            "The standard Yahtzee: 63 in the upper section earns 35, extra Yahtzees 100, jokers.",
            "Стандартный Yahtzee: 63 в верхней части дают 35, доп. Yahtzee 100, джокер.",
            replace(
                _sheet_poker,
                upper="sum",
                lower=YAHTZEE_LOWER,
                lower_scoring="yahtzee",
                straights="runs",
                first_throw="none",
                poker_bonus=0,
                upper_bonus="threshold",
                upper_bonus_points=35,
                stages="free",
                extra_yahtzee_bonus=100,
                joker="forced",
            ),
        ),
        Preset(
            "yatzy",
            "sheet",
            "Yatzy (Scandinavian)",
            "Yatzy (скандинавский)",
            "Scandinavian Yatzy: combinations score their pips, 63 in the upper section earns 50, yatzy 50.",
            "Скандинавский Yatzy: комбинации по сумме их костей, 63 в школе дают 50, ятзи 50.",
            replace(
                _sheet_poker,
                upper="sum",
                lower=YATZY_LOWER,
                first_throw="none",
                poker_bonus=0,
                upper_bonus="threshold",
                upper_bonus_points=50,
                stages="free",
            ),
        ),
        Preset(
            "poker-showdown",
            "showdown",
            "Showdown poker dice",
            "Покер на костях, кто сильнее",
            "Everyone antes, throws up to three times with locked holds; the best hand takes the bank.",
            "Все ставят в банк, до трёх бросков, отложенные кости не трогать; лучшая рука берёт банк.",
            ShowdownOptions(),
        ),
        Preset(
            "thousand-classic",
            "thousand",
            "Thousand (dice 1000), classic",
            "Тысяча, классика",
            "To 1000: opening 50, pits, overtaking, 555 dump, bolts, points barrel at 880.",
            "До 1000: открытие 50, ямы, обгон, самосвал 555, болты, бочка 880.",
            ThousandOptions(),
        ),
        Preset(
            "thousand-v2",
            "thousand",
            "Thousand (dice 1000), variant 2",
            "Тысяча, вариант №2",
            "Admission 75, dice set aside by choice, confirmation throw, barrel capped at 850.",
            "Допуск 75, откладываешь на выбор, подтверждающий бросок, бочка 850.",
            ThousandOptions(
                opening=75,
                set_aside="choice",
                hot_dice="confirm",
                pits=(),
                overtake_penalty=0,
                dump_at=None,
                bolt_limit=0,
                barrel="capped",
                barrel_at=850,
            ),
        ),
    )
}

ALIASES: dict[str, str] = {
    "poker": "poker-classic",
    "classic": "poker-classic",
    "extended": "poker-extended",
    "mandatory": "poker-mandatory",
    "free": "poker-free",
    "fences": "poker-fences",
    "scandinavian": "yatzy",
    "ятзи": "yatzy",
    "ограды": "poker-fences",
    "showdown": "poker-showdown",
    "thousand": "thousand-classic",
    "1000": "thousand-classic",
    "тысяча": "thousand-classic",
}


def preset(name: str) -> Preset:
    """The preset with this id or alias; :class:`OptionError` lists the known ones otherwise."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise OptionRefusal("unknown_preset", name=name, known=list(PRESETS)) from None


def variant(name: str, overrides: dict[str, Any] | None = None) -> Variant:
    """A variant from a preset name (or canonical string) and option overrides.

    ``variant("poker-classic", {"stages": "free"})`` and
    ``variant("poker-classic(stages=free)")`` are the same variant. Unknown options,
    values of the wrong kind and options that break an invariant of their class (checked
    by the class itself, as for any options made directly) raise :class:`OptionError`.
    """
    match = re.fullmatch(r"\s*([^()\s]+)\s*(?:\((.*)\))?\s*", name, flags=re.S)
    if not match:
        raise OptionRefusal("bad_spec", spec=name)
    base = preset(match.group(1))
    given: dict[str, Any] = _parse_overrides(match.group(2)) if match.group(2) else {}
    given.update(overrides or {})
    options = base.options
    valid = {f.name for f in fields(options)}
    hints = _hints(type(options))
    changes: dict[str, Any] = {}
    for key, value in given.items():
        if key not in valid:
            raise OptionRefusal("no_option", preset=base.id, option=key, options=sorted(valid))
        changes[key] = _coerce(key, value, hints[key])
    # replace() runs the options' own checks (their __post_init__): one home for each invariant
    options = replace(options, **changes)
    return Variant(base, options)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(kind: type) -> dict[str, Any]:
    """The options' field types, resolved once a class: resolving them takes a millisecond or two,
    and every table a server loads reads its variant."""
    hints = _HINTS.get(kind)
    if hints is None:
        hints = _HINTS[kind] = typing.get_type_hints(kind)
    return hints


def _parse_overrides(text: str) -> dict[str, Any]:
    """``a=1,b=[1,2],c=x`` → a dict; a value is JSON where it parses, else a bare string."""
    result: dict[str, Any] = {}
    depth = 0
    start = 0
    pieces: list[str] = []
    for i, ch in enumerate(text):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            pieces.append(text[start:i])
            start = i + 1
    pieces.append(text[start:])
    for piece in pieces:
        if not piece.strip():
            continue
        if "=" not in piece:
            raise OptionRefusal("option_syntax", text=piece.strip())
        key, raw = piece.split("=", 1)
        result[key.strip()] = _parse_value(raw.strip())
    return result


def _parse_value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        if raw.startswith("["):
            # bare words inside a list: [pair,poker]
            inner = raw.strip("[]")
            return [w.strip() for w in inner.split(",") if w.strip()]
        return raw


def _format_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def _coerce(name: str, value: Any, hint: Any) -> Any:
    """Check ``value`` against the field's type and convert lists to tuples."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Literal:
        if value not in args:
            raise OptionRefusal("option_value", why="one_of", option=name, allowed=list(args), value=value)
        return value
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        if isinstance(value, str) and value.lower() in ("null", "none", "off") and type(None) in args:
            return None
        others = [a for a in args if a is not type(None)]
        return _coerce(name, value, others[0])
    if hint is bool:
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "on", "off"):
            return value.lower() in ("true", "yes", "on")
        if not isinstance(value, bool):
            raise OptionRefusal("option_value", why="bool", option=name, value=value)
        return value
    if hint is int:
        if isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise OptionRefusal("option_value", why="int", option=name, value=value) from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionRefusal("option_value", why="int", option=name, value=value)
        return value
    if hint is str:
        if not isinstance(value, str):
            raise OptionRefusal("option_value", why="word", option=name, value=value)
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise OptionRefusal("option_value", why="list", option=name, value=value)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(name, v, args[0]) for v in value)
        if len(value) != len(args):
            raise OptionRefusal("option_value", why="count", option=name, n=len(args), value=value)
        return tuple(_coerce(name, v, a) for v, a in zip(value, args, strict=True))
    raise OptionError(f"option {name} cannot be set")  # pragma: no cover - every field is covered


def option_docs(options: Options, lang: str = "en") -> list[tuple[str, Any, str]]:
    """Each option of ``options`` as (name, value, meaning), the meaning in ``lang`` from the
    catalogs' ``option_doc`` table (every option has one in both languages)."""
    from kosti.i18n import catalog

    t = catalog(lang)
    return [(f.name, _to_json(getattr(options, f.name)), t(f"option_doc.{f.name}")) for f in fields(options)]
