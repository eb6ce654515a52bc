"""A lower layer never imports a higher one: checked on what importing a module loads."""

from __future__ import annotations

import subprocess
import sys

import pytest

HIGHER = (
    "kosti.bots",
    "kosti.sim",
    "kosti.solver",
    "kosti.cli",
    "kosti.commands",
    "kosti.tui",
    "kosti.server",
)


def loaded(module: str) -> set[str]:
    """The kosti modules that importing ``module`` in a fresh interpreter loads."""
    code = f"import sys, {module}; print(' '.join(m for m in sys.modules if m.startswith('kosti')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(result.stdout.split())


@pytest.mark.parametrize(
    ("module", "forbidden"),
    [
        # the pure core: no interface, no policy, no record (``import kosti`` itself loads the games)
        ("kosti.games", (*HIGHER, "kosti.record", "kosti.show", "kosti.envs")),
        # records are read and written without bots
        ("kosti.record", HIGHER),
        ("kosti.position", HIGHER),
        # the bots build on the games, not on the simulator
        ("kosti.bots", ("kosti.sim", "kosti.solver", "kosti.cli", "kosti.record", "kosti.envs")),
        # the adapters take their bots from the bots layer
        ("kosti.envs.core", ("kosti.sim", "kosti.cli", "kosti.commands", "kosti.tui", "kosti.server")),
    ],
)
def test_a_module_loads_no_higher_layer(module: str, forbidden: tuple[str, ...]) -> None:
    above = {m for m in loaded(module) if m.startswith(forbidden)}
    assert not above, f"{module} loads {sorted(above)}"
