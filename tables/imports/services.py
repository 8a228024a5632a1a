"""The only writer of imported games: ``pokernow_import`` (one transaction, all or nothing),
and ``imported_ev_again`` (their all-in EVs computed again: derived data)."""

from __future__ import annotations

import hashlib

from django.db import transaction

from engine.allin_ev import allin_ev, has_allin_ev
from engine.errors import HandHistoryError
from engine.phh.read import HandHistory
from engine.pokernow import ImportedHand as LogHand, import_log, log_names
from tables.imports import hooks
from tables.imports.errors import AlreadyImported, ImportTooLarge, NameNotInLog, NotPokerNowLog
from tables.imports.ledger import read_ledger
from tables.imports.models import ImportedHand, PokerNowImport
from tables.models import Player

#: The limits the upload page states and the service enforces.
# the page's name-picking step sends the log back as a form field: Django reads 2.5 MB of those
MAX_LOG_BYTES = 2 * 1024 * 1024
MAX_LOG_ROWS = 20_000
MAX_LEDGER_BYTES = 256 * 1024
MAX_LEDGER_ROWS = 1_000


#: The longest line read: a PokerNow entry is a sentence; Python's CSV reader refuses a field
#: over 131,072 characters, and a line this long is no PokerNow line anyway.
MAX_LINE_CHARS = 10_000


def _check_size(text: str, what: str, max_bytes: int, max_rows: int) -> None:
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise ImportTooLarge(f"the {what} is {size} bytes: at most {max_bytes} are read")
    # counted as the readers split them: at every line end (CR alone included), not only LF
    lines = text.splitlines()
    if len(lines) > max_rows:
        raise ImportTooLarge(f"the {what} has {len(lines)} lines: at most {max_rows} are read")
    longest = max(map(len, lines), default=0)
    if longest > MAX_LINE_CHARS:
        raise ImportTooLarge(
            f"the {what} has a line of {longest} characters: at most {MAX_LINE_CHARS} are read"
        )


def log_players(text: str) -> list[str]:
    """The PokerNow names seated in ``text`` (a log), for the player to pick theirs."""
    _check_size(text, "log", MAX_LOG_BYTES, MAX_LOG_ROWS)
    try:
        return log_names(text)
    except HandHistoryError as error:
        raise NotPokerNowLog(str(error)) from None


def _hand_id(hand: LogHand) -> str:
    """PokerNow's hand id; a log of the older vintage has none: the hand's number and text."""
    if hand.pokernow_id:
        return hand.pokernow_id
    return f"{hand.number}-{hashlib.sha256(hand.phh.encode()).hexdigest()[:16]}"


def _net(hand: LogHand, name: str) -> int | None:
    players = hand.history.players or []
    if name not in players:
        return None
    seat = players.index(name)
    return hand.finishing_stacks[seat] - hand.history.starting_stacks[seat]


def imported_ev_net(history: HandHistory, name: str, net: int) -> float | None:
    """``name``'s all-in EV in an imported hand (``engine.allin_ev``): the net of a hand
    without an all-in run-out; None when a hand that contested a pot at the all-in was never
    shown (the log names only the cards shown, and a stand-in's odds would be made up)."""
    final = history.replay()
    if not has_allin_ev(final):
        return float(net)
    known = history.known_cards()
    contested = {seat for pot in final.pots if len(pot.eligible) > 1 for seat in pot.eligible}
    if any(not set(final.hole[seat]) <= known for seat in contested):
        return None
    ev = allin_ev(final)
    assert ev is not None  # has_allin_ev said it has one
    return ev.net[(history.players or []).index(name)]


def pokernow_import(
    *,
    player: Player,
    log_text: str,
    pokernow_name: str,
    ledger_text: str = "",
    filename: str = "",
) -> PokerNowImport:
    """Import the hands of a PokerNow log that ``pokernow_name`` (the player's) sat in.

    Refuses (an ``ImportRefused``, nothing written) a file over the limits, a file that is not
    a PokerNow log, a name seated in no hand, a bad ledger. Hands that do not replay to the
    stacks PokerNow printed next are skipped and listed; hands already imported by this player
    (PokerNow's hand ids) are counted, not imported again; the rest come in one transaction.
    A log whose hands of the player's were all imported before is refused (``AlreadyImported``).
    """
    names = log_players(log_text)
    if pokernow_name not in names:
        raise NameNotInLog(f"{pokernow_name!r} is not seated in this log; its names: {names}")
    night = None
    if ledger_text.strip():
        _check_size(ledger_text, "ledger", MAX_LEDGER_BYTES, MAX_LEDGER_ROWS)
        night = read_ledger(ledger_text)
    result = import_log(log_text)
    mine = [(hand, net) for hand in result.hands if (net := _net(hand, pokernow_name)) is not None]
    with transaction.atomic():
        # one import of a player's at a time: two uploads of one log at once import it once
        Player.objects.select_for_update().filter(pk=player.pk).first()
        ids = [_hand_id(hand) for hand, _ in mine]
        known = set(
            ImportedHand.objects.filter(player=player, pokernow_id__in=ids).values_list(
                "pokernow_id", flat=True
            )
        )
        if known and known.issuperset(ids):
            raise AlreadyImported(
                f"this log was imported already: its {len(known)} hands of {pokernow_name}'s "
                "are in your imports"
            )
        upload = PokerNowImport.objects.create(
            player=player,
            pokernow_name=pokernow_name,
            filename=filename[:200],
            unit=str(result.unit),
            hands_in_log=len(result.hands) + len(result.skipped),
            already_imported=len(known),
            skipped=[{"number": s.number, "reason": s.reason} for s in result.skipped],
            ledger=[{"player": n, "net": str(v)} for n, v in night.nets.items()] if night else [],
            settlement=[
                {"payer": payer, "payee": payee, "amount": str(amount)}
                for payer, payee, amount in (night.transfers if night else [])
            ],
        )
        new = [
            ImportedHand(
                pokernow_import=upload,
                player=player,
                pokernow_id=hand_id,
                number=hand.number,
                variant=hand.history.variant,
                phh=hand.phh,
                net=net,
                ev_net=imported_ev_net(hand.history, pokernow_name, net),
            )
            for hand_id, (hand, net) in zip(ids, mine, strict=True)
            if hand_id not in known
        ]
        ImportedHand.objects.bulk_create(new)
        upload.imported = len(new)
        upload.save(update_fields=["imported"])
        for listener in hooks.hands_imported:
            listener(upload, new)
    return upload


def imported_ev_again() -> int:
    """Every imported hand's all-in EV computed again from its PHH, written where it changed
    (``manage.py allin_ev --again``: after a correction of how it is computed); how many
    changed. A hand at a time, each its own statement: derived data, nothing else moves."""
    changed = 0
    hands = ImportedHand.objects.select_related("pokernow_import").order_by("pk")
    for hand in hands.iterator():
        history = hand.history()
        ev_net = imported_ev_net(history, hand.pokernow_import.pokernow_name, hand.net)
        if ev_net != hand.ev_net:
            ImportedHand.objects.filter(pk=hand.pk).update(ev_net=ev_net)
            changed += 1
    return changed
