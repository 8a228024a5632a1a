"""The live path: a table's websocket from the frame a player sends to every screen updated.

- ``protocol``: the socket operations (one table: op -> parser and service), the answers, the
  ``?state=json`` frame, the close codes;
- ``consumer``: ``TableConsumer``, one per socket, thin;
- ``feed``: ``TableFeed``, one subscription per process and table, shared by its sockets;
- ``caches``: the per-process caches that depend on a table's version (and their invariant);
- ``sessions``: the sockets by user, closed when a log-in ends;
- ``croupier``: the loop that keeps every table moving (clocks, bots, next hands);
- ``routing``: the websocket URLs; ``layers``: the embedded set-up's channel layer.

The database threads and hot statements are in ``tables.db``.
"""
