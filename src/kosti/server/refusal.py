"""The one error a server answers a client with."""

from __future__ import annotations

from typing import Any

from kosti.errors import KostiError
from kosti.errors import Refusal as RuleRefusal


class Refusal(RuleRefusal):
    """A request the table refuses, as data (RULES.md §4): ``code`` is a stable word for
    programs, ``params`` fill in its wording, which :func:`kosti.i18n.refusal_text` gives in the
    reader's language (``str()`` and :attr:`reason`: in English). A refusal of the rules keeps
    the engine's code and params (:meth:`of`)."""

    @classmethod
    def of(cls, refusal: RuleRefusal) -> Refusal:
        """The engine's ``refusal`` as the table's: the same code and params."""
        return cls(refusal.code, **refusal.params)


def refusal_of(error: KostiError) -> dict[str, Any]:
    """``error`` as data for a refusal's ``refusal`` param: its code and params when it is a
    refusal, else the code ``error`` with its English text as ``detail``."""
    if isinstance(error, RuleRefusal):
        return error.to_json()
    return {"code": "error", "params": {"detail": str(error)}}
