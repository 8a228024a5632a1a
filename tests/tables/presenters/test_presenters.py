"""The table screen for each viewer: own cards face up, others face down, spectators none."""

import pytest
from django.urls import reverse

from tables.models import Hand, Table
from tables.presenters.play_state import play_state
from tables.presenters.render import cards_in_html, render_regions
from tables.presenters.screen import table_screen
from tables.selectors.hands import hand_state
from tables.selectors.snapshot import load_snapshot
from tables.services import cards_show, hand_start, seat_take
from tests.tables.helpers import screen_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealt(players, table):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=2)
    hand = hand_start(table=table)
    table.refresh_from_db()
    return table, hand, alice, bob, carol


def hole(hand: Hand, index: int) -> set[str]:
    return {str(c) for c in hand_state(hand).hole[index]}


def test_each_seat_sees_its_own_cards_and_nobody_elses(dealt):
    table, hand, alice, bob, carol = dealt
    html_alice = render_regions(screen_of(table, alice))
    html_bob = render_regions(screen_of(table, bob))
    html_carol = render_regions(screen_of(table, carol))
    a, b = hole(hand, hand.seat_index_of(alice.pk)), hole(hand, hand.seat_index_of(bob.pk))
    assert a <= set(cards_in_html(html_alice)) and not b & set(cards_in_html(html_alice))
    assert b <= set(cards_in_html(html_bob)) and not a & set(cards_in_html(html_bob))
    assert cards_in_html(html_carol) == []  # a spectator: no hole card, no board yet
    assert html_carol.count('class="pc back"') == 4  # both hands face down


def test_only_the_actor_gets_action_buttons_with_amounts(dealt, play):
    table, hand, alice, bob, carol = dealt
    actor = play.actor(hand)
    other = bob if actor == alice else alice
    screen = screen_of(table, actor)
    assert screen.actions.bar.call == 1 and screen.actions.bar.fold
    assert [s.label for s in screen.actions.bar.sizes][0] == "Min"
    html = render_regions(screen)
    assert 'value="fold"' in html and "Call 1" in html
    assert screen_of(table, other).actions.bar is None
    assert 'value="fold"' not in render_regions(screen_of(table, other))


def test_showdown_names_the_winning_hand_and_the_pot(dealt, play):
    table, hand, alice, bob, carol = dealt
    hand = play.play_out(table)
    assert hand.status == Hand.Status.FINISHED
    table.refresh_from_db()
    screen = screen_of(table, carol)
    assert screen.running is False and screen.board.pots[0].winners
    assert screen.board.pots[0].description
    winners = [s.plate for s in screen.seats.seats if s.plate and s.plate.won]
    assert winners and winners[0].description
    # showdown hands are visible to the spectator now
    shown = {c for s in screen.seats.seats if s.plate and s.plate.description for c in s.cards}
    assert shown and None not in shown


