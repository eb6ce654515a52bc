"""Sub-commands of ``kosti`` beyond the core ones in :mod:`kosti.cli`.

Each module here registers its commands on :data:`kosti.cli.app` when imported;
:func:`kosti.cli.main` imports them all. Keep heavy imports inside the command
functions so that ``kosti --help`` stays fast.
"""
