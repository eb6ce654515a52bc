"""The rules, one key away: the family's rules in prose, then this game's options."""

from __future__ import annotations

import json
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from kosti.i18n import Catalog, rules_text
from kosti.rules.presets import Variant, option_docs


def rules_markdown(rules: Variant, t: Catalog) -> str:
    """The rules of ``rules`` as Markdown: name, summary, the prose of its family, the options."""
    preset = rules.preset
    lines = [
        f"# {preset.name(t.lang)}",
        "",
        f"*{preset.summary(t.lang)}*",
        "",
        rules_text(preset.family, t.lang),
    ]
    lines += [
        "",
        f"## {t('rules.options_title')}",
        "",
        f"| {t('rules.option')} | {t('rules.value')} |",
        "|---|---|",
    ]
    for name, value, _doc in option_docs(rules.options):
        shown = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
        lines.append(f"| {t.option(name)} (`{name}`) | {shown} |")
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
