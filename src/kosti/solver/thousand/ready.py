"""Whether the exact «Тысяча» values can be had now: solved before, or small enough to solve at once.

A full-size game takes a long solve (``kosti solve thousand-classic --players 2``); every
interface that offers the optimal bot or exact hints asks :func:`ready` first, so that choosing
them never starts that solve unasked. A variant counts as small when :func:`status_bound`, an
upper bound on the statuses per player read off the options alone (no model is built), is at
most :data:`QUICK_STATUSES`: the solve then takes seconds (a table of a few thousand positions).
"""

from __future__ import annotations

import shlex

from kosti.rules.presets import Variant
from kosti.solver.thousand.model import default_floor, score_unit, thousand_options
from kosti.solver.thousand.solve import is_solved

QUICK_STATUSES = 150
"""The largest :func:`status_bound` solved on demand. At 150 statuses a player (22 500
turn-start positions, each with up to ~40 turn totals) a solve takes a few seconds even on a
loaded two-core machine; the full ``thousand-classic`` has 2 149 statuses and takes tens of minutes."""


def status_bound(rules: Variant) -> int:
    """An upper bound on the statuses per player of ``rules`` (each field of a player's line that
    the options make matter, times the values it can take); cheap, without building the model."""
    options = thousand_options(rules)
    unit = score_unit(options)
    scores = (options.target - default_floor(options)) // unit + 1
    bound = scores * (2 if options.opening > 0 else 1)
    bound *= max(1, options.bolt_limit)
    falls = options.falls_limit or 3
    if options.barrel == "points":
        bound *= (options.barrel_attempts + 1) * falls
    elif options.barrel == "open":
        bound *= options.dots_limit * falls
    elif options.barrel == "capped":
        bound *= scores  # the opening score a knock-off returns to
    if options.opening_fail_penalty:
        bound *= options.opening_fail_every
    return bound


def quick(rules: Variant) -> bool:
    """True when ``rules`` is small enough to solve in seconds (:data:`QUICK_STATUSES`)."""
    return status_bound(rules) <= QUICK_STATUSES


def ready(rules: Variant) -> bool:
    """True when the exact values of ``rules`` are at hand without a long solve: solved before
    (this process or the disk cache), or :func:`quick`. With three or more players the advice is
    derived from the same two-player values, so the same answer holds."""
    return quick(rules) or is_solved(rules)


def solve_command(rules: Variant) -> str:
    """The command that solves ``rules`` once, for the disk cache."""
    return f"kosti solve {shlex.quote(rules.spec)} --players 2"


def not_ready(rules: Variant) -> str:
    """Why the exact values of ``rules`` are not offered yet, and what makes them (one line)."""
    return (
        f"the optimal «Тысяча» bot needs the exact values of {rules.spec}, not solved yet: "
        f"run `{solve_command(rules)}` once (it takes long), then play"
    )
