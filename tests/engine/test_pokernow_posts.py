"""PokerNow's missed blinds, bomb pots, 7-2 bounties, antes and hands shown after the end
in real logs (SOURCES.md beside
them): imported, and each imported hand replays to the stacks PokerNow printed next (the
parametrized test of test_pokernow.py checks every hand; these name the cases)."""

from __future__ import annotations

from engine import phh
from engine.pokernow import import_log
from tests.engine.test_pokernow import _text

CASH = "drkyoda_pglDepIXhH9TNyXaFfbHYetk-.csv.gz"
NIGHT = "whitlock23_pglnMFhFI9KhboCBC09b_dE3b.csv.gz"


def _ended(phh_text: str) -> dict[str, int]:
    hand = phh.loads(phh_text).replay()
    return dict(zip(hand.players, hand.stacks, strict=True))


def test_a_missed_small_blind_is_dead_and_a_missed_big_blind_live() -> None:
    # hand 69 of the cash game: Deckhole comes back, "posts a missing small blind of 0.10"
    # and "posts a missed big blind of 0.25", raises to 0.95 and takes the blinds; PokerNow
    # printed 44.17 for him at hand 70 (43.82 - 0.10 - 0.25 + 0.70)
    hands = {h.number: h for h in import_log(_text(CASH)).hands}
    history = phh.loads(hands[69].phh)
    deckhole = (history.players or []).index("Deckhole @ 3URETjsK60")
    assert history.antes[deckhole] == 10
    assert history.blinds_or_straddles[deckhole] == 25
    assert history.config().posts == ((deckhole, 10, 25),)
    assert _ended(hands[69].phh)["Deckhole @ 3URETjsK60"] == 4417
    assert {93, 267} <= set(hands)  # the cash game's other two comebacks that came in


def test_a_missed_small_blind_alone_is_dead_money() -> None:
    # hand 108 of whitlock23's night: nw posts only the missing small blind (1), then folds
    hands = {h.number: h for h in import_log(_text(NIGHT)).hands}
    history = phh.loads(hands[108].phh)
    nw = (history.players or []).index("nw @ gTBoFhSFHs")
    assert (history.antes[nw], history.blinds_or_straddles[nw]) == (1, 0)
    assert _ended(hands[108].phh)["nw @ gTBoFhSFHs"] == 447  # 448 at the start
    assert 126 in hands  # a missing small blind and a missed big blind, in this night too


def test_bomb_pots_come_in_as_the_engines_bomb_pots() -> None:
    # whitlock23's host played bomb pots of two big blinds (4) at 4-5%: nine in the night
    result = import_log(_text(NIGHT))
    bombs = [h for h in result.hands if phh.loads(h.phh).config().bomb_pot]
    assert [h.number for h in bombs] == [18, 19, 26, 117, 173]
    # the other four: a player mucked at showdown (cards the log never shows)
    skipped = {s.number: s.reason for s in result.skipped}
    assert all("mucked at showdown" in skipped[n] for n in (23, 27, 70, 160))
    history = phh.loads(bombs[0].phh)
    players = history.players or []
    assert history.antes == [4] * len(players) and not any(history.blinds_or_straddles)
    assert history.min_bet == 2  # the game's big blind: the smallest bet after the flop
    # hand 18: everyone puts 4 in, the flop comes, lmm bets and takes it on the turn
    hand = history.replay()
    assert hand.actions[0].kind == "check" and hand.board[:3]
    assert dict(zip(hand.players, hand.stacks, strict=True))["lmm @ 4Iies5lZZX"] == 239


def test_a_7_2_bounty_is_paid_beside_the_hand() -> None:
    # hand 59: nw wins with 7-2 and everyone pays the 5 bounty after the hand; the hand ends
    # at the stacks printed at hand 60 before the bounty (nw 281 - 45, the others + 5)
    hands = {h.number: h for h in import_log(_text(NIGHT)).hands}
    ended = _ended(hands[59].phh)
    assert ended["nw @ gTBoFhSFHs"] == 236
    assert ended["wjh @ yQzNmdWzgU"] == 569
    assert {83, 143, 175} <= set(hands)  # the night's other 7-2 winners


def test_antes_come_in_as_everyones_ante() -> None:
    # a PokerNow tournament whose host set an ante of 25 from hand 75 ("The game's ante was
    # changed from 0 to 25."): 12 hands with antes, 10 imported (two mucked at showdown)
    result = import_log(_text("drkyoda_antes_pglX9qKFV2jh2BntjoUQVj0MP.csv.gz"))
    with_antes = [h for h in result.hands if any(phh.loads(h.phh).antes)]
    assert [h.number for h in with_antes] == [75, 76, 77, 79, 80, 82, 83, 84, 85, 86]
    history = phh.loads(with_antes[0].phh)
    assert history.antes == [25] * 6 and history.blinds_or_straddles[:2] == [150, 300]
    assert (history.config().ante, history.config().ante_mode) == (25, "per-player")
    # jeangreen7 raises to 1200 and takes the blinds and the antes: 3365 + 450 + 125
    assert _ended(with_antes[0].phh)["jeangreen7 @ QLHzuQRo1C"] == 3940


def test_a_hand_mucked_at_showdown_then_shown_after_the_end_is_judged_with_it() -> None:
    # hand 5 of the cash game: K Godel checks the river down and mucks; once the hand is over
    # he shows 7c Ah ("shows a 7♣, A♥." after "-- ending hand #5 --"): those are his cards
    result = import_log(_text(CASH))
    hand = next(h for h in result.hands if h.number == 5)
    history = phh.loads(hand.phh)
    godel = (history.players or []).index("K Godel @ TN11URmFSv")
    assert history.actions[godel] == f"d dh p{godel + 1} 7cAh"
    assert _ended(hand.phh)["K Godel @ TN11URmFSv"] == 1512  # 15.12 printed at hand 6
    # one card shown alone after a hand is not a hand: such hands still come in, unknown
    assert all("holdem deals 2 hole cards" not in s.reason for s in result.skipped)
