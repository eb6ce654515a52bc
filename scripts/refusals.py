"""docs/refusals.md: the table of every refusal (RULES.md §4), made from the catalogs.

    uv run python scripts/refusals.py            # write docs/refusals.md
    uv run python scripts/refusals.py --check    # exit 1 when the file is not what the catalogs say

A row is one wording of ``[refusal]`` in ``src/kosti/locale/{en,ru}.toml``: its code (with the
``why`` that picks it, for a code with several wordings), when it is refused, its params (the
placeholders of the wording, ``why`` aside), and the English and Russian wording. Only the
"when" column is written here (:data:`WHEN`); ``tests/test_refusals.py`` checks that every
wording has one and that the file is up to date.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from kosti.i18n import messages, placeholders

DOC = Path(__file__).resolve().parents[1] / "docs" / "refusals.md"

WHEN: dict[str, dict[str, str]] = {
    "The rules (`kosti.games`, `kosti.record`)": {
        "game_over": "any action once the game is over",
        "dice_due": "a decision while dice are to be thrown (`n` of them)",
        "no_throw_due": "a throw at a decision",
        "throw_size": "a throw of `got` dice when `n` are due",
        "bad_face": "a throw (or dice set aside) with a face that is not 1 to 6",
        "no_throw": "a throw where the rules allow none (a bare roll in a record, online `throw`)",
        "no_players": "a game without players",
        "empty_name": "a player without a name",
        "shared_name": "two players of one name",
        "not_a_sheet_game": "a score-sheet engine (or bot, or view) given another game",
        "not_a_thousand_game": "a «Тысяча» engine given another game",
        "not_a_showdown_game": "a showdown engine given another game",
        "not_a_sheet_action": "an action score sheets do not have (stop, set aside)",
        "not_a_thousand_action": "an action «Тысяча» does not have (hold, score …)",
        "not_a_showdown_action": "an action showdown does not have (score, set aside …)",
        "not_a_sheet_decision": "the score-sheet solver asked about an action it does not rank",
        "not_a_thousand_decision": "the «Тысяча» solver asked about an action it does not rank",
        "not_among": "holding or setting aside `faces` that are not among the `dice` on the table",
        "hold_before_throw": "holding dice before the turn's first throw (a sheet with scratching)",
        "thrown_already": "throwing the first time twice",
        "hold_all_record": "holding all five dice (score sheets)",
        "hold_all_stand": "holding all five dice (showdown)",
        "no_throws_record": "a hold with no throw left (score sheets)",
        "no_throws_turn_over": "a hold with no throw left (showdown)",
        "locked_dice": "a hold that drops held dice (showdown: `keep` them all, not without `drops`)",
        "announce_first": "a hold in column II before a cell is announced",
        "no_such_cell": "a cell the sheet does not have",
        "cell_filled": "recording, scratching or announcing a filled cell",
        "throw_before_record": "recording before the turn's first throw",
        "cell_announced": "recording in another cell than the one `announced`",
        "column_order": "recording out of order in column III (`next` comes next)",
        "forced_joker": "a further Yahtzee recorded outside the `cells` the joker allows",
        "upper_first": "a combination before the upper section is full (sequential stages)",
        "cell_closed": "any other cell that takes nothing now",
        "no_scratching": "scratching where the rules have none",
        "scratch_upper": "scratching an upper cell",
        "announce_column": "announcing outside column II",
        "announced_already": "a second announcement in a turn",
        "announce_late": "announcing but right after the first throw",
        "set_aside_first": "throwing on while scoring dice are to be set aside («Тысяча», by choice)",
        "set_aside_before_stop": "stopping while scoring dice are to be set aside",
        "set_aside_auto": "setting aside where every scoring die is set aside by itself",
        "set_aside_when": "setting aside but right after a scoring throw",
        "set_aside_nothing": "setting aside no die",
        "not_scoring": "setting aside a `face` that scores nothing in the throw `dice`",
        "whole_only": "setting aside part of a kind or straight (`units`: the ones broken)",
        "stop_barrel": "stopping on the barrel: the turn must make `need` (`total` so far)",
        "stop_unopened": "stopping below the opening `need` (`total` so far)",
        "stop_in_pit": "stopping short of a pit's top: `score` + `total` = `reached` < `high`",
        "record_game_over": "a record's turn after the end of the game",
        "record_wrong_player": "a record's turn by `player` when `expected` is to play",
        "record_extra_action": "a record's `action` after its turn has ended",
        "record_turn_unfinished": "a record's turn that stops before the turn is over",
    },
    "The options (`kosti.rules`: a preset or option as typed)": {
        "unknown_preset": "a preset that does not exist (`known`: those that do)",
        "bad_spec": "a variant that is not written preset(name=value, …)",
        "no_option": "an `option` the `preset` does not have (`options`: those it has)",
        "option_syntax": "an option not written name=value",
        "option_value.one_of": "an `option` `value` that is not one of `allowed`",
        "option_value.bool": "an `option` that is true or false given another `value`",
        "option_value.int": "an `option` that is a whole number given another `value`",
        "option_value.word": "an `option` that is a word given another `value`",
        "option_value.list": "an `option` that is a list given another `value`",
        "option_value.count": "an `option` of `n` values given another number of them",
        "unknown_cell": "a lower cell (`name`) the sheets do not have",
        "cell_twice": "a lower cell listed twice",
        "at_least": "an `option` below its least, `n`",
        "negative": "an `option` below zero",
        "fences_yahtzee": "three columns with the Yahtzee sheet",
        "pit_order": "a pit whose `low` is not below its `high`",
        "opening_target": "a negative opening or a target that is not above zero",
        "barrel_at": "a barrel not between 0 and the `target`",
        "unknown_family": "a `family` of games kosti does not have",
        "no_such_bot": "a bot `level` that is not one of `allowed`",
        "no_optimal": "an optimal bot for a `family` that has none (showdown)",
        "not_solved": "an optimal «Тысяча» bot before `spec` is solved (`command` solves it)",
        "option_needs_preset": "`kosti play --option` without a preset",
        "bad_delay": "`kosti play --delay` below 0",
        "bad_language": "a language (`lang`) that is neither ru nor en",
    },
    "The bots": {
        "no_decision": "a bot asked to decide where there is nothing to decide",
        "bot_wrong_game": "a bot asked about another game than the one it `plays`",
        "table_no_decision": "the simulator's table bot asked about a sheet it has no row for",
        "table_bot_sheets_only": "the table bot asked about a game that is not a score sheet",
    },
    "The terminal (`kosti play`)": {
        "no_dice": "a die key while no dice lie on the table",
        "no_die_there": "a die key `n` with no die at that place",
        "pick_cell": "a cell key with no cell under the cursor",
        "undo_off": "taking back a move at a table where it is off",
        "undo_nothing": "taking back a move before any",
        "undo_throw": "taking back a throw (the dice have fallen)",
        "edit_live": "correcting a throw of the computer's dice",
        "edit_none": "correcting a throw before any",
        "type_dice": "the throw key in scorekeeper mode: `n` dice are to be typed",
        "type_count": "typing another number of dice than `n`",
        "type_faces": "typing a face that is not 1 to 6",
    },
    "The server (`kosti serve`: the socket's `error`, the REST answer)": {
        "finished": "a move or a seat once the game is over",
        "unknown_token": "a seat token that is no seat's at the table",
        "no_seed": "joining an online table without a client seed",
        "bad_seed": "a malformed client seed (`detail`: why, in English)",
        "not_finished": "offering a rematch before the end",
        "rematch": "offering a rematch a second time (it is at `table`)",
        "left": "leaving a seat left already",
        "not_away": "taking back a seat its player plays",
        "nothing_to_undo": "scorekeeper: taking back before any move",
        "away": "a move for a seat a stand-in bot plays",
        "started": "seating after the start",
        "full": "seating at a full table",
        "bad_seat": "a seat the table does not have (0 to `last`)",
        "not_your_turn": "a move by `you` when it is `player`'s turn",
        "one_turn": "a message whose actions run past the end of the turn",
        "busy": "a new table on a server at its limit",
        "not_found": "a table that does not exist",
        "bad_timer": "a move timer below the server's least, `n` seconds",
        "idle": "a spectator's socket silent for too long",
        "crowded": "a spectator at a table full of spectators",
        "too_large": "a message over `n` bytes",
        "illegal": "an error of the rules that has no code (`detail`, in English)",
        "error": "an error that is not a refusal, inside another refusal (`detail`, in English)",
        "bad_emote": "a quick phrase that is not one of the `known` keys (free text too)",
        "bad_variant.options": "rules that cannot be made (`detail`: the option error, in English)",
        "bad_variant.unbounded": "an `option` this server has no bounds for",
        "bad_variant.bounds": "an `option` `value` outside `low` to `high`",
        "bad_name.letter": "an empty name",
        "bad_name.printable": "a name with control or unassigned characters",
        "bad_name.visible": "a name with blank characters (Braille blank, Hangul fillers)",
        "bad_name.marks": "a letter with more than `n` marks",
        "bad_name.visible_letter": "a name with no letter or digit that shows",
        "bad_name.width": "a name wider than `n` columns",
        "bad_name.alphabet": "a `word` that mixes alphabets",
        "rate_limited.tables": "a new table while `n` of the same address are still open",
        "rate_limited.requests": "too many requests from one address",
        "rate_limited.messages": "too many messages on one socket",
        "rate_limited.emotes": "a quick phrase before the seat's pace allows it (the next in `n` s)",
        "storage_down.retry": "storage lost while reading",
        "storage_down.unchanged": "storage lost while writing a move (nothing changed)",
        "no_emotes.keeper": "a quick phrase at a scorekeeper's table",
        "no_emotes.left": "a quick phrase from a seat left, resigned or kept for a rematch",
        "no_hints.bots": "a hint where no bot of the server advises",
        "no_hints.table": "a hint at a table made without hints",
        "no_hints.throw": "a hint while dice are to be thrown",
        "bad_action.parse": "an action that cannot be read (`detail`, in English)",
        "bad_action.typed": "scorekeeper moves at an online table",
        "bad_action.size": "a message of no actions or more than `n`",
        "bad_action.send_roll": "`throw` at a scorekeeper table",
        "bad_action.send_throw": "`roll` at an online table",
        "bad_message.binary": "a binary frame",
        "bad_message.form": "a message of the wrong form (`detail`, in English)",
        "not_started.record": "the record of a table that has not started",
        "not_started.game": "a scorekeeper move before the start",
        "not_started.seats": "a move before the start, `n` seats empty",
        "taken.you": "joining a seat held already",
        "taken.seat": "a `seat` that is taken",
        "bad_edit.replay": "scorekeeper: throw `throw` edited to `roll`, which a later move does not fit",
        "bad_edit.size": "scorekeeper: throw `throw` edited to `got` dice, not `n`",
        "bad_edit.none": "scorekeeper: editing throw `throw` when `n` have been made",
        "no_bots.keeper": "a bot at a scorekeeper table",
        "no_bots.level": "a bot level that does not play these rules (`detail`, in English)",
        "stale.look": "a hint or edit for an old `version`",
        "stale.action": "a move for version `yours` when the table is at `version`",
        "stale.commit": "a move another process wrote first",
        "name_taken.bot": "a `name` a bot is shown under",
        "name_taken.player": "a `name` that looks like a player's at the table",
        "throw_last.message": "an online message with a throw before its last action",
        "throw_last.action": "an online message with an action that throws before its last",
    },
}
"""When each wording is refused, by group: the column the catalogs do not hold."""


def wordings(lang: str) -> dict[str, str | Mapping[str, str]]:
    """Every wording of ``lang``'s ``[refusal]`` table by its key less ``refusal.``."""
    return {
        key.removeprefix("refusal."): m for key, m in messages(lang).items() if key.startswith("refusal.")
    }


