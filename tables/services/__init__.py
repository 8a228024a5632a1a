"""The only writers: keyword-only functions named ``<thing>_<verb>``.

Each runs in one transaction with the table row locked (see each docstring), raises a
``ServiceError`` (a ``ValueError``) with a message for the player when it refuses — having
changed nothing — and on commit publishes ``{"type": "table.changed", "table_id", "version"}``
to the group ``table-<id>``.

Modules: ``players`` (sign-up grant, admin grants), ``seats`` (take, leave, sit out/in,
top up), ``hands`` (start, act, void), ``table`` (save, pause, resume, close, remove a
player), ``errors``, ``events``, ``leases`` (which process runs a live table).
The croupier's clock lives in ``clock``. Hosted games: ``hosting`` (start, invite, the host's
controls, self-closing), ``seat_requests`` (sitting down or topping up where the host
approves), ``host_pending`` (what waits for the end of the hand being played).
"""

from tables.services.chat import chat_mute as chat_mute, chat_post as chat_post
from tables.services.errors import *  # noqa: F401,F403
from tables.services.hands import (
    hand_act as hand_act,
    hand_start as hand_start,
    hand_void as hand_void,
)
from tables.services.players import (
    player_create as player_create,
    player_get_or_create as player_get_or_create,
    player_grant as player_grant,
    player_mark_bot as player_mark_bot,
    player_set_preferences as player_set_preferences,
    player_sign_up as player_sign_up,
)
from tables.services.pre_actions import pre_action_set as pre_action_set
from tables.services.runouts import rabbit_hunt as rabbit_hunt
from tables.services.seats import (
    seat_leave as seat_leave,
    seat_post_now as seat_post_now,
    seat_sit_in as seat_sit_in,
    seat_sit_out as seat_sit_out,
    seat_sit_out_next as seat_sit_out_next,
    seat_take as seat_take,
    seat_top_up as seat_top_up,
)
from tables.services.showing import cards_show as cards_show
from tables.services.table import (
    table_close as table_close,
    table_pause as table_pause,
    table_remove_player as table_remove_player,
    table_resume as table_resume,
    table_save as table_save,
)
