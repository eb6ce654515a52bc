"""``kosti play``: the terminal game.

:class:`KostiApp` routes between the screens (new game, roll-off, table, end) and
owns what they share: the language, where dice come from, the bots' pace and where
the record is written. The game itself is a :class:`~kosti.tui.session.Session`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.app import App

from kosti.i18n import LANGUAGES, Catalog
from kosti.record import Record, Recorder
from kosti.roller import DiceSource, SecureDice, SeededDice
from kosti.rolloff import RollOff, rotate, starting_order
from kosti.rules.presets import Variant
from kosti.tui.saving import default_record_path
from kosti.tui.session import LANG_KEY, SCOREKEEPER_KEY, Seat, Session


@dataclass
class PlayConfig:
    """What ``kosti play`` was asked for."""

    lang: str = "en"
    lang_asked: bool = False
    """The language was asked for (``--lang``): a resumed game takes it, not the record's."""

    preset: str | None = None
    """The variant (``poker-free`` or ``poker-free(stake=2)``); ``None`` opens the new-game screen."""

    options: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)
    """The players in seating order; with a preset and players the game starts at once."""

    manual: bool = False
    """Scorekeeper mode: every throw is typed in."""

    seed: int | None = None
    """Reproducible dice (and random bots); ``None``: secure dice."""

    record: Path | None = None
    """Where the record is written; ``None``: a new file in the user data directory."""

    save: bool = True
    """Write the record at all (tests switch it off)."""

    resume: Record | None = None
    """A game to continue."""

    undo: bool | None = None
    """Moves may be taken back (U); ``None``: yes in games of people only, no against bots."""

    bot_delay: float = 0.7
    """Seconds between a bot's moves, so that people can follow them (0: at once)."""


class KostiApp(App[Path | None]):
    """The terminal game. ``dice`` overrides where throws come from (tests script them)."""

    CSS_PATH = "kosti.tcss"
    TITLE = "kosti"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, config: PlayConfig, dice: DiceSource | None = None) -> None:
        super().__init__()
        self.config = config
        self.t = Catalog("ru" if config.lang == "ru" else "en")
        if dice is not None:
            self.dice: DiceSource | None = dice
        elif config.manual:
            self.dice = None
        elif config.seed is not None:
            self.dice = SeededDice(config.seed)
        else:
            self.dice = SecureDice()
        self.session: Session | None = None

    @property
    def bot_delay(self) -> float:
        return self.config.bot_delay

    def on_mount(self) -> None:
        from kosti.tui.setup_screen import SetupScreen

        config = self.config
        if config.resume is not None:
            recorder = Recorder.resume(config.resume)
            self._as_recorded(recorder.record)
            self.session = Session.resume(
                recorder, self.dice, self._path(recorder.record.variant), config.seed
            )
            self._play(self.session)
            return
        if config.preset is not None and config.seats:
            from kosti.rules.presets import variant

            self.start(variant(config.preset, config.options), config.seats)
            return
        self.push_screen(SetupScreen(self.t, config))

    def resume(self, path: Path) -> None:
        """Continue the game saved in ``path`` (picked on the new-game screen), in its own file."""
        from kosti.record import load

        recorder = Recorder.resume(load(path))
        self._as_recorded(recorder.record)
        self.session = Session.resume(
            recorder, self.dice, path if self.config.save else None, self.config.seed
        )
        self._play(self.session)

    def _as_recorded(self, record: Record) -> None:
        """Go on with a saved game as it was played: in its language, and with its throws
        typed in if they were (scorekeeper mode), whatever this run was started with, but for
        a language asked for by name."""
        lang = record.extra.get(LANG_KEY)
        if lang in LANGUAGES and not self.config.lang_asked:
            self.t = Catalog(lang)
        if record.extra.get(SCOREKEEPER_KEY):
            self.dice = None

    def _path(self, preset_id: str) -> Path | None:
        if not self.config.save:
            return None
        return self.config.record or default_record_path(preset_id)

    def start(self, rules: Variant, seats: list[Seat]) -> None:
        """Start a game: the roll-off when the rules ask for one, then the table."""
        from kosti.tui.rolloff_screen import RollOffScreen

        names = [s.name for s in seats]
        if rules.options.first_player == "rolloff" and len(seats) > 1:
            if self.dice is None:
                self.push_screen(RollOffScreen(self.t, rules, seats, None))
                return
            _, result = starting_order(names, "rolloff", self.dice)
            self.push_screen(RollOffScreen(self.t, rules, seats, result))
            return
        self.begin(rules, seats, None)

    def begin(self, rules: Variant, seats: list[Seat], rolloff: RollOff | None) -> None:
        """Sit the players in turn order (from the roll-off's starter) and open the table."""
        if rolloff is not None:
            by_name = {s.name: s for s in seats}
            seats = [by_name[n] for n in rotate([s.name for s in seats], rolloff.starter)]
        self.session = Session.new(
            rules, seats, self.dice, self._path(rules.preset.id), rolloff, self.config.seed, self.t.lang
        )
        self._play(self.session)

    def _play(self, session: Session) -> None:
        from kosti.tui.game_screen import GameScreen

        if self.config.undo is not None and session.dice is not None:
            session.undo_allowed = self.config.undo  # (scorekeeper mode always corrects)
        self.push_screen(GameScreen(session, self.t))

    def show_end(self, session: Session) -> None:
        from kosti.tui.end_screen import EndScreen

        if not isinstance(self.screen, EndScreen):
            self.push_screen(EndScreen(session, self.t))

    def new_game(self) -> None:
        """Back to the new-game screen, for another game."""
        from kosti.tui.setup_screen import SetupScreen

        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.session = None
        self.push_screen(SetupScreen(self.t, self.config))

    def finish(self, session: Session | None = None) -> None:
        """Leave the game; the record (already written after every move) is where it was. The
        path given back is absolute: the command that resumes the game runs from anywhere."""
        current = session or self.session
        path = current.save() if current is not None else None
        self.exit(path.absolute() if path is not None else None)
