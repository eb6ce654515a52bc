"""Events in words: the log lines of the terminal game, the web page and reports (RULES.md §5.1).

The engine says *what* happened (:mod:`kosti.events`); this module says it in Russian or
English, with the typography of the boards (a true minus sign, «−50»), Russian plurals from
the CLDR rules (via :mod:`kosti.i18n`, which takes them from Babel) and Russian names in the
case the sentence needs («Борис обгоняет Анну»). Every interface words its log here, so a
line reads the same in the terminal and on the page::

    >>> from kosti.events import Event
    >>> narrator = Narrator(None, ["Анна", "Борис"], "ru")
    >>> narrator.describe(Event(3, 0, "overtaken", -50, 250, by=1))
    'Борис обгоняет Анну: −50'
    >>> Narrator(None, ["Anna", "Boris"], "en").describe(Event(3, 1, "dump", -555, 0))
    'Boris: the dump truck, 555 → 0'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING

from kosti.events import Event
from kosti.i18n import Catalog, catalog
from kosti.rules.options import UPPER_CELLS, SheetOptions, ShowdownOptions, ThousandOptions
from kosti.rules.presets import Variant

if TYPE_CHECKING:
    from kosti.games.showdown.game import Showdown
    from kosti.games.showdown.hands import Tiebreak

MINUS = "−"
"""U+2212, the minus sign of the boards (a hyphen is not a minus)."""

COLUMN_NAMES: tuple[str, ...] = ("I", "II", "III")


def number(n: int) -> str:
    """``n`` with a true minus sign: ``-20`` → «−20»."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """``n`` with its sign always shown: «+6», «−50», «0»."""
    return f"+{n}" if n > 0 else number(n)


def dice_text(dice: Iterable[int]) -> str:
    """Faces as they are written in a log: «1 5 5»."""
    return " ".join(map(str, dice))


@cache
def _declension() -> tuple[object, object]:
    # imported on first use: only Russian logs with Russian names need it
    from pytrovich.detector import PetrovichGenderDetector
    from pytrovich.maker import PetrovichDeclinationMaker

    return PetrovichDeclinationMaker(), PetrovichGenderDetector()


def accusative(name: str, lang: str) -> str:
    """The name as the object of a Russian sentence («Анна» → «Анну», «Борис» → «Бориса»);
    names that are not one Cyrillic word, and every name in English, stay as they are."""
    return _declined(name, lang, "ACCUSATIVE")


def genitive(name: str, lang: str) -> str:
    """The name after «у» («у Анны», «у Бориса»); as :func:`accusative`, other names stay as they are."""
    return _declined(name, lang, "GENITIVE")


def _declined(name: str, lang: str, case: str) -> str:
    if lang != "ru" or not name.isalpha() or not all("А" <= ch <= "я" or ch in "Ёё" for ch in name):
        return name
    from pytrovich.enums import Case, NamePart

    maker, detector = _declension()
    gender = detector.detect(firstname=name)  # type: ignore[attr-defined]
    declined: str = maker.make(NamePart.FIRSTNAME, gender, Case[case], name)  # type: ignore[attr-defined]
    return declined


class Narrator:
    """Words the events of one game for one language."""

    def __init__(self, variant: Variant | None, players: Sequence[str], lang: str) -> None:
        self.variant = variant
        self.players = tuple(players)
        self.t: Catalog = catalog(lang)

    def describe_all(self, events: Iterable[Event]) -> list[str]:
        """One line per event, in order."""
        return [self.describe(event) for event in events]

    def points(self, n: int) -> str:
        """«35 очков», "1 point"."""
        return self.t.plural("points", n)

    def ordinal(self, n: int, gender: str = "m") -> str:
        """«третий», «шестая», "third" (numbers past ten as «11-й», "11th")."""
        key = f"ordinal.{gender}.{n}"
        return self.t(key) if self.t.has(key) else self.t(f"ordinal.{gender}.more", n=n)

    def describe(self, event: Event) -> str:
        """The log line of ``event``."""
        name = self.players[event.seat]
        by = self.players[event.by] if event.by is not None else ""
        t = self.t
        common: dict[str, object] = {
            "name": name,
            "by": by,
            "name_acc": accusative(name, t.lang),
            "signed": signed(event.points),
            "score": number(event.score),
            "before": number(event.score - event.points),
            "count": event.count,
            "limit": event.limit,
        }
        kind = event.kind
        if kind == "recorded" and event.cell is not None:
            return self._sheet_recorded(event, common)
        if kind == "recorded":
            return t("event.recorded", **common, points=self.points(event.total or 0))
        if kind == "barrel_on":
            return t("event.barrel_on_capped" if event.points else "event.barrel_on", **common)
        if kind == "bust":
            if event.total:
                return t(
                    "event.bust_lost", **common, dice=dice_text(event.dice), points=self.points(event.total)
                )
            return t("event.bust", **common, dice=dice_text(event.dice))
        if kind in ("bolt_penalty", "opening_fail_penalty"):
            return t(f"event.{kind}", **common, ordinal=self.ordinal(event.count or 0))
        if kind == "dot_penalty":
            # the engine puts the points of the dots limit on the fall before it (RULES.md §3.3),
            # so this line says only that the dots start again; one with points still shows them
            key = "event.dot_penalty" if event.points else "event.dot_penalty_restart"
            return t(key, **common, ordinal=self.ordinal(event.count or 0, "f"))
        if kind == "fall" and self._barrel() == "open":
            # an open barrel has nobody sitting on it: its only fall is at the dots limit
            return t("event.fall_dots", **common)
        if kind == "dot":
            return t("event.dot", **common, target=self._target())
        if kind == "knocked_off" and event.count is not None:
            return t("event.knocked_off_fall", **common)
        if kind == "scratched":
            return self._with_column("event.scratched", event, common, cell=t.cell(event.cell or ""))
        if kind == "banked":
            throws = event.throws or 0
            if throws < 0:
                return t.plural("event.spent", self._banked_left(event), name=name)
            return t.plural("event.banked", throws, name=name)
        if kind == "upper_bonus":
            key = "event.upper_bonus" if event.points else "event.upper_bonus_none"
            return self._with_column(key, event, common)
        if kind == "bank_bonus":
            throws = event.throws or 0
            each = event.points // throws if throws else 0
            return t("event.bank_bonus", **common, throws=t.plural("event.banked_throws", throws), each=each)
        if kind == "ante":
            return t("event.ante", **common, ante=-event.points)
        if kind == "bank_won":
            from kosti.games.showdown.hands import classify

            hand = classify(event.dice).name if event.dice else "nothing"
            return t("event.bank_won", **common, hand=t(f"hand.{hand}"))
        return t(f"event.{kind}", **common)

    # -- score sheets ------------------------------------------------------------------------

    def _sheet_options(self) -> SheetOptions | None:
        options = self.variant.options if self.variant is not None else None
        return options if isinstance(options, SheetOptions) else None

    def _with_column(self, key: str, event: Event, common: Mapping[str, object], **more: object) -> str:
        if event.column is not None:
            return self.t(f"{key}_column", **common, column=COLUMN_NAMES[event.column], **more)
        return self.t(key, **common, **more)

    @staticmethod
    def _banked_left(event: Event) -> int:
        return max(0, event.count or 0)

    def _sheet_recorded(self, event: Event, common: Mapping[str, object]) -> str:
        cell = event.cell or ""
        return self._with_column(
            "event.sheet_recorded", event, common, cell=self.t.cell(cell), why=self.why(event)
        )

    def why(self, event: Event) -> str:
        """How a recorded cell's points are made: «четыре шестёрки, (4 − 3) × 6», "6 6 6 6 6, 30 × 2 + 50"."""
        from kosti.games.sheet.scoring import cell_score, lower_base, multiplier

        t, cell, dice = self.t, event.cell or "", event.dice
        options = self._sheet_options()
        if cell in UPPER_CELLS:
            face = UPPER_CELLS.index(cell) + 1
            c = dice.count(face)
            if c == 0:
                count = t(f"face_count.none.{face}")
            else:
                count = t.plural(f"face_count.{face}", c, word=t(f"number.{c}"))
            deviation = options is None or options.upper == "deviation"
            return t("why.upper" if deviation else "why.upper_sum", count=count, c=c, face=face)
        if event.points == 0:
            return t("why.absent", cell=t.cell(cell))
        if options is None:
            return t("why.sum", dice=dice_text(dice))
        joker = cell_score(cell, dice, options, event.first_throw) != event.points
        base = lower_base(cell, dice, options, joker)
        times = multiplier(cell, options, event.first_throw)
        bonus = event.points - base * times
        parts = {"dice": dice_text(dice), "base": base, "times": times, "bonus": bonus}
        if times > 1 and bonus:
            return t("why.times_bonus", **parts)
        if times > 1:
            return t("why.times", **parts)
        if bonus:
            return t("why.bonus", **parts)
        if base != sum(dice):
            return t("why.fixed", **parts)
        return t("why.sum", **parts)

    # -- showdown --------------------------------------------------------------------------

    def showdown_summary(self, showdown: Showdown) -> list[str]:
        """A settled showdown in words: a title, every hand named, then what settled it and where
        the bank goes::

            >>> from kosti.games.showdown.game import Showdown
            >>> summary = Narrator(None, ["Анна", "Борис"], "ru").showdown_summary(
            ...     Showdown(2, 0, ((6, 6, 5, 2, 1), (6, 6, 5, 3, 1)), (1,), 2)
            ... )
            >>> print("\\n".join(summary).replace("; ", ";\\n"))
            Раунд 2, вскрытие:
            Анна: пара, 1 2 5 6 6
            Борис: пара, 1 3 5 6 6
            комбинации равны (пара): у Бориса больше сумма всех пяти костей, 21 против 20;
            банк 2 забирает Борис
        """
        from kosti.games.showdown.hands import classify, decided_by

        t = self.t
        seats = [seat for seat, dice in enumerate(showdown.hands) if dice is not None]
        hands = {seat: classify(showdown.hands[seat] or ()) for seat in seats}
        if showdown.deciding:
            lines = [t("summary.title_deciding", round=showdown.round, n=showdown.deciding)]
        else:
            lines = [t("summary.title", round=showdown.round)]
        lines += [
            t("summary.hand", name=self.players[s], hand=t(f"hand.{h.name}"), dice=dice_text(h.dice))
            for s, h in hands.items()
        ]
        tiebreak = self._tiebreak()
        decider = decided_by(list(hands.values()), tiebreak)
        ranked = sorted(seats, key=lambda s: hands[s].key(tiebreak), reverse=True)
        best = hands[ranked[0]]
        name = self.players[ranked[0]]
        words: dict[str, object] = {"name": name, "hand": t(f"hand.{best.name}")}
        if decider in ("hand_sum", "total"):
            second = hands[ranked[1]]
            measure = "hand_sum" if decider == "hand_sum" else "total"
            a, b = getattr(best, measure), getattr(second, measure)
            key = "summary.nothing" if best.name == "nothing" else f"summary.{decider}"
            verdict = t(key, **{**words, "name": genitive(name, t.lang)}, a=a, b=b)
        elif decider == "tied":
            names = [self.players[s] for s in showdown.best]
            verdict = t("summary.tied", **words, names=t("summary.and").join(names))
        else:
            verdict = t(f"summary.{decider}", **words)
        if len(showdown.best) == 1:
            bank = t("summary.bank_won", bank=showdown.bank, name=self.players[showdown.best[0]])
        else:
            bank = t("summary.bank_waits", bank=showdown.bank)
        return [*lines, f"{verdict}; {bank}"]

    def _tiebreak(self) -> Tiebreak:
        options = self.variant.options if self.variant is not None else None
        return options.tiebreak if isinstance(options, ShowdownOptions) else "hand_then_total"

    def _barrel(self) -> str | None:
        options = self.variant.options if self.variant is not None else None
        return options.barrel if isinstance(options, ThousandOptions) else None

    def _target(self) -> int:
        options = self.variant.options if self.variant is not None else None
        return options.target if isinstance(options, ThousandOptions) else 1000


def describe(event: Event, players: Sequence[str], lang: str, variant: Variant | None = None) -> str:
    """The log line of one event (see :class:`Narrator`, which words a whole game)."""
    return Narrator(variant, players, lang).describe(event)
