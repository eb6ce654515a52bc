"""The JSON text of what a server sends and hears: its sockets' messages, the commits it publishes.

Every move is serialised for its table's sockets and for the other processes, and
parsed again by them: orjson does it in a tenth of the time of the standard library
(a ``change`` message is 1–2 KB), and its text is the same compact JSON with UTF-8
left as it is instead of ``\\u`` escapes. Where orjson is not built (a table played in the
browser's Pyodide, :mod:`kosti.web`), the standard library writes the same text.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - the browser's Pyodide ships no orjson
    FAST = False
else:
    FAST = True


def text(message: Any) -> str:
    """``message`` as compact JSON text (keys that are not strings written as strings).

    >>> text({"type": "change", "seat": 1, "name": "Анна", "left": 12.5, "cells": (1, 2)})
    '{"type":"change","seat":1,"name":"Анна","left":12.5,"cells":[1,2]}'
    """
    if FAST:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def parse(data: str | bytes) -> Any:
    """The value of JSON ``data``; :class:`ValueError` when it is not JSON.

    >>> parse('{"version": 3, "events": [["action", {"seat": 0}]]}')
    {'version': 3, 'events': [['action', {'seat': 0}]]}
    """
    return orjson.loads(data) if FAST else json.loads(data)
