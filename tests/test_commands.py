"""The sub-commands: registered by name on the app of ``kosti.cli``, never importing it back."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kosti.cli import app

MODULES = ["play", "serve", "simulate", "solve"]


@pytest.mark.parametrize("module", MODULES)
def test_a_command_module_does_not_import_the_cli(module: str) -> None:
    code = f"import sys, kosti.commands.{module}; print('kosti.cli' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_every_command_is_registered_once_in_the_order_of_the_help() -> None:
    names = [c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands]
    assert names == [
        "score",
        "replay",
        "rules",
        "play",
        "serve",
        "verify",
        "simulate",
        "solve",
        "hint",
        "report",
    ]
