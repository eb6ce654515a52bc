"""Where dice come from.

The rules core never draws a die: a throw is a chance step whose outcome is
supplied by the caller. The caller takes it from a :class:`DiceSource`:

* :class:`SecureDice` for live play (the operating system's CSPRNG, no modulo bias);
* :class:`SeededDice` for simulation and tests (reproducible from an integer seed);
* :class:`ScriptedDice` for records and scripted tests (throws given in advance);
* :class:`FairDice` for online play: every die is HMAC-SHA256(server seed,
  ``client_seed:nonce:index``) read by rejection sampling, so anyone who learns
  the server seed after the game can recompute every die (see :func:`fair_die`).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from kosti.dice import Faces, normalize
from kosti.errors import KostiError


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can throw ``n`` dice."""

    def roll(self, n: int) -> Faces:
        """Throw ``n`` dice and return their faces in the order thrown."""
        ...


class SecureDice:
    """Dice from :mod:`secrets`; ``randbelow`` rejects values itself, so there is no modulo bias."""

    def roll(self, n: int) -> Faces:
        return tuple(secrets.randbelow(6) + 1 for _ in range(n))


class SeededDice:
    """Reproducible dice from a private :class:`random.Random` (never the module-global one)."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)

    def roll(self, n: int) -> Faces:
        return tuple(self._random.randint(1, 6) for _ in range(n))


class ScriptedDice:
    """Dice given in advance, one throw at a time; running out or a wrong count is an error."""

    def __init__(self, throws: Iterable[Sequence[int]]) -> None:
        self._throws = [tuple(t) for t in throws]
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted throws are left."""
        return len(self._throws) - self._next

    def roll(self, n: int) -> Faces:
        if self._next >= len(self._throws):
            raise KostiError("the scripted dice have run out")
        throw = self._throws[self._next]
        if len(throw) != n:
            raise KostiError(f"scripted throw {self._next + 1} has {len(throw)} dice, {n} needed")
        normalize(throw)
        self._next += 1
        return throw


def fair_die(server_seed: bytes, client_seed: str, nonce: int, index: int) -> int:
    """The die number ``index`` of throw ``nonce`` of a provably fair game.

    Bytes of HMAC-SHA256(server_seed, ``f"{client_seed}:{nonce}:{index}"``) are read
    in order; the first byte below 252 (the largest multiple of 6 under 256) gives
    ``byte % 6 + 1``. Bytes of 252 or more are rejected, which is what keeps every
    face exactly equally likely. If all 32 bytes are rejected (chance 4/256 to the
    32nd power) the message gets a ``:k`` suffix, k = 1, 2, …, and the search goes on.
    """
    round_ = 0
    while True:
        message = f"{client_seed}:{nonce}:{index}"
        if round_:
            message += f":{round_}"
        digest = hmac.new(server_seed, message.encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:
                return byte % 6 + 1
        round_ += 1


def commitment(server_seed: bytes) -> str:
    """The SHA-256 of the server seed, shown to players before the first throw."""
    return hashlib.sha256(server_seed).hexdigest()


class FairDice:
    """Provably fair dice: every throw is reproducible from the two seeds once revealed."""

    def __init__(self, server_seed: bytes, client_seed: str, nonce: int = 0) -> None:
        self.server_seed = server_seed
        self.client_seed = client_seed
        self.nonce = nonce

    @classmethod
    def new(cls, client_seed: str) -> FairDice:
        """A fresh game with a secret 32-byte server seed."""
        return cls(secrets.token_bytes(32), client_seed)

    def roll(self, n: int) -> Faces:
        faces = tuple(fair_die(self.server_seed, self.client_seed, self.nonce, i) for i in range(n))
        self.nonce += 1
        return faces
