"""pkstate YAML: a hand, in progress or finished, as the ``pkstate`` hand-state library writes it.

The format (every field the library has; ``id``, ``datetime``, ``board`` and a player's ``id``
are optional and left out when empty)::

    id: example-hand
    datetime: '2024-05-01T20:15:00Z'     # RFC 3339, with a time zone
    game: NoLimitHoldem
    button: 0
    forced_bets: {small: 50, big: 100}   # also straddles: [200] and ante: 10
    board: 9♣ 6♦ 5♥ 5♠ 8♠
    players: [{name: Alice, stack: 1000}, {name: Bob, stack: 1000}]
    rounds:                              # one list of actions per street
    - - P0Dealt: A♠ K♠
      - P1Dealt: 7♦ 2♣
      - P0CBR: 100
      - P1Fold
      - P0Wins: 100

``loads``/``load`` read (``yaml.safe_load`` only) into a ``PKState``, checking every field;
``PKState.to_yaml()`` writes, so a document reads and writes back the same text;
``PKState.replay()`` rebuilds the hand through ``engine.hand.Hand``; ``dumps(hand)`` writes any
hand. ``python -m engine convert FILE --to yaml|phh`` converts between this and PHH.

How the format maps onto the engine:

* ``game``: one of ``GAMES`` (the library's ``NoLimitHoldem``, ``LimitHoldem``, ``PLO`` and
  ours by the same pattern); its ``Razz`` is not played here.
* ``players`` are the engine's seats in order, ``P0``..``P11`` their indices, ``button`` the
  button's seat, ``stack`` a starting stack.
* The engine posts ``forced_bets`` itself (``ante`` is everyone's). The first round may list
  the posted blinds and straddle first, as ``PnCBR`` (the library's own test hand does); they
  must then be exactly what was posted. Two additions the library does not have, written
  only when needed and skipped by readers that do not know them: ``forced_bets.big_blind_ante``
  (a big-blind ante, not to be misread as everyone's) and ``limit_bets: {small, big}``
  (fixed-limit bet sizes other than the big blind and twice it).
* A round is a street: the first deals the hole cards (``PnDealt``, in dealing order), each
  later one starts with its ``DealCommon``. Actions must fall in their street.
* ``PnCBR: x`` calls, bets or raises to a street total of ``x``, as PHH's ``cbr`` (an all-in
  call for less may give the bet it calls).
* ``PnWins``/``PnLoses``: after the last action, each seat still in at the end and the chips
  it won or lost in all (its net); reading checks them against the replay.
* A hole card nobody may see is left out with its ``PnDealt``; the replay deals that seat
  cards from the unused ones, and writing leaves it out again.

The package: ``model`` (the document, how it writes and replays), ``read`` (``loads``/``load``:
every field checked where it is read), ``write`` (``from_hand``/``dumps``: any hand) and
``convert`` (the command).
"""

from engine.pkstate.model import GAMES, Entry, ForcedBets, PKState, Seat
from engine.pkstate.read import load, loads
from engine.pkstate.write import check_can_write, dumps, from_hand

__all__ = [
    "GAMES",
    "Entry",
    "ForcedBets",
    "PKState",
    "Seat",
    "check_can_write",
    "dumps",
    "from_hand",
    "load",
    "loads",
]
