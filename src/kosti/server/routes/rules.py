"""The rules' data for the page: presets, a variant's options, kosti's words, this server's limits."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParam

from kosti.errors import KostiError
from kosti.levels import levels_for
from kosti.rules.presets import PRESETS, option_docs, variant
from kosti.server.messages import NAME_LENGTH
from kosti.server.refusal import Refusal
from kosti.server.routes.deps import SettingsDep
from kosti.server.settings import ServerSettings

router = APIRouter(prefix="/api")

Lang = Annotated[str, Query(pattern="^(ru|en)$")]


def bot_levels(settings: ServerSettings, family: str) -> list[str]:
    """The bot levels offered for ``family`` games: the configured ones, else every level that
    plays some variant of it (:func:`kosti.levels.levels_for`)."""
    if settings.bot_levels is not None:
        return list(settings.bot_levels)
    return list(levels_for(family))


@router.get("/presets")
async def presets(lang: Lang = "en") -> list[dict[str, Any]]:
    return [
        {"id": p.id, "family": p.family, "name": p.name(lang), "summary": p.summary(lang)}
        for p in PRESETS.values()
    ]


@router.get("/rules/{spec}")
async def rules(spec: str, lang: Lang = "en") -> dict[str, Any]:
    try:
        rules_ = variant(spec)
    except KostiError as error:
        raise Refusal("bad_variant", why="options", detail=str(error)) from None
    return {
        "id": rules_.preset.id,
        "spec": rules_.spec,
        "family": rules_.family,
        "name": rules_.preset.name(lang),
        "summary": rules_.preset.summary(lang),
        "options": {name: {"value": value, "doc": doc} for name, value, doc in option_docs(rules_.options)},
    }


@router.get("/words/{lang}")
async def words(lang: Annotated[str, PathParam(pattern="^(ru|en)$")]) -> dict[str, Any]:
    """kosti's catalog of ``lang`` (cells, hands, options, actions, the rules), by dotted key."""
    from kosti.i18n import messages

    return dict(messages(lang))


@router.get("/server")
async def server_info(settings: SettingsDep) -> dict[str, Any]:
    return {
        "bot_levels": {family: bot_levels(settings, family) for family in ("sheet", "thousand", "showdown")},
        "message_limit": settings.message_limit,
        "name_length": NAME_LENGTH,
        "idle_timeout": settings.idle_timeout,
        # which worker process answered, of how many (kosti serve --workers): for whoever runs it
        "worker": settings.worker,
        "workers": settings.workers,
    }
