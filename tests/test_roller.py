"""Where dice come from (kosti.roller): seeded, scripted, secure and provably fair sources."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from kosti.errors import KostiError
from kosti.roller import DiceSource, FairDice, ScriptedDice, SecureDice, SeededDice, commitment, fair_die


def test_every_source_is_a_dice_source() -> None:
    for source in (SecureDice(), SeededDice(1), ScriptedDice([]), FairDice(b"k", "c")):
        assert isinstance(source, DiceSource)


def test_seeded_dice_same_seed_same_throws() -> None:
    a, b, c = SeededDice(42), SeededDice(42), SeededDice(43)
    throws_a = [a.roll(5) for _ in range(20)]
    assert throws_a == [b.roll(5) for _ in range(20)]
    assert throws_a != [c.roll(5) for _ in range(20)]
    assert all(len(t) == 5 and all(1 <= f <= 6 for f in t) for t in throws_a)


def test_seeded_dice_do_not_touch_the_global_random() -> None:
    import random

    random.seed(7)
    expected = random.random()
    random.seed(7)
    SeededDice(1).roll(5)
    assert random.random() == expected


def test_scripted_dice_give_their_throws_in_order() -> None:
    dice = ScriptedDice([[1, 5, 3, 3, 4], (5, 5, 2)])
    assert dice.remaining == 2
    assert dice.roll(5) == (1, 5, 3, 3, 4)  # the order thrown is kept
    assert dice.roll(3) == (5, 5, 2)
    assert dice.remaining == 0


def test_scripted_dice_errors() -> None:
    dice = ScriptedDice([[1, 2, 3]])
    with pytest.raises(KostiError, match="3 dice, 5 needed"):
        dice.roll(5)
    assert dice.remaining == 1  # a refused throw is not used up
    with pytest.raises(KostiError, match="1 to 6"):
        ScriptedDice([[1, 2, 9]]).roll(3)
    dice.roll(3)
    with pytest.raises(KostiError, match="run out"):
        dice.roll(3)


def test_secure_dice_faces() -> None:
    throws = SecureDice().roll(200)
    assert len(throws) == 200 and set(throws) <= {1, 2, 3, 4, 5, 6}


def test_fair_dice_are_reproducible_from_the_seeds() -> None:
    first = FairDice(b"server-seed", "client", nonce=0)
    second = FairDice(b"server-seed", "client", nonce=0)
    throws = [first.roll(5) for _ in range(10)]
    assert throws == [second.roll(5) for _ in range(10)]
    assert first.nonce == 10
    assert throws != [FairDice(b"server-seed", "other").roll(5) for _ in range(10)]
    # die i of throw n is fair_die(seed, client, n, i)
    assert throws[3] == tuple(fair_die(b"server-seed", "client", 3, i) for i in range(5))


def test_fair_die_follows_the_published_recipe() -> None:
    # the first byte of HMAC-SHA256 below 252, taken modulo 6, plus one
    digest = hmac.new(b"k", b"c:0:0", hashlib.sha256).digest()
    byte = next(b for b in digest if b < 252)
    assert fair_die(b"k", "c", 0, 0) == byte % 6 + 1
    assert commitment(b"k") == hashlib.sha256(b"k").hexdigest()


def test_fair_die_reaches_every_face() -> None:
    seen = {fair_die(b"seed", "client", nonce, i) for nonce in range(40) for i in range(5)}
    assert seen == {1, 2, 3, 4, 5, 6}


def test_fair_dice_new_keeps_its_seed_secret_until_revealed() -> None:
    a, b = FairDice.new("client"), FairDice.new("client")
    assert len(a.server_seed) == 32
    assert a.server_seed != b.server_seed
