"""A game left goes on as it was: in its language, with its log and the dice held where they lay,
in scorekeeper mode if its throws were typed in, from a command a shell takes as printed; a
corrected throw shows what it was, says how many throws it dropped, and U brings them back."""

from __future__ import annotations

from pathlib import Path

import pytest

from kosti.actions import Roll
from kosti.games import engine_for
from kosti.record import load
from kosti.roller import ScriptedDice
from kosti.rules.presets import variant
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.dialogs import DiceEntry, ThrowPicker
from kosti.tui.game_screen import GameScreen
from kosti.tui.session import Seat, Session

SMALL = (80, 24)


def log_lines(app: KostiApp) -> list[str]:
    return [str(line.text) for line in app.screen.query_one("#log").lines]  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_resumed_game_keeps_its_language_its_log_and_the_dice_held(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    config = PlayConfig(lang="ru", preset="poker-free", seats=[Seat("Аня")], bot_delay=0, record=path)
    first = KostiApp(config, dice=ScriptedDice([(2, 2, 5, 2, 6), (2, 1)]))
    async with first.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t", "1", "2", "4", "t")  # the three 2s held, two dice thrown
        assert first.session is not None
        table, marked = list(first.session.table), set(first.session.marked)
        await pilot.press("q")
    assert first.return_value == path and table == [2, 2, 2, 2, 1] and marked == {0, 1, 3}
    # the command printed after the game names the file only: the record says the rest
    second = KostiApp(
        PlayConfig(lang="en", resume=load(path), record=path, bot_delay=0), dice=ScriptedDice([])
    )
    async with second.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(second.screen, GameScreen) and second.t.lang == "ru"
        session = second.session
        assert session is not None
        assert session.table == table and session.marked == marked and session.marks_held
        assert [entry.key for entry in session.log] == [
            "log.throw",
            "log.hold",
            "log.throw",
            "log.resumed_mid_turn",
        ]
        lines = log_lines(second)
        # left in the middle of the first turn: none is over yet
        assert lines[0] == "Аня бросает: 2 2 5 2 6" and lines[-1] == "Игра продолжена посреди 1-го хода"
        screen = "\n".join(strip.text for strip in second.screen._compositor.render_strips())
        assert "оставл" in screen  # the held dice say so, in Russian
    # a language asked for by name (kosti play --resume … --lang en) wins over the record's
    third = KostiApp(
        PlayConfig(lang="en", lang_asked=True, resume=load(path), record=path, bot_delay=0),
        dice=ScriptedDice([]),
    )
    async with third.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert third.t.lang == "en"


@pytest.mark.asyncio
async def test_a_scorekeepers_game_resumes_with_its_throws_typed_in(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = Session.new(variant("poker-free"), [Seat("Anna")], None, path, lang="en")
    session.throw((1, 1, 1, 2, 3))
    session.record("ones")
    app = KostiApp(PlayConfig(lang="en", resume=load(path), record=path, bot_delay=0))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert app.session is not None and app.session.dice is None
        assert log_lines(app)[-1] == "Game resumed after 1 turn"  # left between turns
        await pilot.press("t")
        assert isinstance(app.screen, DiceEntry)  # typed in, as before: never thrown by the computer


@pytest.mark.asyncio
async def test_the_file_given_back_runs_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = PlayConfig(
        lang="en", preset="poker-free", seats=[Seat("Anna")], bot_delay=0, record=Path("game.json")
    )
    app = KostiApp(config, dice=ScriptedDice([(1, 1, 1, 2, 3)]))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t", "q")
    assert app.return_value == tmp_path / "game.json"  # (the command printed with it is pasted elsewhere)


def test_the_resume_command_is_one_a_shell_takes(tmp_path: Path) -> None:
    from kosti.tui.saving import resume_command

    assert resume_command(Path("/tmp/games/a.json"), {}) == "kosti play --resume /tmp/games/a.json"
    folder = Path("/home/anna/Library/Application Support/kosti/games/a.json")
    assert resume_command(folder, {}) == f"kosti play --resume '{folder}'"
    # started by `uv run` in a project: kosti is only in the project's environment, so the
    # command the user pastes must go through uv too; with kosti installed for the user, not
    venv, user = tmp_path / ".venv", tmp_path / "bin"
    for folder_ in (venv / "bin", user):
        folder_.mkdir(parents=True)
    (venv / "bin" / "kosti").write_text("#!/bin/sh\n")
    (venv / "bin" / "kosti").chmod(0o755)
    env = {"UV_RUN_RECURSION_DEPTH": "1", "VIRTUAL_ENV": str(venv), "PATH": f"{venv / 'bin'}:{user}"}
    assert resume_command(Path("/g/a.json"), env) == "uv run kosti play --resume /g/a.json"
    (user / "kosti").write_text("#!/bin/sh\n")
    (user / "kosti").chmod(0o755)
    assert resume_command(Path("/g/a.json"), env) == "kosti play --resume /g/a.json"


def sixes_typed_in(session: Session) -> None:
    """Anna's turn typed in: 6 6 6 2 3, the sixes held, 6 1 thrown, four sixes recorded."""
    session.throw((6, 6, 6, 2, 3))
    for position in (0, 1, 2):
        session.toggle(position)
    session.throw((6, 1))
    session.record("sixes")


def test_undo_after_a_correction_that_dropped_moves_brings_them_back() -> None:
    session = Session.new(variant("poker-free"), [Seat("Anna")], None)
    sixes_typed_in(session)
    played = list(session.recorder.record.turns[0].actions)
    first = session.throws()[0][0]
    assert session.edit_throw(first, (1, 2, 3, 4, 5)) == 3  # the hold, the throw after it, the record
    assert session.recorder.record.turns[0].actions == [Roll((1, 2, 3, 4, 5))]
    session.undo()  # the correction is taken back, and the moves it dropped come back with it
    assert session.recorder.record.turns[0].actions == played
    assert engine_for(session.variant).scores(session.state) == [24]
    session.undo()  # then undo goes on as ever: the newest throw (scorekeeper mode)
    assert engine_for(session.variant).scores(session.state) == [0]


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "1 later throw was dropped"), ("ru", "отброшен 1 следующий бросок")],
)
@pytest.mark.asyncio
async def test_a_correction_shows_the_throw_it_corrects_and_counts_the_throws_dropped(
    lang: str, said: str
) -> None:
    config = PlayConfig(
        lang=lang, preset="poker-free", seats=[Seat("Anna")], manual=True, bot_delay=0, save=False
    )
    app = KostiApp(config)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        session = app.session
        assert session is not None
        sixes_typed_in(session)
        await pilot.press("e")
        assert isinstance(app.screen, ThrowPicker)
        await pilot.press("up", "enter")  # the first throw
        entry = app.screen
        assert isinstance(entry, DiceEntry)
        assert "6 6 6 2 3" in str(entry.query_one("#entry-was").render())
        assert entry.query_one("#entry").value == "6 6 6 2 3"  # type: ignore[attr-defined]
        await pilot.press(*"12345", "enter")  # typing replaces the old throw
        await pilot.pause()
        assert session.throws()[0][2] == (1, 2, 3, 4, 5)
        message = str(app.screen.query_one("#message").render())
        assert said in message and "U" in message
        assert "хода" not in message
        await pilot.press("u")
        assert [faces for _, _, faces in session.throws()] == [(6, 6, 6, 2, 3), (6, 1)]


