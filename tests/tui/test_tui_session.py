"""The model behind the terminal game: keys become engine actions, refused keys change nothing,
the record is written as the game goes and replays to the same state."""

from __future__ import annotations

from pathlib import Path

import pytest

from kosti.actions import Hold, Roll, Score
from kosti.games import engine_for
from kosti.record import Recorder, load, replay
from kosti.roller import ScriptedDice
from kosti.rules.presets import variant
from kosti.tui.session import Refused, Seat, Session


def sheet_session(throws: list[tuple[int, ...]], tmp_path: Path | None = None) -> Session:
    rules = variant("poker-free")
    path = tmp_path / "game.json" if tmp_path else None
    return Session.new(rules, [Seat("Anna")], ScriptedDice(throws), path)


def test_hold_keeps_dice_in_place_and_throws_the_rest() -> None:
    session = sheet_session([(2, 2, 5, 2, 6), (2, 1)])
    session.throw()
    assert session.table == [2, 2, 5, 2, 6]
    for position in (0, 1, 3):
        session.toggle(position)
    session.throw()
    # the held twos stay where they lie; the new dice fill the gaps in the order thrown
    assert session.table == [2, 2, 2, 2, 1]
    assert session.state.dice == (1, 2, 2, 2, 2)  # type: ignore[attr-defined]
    assert session.recorder.record.turns[0].actions[1] == Hold((2, 2, 2))


def test_recording_a_cell_logs_its_points() -> None:
    session = sheet_session([(6, 6, 6, 6, 1)])
    session.throw()
    session.record("sixes")
    assert engine_for(session.variant).scores(session.state) == [24]
    event = session.log[-1].params["event"]
    assert (event.kind, event.cell, event.points, event.score) == ("recorded", "sixes", 24, 24)


def test_a_refused_key_changes_nothing() -> None:
    session = sheet_session([(1, 2, 3, 4, 5), (6, 6, 6, 6, 6)])
    with pytest.raises(Refused) as refused:
        session.record("ones")
    assert refused.value.code == "dice_due"
    session.throw()
    session.record("ones")
    before = session.state
    session.throw()
    with pytest.raises(Refused) as refused:
        session.record("ones")  # already recorded
    assert refused.value.code == "cell_filled"
    assert session.state is not before and session.state.dice == (6, 6, 6, 6, 6)  # type: ignore[attr-defined]
    with pytest.raises(Refused):
        session.stop()  # score sheets have no stop


def test_holding_is_refused_when_no_throw_is_left() -> None:
    session = sheet_session([(1, 2, 3, 4, 6), (5,), (5,)])
    session.throw()
    session.toggle(0)
    session.toggle(1)
    session.toggle(2)
    session.toggle(3)
    session.throw()
    session.throw()
    with pytest.raises(Refused) as refused:
        session.toggle(0)
    assert refused.value.code == "no_throws_record"
    with pytest.raises(Refused):
        session.throw()


def test_the_record_is_saved_after_every_move_and_replays(tmp_path: Path) -> None:
    session = sheet_session([(1, 1, 1, 2, 3), (4, 4, 4, 4, 4)], tmp_path)
    session.throw()
    session.record("ones")
    session.throw()
    session.record("fours")
    saved = load(tmp_path / "game.json")
    assert saved.players == ["Anna"]
    assert engine_for(session.variant).scores(replay(saved)) == [3 + 20]


def test_resume_continues_where_the_record_stops(tmp_path: Path) -> None:
    session = sheet_session([(1, 1, 1, 2, 3)], tmp_path)
    session.throw()
    session.record("ones")
    resumed = Session.resume(Recorder.resume(load(tmp_path / "game.json")), ScriptedDice([(6,) * 5]), None)
    resumed.throw()
    resumed.record("poker")
    assert engine_for(resumed.variant).scores(resumed.state) == [3 + 50]


def test_typed_throws_are_checked() -> None:
    session = Session.new(variant("poker-free"), [Seat("Anna")], None)
    with pytest.raises(Refused) as refused:
        session.throw()
    assert refused.value.code == "type_dice"
    with pytest.raises(Refused) as refused:
        session.throw((1, 2, 3))
    assert refused.value.code == "type_count"
    with pytest.raises(Refused) as refused:
        session.throw((1, 2, 3, 4, 7))
    assert refused.value.code == "type_faces"
    session.throw((1, 5, 3, 3, 4))
    assert session.state.dice == (1, 3, 3, 4, 5)  # type: ignore[attr-defined]


