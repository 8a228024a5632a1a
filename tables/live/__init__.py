"""The live path: a table's websocket from the frame a player sends to every screen updated.

- ``protocol``: the frames (a request names one of ``tables.operations``, the command layer
  the REST API shares), the answers, the ``?state=json`` frame, the close codes;
- ``consumer``: ``TableConsumer``, one per socket, thin;
- ``feed``: ``TableFeed``, one subscription per process and table, shared by its sockets;
- ``caches``: the per-process caches that depend on a table's version (and their invariant);
- ``sessions``: the sockets by user, closed when a log-in ends;
- ``routing``: the websocket URLs; ``layers``: the embedded set-up's channel layer;
- ``schemas``, ``page_schemas``, ``asyncapi``: the protocol published as AsyncAPI 3
  (``/api/asyncapi.json``).

The database threads and hot statements are in ``tables.db``; the croupier, the loop that keeps
every table moving (clocks, bots, next hands), in ``tables.croupier``.
"""
