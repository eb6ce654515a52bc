"""Dice, decisions and hints in the player's words: what the terminal game and the page both show.

A hint reads the same wherever it is asked for («Лучше всего: оставить 6 6 и бросить
(≈ 212 к концу игры)»): the terminal game and the server word it here, from the
:class:`~kosti.bots.base.Advice` of the advisor and the catalog of :mod:`kosti.i18n`.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.numbers import format_decimal, format_percent

from kosti.actions import Action, CellAction, Hold, Roll, SetAside, Stop, Throw
from kosti.bots.base import Advice
from kosti.dice import show
from kosti.games.base import GameState
from kosti.i18n import Catalog
from kosti.rules.options import ThousandOptions


def dice_text(faces: Sequence[int], style: str, t: Catalog | None = None) -> str:
    """Faces as pips (``1 5 6``) or card faces (``9 K A``; in Russian ``9 К Т``)."""
    if not faces:
        return "—"
    if style == "cards" and t is not None:
        return " ".join(card_name(face, t) for face in faces)
    return show(faces, style)


def card_name(face: int, t: Catalog) -> str:
    """The card a face stands for («Девятки, Десятки, Валеты, Дамы, Короли, Тузы»)."""
    return t(f"card.{face}")


def action_text(action: Action, t: Catalog, style: str) -> str:
    """A decision in words («держать 6 6», «записать в фул»)."""
    if isinstance(action, Hold):
        if not action.faces:
            return t("action.throw_all")
        return t("action.hold", dice=dice_text(action.faces, style, t))
    if isinstance(action, CellAction):
        return t(f"action.{action.kind}", cell=t.cell(action.cell))
    if isinstance(action, SetAside):
        return t("action.set_aside", dice=dice_text(action.faces, style, t))
    if isinstance(action, Throw):
        return t("action.throw_on")
    if isinstance(action, Stop):
        return t("action.stop")
    if isinstance(action, Roll):
        return t("action.roll", dice=dice_text(action.faces, style, t))
    return str(action)  # pragma: no cover - every action is covered


def number(value: int | float) -> str:
    """A number with a true minus sign: 5, −3."""
    return f"−{-value:g}" if value < 0 else f"{value:g}"


def signed(value: int | float, lang: str = "en") -> str:
    """A number with its sign, written as ``lang`` writes decimals: +3, −5, 0, −56.7 (in
    Russian −56,7, as the end screen writes 507,5)."""
    if value == 0:
        return "0"
    shown = format_decimal(abs(value), "0.######", locale=lang)
    return f"+{shown}" if value > 0 else f"−{shown}"


def percent(chance: float, t: Catalog) -> str:
    """A chance as a percentage in the catalog's language, one decimal (62.4%; in Russian 62,4 %)."""
    return format_percent(chance, "#,##0.0%", locale=t.lang)


def hint_text(
    family: str, advice: Sequence[Advice], t: Catalog, style: str, state: GameState | None = None
) -> str:
    """The hint line: the best decision and what it is worth, then the next best one.

    In «Тысяча» (given ``state``) what a decision banks or adds now is exact and is said
    apart from the advisor's estimate, which weighs the table too (overtaking, pits, bolts).
    Where the advice is the solver's chances of winning (:attr:`Advice.chance`), every
    decision is shown with the chance it keeps. A number that is not exact
    (:attr:`Advice.exact`: a heuristic's, or «Тысяча»'s chances at a table of three and more)
    says so (``hint.rough``: «≈ 22 очка за ход — прикидка бота, не точный расчёт»).
    """
    if not advice:
        return t("hint.none")
    if advice[0].chance:
        return _chances_text(advice, t, style, state)
    best = advice[0]
    line = t("hint.best", action=action_text(best.action, t, style))
    worth = _thousand_worth(best, t, state) if family == "thousand" else _worth(family, best, t)
    if worth:
        line += f" ({worth})"
    if len(advice) > 1:
        second = advice[1]
        extra = action_text(second.action, t, style)
        if second.loss is not None and family != "showdown":
            extra += f", {signed(-round(second.loss, 1), t.lang)}"
        line += " · " + t("hint.next", action=extra)
    return line


def _chances_text(advice: Sequence[Advice], t: Catalog, style: str, state: GameState | None) -> str:
    """«Best: stop (banks 135 points now; chance of winning 62.4%) · next best: throw on, 58.1%
    (−4.3) · also: …»: every decision with the chance of winning it keeps, best first."""
    best = advice[0]
    worth = [
        _exact_points(best, t, state),
        _said(best, t("hint.thousand_chance", value=percent(best.value or 0.0, t)), t),
    ]
    line = t("hint.best", action=action_text(best.action, t, style))
    line += f" ({'; '.join(part for part in worth if part)})"
    others = [
        t(
            "hint.chance_of",
            action=action_text(a.action, t, style),
            value=percent(a.value or 0.0, t),
            loss=percent(-(a.loss or 0.0), t).replace("-", "−"),
        )
        for a in advice[1:]
    ]
    if others:
        line += " · " + t("hint.next", action=others[0])
    if len(others) > 1:
        line += " · " + t("hint.also", actions="; ".join(others[1:]))
    return line