def thousand_session(throws: list[tuple[int, ...]], **options: object) -> Session:
    rules = variant("thousand-classic", dict(options))
    return Session.new(rules, [Seat("Anna"), Seat("Boris")], ScriptedDice(throws))


def test_thousand_stop_is_refused_below_the_opening_with_what_is_needed() -> None:
    session = thousand_session([(5, 2, 3, 3, 6)])
    session.throw()
    with pytest.raises(Refused) as refused:
        session.stop()
    assert refused.value.code == "stop_unopened"
    assert refused.value.params == {"need": 50, "total": 5}


def test_thousand_bust_and_turn_change_are_logged() -> None:
    session = thousand_session([(1, 1, 1, 5, 2), (2, 3, 4, 6, 6)])
    session.throw()
    session.stop()
    session.throw()
    keys = [entry.key for entry in session.log]
    assert keys == ["log.throw_points", "event", "event"]
    recorded, bust = (entry.params["event"] for entry in session.log[1:])
    assert (recorded.kind, recorded.seat, recorded.points, recorded.score) == ("recorded", 0, 105, 105)
    assert (bust.kind, bust.seat, bust.dice) == ("bust", 1, (2, 3, 4, 6, 6))


def test_thousand_choice_preselects_the_scoring_dice_and_sets_aside_what_is_marked() -> None:
    session = Session.new(
        variant("thousand-v2"), [Seat("Anna")], ScriptedDice([(1, 5, 2, 3, 3), (1, 1, 2, 6)])
    )
    session.throw()
    assert session.table == [1, 5, 2, 3, 3]
    assert session.marked == {0, 1}
    session.toggle(1)  # keep the 5 in hand: set aside only the 1
    session.throw()
    assert session.state.turn_total == 10  # type: ignore[attr-defined]
    assert session.state.dice_left == 4  # type: ignore[attr-defined]
    assert session.table == [1, 1, 2, 6] and session.marked == {0, 1}
    for position in (0, 1, 2):
        session.toggle(position)  # unpick the 1s, pick the 2, which does not score
    before = session.state
    with pytest.raises(Refused) as refused:
        session.stop()
    assert refused.value.code == "not_scoring"
    assert session.state is before


def test_showdown_held_dice_are_locked() -> None:
    rules = variant("poker-showdown", {"rounds": 1})
    session = Session.new(rules, [Seat("Anna"), Seat("Boris")], ScriptedDice([(4, 4, 1, 2, 3), (4, 6, 5)]))
    session.throw()
    session.toggle(0)
    session.toggle(1)
    session.throw()
    assert session.table == [4, 4, 4, 6, 5]
    assert session.locked() == {0, 1}
    with pytest.raises(Refused) as refused:
        session.toggle(0)
    assert refused.value.code == "locked_dice"


def test_bots_play_their_turns_and_stop_at_a_person() -> None:
    rules = variant("poker-free")
    dice = ScriptedDice([(6, 6, 6, 6, 6)] + [(1, 2, 3, 4, 6)] * 3)
    session = Session.new(rules, [Seat("Smart", "heuristic"), Seat("Anna")], dice)
    moves = 0
    while session.bot_step():
        moves += 1
    assert session.seat == Seat("Anna")
    assert moves == 2  # its throw, then five sixes straight into poker
    assert session.recorder.record.turns[0].actions[-1] == Score("poker")


def test_v2_setting_all_five_aside_throws_the_confirmation_at_once() -> None:
    dice = ScriptedDice([(1, 5, 1, 5, 1), (2, 3, 4, 6, 1)])
    session = Session.new(variant("thousand-v2"), [Seat("Anna")], dice)
    session.throw()
    assert session.marked == {0, 1, 2, 3, 4}  # every die scores: three 1s and two 5s, 110
    session.throw()  # sets all five aside, then the confirming throw of five (it scores 10)
    assert engine_for(session.variant).scores(session.state) == [110 + 10]
    assert session.state.turn == 1


def test_fences_scratch_before_the_first_throw_banks_three() -> None:
    session = Session.new(variant("poker-fences"), [Seat("Anna")], ScriptedDice([]))
    assert session.to_throw == 0  # a choice comes first: throw, or scratch a combination
    with pytest.raises(Refused):
        session.scratch("ones")  # upper cells cannot be scratched
    session.scratch("poker")
    assert session.state.sheets[0].banked == 3  # type: ignore[attr-defined]
    assert [entry.params["event"].kind for entry in session.log[-2:]] == ["scratched", "banked"]


