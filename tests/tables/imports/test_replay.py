"""An imported PokerNow hand in the site's replayer (``/imports/hands/<id>/replay/``): the
engine replays its PHH through the core's replay selector, from the uploader's seat; a card
the log did not show stays hidden at every step (the deck's stand-ins never appear), the
seats carry PokerNow's names, and the page is the replayer's, marked as PokerNow's."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from django.test import Client

from engine import phh
from engine.hand import Hand as EngineHand
from engine.view import View
from tables.imports.models import ImportedHand
from tables.imports.selectors import imported_hand_replay, nickname
from tables.imports.services import pokernow_import
from tables.selectors.replay import engine_replay_steps

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parents[2] / "engine/data/pokernow"
LOG = (DATA / "charlestudor_input_log_002.csv").read_text()
NAME = "P1 @ eNVKMq2Tcb"


@pytest.fixture
def imported(players) -> dict[int, ImportedHand]:
    pokernow_import(player=players[0], log_text=LOG, pokernow_name=NAME)
    return {hand.number: hand for hand in ImportedHand.objects.all()}


def _cards(view: View) -> list[int | None]:
    return [c for s in view.seats for c in s.cards] + list(view.board)


def test_no_card_the_log_did_not_show_appears_at_any_step(imported) -> None:
    for hand in imported.values():
        known = phh.loads(hand.phh).known_cards()
        for step in imported_hand_replay(hand):
            assert all(c is None or c in known for c in _cards(step.view)), (hand.number, step)


def test_hand_one_uploader_folded_unseen_cards_and_the_showdown_is_public(imported) -> None:
    steps = imported_hand_replay(imported[1])
    me = steps[0].view.me
    assert me is not None and me.name == "P1" and me.cards == (None, None)  # the log hid them
    assert [s.name for s in steps[0].view.seats] == [
        "@atsymbols@@@",
        "\"quotes\"\"'''",
        "spa @ ces",
        "P1",
    ]
    assert [s.label for s in steps] == [
        "Cards dealt, blinds posted",
        "spa @ ces calls 20",
        "P1 folds",
        "@atsymbols@@@ calls 10",  # the chips a call puts in (its small blind was in)
        "\"quotes\"\"''' raises to 50",
        "spa @ ces calls 30",
        "@atsymbols@@@ folds",
        "Flop",
        "Turn",
        "River",
        "spa @ ces wins 120 (Straight, Queen high)",
    ]
    dealt = [" ".join(map(str, s.cards)) for s in steps if s.cards]
    assert dealt == ["9h Qh Ah", "Jc", "8s"]  # drawn as cards beside the street's label
    last = steps[-1].view
    assert steps[-1].awarded and [str(c) for c in last.seats[2].cards] == ["Tc", "5c"]
    # the first seat's cards were never shown: hidden even at the end
    assert all(c is None for c in last.seats[0].cards)


def test_hand_three_own_cards_and_the_hand_shown_at_the_end(imported) -> None:
    """As in the site's replayer, a hand shown at showdown is public from the first step."""
    steps = imported_hand_replay(imported[3])
    first = steps[0].view
    assert first.viewer == 0 and [str(c) for c in first.seats[0].cards] == ["Kd", "9h"]
    assert [str(c) for c in first.seats[1].cards] == ["8d", "2d"]
    assert steps[-1].label == "P1 wins 100 (Two Pair, Nines and Fives)"


def test_a_description_of_a_hidden_hand_is_not_told(imported) -> None:
    """A hand won at showdown by stand-in cards says who won, not with what."""
    history = phh.loads(imported[3].phh.replace("Kd9h", "????").replace("p1 sm Kd9h", "p1 sm ????"))
    known = history.known_cards()
    final = history.replay()
    steps = engine_replay_steps(final, history.deck(), 0, known=known)
    assert steps[-1].view.seats[0].cards == (None, None)
    assert steps[-1].label == "P1 @ eNVKMq2Tcb wins 100"
    result = steps[-1].view.result
    assert result is not None and 0 not in result.shown


def test_the_core_replays_only_a_finished_hand(imported) -> None:
    history = phh.loads(imported[3].phh)
    start = EngineHand(history.config(), history.starting_stacks, 1, history.deck())
    with pytest.raises(ValueError, match="finished"):
        engine_replay_steps(start, history.deck(), 0)


def test_the_replayer_page_is_marked_and_private(imported, players) -> None:
    hand = imported[3]
    mine = Client()
    mine.force_login(players[0].user)
    page = mine.get(f"/imports/hands/{hand.pk}/replay/")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="replayer"' in text and 'id="imported-mark"' in text
    assert "Imported from PokerNow" in text and "js/replayer.js" in text
    assert page.context["last"] == len(imported_hand_replay(hand)) - 1
    assert mine.get(f"/imports/hands/{hand.pk}/replay/?step=3").context["current"].index == 3
    listing = mine.get(f"/imports/{hand.pokernow_import_id}/").content.decode()
    assert f'href="/imports/hands/{hand.pk}/replay/"' in listing
    other = Client()
    other.force_login(players[1].user)
    assert other.get(f"/imports/hands/{hand.pk}/replay/").status_code == 404


def test_nickname_drops_only_the_last_id() -> None:
    assert nickname("spa @ ces @ ZQfm6ZDMPO") == "spa @ ces"
    assert nickname("plain") == "plain"


@pytest.mark.parametrize(
    ("log", "name", "number"),
    [
        # Deckhole back from missing his blinds: 0.10 dead and 0.25 live, then a raise
        ("drkyoda_pglDepIXhH9TNyXaFfbHYetk-.csv.gz", "Deckhole @ 3URETjsK60", 69),
        # a bomb pot of 4 each: the flop comes first
        ("whitlock23_pglnMFhFI9KhboCBC09b_dE3b.csv.gz", "lmm @ 4Iies5lZZX", 18),
    ],
)
def test_missed_blinds_and_a_bomb_pot_in_the_replayer(players, log, name, number) -> None:
    text = gzip.decompress((DATA / log).read_bytes()).decode()
    pokernow_import(player=players[0], log_text=text, pokernow_name=name)
    hand = ImportedHand.objects.get(number=number)
    steps = imported_hand_replay(hand)
    final = phh.loads(hand.phh).replay()
    labels = [s.label for s in steps]
    assert steps[-1].awarded
    assert [s.stack for s in steps[-1].view.seats] == list(final.stacks)
    if number == 69:
        assert labels[:2] == ["Cards dealt, blinds posted", "Deckhole raises to 95"]
        assert labels[-1] == "Deckhole wins 70"
    else:  # no decision before the flop, shown at once
        assert labels[:3] == ["Cards dealt, blinds posted", "Flop", "wmy checks"]
        assert " ".join(map(str, steps[1].cards)) == "5s Ah Ks"  # drawn beside its name
        assert not steps[0].view.board and len(steps[1].view.board) == 3
