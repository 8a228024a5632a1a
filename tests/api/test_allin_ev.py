"""All-in EV at the table: a hand that ends in an all-in run-out stores each player's
expected net once its odds are computed (the croupier, off the hand's end), and the player's
statistics page, the API's statistics and a hand's history show it beside the net. Real
database, real services, a fixed deck."""

from __future__ import annotations

import importlib

import pytest
from django.core.management import call_command

from engine.cards import ALL_CARDS, parse_cards
from engine.equity import equity
from tables.croupier import Croupier
from tables.models import Hand, PlayerHand, Table
from tables.selectors.ledger import table_ledger
from tables.services import hand_start, seat_take, table_close
from tables.stats.ev import Curves, ledger_ev, net_and_ev_curves, player_ev_by_game
from tables.stats.views import chart_marks, net_chart
from tests.tables.helpers import act, current_hand, fresh

pytestmark = pytest.mark.django_db

#: AsAh v KsKd all in preflop: the aces' exact equity (81.95%).
ACES = equity(["AsAh", "KsKd"]).equity[0]


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


def deal(monkeypatch, holes: list[str], board: str) -> None:
    """Fix every deck: ``holes`` in dealing order (the first to the seat left of the button),
    then the board with a card burnt before the flop, the turn and the river."""
    hole = [parse_cards(h) for h in holes]
    cards = parse_cards(board)
    burn = iter(c for c in ALL_CARDS if c not in {*cards, *(c for h in hole for c in h)})
    head = [h[r] for r in range(2) for h in hole]
    for street in (cards[:3], cards[3:4], cards[4:]):
        head += [next(burn), *street]
    deck = head + [c for c in ALL_CARDS if c not in head]
    monkeypatch.setattr("tables.services.hands.seeded_deck", lambda seed: list(deck))


def aces_against_kings(monkeypatch, make_table, players) -> tuple[Table, Hand]:
    """Heads-up, 100 each: the big blind (dealt first) holds the kings, the button the
    aces; the button shoves, the big blind calls, and the kings hit a set."""
    deal(monkeypatch, ["Ks Kd", "As Ah"], "2c 7d 9h Kc 3s")
    table = make_table(name="Coolers")
    for player in players[:2]:
        seat_take(table=table, player=player, buy_in=100)
    hand_start(table=table)
    hand = current_hand(table)
    act(table, "all_in")
    act(table, "call")
    return fresh(table), Hand.objects.get(pk=hand.pk)


def rows_of(hand: Hand) -> dict[str, PlayerHand]:
    return {row.player.name: row for row in PlayerHand.objects.filter(hand=hand)}


def test_the_ev_is_stored_once_the_croupier_computed_the_run_out(monkeypatch, make_table, players):
    table, hand = aces_against_kings(monkeypatch, make_table, players)
    aces_player = hand.seats[hand.button]["name"]
    kings_player = next(s["name"] for s in hand.seats if s["name"] != aces_player)
    rows = rows_of(hand)
    assert rows[aces_player].net == -100 and rows[kings_player].net == 100
    assert all(row.all_in and row.ev_net is None for row in rows.values())  # still unknown

    Croupier().tick()

    rows = rows_of(hand)
    assert rows[aces_player].ev_net == pytest.approx(200 * ACES - 100)
    assert rows[kings_player].ev_net == pytest.approx(100 - 200 * ACES)
    assert rows[aces_player].ev_net_bb == pytest.approx((200 * ACES - 100) / 2)
    # chips are conserved in expectation too: the EVs sum to the nets' sum, zero
    assert sum(row.ev_net for row in rows.values()) == pytest.approx(0, abs=1e-9)
    Croupier().tick()  # computed once: a second pass writes nothing new
    assert rows_of(hand)[aces_player].ev_net == rows[aces_player].ev_net


def test_stats_page_api_and_history_show_net_beside_all_in_ev(
    monkeypatch, make_table, players, client_for
):
    table, hand = aces_against_kings(monkeypatch, make_table, players)
    Croupier().tick()
    aces = next(p for p in players if p.name == hand.seats[hand.button]["name"])
    expected_ev = 200 * ACES - 100

    [holdem, overall] = player_ev_by_game(aces)
    assert (overall.game, overall.hands, overall.all_in_hands, overall.net) == (None, 1, 1, -100)
    assert overall.ev == pytest.approx(expected_ev)
    assert overall.luck_text == f"{round(-100 - expected_ev):+,}"  # ran 164 below EV
    assert holdem.game == "holdem" and holdem.ev_bb == pytest.approx(expected_ev / 2)
    curves = net_and_ev_curves(aces)
    assert curves.net == [-100] and curves.ev == [pytest.approx(expected_ev)]

    client = client_for(aces)
    page = client.get(f"/players/{aces.pk}/stats/").content.decode()
    assert 'id="allin-ev-figures"' in page and 'class="ev-curve"' in page
    assert f"Hand #{hand.number} at Coolers: net -100, all-in EV +{round(expected_ev)}" in page
    assert f"{round(-100 - expected_ev):+,}" in page

    body = client.get(f"/api/players/{aces.pk}/stats/").json()
    assert body["allin_ev"][-1]["game"] is None
    assert body["allin_ev"][-1]["ev"] == pytest.approx(expected_ev, abs=0.01)
    assert body["allin_ev"][-1]["luck"] == pytest.approx(-100 - expected_ev, abs=0.01)

    history = client.get(f"/api/hands/{hand.pk}/").json()
    by_name = {seat["name"]: seat for seat in history["seats"]}
    assert by_name[aces.name]["allin_ev"] == pytest.approx(expected_ev, abs=0.01)
    assert sum(seat["allin_ev"] for seat in history["seats"]) == pytest.approx(0, abs=0.02)


