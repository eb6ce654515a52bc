"""Typed errors. Every refusal says why; nothing is changed by a refused call.

A refusal is data (RULES.md §4): a stable snake_case ``code`` and its ``params`` (numbers,
cell ids, lists of faces: never words), worded once per language in the catalogs by
:func:`kosti.i18n.refusal_text`. ``str()`` of a refusal is its English wording.
"""

from __future__ import annotations

from typing import Any


class KostiError(ValueError):
    """Base of every error the library raises for bad input."""


class OptionError(KostiError):
    """An unknown preset, an unknown option, or an option value of the wrong kind."""


class Refusal(KostiError):
    """Something the rules or an interface refuse, as data: ``code`` names why (a key of the
    catalogs' ``[refusal]`` table) and ``params`` fill in its wording. ``params`` are JSON-ready
    (numbers, strings that are ids or names, lists of them); a ``why`` param picks one of the
    wordings of a code that has several (``bad_name`` with ``why="width"``)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params: dict[str, Any] = params

    def __str__(self) -> str:
        # imported here: the games raise refusals, and importing them must not load Babel
        from kosti.i18n import refusal_text

        return refusal_text(self, "en")

    def __repr__(self) -> str:
        params = "".join(f", {name}={value!r}" for name, value in self.params.items())
        return f"{type(self).__name__}({self.code!r}{params})"

    @property
    def reason(self) -> str:
        """The English wording (for logs, and for programs that read text)."""
        return str(self)

    def to_json(self) -> dict[str, Any]:
        """The refusal as data: ``{"code": …, "params": {…}}``."""
        return {"code": self.code, "params": dict(self.params)}


class OptionRefusal(OptionError, Refusal):
    """A preset, an option or a set of options refused as data (a code and params, worded in
    both languages): what a player types at ``kosti play`` or on the page's form."""


class IllegalActionError(Refusal):
    """An action that the rules do not allow in this state. The state is unchanged."""


class RecordError(KostiError):
    """A game record that cannot be read or replayed.

    ``turn`` and ``action`` are 1-based positions in the record (``None`` when the
    error is not about one action). When the record breaks a rule, ``refusal`` is that
    rule's :class:`Refusal` and ``played`` the action refused as the record writes it
    (``None`` when the refusal is not about one action); :func:`kosti.i18n.record_error_text`
    words it in any language.
    """

    def __init__(
        self,
        reason: str | Refusal,
        turn: int | None = None,
        action: int | None = None,
        *,
        played: str | None = None,
    ) -> None:
        self.refusal = reason if isinstance(reason, Refusal) else None
        self.played = played
        text = str(reason)
        self.reason = text if played is None else f"{played}: {text}"
        self.turn = turn
        self.action = action
        where = ""
        if turn is not None:
            where = f"turn {turn}"
            if action is not None:
                where += f", action {action}"
            where += ": "
        super().__init__(where + self.reason)
