"""The rules' data the page reads, worded in the reader's language: the presets
(``/api/presets``) and a variant's rules (``/api/rules/{spec}``: each option with its value, its
meaning and how a form offers it, and the table's own rules in sentences).

One answer for both places the page asks: a server's routes (:mod:`kosti.server.routes.rules`)
and the tables played in the browser (:mod:`kosti.web.host`, with no FastAPI).
"""

from __future__ import annotations

from typing import Any

from kosti.errors import KostiError
from kosti.rules.presets import PRESETS, option_docs, variant
from kosti.server.refusal import Refusal
from kosti.server.words import option_kind, table_rules


def preset_list(lang: str) -> list[dict[str, Any]]:
    """Every preset, named and summed up in ``lang``."""
    return [
        {"id": p.id, "family": p.family, "name": p.name(lang), "summary": p.summary(lang)}
        for p in PRESETS.values()
    ]


def variant_rules(spec: str, lang: str) -> dict[str, Any]:
    """The rules of variant ``spec`` for the page; :class:`Refusal` ``bad_variant`` for one that is not."""
    try:
        rules = variant(spec)
    except KostiError as error:
        raise Refusal("bad_variant", why="options", detail=str(error)) from None
    return {
        "id": rules.preset.id,
        "spec": rules.spec,
        "family": rules.family,
        "name": rules.preset.name(lang),
        "summary": rules.preset.summary(lang),
        # each option worded (its meaning in the catalog's option_doc), and how a form offers it
        "options": {
            name: {"value": value, "doc": doc, **option_kind(rules.options, name)}
            for name, value, doc in option_docs(rules.options, lang)
        },
        "sentences": table_rules(rules, lang),
    }
