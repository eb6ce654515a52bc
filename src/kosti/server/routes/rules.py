"""The rules' data for the page: presets, a variant's options, kosti's words, this server's limits."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi import Path as PathParam

from kosti.levels import levels_for
from kosti.server.messages import NAME_LENGTH
from kosti.server.routes.deps import SettingsDep
from kosti.server.routes.page import FOREVER, asset_version
from kosti.server.rulebook import preset_list, variant_rules
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
    return preset_list(lang)


@router.get("/rules/{spec}")
async def rules(spec: str, lang: Lang = "en") -> dict[str, Any]:
    return variant_rules(spec, lang)


@router.get("/words/{lang}")
async def words(
    lang: Annotated[str, PathParam(pattern="^(ru|en)$")], response: Response, v: str | None = None
) -> dict[str, Any]:
    """kosti's catalog of ``lang`` (cells, hands, options, actions, the rules), by dotted key;
    asked with the page's version (``?v=``, :func:`~kosti.server.routes.page.asset_version`) it
    is kept by the browser as the page's files are."""
    from kosti.i18n import messages

    response.headers["Cache-Control"] = FOREVER if v is not None and v == asset_version() else "no-cache"
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
