"""The live path: a table's websocket from the frame a player sends to every screen updated.

- ``protocol``: the frames (a request names one of ``tables.operations``, the command layer
  the REST API shares), the answers, the ``?state=json`` frame, the close codes;
- ``consumer``: ``TableConsumer``, one per socket, thin;
- ``runtime``: ``TableRuntime``, a live table's one home in the process that owns it (its
  state in memory, its sockets, its commands in order; forwarded from the other processes);
- ``sessions``: the sockets by user, closed when a log-in ends;
- ``routing``: the websocket URLs;
- ``schemas``, ``page_schemas``, ``asyncapi``: the protocol published as AsyncAPI 3
  (``/api/asyncapi.json``).

The database threads and hot statements are in ``tables.db``; the croupier, the loop that keeps
every table moving (clocks, bots, next hands), in ``tables.croupier``.
"""
