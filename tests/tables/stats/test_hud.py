"""The HUD's figures (issue 51) against hands built by hand, dealt from fixed decks.

Three players, blinds 1/2: three-handed the button acts first preflop and the small blind
first after the flop. Each hand is a script of actions for whoever is to act; who held the
button, the small and the big blind is read from the hand, and the figures each role earned
are written down beside the script.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache

from engine.variants import DEFAULT_GAME
from tables.models import Player, Table
from tables.selectors.hands import hand_state, running_hand
from tables.services import hand_start, seat_take
from tables.stats.hud import Hud, HudLine, table_hud
from tables.stats.selectors import HandFilter, player_stats
from tests.tables import helpers


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    settings.POKER_CROUPIER = False  # the tests deal every hand themselves
    cache.clear()  # a cached HUD of another test's table of the same id is not this one's
    yield
    cache.clear()


def roles(table: Table) -> dict[str, Player]:
    """The running hand's button, small blind and big blind (three-handed)."""
    hand = helpers.current_hand(table)
    state = hand_state(hand)
    n = len(hand.seats)

    def at(offset: int) -> Player:
        return Player.objects.get(pk=hand.seats[(state.button + offset) % n]["player_id"])

    return {"button": at(0), "small": at(1), "big": at(2)}


def scripted(table: Table, script: list[str]) -> dict[str, Player]:
    """Deal a hand and play ``script`` (each line the next actor's action) to its end."""
    hand_start(table=table)
    who = roles(table)
    for action in script:
        helpers.act(table, action)
    assert running_hand(helpers.fresh(table)) is None, "the script should end the hand"
    return who


# Hand 1: the button raises to 6, the small blind 3-bets to 20, the big blind and the button
# fold. Button: VPIP, PFR (no 3-bet spot: nobody had raised). Small blind: VPIP, PFR, a 3-bet
# in its one spot. Big blind: faced two raises, so no 3-bet spot; folded, no VPIP.
THREE_BET = ["raise 6", "raise 20", "fold", "fold"]
# Hand 2: limped and checked down. Button and small blind: VPIP (a call; completing the small
# blind is voluntary); big blind: checked, no VPIP. All three saw the flop and the showdown.
CHECKED_DOWN = ["call", "call", "check", *["check"] * 9]
# Hand 3: the button raises to 6 (facing no raise), the small blind folds and the big blind
# calls (a 3-bet spot for each, not taken). Flop: the big blind checks, the button bets 10,
# the big blind calls; then checked down. Button: one postflop bet and no call; big blind: one call.
RAISE_BET_CALL = ["raise 6", "fold", "call", "check", "raise 10", "call", *["check"] * 4]


def line_of(hud: Hud, player: Player) -> HudLine:
    (line,) = [line for line in hud.lines if line.player_id == player.pk]
    return line


@pytest.fixture
def three_seated(table, players):
    for number, player in enumerate(players):
        seat_take(table=table, player=player, buy_in=200, seat_number=number)
    return table, players


@pytest.mark.django_db
def test_the_hud_counts_hand_built_hands(three_seated):
    table, players = three_seated
    assert {line.hands for line in table_hud(table).lines} == {0}
    first = scripted(table, THREE_BET)
    second = scripted(table, CHECKED_DOWN)
    third = scripted(table, RAISE_BET_CALL)
    # what each player earned, role by role, over the three hands
    earned = {p.pk: {"vpip": 0, "pfr": 0, "chances": 0, "3bets": 0} for p in players}
    for who, vpip, pfr, chances, three_bets in (
        (first["button"], 1, 1, 0, 0),
        (first["small"], 1, 1, 1, 1),
        (second["button"], 1, 0, 0, 0),
        (second["small"], 1, 0, 0, 0),
        (third["button"], 1, 1, 0, 0),
        (third["small"], 0, 0, 1, 0),
        (third["big"], 1, 0, 1, 0),
    ):
        got = earned[who.pk]
        got["vpip"] += vpip
        got["pfr"] += pfr
        got["chances"] += chances
        got["3bets"] += three_bets
    hud = table_hud(table)
    assert hud.family == "Hold'em"
    for player in players:
        line, got = line_of(hud, player), earned[player.pk]
        assert line.hands == 3
        assert line.vpip == pytest.approx(100 * got["vpip"] / 3, abs=0.01)
        assert line.pfr == pytest.approx(100 * got["pfr"] / 3, abs=0.01)
        expected_3bet = 100 * got["3bets"] / got["chances"] if got["chances"] else None
        assert line.three_bet == (pytest.approx(expected_3bet) if expected_3bet else expected_3bet)
    # postflop: hand 2 everyone saw the flop and the showdown; hand 3 the button and the big
    # blind did (the small blind folded preflop); the only postflop bet is hand 3's button's
    # (no call of its own: no ratio), the only call its big blind's (0 bets per call)
    for player in players:
        line = line_of(hud, player)
        assert line.wtsd == 100.0, "whoever saw a flop here went to showdown"
        assert line.aggression_factor == (0.0 if player == third["big"] else None), player
    assert [line.seat for line in hud.lines] == [0, 1, 2]


@pytest.mark.django_db
def test_the_hud_shows_the_stats_pages_figures_for_the_family(three_seated):
    table, players = three_seated
    for script in (THREE_BET, CHECKED_DOWN, RAISE_BET_CALL):
        scripted(table, script)
    hud = table_hud(table)
    for player in players:
        page = player_stats(player, HandFilter(game=DEFAULT_GAME))
        line = line_of(hud, player)
        for key in ("hands", "vpip", "pfr", "three_bet", "aggression_factor", "wtsd"):
            assert getattr(line, key) == page[key], key


@pytest.mark.django_db
def test_a_guest_counts_tonights_hands_only(make_table, players):
    alice, bob, carol = players
    earlier = make_table(name="Last week")
    for number, player in enumerate(players):
        seat_take(table=earlier, player=player, buy_in=200, seat_number=number)
    scripted(earlier, THREE_BET)
    scripted(earlier, CHECKED_DOWN)
    tonight = make_table(name="Tonight")
    # carol is tonight's guest (an account made from its invite: ``guest_table``)
    Player.objects.filter(pk=carol.pk).update(guest_table=tonight)
    for number, player in enumerate(players):
        seat_take(table=tonight, player=player, buy_in=200, seat_number=number)
    scripted(tonight, CHECKED_DOWN)
    hud = table_hud(tonight)
    assert line_of(hud, carol).tonight_only and line_of(hud, carol).hands == 1
    assert not line_of(hud, alice).tonight_only and line_of(hud, alice).hands == 3
    assert player_stats(carol)["hands"] == 3  # her stats page counts them all


@pytest.mark.django_db
def test_the_hud_is_computed_once_per_hands_end(three_seated, django_assert_num_queries):
    table, players = three_seated
    scripted(table, THREE_BET)
    table = helpers.fresh(table)
    first = table_hud(table)
    # a second viewer (or the same one again) finds it: the key's three reads, no sum
    with django_assert_num_queries(3):
        assert table_hud(table) == first
    # another hand ends: the key moves on and the figures follow
    scripted(table, CHECKED_DOWN)
    assert {line.hands for line in table_hud(helpers.fresh(table)).lines} == {2}


@pytest.mark.django_db
def test_a_running_hand_does_not_count_until_it_ends(three_seated):
    table, players = three_seated
    scripted(table, THREE_BET)
    hand_start(table=table)
    helpers.act(table, "call")
    assert {line.hands for line in table_hud(helpers.fresh(table)).lines} == {1}