def test_fences_column_two_announces_then_throws_on() -> None:
    from kosti.games.sheet.game import cells_of

    rules = variant("poker-fences")
    cells = cells_of(rules.options)  # type: ignore[arg-type]
    throws = [(1, 2, 3, 4, 6)] * len(cells) + [(6, 6, 6, 2, 3), (6, 6)]
    session = Session.new(rules, [Seat("Anna")], ScriptedDice(throws))
    for cell in cells:  # column I, in any order: here table order
        session.throw()
        session.record(cell)
    session.throw()
    for position in (0, 1, 2):
        session.toggle(position)
    with pytest.raises(Refused) as refused:
        session.throw()  # column II: no further throw before an announcement
    assert refused.value.code == "announce_first"
    session.announce("poker")
    with pytest.raises(Refused):
        session.record("chance")  # the turn ends in the announced cell
    session.throw()
    session.record("poker")
    events = [entry.params["event"] for entry in session.log if entry.key == "event"]
    recorded = [event for event in events if event.kind == "recorded"][-1]
    assert (recorded.kind, recorded.cell, recorded.points, recorded.column) == ("recorded", "poker", 30, 1)


def test_card_faces_are_named_in_the_players_language() -> None:
    from kosti.i18n import Catalog
    from kosti.tui.text import dice_text

    assert dice_text((1, 2, 3, 4, 5, 6), "cards", Catalog("en")) == "9 10 J Q K A"
    assert dice_text((3, 4, 5, 6), "cards", Catalog("ru")) == "В Д К Т"  # Валет, Дама, Король, Туз
    assert dice_text((1, 6), "pips", Catalog("ru")) == "1 6"


@pytest.mark.parametrize(
    ("lang", "names", "line"),
    [
        ("en", ("Anna", "Boris"), "Boris overtakes Anna: −50"),
        ("ru", ("Анна", "Борис"), "Борис обгоняет Анну: −50"),
    ],
)
def test_the_log_says_why_a_score_fell_with_a_true_minus(
    lang: str, names: tuple[str, str], line: str
) -> None:
    from kosti.i18n import Catalog
    from kosti.narrate import Narrator
    from kosti.tui.text import log_text

    # Anna banks 105; Boris 110 (hot dice), then 10 more, banks 120 and overtakes her: −50 (RULES.md §3.3)
    dice = ScriptedDice([(1, 1, 1, 5, 2), (1, 1, 1, 5, 5), (5, 5, 3, 3, 4)])
    session = Session.new(variant("thousand-classic"), [Seat(name) for name in names], dice)
    session.throw()
    session.stop()
    session.throw()
    session.throw()
    session.stop()
    narrator = Narrator(session.variant, list(names), lang)
    lines = [log_text(entry, Catalog(lang), "pips", narrator) for entry in session.log]  # type: ignore[arg-type]
    assert lines[-1] == line
    assert engine_for(session.variant).scores(session.state) == [105 - 50, 120]
    assert not any("-" in text for text in lines)


def test_a_refused_cell_says_why() -> None:
    session = Session.new(variant("poker-classic"), [Seat("Anna")], ScriptedDice([(6, 6, 6, 2, 3)] * 2))
    session.throw()
    with pytest.raises(Refused) as refused:
        session.record("pair")  # poker-classic: the upper section first (RULES.md §1.4)
    assert refused.value.code == "upper_first"
    session.record("sixes")
    session.throw()
    with pytest.raises(Refused) as refused:
        session.record("sixes")
    assert (refused.value.code, refused.value.params) == ("cell_filled", {"cell": "sixes"})


# -- what the session hands on: the record's file and the bots ------------------------------


def test_the_record_file_is_written_whole_and_leaves_no_scraps(tmp_path: Path) -> None:
    from kosti.tui.saving import RecordFile

    recorder = Recorder(variant("poker-free"), ["Anna"])
    recorder.apply(Roll((1, 1, 1, 2, 3)))
    file = RecordFile(tmp_path / "games" / "a.json")
    assert file.save(recorder.record) == tmp_path / "games" / "a.json"
    recorder.apply(Score("ones"))
    file.save(recorder.record)
    assert load(tmp_path / "games" / "a.json").turns[0].actions == [Roll((1, 1, 1, 2, 3)), Score("ones")]
    assert [p.name for p in (tmp_path / "games").iterdir()] == ["a.json"]
    assert RecordFile(None).save(recorder.record) is None