def _exact_points(advice: Advice, t: Catalog, state: GameState | None) -> str:
    """What a «Тысяча» decision banks or adds now, exactly («banks 135 points now»), or ""."""
    from kosti.games.thousand.game import ThousandState
    from kosti.games.thousand.scoring import set_aside_points

    if not isinstance(state, ThousandState):
        return ""
    if isinstance(advice.action, Stop):
        return t.plural("hint.banks", state.turn_total)
    if isinstance(advice.action, SetAside):
        return t.plural("hint.adds", set_aside_points(state.dice, advice.action.faces))
    return ""


def _said(advice: Advice, worth: str, t: Catalog) -> str:
    """``worth`` (the number of ``advice`` in words), saying that it is not exact when it is not."""
    return worth if advice.exact else t("hint.rough", number=worth)


def _worth(family: str, advice: Advice, t: Catalog) -> str:
    if advice.value is None:
        return ""
    if family == "sheet":
        worth = t("hint.sheet_value", value=f"{advice.value:.0f}")
    elif family == "thousand":
        worth = _estimate(advice.value, t)
    else:
        worth = t("hint.showdown_value", value=f"{100 * advice.value:.0f}")
    return _said(advice, worth, t)


def _estimate(value: float, t: Catalog) -> str:
    """A «Тысяча» decision's points from the turn, as the heuristic reckons them («≈ 160 очков за ход»)."""
    return t("hint.estimate", n=round(value), value=number(round(value)))


def _thousand_worth(advice: Advice, t: Catalog, state: GameState | None) -> str:
    """«banks 135 points now; ≈ 160 points from this turn — the bot's rough estimate, not exact;
    +25 of it for the table: overtaking, pits, bolts»."""
    from kosti.games.thousand.game import ThousandState

    if not isinstance(state, ThousandState):
        return _worth("thousand", advice, t)
    exact = _exact_points(advice, t, state)
    parts = [exact] if exact else []
    if advice.value is not None:
        parts.append(_said(advice, _estimate(advice.value, t), t))
        if isinstance(advice.action, Stop) and round(advice.value) != state.turn_total:
            table = signed(round(advice.value) - state.turn_total, t.lang)
            parts.append(t("hint.for_the_table", points=table))
    return "; ".join(parts)


def pits_text(pits: Sequence[Sequence[int]]) -> str:
    """Pits as a player reads them: ``200–300, 600–700``."""
    return ", ".join(f"{low}–{high}" for low, high in pits)


def thousand_rules(o: ThousandOptions, t: Catalog) -> list[str]:
    """The rules of a «Тысяча» table with its own numbers, in the catalog's language: a summary
    line, then a paragraph for each restriction, penalty and the barrel that it has (and none
    for those it has not). The terminal's help and the page's rules panel both show these."""
    from kosti.games.thousand.game import falls_limit

    parts: list[str] = []
    lines: list[str] = [t("rules.table.target", target=o.target)]
    if o.opening:
        parts.append(t("rules.table.opening", n=o.opening))
        rule = t("rules.table.opening_rule", n=o.opening)
        if o.opening_fail_penalty:
            rule += " " + t("rules.table.opening_fail", n=o.opening_fail_penalty, every=o.opening_fail_every)
        lines.append(rule)
    if o.pits:
        parts.append(t("rules.table.pits", pits=pits_text(o.pits)))
        lines.append(t("rules.table.pits_rule", pits=pits_text(o.pits)))
    need = o.target - o.barrel_at
    if o.barrel == "points":
        parts.append(t("rules.table.barrel_points", at=o.barrel_at, attempts=o.barrel_attempts))
        lines.append(
            t(
                "rules.table.barrel_points_rule",
                at=o.barrel_at,
                need=need,
                attempts=o.barrel_attempts,
                fall=o.fall_penalty,
                falls=falls_limit(o),
            )
        )
    elif o.barrel == "capped":
        parts.append(t("rules.table.barrel_capped", at=o.barrel_at))
        lines.append(t("rules.table.barrel_capped_rule", at=o.barrel_at, need=need))
    elif o.barrel == "open":
        parts.append(t("rules.table.barrel_open", target=o.target))
        lines.append(
            t("rules.table.barrel_open_rule", target=o.target, dots=o.dots_limit, fall=o.fall_penalty)
        )
    else:
        parts.append(t("rules.table.no_barrel"))
        lines.append(t("rules.table.no_barrel_rule", target=o.target))
    if o.overtake_penalty:
        parts.append(t("rules.table.overtake", n=o.overtake_penalty))
        lines.append(t("rules.table.overtake_rule", n=o.overtake_penalty))
    if o.dump_at is not None:
        parts.append(t("rules.table.dump", n=o.dump_at))
        lines.append(t("rules.table.dump_rule", n=o.dump_at))
    if o.bolt_limit:
        parts.append(t("rules.table.bolts", limit=o.bolt_limit, n=o.bolt_penalty))
        rule = t("rules.table.bolts_rule", limit=o.bolt_limit, n=o.bolt_penalty)
        if not o.bolts_when_restricted:
            rule += " " + t("rules.table.bolts_restricted")
        lines.append(rule)
    return [t("rules.table.summary", parts=", ".join(parts)), *lines]
