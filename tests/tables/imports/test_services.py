"""Importing PokerNow logs (tables/imports/services.py): the hands a player sat in come in,
in one transaction, apart from play chips; bad input changes nothing and says why."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from engine import phh
from tables.imports import services
from tables.imports.errors import (
    AlreadyImported,
    BadLedger,
    ImportTooLarge,
    NameNotInLog,
    NotPokerNowLog,
)
from tables.imports.ledger import read_ledger
from tables.imports.models import ImportedHand, PokerNowImport
from tables.imports.selectors import import_totals
from tables.models import Hand, Player

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parents[2] / "engine" / "data" / "pokernow"
SMALL = (DATA / "charlestudor_input_log_002.csv").read_text(encoding="utf-8")
CASH = gzip.decompress((DATA / "drkyoda_pglDepIXhH9TNyXaFfbHYetk-.csv.gz").read_bytes()).decode()
DECKHOLE = "Deckhole @ 3URETjsK60"
LEDGER = (
    "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net\n"
    "Deckhole,3URETjsK60,x,y,20.00,35.50,0,15.50\n"
    "Jean,QLHzuQRo1C,x,y,20.00,10.00,0,-10.00\n"
    "K Godel,TN11URmFSv,x,y,20.00,14.50,0,-5.50\n"
)


def _nothing_written() -> bool:
    return not PokerNowImport.objects.exists() and not ImportedHand.objects.exists()


def test_the_hands_the_player_sat_in_come_in_with_their_nets(players) -> None:
    alice = players[0]
    bankroll = Player.objects.get(pk=alice.pk).bankroll
    upload = services.pokernow_import(player=alice, log_text=CASH, pokernow_name=DECKHOLE)
    hands = list(upload.hands.all())
    assert upload.hands_in_log == 312 and upload.unit == "0.01"
    assert len(hands) == upload.imported > 100
    assert len(upload.skipped) == 312 - 270 and all(s["reason"] for s in upload.skipped)
    for hand in hands:
        history = phh.loads(hand.phh)
        assert DECKHOLE in (history.players or [])
        replayed = history.replay()
        seat = replayed.players.index(DECKHOLE)
        assert hand.net == replayed.stacks[seat] - replayed.starting_stacks[seat]
    assert import_totals(upload).net == sum(h.net for h in hands)
    # apart from play chips: no Hand row, the bankroll untouched
    assert not Hand.objects.exists()
    assert Player.objects.get(pk=alice.pk).bankroll == bankroll


def test_the_same_log_twice_imports_nothing_new(players) -> None:
    alice, bob = players[:2]
    first = services.pokernow_import(player=alice, log_text=CASH, pokernow_name=DECKHOLE)
    # the same log again: said, and no empty second import (issue 49 defect 12)
    with pytest.raises(AlreadyImported, match="imported already"):
        services.pokernow_import(player=alice, log_text=CASH, pokernow_name=DECKHOLE)
    assert PokerNowImport.objects.count() == 1
    assert ImportedHand.objects.count() == first.imported
    # another player's upload of the same log is theirs
    services.pokernow_import(player=bob, log_text=CASH, pokernow_name=DECKHOLE)
    assert ImportedHand.objects.filter(player=bob).count() == first.imported


def test_an_older_log_without_hand_ids_is_not_imported_twice(players) -> None:
    alice = players[0]
    name = "P1 @ eNVKMq2Tcb"
    first = services.pokernow_import(player=alice, log_text=SMALL, pokernow_name=name)
    assert first.imported == 4
    with pytest.raises(AlreadyImported):
        services.pokernow_import(player=alice, log_text=SMALL, pokernow_name=name)
    assert PokerNowImport.objects.count() == 1


def test_a_log_with_some_new_hands_imports_those_and_counts_the_others(players) -> None:
    alice = players[0]
    name = "P1 @ eNVKMq2Tcb"
    lines = SMALL.splitlines(keepends=True)  # newest first: hand #4 is on top
    start = next(n for n, line in enumerate(lines) if "starting hand #4" in line)
    first_three = "".join(lines[:1] + lines[start + 1 :])
    first = services.pokernow_import(player=alice, log_text=first_three, pokernow_name=name)
    again = services.pokernow_import(player=alice, log_text=SMALL, pokernow_name=name)
    assert (first.imported, again.imported, again.already_imported) == (3, 1, 3)


def test_a_file_that_is_not_a_log_names_its_first_bad_line(players) -> None:
    broken = SMALL.replace('"-- ending hand #4 --",', "oops", 1)
    with pytest.raises(NotPokerNowLog, match=r"line 3: not a PokerNow log line"):
        services.pokernow_import(player=players[0], log_text=broken, pokernow_name="x")
    with pytest.raises(NotPokerNowLog, match="line 1"):
        services.pokernow_import(player=players[0], log_text="hello,world\n", pokernow_name="x")
    assert _nothing_written()


def test_a_name_not_in_the_log_is_refused_with_the_names_it_has(players) -> None:
    with pytest.raises(NameNotInLog, match="P1 @ eNVKMq2Tcb"):
        services.pokernow_import(player=players[0], log_text=SMALL, pokernow_name="P1")
    assert _nothing_written()
    assert services.log_players(SMALL)[0] == "P1 @ eNVKMq2Tcb"


def test_the_limits_are_enforced(players, monkeypatch) -> None:
    monkeypatch.setattr(services, "MAX_LOG_ROWS", 10)
    with pytest.raises(ImportTooLarge, match="at most 10"):
        services.pokernow_import(player=players[0], log_text=SMALL, pokernow_name="P1 @ eNVKMq2Tcb")
    monkeypatch.setattr(services, "MAX_LOG_BYTES", 100)
    with pytest.raises(ImportTooLarge, match="at most 100 are read"):
        services.pokernow_import(player=players[0], log_text=SMALL, pokernow_name="P1 @ eNVKMq2Tcb")
    assert _nothing_written()


def test_the_ledger_becomes_a_night_with_who_owes_whom(players) -> None:
    upload = services.pokernow_import(
        player=players[0], log_text=CASH, pokernow_name=DECKHOLE, ledger_text=LEDGER
    )
    assert {row["player"]: row["net"] for row in upload.ledger} == {
        DECKHOLE: "15.50",
        "Jean @ QLHzuQRo1C": "-10.00",
        "K Godel @ TN11URmFSv": "-5.50",
    }
    owed = {(t["payer"], t["payee"]): t["amount"] for t in upload.settlement}
    assert owed == {
        ("Jean @ QLHzuQRo1C", DECKHOLE): "10",
        ("K Godel @ TN11URmFSv", DECKHOLE): "5.5",
    }


def test_a_ledger_that_creates_chips_changes_nothing(players) -> None:
    bad = LEDGER.replace("-5.50", "-5.00")
    with pytest.raises(BadLedger, match="do not sum to zero"):
        services.pokernow_import(
            player=players[0], log_text=CASH, pokernow_name=DECKHOLE, ledger_text=bad
        )
    with pytest.raises(BadLedger, match="line 1"):
        read_ledger("name,amount\nx,1\n")
    assert _nothing_written()


def test_each_imported_hand_has_its_all_in_ev_and_the_import_sums_it(players) -> None:
    from engine.allin_ev import allin_ev, has_allin_ev

    upload = services.pokernow_import(player=players[0], log_text=CASH, pokernow_name=DECKHOLE)
    hands = list(upload.hands.all())
    all_ins = told = 0
    for hand in hands:
        history = phh.loads(hand.phh)
        final = history.replay()
        if not has_allin_ev(final):
            assert hand.ev_net == hand.net  # no all-in with cards to come: the EV is the net
            continue
        all_ins += 1
        contested = {s for pot in final.pots if len(pot.eligible) > 1 for s in pot.eligible}
        if all(set(final.hole[s]) <= history.known_cards() for s in contested):
            told += 1
            ev = allin_ev(final)
            assert ev is not None
            assert hand.ev_net == pytest.approx(ev.net[final.players.index(DECKHOLE)])
        else:
            assert hand.ev_net is None  # a hand at the all-in was never shown
    assert all_ins and told  # the log has all-ins, shown ones among them
    totals = import_totals(upload)
    assert totals.ev == pytest.approx(
        sum(h.ev_net if h.ev_net is not None else h.net for h in hands)
    )
    assert totals.ev_unknown == sum(h.ev_net is None for h in hands)


def test_the_ev_of_imported_hands_is_computed_again_where_it_changed(players) -> None:
    """``manage.py allin_ev --again`` (``imported_ev_again``): a stored EV that is not what
    the hand's PHH gives now is written again; the others are left as they are."""
    from django.core.management import call_command

    upload = services.pokernow_import(player=players[0], log_text=CASH, pokernow_name=DECKHOLE)
    kept = {hand.pk: hand.ev_net for hand in upload.hands.all()}
    wrong = next(pk for pk, ev_net in kept.items() if ev_net is not None)
    ImportedHand.objects.filter(pk=wrong).update(ev_net=12345.0)  # as an older computation
    assert services.imported_ev_again() == 1
    assert dict(upload.hands.values_list("pk", "ev_net")) == kept
    ImportedHand.objects.filter(pk=wrong).update(ev_net=12345.0)
    call_command("allin_ev", "--again")
    assert dict(upload.hands.values_list("pk", "ev_net")) == kept
