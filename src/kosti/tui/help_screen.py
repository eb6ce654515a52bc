"""The rules, one key away: the family's rules in prose, this table's own numbers, and the
options that apply to it, their values in the player's language (RULES.md §1–3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from kosti.i18n import Catalog, rules_text
from kosti.phrases import pits_text, thousand_rules
from kosti.rules.options import Options, SheetOptions, ThousandOptions
from kosti.rules.presets import Variant, option_docs


def applicable(options: Options) -> list[str]:
    """The options that mean something at this table: an option that is off takes the
    options that only tune it along (no upper bonus: no bonus points or threshold)."""
    names = [name for name, _value, _doc in option_docs(options)]
    drop: set[str] = set()
    if isinstance(options, SheetOptions):
        drop |= {
            "none": {"upper_bonus_points", "upper_penalty_points", "upper_threshold"},
            "nonnegative": {"upper_threshold"},
            "sign": {"upper_threshold"},
            "threshold": {"upper_penalty_points"},
        }.get(options.upper_bonus, set())
        if not options.banked_throws:
            drop.add("bank_value")
        if "yahtzee" not in options.lower:
            drop |= {"joker", "extra_yahtzee_bonus"}
        drop |= {
            name
            for name in ("poker_bonus", "four_bonus", "bank_value", "extra_yahtzee_bonus")
            if not getattr(options, name)
        }
    if isinstance(options, ThousandOptions):
        if not options.opening_fail_penalty:
            drop |= {"opening_fail_penalty", "opening_fail_every"}
        if not options.opening:
            drop |= {"opening", "opening_fail_penalty", "opening_fail_every"}
        if not options.overtake_penalty:
            drop.add("overtake_penalty")
        if options.dump_at is None:
            drop.add("dump_at")
        if not options.bolt_limit:
            drop |= {"bolt_limit", "bolt_penalty", "bolts_when_restricted"}
        if not options.pits:
            drop.add("pits")
        drop |= {
            "none": {"barrel_at", "barrel_attempts", "fall_penalty", "falls_limit", "dots_limit"},
            "points": {"dots_limit"},
            "capped": {"barrel_attempts", "fall_penalty", "falls_limit", "dots_limit"},
            "open": {"barrel_at", "barrel_attempts"},
        }[options.barrel]
    return [name for name in names if name not in drop]


def value_text(name: str, value: Any, t: Catalog) -> str:
    """An option's value in words: «по выбору», «да», «200–300, 600–700», «пара, фул …»."""
    if isinstance(value, bool):
        return t("rules.table.yes" if value else "rules.table.no")
    if value is None:
        return t("rules.table.off")
    if isinstance(value, str):
        key = f"value.{name}.{value}"
        return t(key) if t.has(key) else value
    if name == "pits":
        return pits_text(value) or t("rules.table.none")
    if isinstance(value, Sequence):
        return ", ".join(t.cell(v) if isinstance(v, str) else str(v) for v in value) or t("rules.table.none")
    return str(value)


def table_rules(rules: Variant, t: Catalog) -> list[str]:
    """The rules of this «Тысяча» table with its own numbers (:func:`kosti.phrases.thousand_rules`);
    none for another family."""
    o = rules.options
    return thousand_rules(o, t) if isinstance(o, ThousandOptions) else []


def rules_markdown(rules: Variant, t: Catalog) -> str:
    """The rules of ``rules`` as Markdown: name, summary, the prose of its family, this
    table's own rules, and the options that apply with their values in words."""
    preset = rules.preset
    lines = [
        f"# {preset.name(t.lang)}",
        "",
        f"*{preset.summary(t.lang)}*",
        "",
        rules_text(preset.family, t.lang),
    ]
    own = table_rules(rules, t)
    if own:
        lines += ["", f"## {t('rules.table.title')}", ""]
        for line in own:
            lines += [line, ""]
    lines += [
        "",
        f"## {t('rules.options_title')}",
        "",
        f"| {t('rules.option')} | {t('rules.value')} |",
        "|---|---|",
    ]
    shown = set(applicable(rules.options))
    for name, value, _doc in option_docs(rules.options):
        if name == "falls_limit" and isinstance(rules.options, ThousandOptions):
            from kosti.games.thousand.game import falls_limit

            value = falls_limit(rules.options)  # (unset: the barrel's own default)
        if name in shown:
            lines.append(f"| {t.option(name)} | {value_text(name, value, t)} |")
    lines += ["", t("rules.keys")]
    return "\n".join(lines)


class RulesScreen(ModalScreen[None]):
    """The rules of the game being played; Escape (or R) goes back to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,r,q,f1", "close", show=False)]

    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > Vertical { width: 90%; height: 90%; border: thick $accent; background: $panel; }
    """

    def __init__(self, rules: Variant, t: Catalog) -> None:
        super().__init__()
        self.rules = rules
        self.t = t

    def compose(self) -> ComposeResult:
        with Vertical(), VerticalScroll(id="rules-scroll"):
            yield Markdown(rules_markdown(self.rules, self.t), id="rules-text")

    def on_mount(self) -> None:
        box = self.query_one(Vertical)
        box.border_title = self.t("rules.title")
        box.border_subtitle = self.t("rules.close")
        self.query_one("#rules-scroll", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


KEY_WIDTH = 3
"""The column of the keys in the list of keys ("1…5" is the widest)."""


def marked_text(line: str) -> Text:
    """A line of the catalog's rules as text: its ``**bold**`` parts bold, the rest plain."""
    text = Text()
    for i, part in enumerate(line.split("**")):
        text.append(part, style="bold" if i % 2 else "")
    return text


def keys_text(keys: Sequence[tuple[str, str]], rules: Sequence[str] = ()) -> Text:
    """The list of keys, one a line with its whole label, then the rules of this table."""
    width = max([KEY_WIDTH, *(len(key) for key, _ in keys)])
    text = Text()
    for key, label in keys:
        text.append(key.ljust(width), style="bold cyan")
        text.append(f"  {label}\n")
    for line in rules:
        text.append("\n")
        text.append_text(marked_text(line))
        text.append("\n")
    text.rstrip()
    return text


class KeysScreen(ModalScreen[None]):
    """The keys that work now, each with its whole label (the footer of a small terminal shows
    only the most needed ones), and the rules of this table in a few sentences; Escape, ? or
    Enter goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,enter,q", "close", show=False)]

    DEFAULT_CSS = """
    KeysScreen { align: center middle; }
    KeysScreen > VerticalScroll { width: 90%; max-width: 100; height: auto; max-height: 90%;
                                  border: thick $accent; background: $panel; padding: 0 2; }
    KeysScreen #keys-text { width: 100%; height: auto; }
    """

    def __init__(self, keys: list[tuple[str, str]], t: Catalog, rules: Sequence[str] = ()) -> None:
        super().__init__()
        self.keys = keys
        self.t = t
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(keys_text(self.keys, self.rules), id="keys-text")

    def on_mount(self) -> None:
        box = self.query_one(VerticalScroll)
        box.border_title = self.t("key.keys_title")
        box.border_subtitle = self.t("rules.close")
        box.focus()

    def action_close(self) -> None:
        self.dismiss(None)


def table_sentences(rules: Variant, t: Catalog) -> list[str]:
    """What the ``?`` list says of the rules: this table's own rules with its numbers (pits,
    the barrel, bolts, overtaking, «самосвал» …), or the preset in a line where the rules of
    its family have no numbers of the table's own."""
    return table_rules(rules, t) or [rules.preset.summary(t.lang)]
