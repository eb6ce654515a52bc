"""Translations: every user-visible string of the game, by key, in Russian and English.

One catalog per language lives in ``kosti/locale/<lang>.toml``. Nested tables give
dotted keys (``[cell] pair = "пара"`` is ``cell.pair``). A table whose keys are plural
categories (``one``, ``few``, ``many``, ``other``) is one message with plural forms,
chosen by :meth:`Catalog.plural` with the CLDR rule of the language. Messages are
:meth:`str.format` templates: ``"{name} throws {dice}"``.

Interfaces never hold text of their own: they ask a :class:`Catalog` for it, and a
test checks that both catalogs have every key with the same placeholders.
"""

from __future__ import annotations

import os
import string
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Literal

from babel import Locale

from kosti.errors import OptionRefusal, RecordError, Refusal

Lang = Literal["en", "ru"]
LANGUAGES: tuple[Lang, ...] = ("en", "ru")
PLURAL_CATEGORIES: frozenset[str] = frozenset({"one", "few", "many", "other"})
PLURAL_FORMS: dict[str, tuple[str, ...]] = {"en": ("one", "other"), "ru": ("one", "few", "many")}
"""The plural forms each language needs for whole numbers."""

Message = str | Mapping[str, str]


@lru_cache(maxsize=4096)
def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of the whole number ``n`` (1 бросок, 2 броска, 5 бросков),
    by Babel's copy of the CLDR rules (remembered: Babel takes microseconds to apply them, and
    a log is worded with the same few numbers over and over)."""
    return str(_locale(lang).plural_form(abs(n)))


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def _flatten(table: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Message]]:
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, str):
            yield name, value
        elif isinstance(value, dict) and value and set(value) <= PLURAL_CATEGORIES:
            yield name, {k: str(v) for k, v in value.items()}
        elif isinstance(value, dict):
            yield from _flatten(value, name + ".")
        else:
            raise TypeError(f"catalog entry {name} is neither text nor a table")


def preload() -> None:
    """Read every language's catalog and plural rules now: Babel reads a language's CLDR data
    the first time it is asked, tens of milliseconds that a server would otherwise spend in
    the middle of the first move it words in that language."""
    for lang in LANGUAGES:
        messages(lang)
        plural_category(lang, 1)


@cache
def messages(lang: str) -> dict[str, Message]:
    """Every message of ``lang``'s catalog by dotted key."""
    text = resources.files("kosti.locale").joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    return dict(_flatten(tomllib.loads(text)))


def placeholders(template: str) -> frozenset[str]:
    """The names of the ``{…}`` fields of a template."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


@dataclass(frozen=True)
class Catalog:
    """The messages of one language. ``t("key", name="Anna")`` formats one of them."""

    lang: Lang

    def has(self, key: str) -> bool:
        return key in messages(self.lang)

    def __call__(self, key: str, /, **params: Any) -> str:
        """The message ``key`` formatted with ``params``; a missing key shows as itself."""
        message = messages(self.lang).get(key)
        if message is None:
            return key
        if not isinstance(message, str):
            n = int(params.pop("n", 0))
            return self.plural(key, n, **params)
        return message.format(**params) if params else message

    def plural(self, key: str, n: int, /, **params: Any) -> str:
        """The plural form of ``key`` that agrees with ``n`` (available as ``{n}``)."""
        message = messages(self.lang).get(key)
        if message is None:
            return key
        if isinstance(message, str):
            return message.format(n=n, **params)
        form = (
            message.get(plural_category(self.lang, n)) or message.get("other") or next(iter(message.values()))
        )
        return form.format(n=n, **params)

    def cell(self, cell: str) -> str:
        """The name of a score-sheet cell («пара», «каре» …)."""
        return self(f"cell.{cell}")

    def option(self, name: str) -> str:
        """The short label of a rule option."""
        return self(f"option.{name}")


def detect_language(environ: Mapping[str, str] | None = None) -> Lang:
    """The language of the user's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``): Russian or English."""
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"


def catalog(lang: str | None = None) -> Catalog:
    """The catalog of ``lang`` (``ru`` or ``en``), or of the user's locale when ``None``."""
    if lang is None:
        return Catalog(detect_language())
    if lang not in LANGUAGES:
        raise OptionRefusal("bad_language", lang=lang)
    return Catalog("ru" if lang == "ru" else "en")


def rules_text(family: str, lang: str) -> str:
    """The prose rules of a family of games (Markdown) in ``lang``."""
    return catalog(lang)(f"rules.{family}")


CELL_PARAMS = frozenset({"cell", "announced", "next"})
"""Params of a refusal that hold a cell id: ``{cell}`` shows the id, ``{cell:name}`` the
catalog's name of the cell in «»."""

