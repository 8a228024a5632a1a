"""The load tests' kit in one import: real servers (``tests.load.processes``) and the
players that load them (``tests.load.clients``)."""

from tests.load.clients import Client, Socket, Tracker, percentile, play, wait_for
from tests.load.processes import (
    PYTHON,
    ROOT,
    DbProxy,
    FreshDatabase,
    RedisServer,
    Server,
    build_world,
    free_port,
    listening_socket,
    server_env,
)

__all__ = [
    "PYTHON",
    "ROOT",
    "Client",
    "DbProxy",
    "FreshDatabase",
    "RedisServer",
    "Server",
    "Socket",
    "Tracker",
    "build_world",
    "free_port",
    "listening_socket",
    "percentile",
    "play",
    "server_env",
    "wait_for",
]
