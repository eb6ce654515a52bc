"""The server's endpoints, one router a concern: the page, the rules' data, tables, play.

:func:`kosti.server.app.create_app` includes every router; each reads the process's
:class:`~kosti.server.hub.Hub` and settings through the dependencies of :mod:`.deps`.
"""
