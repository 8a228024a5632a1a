"""Every game the registry offers, in every betting it allows, played through the services by
random bots (all-ins, side pots, run it twice where the game has a board, draws, rebuys):
nothing is refused that the engine called legal, and no chip is made or lost. (A short-deck
all-in was refused with a server error until this ran: its run-out asked for odds the
equity engine cannot give.)"""

from __future__ import annotations

import random
import zlib

import pytest

from engine.bots import RandomBot
from tables.models import Hand, Table
from tables.selectors.hands import hand_state
from tables.services import hand_act, hand_start, seat_take
from tables.services.errors import NotEnoughPlayers

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

HANDS = 12
BUY_INS = (20, 60, 100)
LIMIT_STAKES = {"small_bet": 4, "ante": 1, "bring_in": 1}
# Not dealer's choice: its button picks the game (tests/tables/services/test_mixed_games.py).
CASES = [
    (game, betting)
    for game, bettings in Table.BETTINGS_OF.items()
    if game != "dealers-choice"
    for betting in bettings
]


def stakes(game: str) -> dict:
    if game in ("stud", "stud-hilo", "razz", "horse", "8-game"):
        return LIMIT_STAKES
    return {"ante": 1} if game == "short-deck" else {}


def act_once(table: Table, players: dict, rng: random.Random) -> bool:
    """The running hand's next decision (a bot's, or a run-it-twice answer); False when no
    hand is running."""
    hand = table.hands.filter(status=Hand.Status.RUNNING).first()
    if hand is None:
        return False
    state = hand_state(hand)
    if state.runs_due:
        seat = next(
            s for s in range(state.seats) if not state.folded[s] and str(s) not in hand.run_answers
        )
        who, action = players[hand.seats[seat]["player_id"]], "run_twice"
    else:
        assert state.actor is not None, "a running hand has an actor"
        decision = RandomBot(rng).decide(state.view(state.actor))
        who = players[hand.seats[state.actor]["player_id"]]
        cards = [str(card) for card in decision.cards]
        action = {"kind": str(decision.kind), "amount": decision.amount, "cards": cards}
    version = Table.objects.get(pk=table.pk).version
    hand_act(table=table, player=who, hand_id=hand.pk, version=version, action=action)
    return True


@pytest.mark.parametrize(("game", "betting"), CASES)
def test_random_bots_play_every_game_and_no_chip_is_lost(
    make_table, make_player, assert_chips_conserved, game, betting
):
    board = game in ("holdem", "omaha", "omaha-hilo")
    table = make_table(
        name=f"{game} {betting}",
        game=game,
        betting=betting,
        run_it_twice=board,
        min_buy_in=10,
        **stakes(game),
    )
    rng = random.Random(zlib.crc32(f"{game}/{betting}".encode()))
    people = [make_player(f"p{number}") for number in range(4)]
    players = {person.pk: person for person in people}
    dealt = 0
    for _ in range(HANDS):
        for person in people:  # the busted buy in again, for another amount
            if not table.seats.filter(player=person).exists():
                seat_take(table=table, player=person, buy_in=rng.choice(BUY_INS))
        try:
            hand_start(table=Table.objects.get(pk=table.pk))
        except NotEnoughPlayers:
            continue
        dealt += 1
        for _ in range(300):
            if not act_once(table, players, rng):
                break
        assert not table.hands.filter(status=Hand.Status.RUNNING).exists(), "a hand never ended"
        assert_chips_conserved()
    assert dealt >= HANDS // 2
