"""The tournaments' writers: ``setup`` (create, register, unregister, start), ``play`` (the
hooks a running tournament answers), ``places`` (eliminations, places, prizes, the end),
``balance`` (moving players between tables and breaking tables)."""

from tables.tournaments.services.setup import (  # noqa: F401
    tournament_create,
    tournament_register,
    tournament_start,
    tournament_unregister,
    tournaments_start_due,
)