def test_page_renders_the_same_regions_for_the_first_load(client, dealt):
    table, hand, alice, bob, carol = dealt
    client.force_login(alice.user)
    response = client.get(reverse("tables:detail", args=[table.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    for region in ("table-seats", "table-board", "table-actions", "table-controls", "table-log"):
        assert f'id="{region}"' in html
    assert 'ws-connect="/ws/tables/' in html and "hx-swap-oob" not in html
    assert hole(hand, hand.seat_index_of(alice.pk)) <= set(cards_in_html(html))
    assert not hole(hand, hand.seat_index_of(bob.pk)) & set(cards_in_html(html))


def test_anonymous_visitors_watch_live_without_any_hole_card(client, dealt):
    table, *_ = dealt
    html = client.get(reverse("tables:detail", args=[table.pk])).content.decode()
    assert 'ws-connect="/ws/tables/' in html and cards_in_html(html) == []
    assert "You are watching." in html


def test_anonymous_visitors_open_the_replayer_of_public_tables_only(client, dealt, play):
    table, hand, alice, *_ = dealt
    hand = play.play_out(table)
    replay = client.get(reverse("stats:hand", args=[hand.pk]))
    assert replay.status_code == 200
    anyone_sees = {str(c) for c in hand_state(hand).visible_cards(None)}
    assert set(cards_in_html(replay.content.decode())) <= anyone_sees
    Table.objects.filter(pk=table.pk).update(private=True)
    assert client.get(reverse("stats:hand", args=[hand.pk])).status_code == 404


def test_a_finished_hand_link_from_the_table_opens_its_replayer(client, dealt, play):
    table, hand, alice, bob, carol = dealt
    hand = play.play_out(table)
    client.force_login(alice.user)
    response = client.get(reverse("tables:hand", args=[table.pk, hand.number]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("stats:hand", args=[hand.pk])
    html = response.content.decode()
    assert f"hand #{hand.number}" in html and 'id="replay-felt"' in html


def test_a_screen_and_its_html_read_nothing_once_the_table_is_read(
    dealt, django_assert_num_queries
):
    table, hand, alice, bob, carol = dealt
    snapshot = load_snapshot(table.pk)
    with django_assert_num_queries(0):  # seated, watching with a bankroll, a spectator
        for player, bankroll in ((alice, None), (carol, 999), (None, None)):
            render_regions(table_screen(snapshot, player, bankroll))
    assert "bankroll 999" in render_regions(table_screen(snapshot, carol, 999))


def test_a_viewer_without_a_seat_needs_the_bankroll_the_caller_read(dealt):
    table, hand, alice, bob, carol = dealt
    with pytest.raises(ValueError, match="bankroll"):
        table_screen(load_snapshot(table.pk), carol)


def test_the_controls_carry_the_heading_and_bankroll_the_page_keeps_live(dealt):
    table, hand, alice, bob, carol = dealt
    controls = screen_of(table, alice).controls
    assert controls.heading == f"{table.variant} · 1/2 · Open" == table.heading
    html = render_regions(screen_of(table, alice))
    assert f'data-heading="{table.heading}"' in html.replace("&#39;", "'")
    assert 'data-bankroll="9,800"' in html and controls.result_url == ""


def test_a_closed_game_offers_no_seat_and_links_its_result(players, table):
    from tables.services.host_pending import close_now

    alice = players[0]
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    close_now(table, reason="closed by the host")
    table.refresh_from_db()
    controls = screen_of(table, alice).controls
    assert controls.result_url == reverse("tables:ledger", args=[table.pk])
    assert controls.seating_closed and "Closed" in controls.heading
    html = render_regions(screen_of(table, alice))
    assert "sit-down" not in html and "game-result-link" in html


def test_a_paused_game_says_so_on_the_felt_without_the_last_result(dealt, play):
    table, hand, alice, bob, carol = dealt
    play.play_out(table)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PAUSED)
    table.refresh_from_db()
    screen = screen_of(table, carol)
    assert screen.board.paused and screen.board.hand_id is None and screen.board.pots == ()
    assert all(not s.plate or not s.plate.won for s in screen.seats.seats)
    assert "Paused by the host" in render_regions(screen)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.OPEN)
    table.refresh_from_db()
    assert not screen_of(table, carol).board.paused  # the last hand, until the next is dealt


def fold_first(table, hand, play):
    """The player to act folds: (that player, their hole cards as text)."""
    folder = play.actor(hand)
    play.act(table, "fold")
    table.refresh_from_db()
    mine = [
        str(c) for c in hand_state(Hand.objects.get(pk=hand.pk)).hole[hand.seat_index_of(folder.pk)]
    ]
    return folder, mine


def test_after_a_fold_the_folder_is_offered_to_show_and_others_see_only_what_is_shown(dealt, play):
    table, hand, alice, bob, carol = dealt
    folder, mine = fold_first(table, hand, play)
    offer = screen_of(table, folder).actions.can_show
    assert [c.code for c in offer] == mine
    assert 'class="show-cards"' in render_regions(screen_of(table, folder))
    assert screen_of(table, carol).actions.can_show == ()
    cards_show(table=table, player=folder, hand_id=hand.pk, cards=[mine[0]])
    table.refresh_from_db()
    assert [c.code for c in screen_of(table, folder).actions.can_show] == [mine[1]]
    seen = set(cards_in_html(render_regions(screen_of(table, carol))))
    assert mine[0] in seen and mine[1] not in seen


def test_programs_read_the_cards_they_may_still_show_in_their_play_state(dealt, play):
    table, hand, alice, bob, carol = dealt
    folder, mine = fold_first(table, hand, play)

    def offered(player):
        snapshot = load_snapshot(table)
        screen = screen_of(table, player)
        return play_state(snapshot, screen)["you"]["can_show"]

    assert offered(folder) == mine
    assert offered(carol) == []
    cards_show(table=table, player=folder, hand_id=hand.pk, cards=[mine[0]])
    table.refresh_from_db()
    assert offered(folder) == [mine[1]]


def test_the_two_of_clubs_in_seat_0_is_offered_shown_and_seen(players, table, play, monkeypatch):
    """Issue 49 defect 4: the 2♣ is the card 0 (``Card('2c') == 0``) and a truthiness test
    dropped it from the offer: alice in seat 0 holding 2♣ A♠ was offered only the A♠ and no
    "All". Her offer, her play state, the page's buttons and what the others see after she
    shows it all carry the 2♣."""
    from tables.services import hands

    monkeypatch.setattr(hands, "new_seed", lambda: f"{3022:064x}")  # alice: 2c As, acts first
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=2)
    hand = hand_start(table=table)
    table.refresh_from_db()
    folder, mine = fold_first(table, hand, play)
    assert (folder, mine) == (alice, ["2c", "As"])
    assert [c.code for c in screen_of(table, alice).actions.can_show] == ["2c", "As"]
    assert play_state(load_snapshot(table), screen_of(table, alice))["you"]["can_show"] == mine
    html = render_regions(screen_of(table, alice))
    assert 'class="show-all"' in html
    assert 'class="show-card" ws-send name="cards" value="2c"' in html
    cards_show(table=table, player=alice, hand_id=hand.pk, cards=["2c"])
    table.refresh_from_db()
    assert [c.code for c in screen_of(table, alice).actions.can_show] == ["As"]
    seen = set(cards_in_html(render_regions(screen_of(table, carol))))
    assert "2c" in seen and "As" not in seen
    # the histories a spectator downloads carry it too (and only it)
    from tables.stats.pokerstars import hand_pokerstars
    from tables.stats.selectors import hand_phh

    finished = Hand.objects.get(pk=hand.pk)
    stars, phh = hand_pokerstars(finished, None), hand_phh(finished, None)
    assert "[2c]" in stars and "As" not in stars, stars
    assert "2c" in phh and "As" not in phh, phh


def test_a_partial_is_escaped_safe_html_with_the_layout_space_folded():
    """``render`` is Jinja's own render of the partial (autoescaped), safe for Django's
    templates, its indentation and blank lines one newline each."""
    from django.utils.safestring import SafeString

    from tables.presenters.render import render

    html = render("tables/_message.html", message="<b>hi</b> & bye", oob=True, error=True)
    assert isinstance(html, SafeString)
    assert "&lt;b&gt;hi&lt;/b&gt; &amp; bye" in html and "<b>" not in html
    assert "\n " not in html and "  " not in html
