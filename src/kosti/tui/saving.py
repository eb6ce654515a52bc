"""Where the terminal game keeps its records: the file of the game in play, written whole
after every move, and the unfinished games of the games directory, to resume."""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kosti.errors import KostiError
from kosti.record import Record


def resume_command(path: Path, environ: Mapping[str, str] | None = None) -> str:
    """The command that goes on with the game saved in ``path``, as a user can paste it into a
    shell (the path quoted where it must be). The record says the rest: the bots, the
    language, scorekeeper mode. Started by ``uv run`` (which says so in ``$UV``) from a
    project where ``kosti`` is not on the PATH, the command starts with ``uv run`` too."""
    env = os.environ if environ is None else environ
    command = f"kosti play --resume {shlex.quote(str(path))}"
    if not env.get("UV_RUN_RECURSION_DEPTH"):
        return command
    # uv run puts the project's environment first on the PATH; the user's shell has the rest
    venv = env.get("VIRTUAL_ENV", "")
    outside = os.pathsep.join(
        part
        for part in env.get("PATH", "").split(os.pathsep)
        if part and not (venv and part.startswith(venv))
    )
    return command if shutil.which("kosti", path=outside) else f"uv run {command}"


def games_directory() -> Path:
    """Where records go when nobody says: the user data directory of kosti."""
    import platformdirs

    return platformdirs.user_data_path("kosti") / "games"


def default_record_path(preset_id: str, now: datetime | None = None) -> Path:
    """A new record's file in :func:`games_directory`, named by the time and the preset."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    return games_directory() / f"{stamp}-{preset_id}.json"


class RecordFile:
    """The file a game's record is kept in (``path``; ``None``: the game is not saved)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def save(self, record: Record) -> Path | None:
        """Write ``record`` whole to :attr:`path`, atomically: a crash mid-write leaves the
        previous record, never half of one. The path, or ``None`` when not saving."""
        if self.path is None:
            return None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".kosti-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(record.dumps())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return self.path


@dataclass(frozen=True)
class SavedGame:
    """A game saved in :func:`games_directory` that is not over, to resume."""

    path: Path
    preset: str
    players: tuple[str, ...]
    turns: int
    saved: datetime


def saved_games(directory: Path | None = None) -> list[SavedGame]:
    """The unfinished games of ``directory`` (the games directory), the latest saved first;
    files that are not readable records are passed over."""
    from kosti.games import engine_for
    from kosti.record import load, replay

    folder = games_directory() if directory is None else directory
    found: list[SavedGame] = []
    for path in folder.glob("*.json") if folder.is_dir() else ():
        try:
            record = load(path)
            state = replay(record)
        except (KostiError, OSError, ValueError):
            continue
        if engine_for(state.variant).is_finished(state):
            continue
        saved = datetime.fromtimestamp(path.stat().st_mtime)
        found.append(SavedGame(path, record.variant, tuple(record.players), len(record.turns), saved))
    return sorted(found, key=lambda game: game.saved, reverse=True)
