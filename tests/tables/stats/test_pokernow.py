"""Statistics of imported PokerNow hands (``tables.stats.pokernow``): the site's own figures
(``tables.stats.figures`` over each hand's engine replay), shown apart on the player's stats
page marked PokerNow, in ``GET /api/imports/<id>/``'s ``stats``; never in the play-chip
figures or the leaderboard.

The log's four hands, for ``P1``: hand 1 folds first in, hand 2 folds, hand 3 raises to 50
over a limp and wins 50, hand 4 raises all in to 100 and wins 100: 2 of 4 voluntarily in
and raising preflop, both to showdown after the flop, both won; net 150 (the ledger's 150).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tables.imports.models import ImportedHand, PokerNowImport
from tables.imports.services import pokernow_import
from tables.stats.pokernow import import_stats, imported_hand_figures, player_pokernow_stats

pytestmark = pytest.mark.django_db

LOG = (
    Path(__file__).parents[2] / "engine/data/pokernow/charlestudor_input_log_002.csv"
).read_text()
NAME = "P1 @ eNVKMq2Tcb"


@pytest.fixture
def upload(players):
    return pokernow_import(player=players[0], log_text=LOG, pokernow_name=NAME)


def test_one_hands_figures_are_the_uploaders(upload) -> None:
    hand = ImportedHand.objects.get(number=3)
    figures = imported_hand_figures(hand, NAME)
    assert (figures.vpip, figures.pfr, figures.showdown, figures.won_at_showdown) == (
        True,
        True,
        True,
        True,
    )
    assert figures.net == hand.net == 50 and figures.collected == 100


def test_the_imports_figures(upload) -> None:
    stats = import_stats(upload)
    assert stats["imported_from"] == "pokernow" and stats["unit"] == "1"
    assert stats["hands"] == 4 and stats["vpip"] == 50.0 and stats["pfr"] == 50.0
    assert stats["wtsd"] == 100.0 and stats["wsd"] == 100.0
    assert stats["net_won"] == 150 and stats["biggest_pot_won"] == 200
    assert stats["bb_per_100"] == round(100 * (50 / 20 + 100 / 20) / 4, 2)


def test_the_figures_are_kept_with_the_import_as_it_comes_in(upload) -> None:
    kept = PokerNowImport.objects.get(pk=upload.pk)
    assert kept.figures["hands"] == 4 and kept.figures["vpip"] == 2 and kept.figures["net"] == 150
    replayed = import_stats(upload)
    kept.figures = {}  # an import without kept sums: its hands are replayed, the same figures
    assert import_stats(kept) == replayed


def test_the_players_figures_over_all_imports_and_none_without(upload, players) -> None:
    assert player_pokernow_stats(players[0]) == {
        **import_stats(upload),
        "unit": "1",
    }
    assert player_pokernow_stats(players[1]) is None


def test_imports_in_different_units_leave_the_amounts_out(upload, players) -> None:
    cents = PokerNowImport.objects.create(player=players[0], pokernow_name=NAME, unit="0.01")
    hand = ImportedHand.objects.get(number=3)
    hand.pk, hand.pokernow_import, hand.pokernow_id = None, cents, "another night's hand"
    hand.save()
    cents.imported = 1
    cents.save()
    stats = player_pokernow_stats(players[0])
    assert stats is not None and stats["hands"] == 5 and stats["vpip"] == 60.0
    assert stats["unit"] is None and stats["net_won"] is None and stats["biggest_pot_won"] is None
    assert stats["bb_per_100"] is not None  # in big blinds: any unit


def test_the_stats_page_shows_them_apart_and_only_to_the_player(upload, players) -> None:
    alice, bob = players[0], players[1]
    own = Client()
    own.force_login(alice.user)
    page = own.get(reverse("stats:player", args=[alice.pk]))
    text = page.content.decode()
    assert page.context["stats"]["hands"] == 0  # the play-chip figures: no imported hand
    assert 'id="pokernow-stats"' in text and "Your PokerNow figures" in text
    section = text[text.index('id="pokernow-stats"') :]
    assert "<dd>4</dd>" in section[:400] and "50.0%" in section and ">150<" in section
    assert 'href="/imports/hands/"' in text
    recent = text[text.index('id="pokernow-recent"') :]
    assert recent.count("/replay/") == 4 and recent.count(">PokerNow<") == 4
    other = Client()
    other.force_login(bob.user)
    assert (
        'id="pokernow-stats"'
        not in other.get(reverse("stats:player", args=[alice.pk])).content.decode()
    )


def test_never_on_the_leaderboard(upload, players) -> None:
    client = Client()
    client.force_login(players[1].user)
    assert client.get("/leaderboard/").context["rows"] == []
    answer = client.get("/api/leaderboard/?min_hands=1")
    assert answer.status_code == 200, answer.content
    assert answer.json()["results"] == []


def test_the_import_page_shows_the_same_figures(upload, players) -> None:
    """The import's own page: the stats page's figures over this game's hands (VPIP 50%,
    W$SD 100%, net 150, biggest pot 200), not only hands, won and net."""
    client = Client()
    client.force_login(players[0].user)
    page = client.get(f"/imports/{upload.pk}/")
    figures = page.context["figures"]
    assert {k: v for k, v in figures.items() if not k.endswith("_text")} == import_stats(upload)
    text = page.content.decode()
    section = text[text.index('id="import-figures"') :]
    section = section[: section.index("</dl>")]
    assert "<dd>4</dd>" in section and section.count("50.0%") == 2  # VPIP and PFR
    assert section.count("100.0%") == 2 and ">150<" in section and ">200<" in section
