"""What a server process counts for its operators' Prometheus (served at ``/metrics`` by
``pokersite.ops``, each process its own figures: Prometheus scrapes every process's port).

The counters and histograms below are updated where the thing happens (the table socket, the
clocks); what the table runtimes hold now (the tables owned, the leases taken, the requests
forwarded) is read when Prometheus asks (``pokersite.ops``). They live in the default registry
of ``prometheus_client``, beside its own process figures (CPU, memory, open files).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

#: Requests of the table sockets, by how they went: ``accepted`` (carried out), ``refused``
#: (the rules or the request said no: nothing changed), ``failed`` (the database away, a bug).
ACTIONS = Counter("poker_actions", "Table socket requests, by result.", ["result"])
#: From a request's receipt on its socket to the answer the sender gets (carried out here or
#: by the table's owner in another process).
ACTION_SECONDS = Histogram(
    "poker_action_seconds",
    "Seconds from a table socket request's receipt to its answer.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
FRAMES_SENT = Counter("poker_frames_sent", "Frames sent on table sockets.")
FRAME_BYTES_SENT = Counter("poker_frame_bytes_sent", "Bytes of frames sent on table sockets.")
SOCKETS_OPEN = Gauge("poker_sockets_open", "Table sockets open in this process.")
#: How late a table's clock fired after the moment it was armed for (a busy event loop).
CLOCK_LATENESS_SECONDS = Histogram(
    "poker_clock_lateness_seconds",
    "Seconds between the moment a table's clock was due and the moment it fired.",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
