"""The host panel's game changes and Set stack as a night found them (issue 49): switching a
stud or dealer's-choice game to no-limit hold'em from Settings, the change said in a player's
words, and Set stack taking the difference from the number the panel shows."""

from __future__ import annotations

import html
import re

import pytest

from tables.models import LedgerEntry, Seat, Table, TableNotice
from tables.services import hand_start, seat_take
from tables.services.hosting import table_create
from tests.tables.helpers import play_out
from tests.tables.test_views_hosting import whole_form

pytestmark = pytest.mark.django_db

DEALERS_CHOICE = {
    "max_seats": 6,
    "game": "dealers-choice",
    "choice_games": ["razz/fixed-limit", "holdem/no-limit", "badugi/fixed-limit"],
    "small_bet": 4,
    "big_bet": 8,
    "bring_in": 1,
    "min_buy_in": 40,
}
STUD = {"max_seats": 6, "game": "stud", "betting": "fixed-limit", "small_bet": 4, "bring_in": 1}
TO_HOLDEM = {"game": "holdem", "betting": "no-limit", "small_blind": 1, "big_blind": 2}


def change(client, table: Table, **changes) -> str:
    """The panel's change form as a browser sends it: every field, the hidden ones too."""
    form = whole_form(table, **changes)
    if isinstance(form.get("choice_games"), list) and not form["choice_games"]:
        del form["choice_games"]  # no box ticked: nothing sent
    answer = client.post(f"/tables/{table.pk}/host/change/", form, HTTP_HX_REQUEST="true")
    return answer.content.decode()


def hidden_settings(answer: str) -> set[str]:
    return set(re.findall(r'data-setting="(\w+)" hidden', answer))


@pytest.mark.parametrize("start", [STUD, DEALERS_CHOICE], ids=["stud", "dealers-choice"])
def test_the_host_switches_a_game_to_no_limit_holdem_from_settings(players, client, start):
    """Defect 2: the errors sat on bring-in, small and big bet, which the page hides for
    hold'em ("Nothing changed: see the settings marked", nothing marked)."""
    host = players[0]
    game = table_create(host=host, name="Switch", **start)
    client.force_login(host.user)
    answer = change(client, game, **TO_HOLDEM)
    assert "Nothing changed" not in answer, answer
    table = Table.objects.get(pk=game.pk)
    assert (table.game, table.betting, table.small_blind, table.big_blind) == (
        "holdem",
        "no-limit",
        1,
        2,
    )
    assert (table.bring_in, table.small_bet, table.big_bet, table.choice_games) == (
        0,
        None,
        None,
        [],
    )
    # the log says it in a player's words, nothing of what no longer applies
    last = TableNotice.objects.filter(table=game).latest("id").text
    assert last == "The host set No-limit Hold'em 1/2.", last
    # the panel now hides what hold'em leaves out, and shows the blinds
    assert {"bring_in", "small_bet", "big_bet"} <= hidden_settings(answer)
    assert not {"small_blind", "big_blind"} & hidden_settings(answer)


def test_what_the_page_hides_is_ignored_and_each_error_shows_where_the_host_sees_it(
    players, client
):
    host = players[0]
    game = table_create(host=host, name="Marked", **STUD)
    client.force_login(host.user)
    # a value left unreadable in a hidden field is not an error; a visible one is marked
    answer = change(client, game, **{**TO_HOLDEM, "small_blind": 5, "bring_in": "x"})
    assert "Nothing changed" in answer
    marked = re.findall(
        r'data-setting="(\w+)"( hidden)?>[^<]*<[^>]*>\s*<span class="field-error"', answer
    )
    assert marked == [("small_blind", "")], marked
    assert Table.objects.get(pk=game.pk).game == "stud"
    answer = change(client, game, **{**TO_HOLDEM, "bring_in": "x"})
    assert Table.objects.get(pk=game.pk).game == "holdem", answer


def test_a_change_waiting_for_the_hand_is_said_in_a_players_words(players):
    """Defect 8: "Now in effect: game holdem, bring in 0, small bet None, big bet None."."""
    from tables.services.hosting import table_host_update

    host, *friends = players
    game = table_create(host=host, name="Words", **STUD)
    for friend in friends:
        seat_take(table=game, player=friend, buy_in=100)
    hand_start(table=game)
    table_host_update(table=game, by=host.user, changes=TO_HOLDEM)
    play_out(Table.objects.get(pk=game.pk))
    texts = list(TableNotice.objects.filter(table=game).values_list("text", flat=True))
    assert "From the next hand: No-limit Hold'em 1/2 (set by the host)." in texts, texts
    assert "From this hand: No-limit Hold'em 1/2." in texts, texts
    words = ("None", "holdem", "bring in", "small bet", "dealer's choice", "choice seconds")
    assert not any(word in text for text in texts for word in words), texts


def test_set_stack_takes_the_difference_from_the_number_the_panel_shows(
    players, client, make_player
):
    """Defect 3: the panel showed 55 and giving 20 back was refused ("may add at most 21")
    because the server counted 53 after the blind. The panel sends the number it shows
    (``shown``) and the difference is taken from it; a number the hand never showed is
    refused and nothing changes."""
    host, (alice, bob) = make_player("hostess"), players[:2]
    game = table_create(host=host, name="Stacks")
    seat_take(table=game, player=alice, buy_in=100)
    seat_take(table=game, player=bob, buy_in=100)
    client.force_login(host.user)

    def correct(stack: int, shown: int) -> str:
        body = {"player": alice.pk, "stack": stack, "shown": shown}
        answer = client.post(f"/tables/{game.pk}/host/correct/", body, HTTP_HX_REQUEST="true")
        return html.unescape(answer.content.decode())

    panel = client.get(f"/tables/{game.pk}/hosting/").content.decode()
    row = re.search(r"<tr data-player=.alice.>.*?</tr>", panel, re.S)
    assert row is not None, panel
    row = row.group(0)
    assert '<input type="hidden" name="shown" value="100">' in row
    assert "Set stack changes a stack by the difference from the number shown here" in panel
    assert "alice's stack is now 80" in correct(80, 100)  # 20 given back to her bankroll
    hand_start(table=game)
    blind = Seat.objects.get(player=alice).stack - 80
    assert blind < 0  # her blind is in: the panel, a frame behind, still shows 80
    answer = correct(100, 80)
    assert "changes by +20 (100 asked, 80 shown)" in answer, answer
    refused = correct(60, 150)
    assert "not the 150 you saw" in refused, refused
    pending = Table.objects.get(pk=game.pk).pending_changes["corrections"]
    assert [(c["stack"], c["change"]) for c in pending] == [(100, 20)]
    play_out(Table.objects.get(pk=game.pk))
    # at the hand's end exactly +20 moved, back from her bankroll: what the first took
    corrections = LedgerEntry.objects.filter(player=alice, kind="correction")
    assert sorted(corrections.values_list("amount", flat=True)) == [-20, 20]