CELLS_PARAMS = frozenset({"cells"})
"""Params that hold a list of cell ids, shown joined by the catalog's ``join.or``: the ids
(``{cells}``) or the names in «» (``{cells:name}``)."""

UNITS_PARAMS = frozenset({"units"})
"""Params that hold a list of groups of faces, shown joined by ``join.or``, each as its faces
with spaces between (``1 1 1 or 5 5 5``)."""

JOINED_PARAMS = {"known": ", ", "options": ", ", "allowed": " | "}
"""Params that hold a list of ids (presets, options, an option's values), shown joined."""

FACES_PARAMS = frozenset({"faces", "dice", "roll"})
"""Params that hold faces of dice, shown as the faces with spaces between (``6 6 3``), as a
player writes them, not as a list."""


@dataclass(frozen=True)
class _Cell:
    """A cell id in a refusal's wording: ``{cell}`` is the id, ``{cell:name}`` its name."""

    id: str
    name: str

    def __format__(self, spec: str) -> str:
        return f"«{self.name}»" if spec == "name" else format(self.id, spec)

    def __str__(self) -> str:
        return self.id

    def __repr__(self) -> str:
        return repr(self.id)


@dataclass(frozen=True)
class _Cells:
    """A list of cell ids in a refusal's wording, joined by ``join.or``."""

    cells: tuple[_Cell, ...]
    joiner: str

    def __format__(self, spec: str) -> str:
        return self.joiner.join(format(cell, spec) for cell in self.cells)

    def __str__(self) -> str:
        return format(self, "")


def _param(t: Catalog, name: str, value: Any) -> Any:
    """A refusal's param as its wording shows it (see :data:`CELL_PARAMS` and the others)."""
    if name in CELL_PARAMS and isinstance(value, str):
        return _Cell(value, t(f"cell.{value}"))
    if name in CELLS_PARAMS and isinstance(value, list | tuple):
        return _Cells(tuple(_Cell(str(c), t(f"cell.{c}")) for c in value), t("join.or"))
    if name in UNITS_PARAMS and isinstance(value, list | tuple):
        return t("join.or").join(" ".join(map(str, unit)) for unit in value)
    if name in JOINED_PARAMS and isinstance(value, list | tuple):
        return JOINED_PARAMS[name].join(map(str, value))
    if name in FACES_PARAMS and isinstance(value, list | tuple):
        return " ".join(map(str, value))
    if name == "refusal" and isinstance(value, Mapping) and "code" in value:
        return _worded(str(value["code"]), dict(value.get("params") or {}), t)
    return value


def refusal_key(code: str, params: Mapping[str, Any]) -> str:
    """The catalog key that words a refusal: ``refusal.<code>``, or ``refusal.<code>.<why>``
    for a code with several wordings."""
    why = params.get("why")
    return f"refusal.{code}" if why is None else f"refusal.{code}.{why}"


def _worded(code: str, params: Mapping[str, Any], t: Catalog) -> str:
    key = refusal_key(code, params)
    message = messages(t.lang).get(key)
    if message is None:
        # a code with no wording (a caller not yet converted, which passed its reason as the
        # code) shows as itself, so that nothing it said is lost
        return code if not params else f"{code} {params}"
    values = {name: _param(t, name, value) for name, value in params.items() if name != "why"}
    if isinstance(message, str):
        return message.format(**values)  # always formatted: a wording's {{ }} are braces
    return t.plural(key, int(values.pop("n", 0)), **values)


def refusal_text(refusal: Refusal, lang: str) -> str:
    """The wording of ``refusal`` (its ``code`` and ``params``) in ``lang``, from the catalogs'
    ``[refusal]`` table: cell ids as the catalog names cells, a number's plural form agreeing
    with ``n``. Every interface shows a refusal this way (RULES.md §4).

        >>> from kosti.errors import IllegalActionError
        >>> refusal_text(IllegalActionError("cell_filled", cell="sixes"), "ru")
        'клетка «шестёрки» уже заполнена'
    """
    return _worded(refusal.code, refusal.params, catalog(lang))


def record_error_text(error: RecordError, lang: str) -> str:
    """The wording of a record that cannot be replayed, in ``lang``: where it breaks (turn and
    action), the action as the record writes it, and the refusal of the rules; an error that is
    not a refusal (a file that is not JSON) in English, as it was raised."""
    if error.refusal is None:
        return str(error)
    t = catalog(lang)
    where = ""
    if error.turn is not None and error.action is not None:
        where = t("record.where_action", turn=error.turn, action=error.action)
    elif error.turn is not None:
        where = t("record.where_turn", turn=error.turn)
    played = "" if error.played is None else t("record.played", action=error.played)
    return where + played + refusal_text(error.refusal, lang)
