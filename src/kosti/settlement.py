"""Settlement against the average (RULES.md §1.8), with exact fractions.

«очки всех игроков складываются, эта сумма делится на число игравших …
Вычитая среднее из очков игрока, определяют выигрыш или проигрыш каждого».
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def settle(totals: Sequence[int], stake: int | Fraction = 1) -> list[Fraction]:
    """Each player's win (+) or loss (−): (total − mean of totals) × stake. They sum to zero."""
    if not totals:
        return []
    mean = Fraction(sum(totals), len(totals))
    return [(Fraction(t) - mean) * stake for t in totals]


def exact(value: Fraction | int) -> int | str:
    """A fraction as JSON: an integer when whole, else ``"p/q"`` (``"-5/3"``)."""
    f = Fraction(value)
    return f.numerator if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def ranks(totals: Sequence[int | Fraction]) -> list[int]:
    """1-based places, highest total first; equal totals share a place (1, 1, 3)."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]
