"""The page played on this device, with no server: local games in the browser, offline.

A Web Worker runs Pyodide (CPython built for WebAssembly) with kosti inside, and the page
speaks to it the protocol it speaks to a server: REST requests and a table's socket
messages (``state``, ``change``, ``error``); only the transport differs.

* :mod:`kosti.web.host`: the tables of this device, planned, shown and played by the
  server's own code (:mod:`kosti.server.table`, :mod:`~kosti.server.planning`,
  :mod:`~kosti.server.seating`, :mod:`~kosti.server.view`, :mod:`~kosti.server.broadcast`);
  it runs in the worker, and in CPython in the tests;
* :mod:`kosti.web.pins`: the files the page loads from elsewhere (Pyodide from the npm
  registry, Babel and pytrovich from PyPI), each at a pinned version and hash, fetched once
  into the user's cache directory (``kosti web fetch``);
* :mod:`kosti.web.site`: the page for local play as files: the page itself, the worker, the
  service worker that keeps it all offline, Pyodide and kosti's own Python as one archive;
  written out by ``kosti web export DIR`` and served by ``kosti serve``.

``docs/offline.md`` names every file the page loads and why.
"""