def test_a_session_saves_through_its_record_file_after_every_move(tmp_path: Path) -> None:
    session = sheet_session([(6, 6, 6, 6, 1)], tmp_path)
    assert session.path == tmp_path / "game.json" and session.file.path == session.path
    session.throw()
    assert load(tmp_path / "game.json").turns[0].actions == [Roll((6, 6, 6, 6, 1))]


def test_bot_players_move_only_in_their_own_turn_and_not_for_typed_dice() -> None:
    from kosti.actions import Stop
    from kosti.roller import SeededDice
    from kosti.tui.bot_play import BotPlayers

    rules = variant("poker-showdown", {"rounds": 1})
    engine = engine_for(rules)
    bots = BotPlayers([("Anna", None), ("Bot", "heuristic")], "showdown", seed=1)
    assert bots and bots.plays("Bot") and not bots.plays("Anna")
    assert not BotPlayers([("Anna", None)], "showdown", None)
    state = engine.new_game(rules, ["Anna", "Bot"])
    assert not bots.due(engine, state, SeededDice(1)) and bots.move(engine, state, SeededDice(1)) is None
    state = engine.apply(engine.apply(state, Roll((1, 2, 3, 4, 6))), Stop())  # the bot's turn
    assert bots.due(engine, state, SeededDice(1))
    assert not bots.due(engine, state, None)  # its throw is typed in by a person
    move = bots.move(engine, state, SeededDice(1))
    assert isinstance(move, Roll) and len(move.faces) == 5
    state = engine.apply(state, Roll((6, 6, 6, 6, 2)))
    assert bots.due(engine, state, None)  # a decision it makes itself, dice typed in or not
    assert bots.move(engine, state, None) in engine.decisions(state)


def test_the_first_antes_of_a_showdown_are_in_the_log_and_again_after_an_undo() -> None:
    rules = variant("poker-showdown", {"rounds": 2})
    session = Session.new(rules, [Seat("Anna"), Seat("Boris")], ScriptedDice([(6, 6, 1, 2, 3)]))
    antes = [e.params["event"] for e in session.log if e.key == "event"]
    assert [(e.seat, e.kind, e.points) for e in antes] == [(0, "ante", -1), (1, "ante", -1)]
    session.throw()
    session.stop()
    session.undo()  # the stand is taken back; the game is played again from its record
    assert session.recorder.record.turns[0].actions == [Roll((6, 6, 1, 2, 3))]
    kinds = [e.params["event"].kind for e in session.log if e.key == "event"]
    assert kinds == ["ante", "ante"]
    assert any(e.key == "log.throw" for e in session.log)


# -- the keys are the turn view's ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("poker-fences", {}),
        ("poker-classic", {}),
        ("thousand-classic", {}),
        ("thousand-v2", {"hot_dice": "confirm"}),
        ("poker-showdown", {"rounds": 5}),
    ],
)
def test_the_throw_and_stop_keys_do_what_the_turn_view_says(preset: str, options: dict[str, object]) -> None:
    from kosti.games import turn_view
    from kosti.roller import SeededDice

    rules = variant(preset, options)
    seats = [Seat("Smart", "heuristic"), Seat("Lucky", "random")]
    session = Session.new(rules, seats, SeededDice(7), seed=7)
    checked = 0
    for _ in range(400):
        if session.finished:
            break
        view = session.view
        assert view.dice == turn_view(session.state, session.marked_faces()).dice
        if view.throw.open:
            assert session.throw_plan() == (list(view.throw.actions), view.throw.throws)
        else:
            with pytest.raises(Refused) as refused:
                session.throw_plan()
            assert refused.value.code == getattr(view.throw.refusal, "code", "game_over")
        if view.pick is None and session.table and not view.to_throw:
            before = set(session.marked)
            with pytest.raises(Refused) as refused:
                session.toggle(0)  # no die is picked now: the throw key's refusal, or no dice
            expected = view.throw.refusal.code if view.throw.refusal is not None else "no_dice"
            assert refused.value.code == expected and session.marked == before
        if view.stop.refusal is not None:
            state = session.state
            with pytest.raises(Refused) as refused:
                session.stop()
            assert refused.value.code == view.stop.refusal.code and session.state is state
        checked += 1
        assert session.bot_step()
    assert checked > 20