def test_a_hand_without_an_all_in_counts_its_net_as_its_ev(make_table, players):
    table = make_table(name="Quiet")
    for player in players[:2]:
        seat_take(table=table, player=player, buy_in=100)
    hand_start(table=table)
    hand = current_hand(table)
    act(table, "fold")
    for row in PlayerHand.objects.filter(hand=hand):
        assert not row.all_in and row.ev_net == row.net and row.ev_net_bb == row.net_bb


def test_the_command_computes_the_ev_of_older_hands(monkeypatch, make_table, players):
    table, hand = aces_against_kings(monkeypatch, make_table, players)
    Hand.objects.filter(pk=hand.pk).update(odds_pending=False)  # as before the EV existed
    call_command("allin_ev")
    values = sorted(PlayerHand.objects.filter(hand=hand).values_list("ev_net", flat=True))
    assert values == [pytest.approx(100 - 200 * ACES), pytest.approx(200 * ACES - 100)]


def test_the_command_computes_a_stored_ev_again_only_when_asked(monkeypatch, make_table, players):
    table, hand = aces_against_kings(monkeypatch, make_table, players)
    Croupier().tick()
    PlayerHand.objects.filter(hand=hand).update(ev_net=5.0)  # as a wrong computation left it
    call_command("allin_ev")
    assert set(PlayerHand.objects.filter(hand=hand).values_list("ev_net", flat=True)) == {5.0}
    call_command("allin_ev", "--again")
    values = sorted(PlayerHand.objects.filter(hand=hand).values_list("ev_net", flat=True))
    assert values == [pytest.approx(100 - 200 * ACES), pytest.approx(200 * ACES - 100)]


def test_the_night_summary_at_the_close_and_the_ledger_show_net_ev_and_the_swing(
    monkeypatch, make_table, players, client_for
):
    table, hand = aces_against_kings(monkeypatch, make_table, players)
    Croupier().tick()
    aces = hand.seats[hand.button]["name"]
    kings = next(s["name"] for s in hand.seats if s["name"] != aces)
    table_close(table=table)

    ledger = table_ledger(table)
    night, swings = ledger_ev(ledger)
    by_name = {row.name: row for row in night}
    assert (by_name[aces].net, by_name[kings].net) == (-100, 100)
    assert by_name[aces].ev == pytest.approx(200 * ACES - 100)
    # chips are conserved in expectation: the night's EVs sum to its nets' sum (zero)
    assert sum(row.ev for row in night) == pytest.approx(sum(row.net for row in night), abs=1e-9)
    swing = round(200 * ACES)  # 164: the kings' net 100 against their EV of -64
    assert by_name[kings].words == f"ran +{swing} above EV"
    assert by_name[aces].words == f"ran {swing} below EV"
    assert [(s.hand_id, s.name, s.net) for s in swings] == [(hand.pk, kings, 100)]

    client = client_for(players[0])
    for page in (f"/tables/{table.pk}/", f"/tables/{table.pk}/ledger/"):
        html = client.get(page).content.decode()
        assert 'id="night-ev"' in html and 'id="swings"' in html, page
        assert f"ran +{swing} above EV" in html and f"ran {swing} below EV" in html
        assert f"Hand #{hand.number}</a>: <strong>{kings}</strong> won 100" in html


def test_the_chart_spans_both_lines_and_marks_each_hand_at_its_place():
    chart = net_chart([50, -120, 30], [10.4, -200.2, 5.0])
    assert (chart["high"], chart["low"], chart["final"], chart["final_ev"]) == (50, -201, 30, 5)
    assert len(chart["ev_points"].split()) == len(chart["points"].split()) == 4  # from 0
    # both lines inside the plot: the net's highest point is its top
    for point in (*chart["points"].split(), *chart["ev_points"].split()):
        assert chart["pad"] <= float(point.split(",")[1]) <= chart["bottom"]
    assert chart["points"].split()[1].endswith(f",{float(chart['pad'])}")
    curves = Curves(net=[50, -120, 30], ev=[10.4, -200.2, 5.0], hand_ids=[7, 8, 9])
    marks = chart_marks(curves, chart)
    assert [m["hand_id"] for m in marks] == [7, 8, 9]
    assert marks[-1]["x"] + marks[-1]["width"] / 2 == pytest.approx(chart["right"], abs=0.1)
    assert marks[1]["title"] == "Hand: net -120, all-in EV -200"  # no such hand stored


def test_the_migration_gives_old_hands_their_net_and_marks_their_all_ins(
    monkeypatch, make_table, players
):
    from django.apps import apps

    migration = importlib.import_module("tables.migrations.0017_player_hand_allin_ev")
    table, all_in = aces_against_kings(monkeypatch, make_table, players)
    quiet = make_table(name="Quiet")
    for player in players[:2]:
        seat_take(table=quiet, player=player, buy_in=100)
    hand_start(table=quiet)
    folded = current_hand(quiet)
    act(quiet, "fold")
    PlayerHand.objects.update(all_in=False, ev_net=None, ev_net_bb=None)  # as before 0017

    migration.net_where_no_allin(apps, None)

    for row in PlayerHand.objects.filter(hand=folded):
        assert not row.all_in and row.ev_net == row.net and row.ev_net_bb == row.net_bb
    for row in PlayerHand.objects.filter(hand=all_in):
        assert row.all_in and row.ev_net is None  # left to manage.py allin_ev
