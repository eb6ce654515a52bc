"""A lower layer never imports a higher one: checked on what importing a module loads, and on
what any code of it may load, read from the source.

The first check runs the import, so it sees only the top of each module: an import inside a
function (the solvers are imported where an optimal bot is made, to spare every caller numba's
seconds) runs later or never. The second reads every ``import`` statement of the module, in
functions too, and follows them; a module named by a string (``importlib.import_module``) is
read as an import when the string is written out, and refused when it is not, so nothing
escapes it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

HIGHER = (
    "kosti.bots",
    "kosti.levels",
    "kosti.sim",
    "kosti.solver",
    "kosti.cli",
    "kosti.commands",
    "kosti.tui",
    "kosti.server",
)

INTERFACES = ("kosti.cli", "kosti.commands", "kosti.tui", "kosti.server", "kosti.envs")
"""What sits above the composition of bots (:mod:`kosti.levels`): the layers that use them."""

BY_STRING = ("import_module", "find_spec", "__import__")
"""Functions that import (or look up) a module named by a string."""


def loaded(module: str) -> set[str]:
    """The kosti modules that importing ``module`` in a fresh interpreter loads."""
    code = f"import sys, {module}; print(' '.join(m for m in sys.modules if m.startswith('kosti')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(result.stdout.split())


def source(module: str) -> Path | None:
    """The file of a kosti ``module`` (a package's ``__init__.py``), ``None`` if there is none."""
    path = SRC.joinpath(*module.split("."))
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else None


def modules_of(module: str) -> list[str]:
    """``module``, and every module under it when it is a package."""
    path = source(module)
    if path is None:
        raise LookupError(f"no module {module} under {SRC}")
    if path.name != "__init__.py":
        return [module]
    return [
        ".".join((module, *file.relative_to(path.parent).with_suffix("").parts)).removesuffix(".__init__")
        for file in sorted(path.parent.rglob("*.py"))
    ]


def by_string(call: ast.Call) -> bool:
    """Whether ``call`` imports a module named by a string (:data:`BY_STRING`)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in BY_STRING


def imported(module: str) -> set[str]:
    """The kosti modules the code of ``module`` imports anywhere: at its top, inside functions,
    under ``TYPE_CHECKING``, and by a string written out for :data:`BY_STRING`."""
    path = source(module)
    if path is None:
        return set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                above = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*above, base] if base else above)
            # ``from kosti.x import y`` loads kosti.x, and kosti.x.y when y is a module
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and by_string(node) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                names.add(first.value)
    return {name for name in names if name.startswith("kosti") and source(name) is not None}


def reachable(module: str) -> set[str]:
    """Every kosti module that some code of ``module`` (of any module in it, for a package) may
    load, whichever function runs: :func:`imported` followed to its end, each module with the
    packages above it (whose ``__init__`` runs first)."""
    seen: set[str] = set()
    todo = modules_of(module)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for package in (".".join(parts[:i]) for i in range(1, len(parts) + 1)):
            if package not in seen and source(package) is not None:
                seen.add(package)
                todo.append(package)
        todo.extend(imported(name) - seen)
    return seen


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
        # the adapters take their bots from kosti.levels, which loads the simulator's table bot
        # only when one is asked for
        ("kosti.envs.core", ("kosti.sim", "kosti.cli", "kosti.commands", "kosti.tui", "kosti.server")),
        # making a bot of some level is cheap to import: the solvers load when an optimal bot is made
        ("kosti.levels", ("kosti.sim", "kosti.solver", *INTERFACES)),
    ],
)
def test_a_module_loads_no_higher_layer(module: str, forbidden: tuple[str, ...]) -> None:
    above = {m for m in loaded(module) if m.startswith(forbidden)}
    assert not above, f"{module} loads {sorted(above)}"


@pytest.mark.parametrize(
    ("module", "forbidden"),
    [
        ("kosti.games", (*HIGHER, "kosti.record", "kosti.show", "kosti.envs")),
        ("kosti.record", HIGHER),
        ("kosti.position", HIGHER),
        # the policies of the bots package need only the games: which bot plays at which level,
        # the solver's and the simulator's among them, is kosti.levels' business
        ("kosti.bots", ("kosti.levels", "kosti.sim", "kosti.solver", "kosti.record", *INTERFACES)),
        # the composition of bots may reach the solvers and the simulator, never an interface
        ("kosti.levels", INTERFACES),
    ],
)
def test_no_code_of_a_module_reaches_a_higher_layer(module: str, forbidden: tuple[str, ...]) -> None:
    above = {m for m in reachable(module) if m.startswith(forbidden)}
    assert not above, f"code of {module} imports {sorted(above)}"


def test_the_levels_make_the_solvers_bots_and_the_table_bot() -> None:
    # the imports the first check cannot see (made where an optimal or table bot is asked
    # for) are those the second one reads: the source check is not blind where the first is
    reached = reachable("kosti.levels")
    assert {"kosti.solver", "kosti.solver.thousand.advisor", "kosti.solver.thousand.ready"} <= reached
    assert "kosti.sim.table" in reached
    assert not {m for m in loaded("kosti.levels") if m.startswith(("kosti.solver", "kosti.sim"))}


def test_no_module_imports_kosti_by_a_string_the_check_cannot_read() -> None:
    # a kosti module named in a string hides a layer's dependency from the import (and from
    # mypy); build such bots in kosti.levels instead. A string the source check cannot read
    # (not written out) might name a kosti module, so it is refused too.
    hidden = []
    for name in modules_of("kosti"):
        path = source(name)
        if path is None:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and by_string(node):
                first = node.args[0] if node.args else None
                named = first.value if isinstance(first, ast.Constant) else None
                if not isinstance(named, str) or named.startswith("kosti"):
                    hidden.append(f"{name}:{node.lineno}")
    assert not hidden, f"imports by string: {hidden}"