def fields(message: str | Mapping[str, str]) -> frozenset[str]:
    """The placeholders of a wording (of all its plural forms)."""
    if isinstance(message, str):
        return placeholders(message)
    return frozenset().union(*(placeholders(form) for form in message.values()))


def shown(message: str | Mapping[str, str]) -> str:
    """A wording in a cell of the table: its plural forms one after another."""
    if isinstance(message, str):
        text = message
    else:
        text = " / ".join(f"{form}: {text}" for form, text in message.items())
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`"


def table() -> str:
    """The whole of docs/refusals.md."""
    en, ru = wordings("en"), wordings("ru")
    lines = [
        "# Refusals",
        "",
        "Every refusal of kosti (RULES.md §4) is data: a stable snake_case `code` and its `params`",
        "(`IllegalActionError.code`, `.params`; the server's `Refusal` too), worded once per language",
        "by `kosti.i18n.refusal_text(error, lang)` from the `[refusal]` table of",
        "`src/kosti/locale/en.toml` and `ru.toml`. A code with several wordings picks one by its",
        "`why` param (`bad_name` with `why=width`). In a wording, `{cell:name}` is a cell's name in",
        "«», `{cells}` a list of cells joined by «or»; a table of plural forms agrees with `n`.",
        "The English wording is `str(error)`: records and tests pin it.",
        "",
        "Made by `uv run python scripts/refusals.py` from the catalogs; `tests/test_refusals.py`",
        "checks that it is up to date.",
    ]
    for group, rows in WHEN.items():
        lines += [
            "",
            f"## {group}",
            "",
            "| code | when | params | English | Russian |",
            "|---|---|---|---|---|",
        ]
        for key, when in rows.items():
            code, _, why = key.partition(".")
            name = f"`{code}` ({why})" if why else f"`{code}`"
            params = ", ".join(f"`{p}`" for p in sorted(fields(en[key]))) or "—"
            lines.append(f"| {name} | {when} | {params} | {shown(en[key])} | {shown(ru[key])} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = table()
    if "--check" in argv:
        if DOC.read_text(encoding="utf-8") != text:
            print(f"{DOC} is out of date: run uv run python scripts/refusals.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
