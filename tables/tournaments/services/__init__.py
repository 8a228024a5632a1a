"""The tournaments' writers: ``create`` (a tournament's settings checked, the tournament
made), ``edit`` (its settings changed before the start), ``setup`` (register — a re-entry
too —, unregister, start), ``rebuys``, ``addons`` (the add-on at the end of the rebuys),
``bots`` (the bots entered), ``play`` (the hooks a running tournament answers), ``places``
(eliminations, places, prizes, the end), ``balance`` (moving players between tables and
breaking tables)."""

from tables.tournaments.services.create import tournament_create  # noqa: F401
from tables.tournaments.services.rebuys import tournament_rebuy  # noqa: F401
from tables.tournaments.services.setup import (  # noqa: F401
    tournament_register,
    tournament_start,
    tournament_unregister,
    tournaments_start_due,
)
