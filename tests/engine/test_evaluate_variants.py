"""The draw and short-deck evaluators rank hands as pokerkit does: every distinct five-card
hand of deuce-to-seven and short deck, every badugi rank set, and random hands of each (fixed
seeds), ordered by pokerkit's hands and compared with ours pair by adjacent pair."""

import random
from functools import cmp_to_key
from itertools import combinations, combinations_with_replacement

import pytest
from pokerkit import BadugiHand, ShortDeckHoldemHand, StandardLowHand

from engine.cards import format_cards, parse_cards
from engine.errors import CardError
from engine.evaluate.lowball import evaluate_badugi, evaluate_deuce_seven
from engine.evaluate.shortdeck import evaluate_short_deck

SHORT_DECK = [c for c in range(52) if c >> 2 >= 4]


def _compare(a, b):
    return -1 if a < b else 1 if b < a else 0


def assert_same_order(hands, ours, theirs):
    """Sorted by pokerkit's hands (``theirs``), our values rise with them and tie with them."""
    order = sorted(range(len(hands)), key=cmp_to_key(lambda i, j: _compare(theirs[i], theirs[j])))
    for i, j in zip(order, order[1:], strict=False):
        pk = _compare(theirs[i], theirs[j])
        mine = _compare(ours[i], ours[j])
        assert pk == mine, (format_cards(hands[i]), format_cards(hands[j]), pk, mine)


def five_card_classes(ranks):
    """One hand of every distinct five-card hand over ``ranks`` (suited when it can be)."""
    for chosen in combinations_with_replacement(ranks, 5):
        if max(chosen.count(r) for r in chosen) > 4:
            continue
        yield [r * 4 + k % 4 for k, r in enumerate(chosen)]
        if len(set(chosen)) == 5:
            yield [r * 4 for r in chosen]


def test_deuce_seven_every_class():
    hands = list(five_card_classes(range(13)))
    assert len(hands) == 7462
    ours = [evaluate_deuce_seven(h) for h in hands]
    assert len(set(ours)) == 7462
    assert_same_order(hands, ours, [StandardLowHand(format_cards(h)) for h in hands])


def test_deuce_seven_random_hands():
    rng = random.Random(27)
    hands = [rng.sample(range(52), 5) for _ in range(1500)]
    ours = [evaluate_deuce_seven(h) for h in hands]
    assert_same_order(hands, ours, [StandardLowHand(format_cards(h)) for h in hands])


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("7s 5d 4c 3h 2s", "7s 6d 4c 3h 2s"),
        ("8s 6d 4c 3h 2s", "8s 7d 6c 5h 4s"),  # 8-7-6-5-4 is a straight
        ("As Kd Qc Jh 9s", "2s 2d 3c 4h 5s"),  # an ace-high beats a pair
        ("Ks 5d 4c 3h 2s", "As 5d 4c 3h 2s"),  # A-5-4-3-2: ace high, no wheel
        ("7s 5s 4s 3s 2d", "7s 5s 4s 3s 2s"),  # a flush counts against
    ],
)
def test_deuce_seven_rules(better, worse):
    assert evaluate_deuce_seven(parse_cards(better)) > evaluate_deuce_seven(parse_cards(worse))


def test_badugi_every_rank_set_and_random_hands():
    hands = [
        [r * 4 + k for k, r in enumerate(chosen)]
        for size in range(1, 5)
        for chosen in combinations(range(13), size)
    ]
    hands = [h + [h[0] ^ 1, h[0] ^ 2, h[0] ^ 3][: 4 - len(h)] for h in hands]  # pad: paired
    rng = random.Random(4)
    hands += [rng.sample(range(52), 4) for _ in range(3000)]
    ours = [evaluate_badugi(h) for h in hands]
    assert len(set(ours)) == 1092
    theirs = [BadugiHand.from_game(format_cards(h)) for h in hands]
    assert_same_order(hands, ours, theirs)


def test_badugi_rules():
    best = evaluate_badugi(parse_cards("4c 3d 2h As"))
    assert best.description == "4-card badugi 4-3-2-A"
    assert evaluate_badugi(parse_cards("Kc Qd Jh Ts")) > evaluate_badugi(parse_cards("Ac 2c 3d 4d"))
    with pytest.raises(CardError, match="four different cards"):
        evaluate_badugi(parse_cards("Ac 2c 3d"))


def test_short_deck_every_class():
    hands = list(five_card_classes(range(4, 13)))
    ours = [evaluate_short_deck(h) for h in hands]
    assert len(set(ours)) == 1404
    assert_same_order(hands, ours, [ShortDeckHoldemHand(format_cards(h)) for h in hands])


def test_short_deck_random_seven_card_hands():
    rng = random.Random(36)
    hands = [rng.sample(SHORT_DECK, 7) for _ in range(1000)]
    ours = [evaluate_short_deck(h) for h in hands]
    theirs = [ShortDeckHoldemHand.from_game(format_cards(h)) for h in hands]
    assert_same_order(hands, ours, theirs)


def test_short_deck_refuses_low_cards():
    with pytest.raises(CardError, match="no card below a six"):
        evaluate_short_deck(parse_cards("As Ks Qs Js 5s"))