@pytest.mark.asyncio
async def test_continue_is_a_button_on_the_new_game_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kosti.tui import saving
    from kosti.tui.dialogs import SavedGamesPicker

    monkeypatch.setattr(saving, "games_directory", lambda: tmp_path)
    app = KostiApp(PlayConfig(lang="ru", bot_delay=0, save=False))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert app.t("setup.continue") in screen
        await pilot.click("#continue")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesPicker)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_dice_marked_but_not_thrown_are_marked_again_after_resume(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "game.json"
    config = PlayConfig(lang=lang, preset="poker-free", seats=[Seat("Аня")], bot_delay=0, record=path)
    first = KostiApp(config, dice=ScriptedDice([(3, 6, 3, 1, 3)]))
    async with first.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t", "1", "3", "5")  # the three 3s marked to hold, nothing thrown since
        await pilot.press("q")
    assert load(path).extra["marked"] == [0, 2, 4]
    second = KostiApp(
        PlayConfig(lang=lang, resume=load(path), record=path, bot_delay=0), dice=ScriptedDice([])
    )
    async with second.run_test(size=SMALL) as pilot:
        await pilot.pause()
        session = second.session
        assert session is not None
        assert session.table == [3, 6, 3, 1, 3] and session.marked == {0, 2, 4} and session.marks_held


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("preset", "throws", "keys", "marked"),
    [
        # the 3s held through a throw, then one of them let go
        ("poker-free", [(3, 6, 3, 1, 3), (2, 2)], ("t", "1", "3", "5", "t", "1"), [2, 4]),
        # a straight: every die picked by itself to set aside, then the 5 unpicked
        ("thousand-v2", [(1, 5, 2, 3, 4)], ("t", "2"), [0, 2, 3, 4]),
        # all of them unpicked
        ("thousand-v2", [(1, 5, 2, 3, 4)], ("t", "1", "2", "3", "4", "5"), []),
    ],
)
async def test_dice_the_player_unmarked_stay_unmarked_after_resume(
    tmp_path: Path, preset: str, throws: list[tuple[int, ...]], keys: tuple[str, ...], marked: list[int]
) -> None:
    # the replay marks dice by itself (held through a throw, scoring): the player's unmarking wins
    path = tmp_path / "game.json"
    config = PlayConfig(lang="ru", preset=preset, seats=[Seat("Аня")], bot_delay=0, record=path)
    first = KostiApp(config, dice=ScriptedDice(throws))
    async with first.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        assert first.session is not None and sorted(first.session.marked) == marked
        await pilot.press("q")
    assert load(path).extra["marked"] == marked
    second = KostiApp(
        PlayConfig(lang="ru", resume=load(path), record=path, bot_delay=0), dice=ScriptedDice([])
    )
    async with second.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert second.session is not None and sorted(second.session.marked) == marked
