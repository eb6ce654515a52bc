"""Sub-commands of ``kosti`` beyond the core ones in :mod:`kosti.cli`.

Each module defines its commands as plain functions; :mod:`kosti.cli` imports the
modules and registers the commands on its app by name. A module here never imports
:mod:`kosti.cli`: what the commands share is in :mod:`kosti.commands.common`. Keep
heavy imports inside the command functions so that ``kosti --help`` stays fast.
"""
