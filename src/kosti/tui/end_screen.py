"""The end of a game: the final table, places, the settlement against the average, the record."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from kosti.i18n import Catalog
from kosti.settlement import ranks, settle
from kosti.tui.boards import quiet_table
from kosti.tui.session import Session
from kosti.tui.text import number, signed


def settlement_text(value: Fraction | int, decimal_comma: bool = False) -> Text:
    """A settlement as a decimal, with the exact fraction beside it when it is not whole:
    «+12», «−1.67 (−5/3)» (in Russian with a decimal comma: «−1,67 (−5/3)»)."""
    exact = Fraction(value)
    style = "green" if exact > 0 else ("red" if exact < 0 else "")
    if exact.denominator == 1:
        return Text(signed(exact.numerator), style=style)
    decimal = f"{abs(float(exact)):.2f}".rstrip("0").rstrip(".")
    if decimal_comma:
        decimal = decimal.replace(".", ",")
    sign = "−" if exact < 0 else "+"
    text = Text(sign + decimal, style=style)
    text.append(f" ({sign}{abs(exact.numerator)}/{exact.denominator})", style="grey62")
    return text


class EndScreen(Screen[None]):
    """The final table. N starts a new game, Q leaves, Escape looks at the board again."""

    DEFAULT_CSS = """
    EndScreen > Vertical { padding: 1 2; }
    EndScreen #end-title { text-style: bold; color: $success; height: auto; margin-bottom: 1; }
    EndScreen DataTable { height: auto; margin-bottom: 1; }
    EndScreen #end-record { color: $text-muted; height: auto; }
    """

    def __init__(self, session: Session, t: Catalog) -> None:
        super().__init__()
        self.session = session
        self.t = t
        self._bindings.bind("n", "new_game", t("key.new_game"))
        self._bindings.bind("escape", "back", t("key.back_to_table"))
        self._bindings.bind("q", "quit_game", t("key.quit"))
        self._bindings.bind("question_mark", "keys", t("key.keys"), key_display="?")

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static(id="end-title")
            yield quiet_table("final")
            yield Static(id="end-record")
        yield Footer()

    def on_mount(self) -> None:
        session = self.session
        t = self.t
        self.sub_title = session.variant.preset.name(t.lang)
        state = session.state
        engine = session.engine
        totals = engine.scores(state)
        places = ranks(totals)
        winners = [state.players[i] for i in engine.winners(state)]
        self.query_one("#end-title", Static).update(
            Text("🏆 " + t("end.winner", names=", ".join(winners), n=len(winners)))
        )
        table: DataTable[Any] = self.query_one("#final", DataTable)
        table.add_column(t("end.place"), key="place")
        table.add_column(t("board.player"), key="name")
        table.add_column(t("end.score"), key="score")
        stake = getattr(session.variant.options, "stake", 1)
        show_settlement = session.family != "showdown"
        if show_settlement:
            table.add_column(t("end.settlement", stake=stake), key="settle")
        results = settle(totals, stake)
        order = sorted(range(len(totals)), key=lambda i: (places[i], i))
        for i in order:
            row: list[Any] = [
                Text(str(places[i]), style="bold yellow" if places[i] == 1 else ""),
                Text(state.players[i], style="bold"),
                Text(number(totals[i]), style="bold"),
            ]
            if show_settlement:
                row.append(settlement_text(results[i], decimal_comma=t.lang == "ru"))
            table.add_row(*row)
        note = Text()
        if session.path is not None:
            note.append(t("end.saved", path=str(session.path)))
        self.query_one("#end-record", Static).update(note)

    def action_keys(self) -> None:
        """The keys of this screen and the rules of the table (as ``?`` at the table lists them)."""
        from kosti.tui.help_screen import KeysScreen, table_sentences

        t = self.t
        keys = [("N", t("key.new_game")), ("Esc", t("key.back_to_table")), ("Q", t("key.quit"))]
        self.app.push_screen(KeysScreen(keys, t, table_sentences(self.session.variant, t)))

    def action_new_game(self) -> None:
        from kosti.tui.app import KostiApp

        if isinstance(self.app, KostiApp):
            self.app.new_game()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_quit_game(self) -> None:
        from kosti.tui.app import KostiApp

        if isinstance(self.app, KostiApp):
            self.app.finish(self.session)
