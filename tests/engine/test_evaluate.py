"""engine/evaluate (single and batch): exhaustive counts, differential against
phevaluator, descriptions, Omaha and Razz rules, and the best-hands kata."""

import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from phevaluator import evaluate_cards as ph_evaluate

from engine import HandClass, HandRank, best_hands, evaluate, evaluate_low, evaluate_omaha
from engine.cards import parse_cards
from engine.errors import CardError
from engine.evaluate import evaluate_batch
from engine.evaluate.batch import combinations_array


def ev(text):
    return evaluate(parse_cards(text))


# --- exhaustive ----------------------------------------------------------------------------

FIVE_CARD_CLASS_COUNTS = {
    HandClass.ROYAL_FLUSH: 4,
    HandClass.STRAIGHT_FLUSH: 36,
    HandClass.FOUR_OF_A_KIND: 624,
    HandClass.FULL_HOUSE: 3744,
    HandClass.FLUSH: 5108,
    HandClass.STRAIGHT: 10200,
    HandClass.THREE_OF_A_KIND: 54912,
    HandClass.TWO_PAIR: 123552,
    HandClass.PAIR: 1098240,
    HandClass.HIGH_CARD: 1302540,
}


@pytest.mark.slow
def test_all_2598960_five_card_hands_fall_into_the_known_class_counts():
    values = Counter(map(evaluate, combinations(range(52), 5)))
    classes = Counter()
    for value, count in values.items():
        classes[value.hand_class] += count
    assert dict(classes) == FIVE_CARD_CLASS_COUNTS
    assert classes[HandClass.STRAIGHT_FLUSH] + classes[HandClass.ROYAL_FLUSH] == 40
    assert len(values) == 7462 and sorted(values) == list(range(1, 7463))


@pytest.mark.slow
def test_batch_path_agrees_with_single_calls_on_every_five_card_hand():
    hands = combinations_array(52, 5)
    batch = evaluate_batch(hands)
    assert len(batch) == 2598960
    single = np.fromiter(map(evaluate, hands.tolist()), dtype=np.uint16, count=len(hands))
    assert np.array_equal(batch, single)


# --- differential against phevaluator (lower is better there) ------------------------------


def random_hands(rng, count, size):
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.int64)


@pytest.mark.slow
@pytest.mark.parametrize("size, count", [(5, 300_000), (6, 300_000), (7, 400_000)])
def test_ordering_agrees_with_phevaluator_on_random_hands(size, count):
    """1,000,000 hands in all. Sorting by our value must sort phevaluator's rank the other
    way with exactly the same ties: then every pair among them is ordered alike."""
    hands = random_hands(np.random.default_rng(size), count, size).tolist()
    ours = np.fromiter(map(evaluate, hands), dtype=np.int64, count=count)
    theirs = np.fromiter((ph_evaluate(*hand) for hand in hands), dtype=np.int64, count=count)
    order = np.lexsort((-theirs, ours))
    ours, theirs = ours[order], theirs[order]
    step_ours, step_theirs = np.diff(ours), np.diff(theirs)
    assert (step_theirs[step_ours == 0] == 0).all(), "a tie for us is not a tie for them"
    assert (step_theirs[step_ours > 0] < 0).all(), "better for us is not better for them"
    # And explicitly on random pairs of hands.
    rng = np.random.default_rng(size + 10)
    i, j = rng.integers(0, count, (2, 100_000))
    assert (np.sign(ours[i] - ours[j]) == np.sign(theirs[j] - theirs[i])).all()
    # The batch path gives the same values.
    assert np.array_equal(evaluate_batch(np.array(hands)[order]), ours)


# --- values, classes and descriptions --------------------------------------------------------


@pytest.mark.parametrize(
    "cards, hand_class, description",
    [
        ("As Ks Qs Js Ts", HandClass.ROYAL_FLUSH, "Royal Flush"),
        ("9h Th Jh Qh Kh Ah 2h", HandClass.ROYAL_FLUSH, "Royal Flush"),
        ("5d 4d 3d 2d Ad", HandClass.STRAIGHT_FLUSH, "Straight Flush, Five high"),
        ("9c 9d 9h 9s 2c", HandClass.FOUR_OF_A_KIND, "Four of a Kind, Nines"),
        ("Kh Kd Ks 2c 2d 9s 3h", HandClass.FULL_HOUSE, "Full House, Kings over Twos"),
        ("Kh Kd Ks 2c 2d 2s 3h", HandClass.FULL_HOUSE, "Full House, Kings over Twos"),
        ("Ah Jh 9h 4h 2h Kd Kc", HandClass.FLUSH, "Flush, Ace high"),
        ("As 2d 3c 4h 5s", HandClass.STRAIGHT, "Straight, Five high"),
        ("As 2d 3c 4h 5s 6d", HandClass.STRAIGHT, "Straight, Six high"),
        ("Ts Jd Qc Kh As", HandClass.STRAIGHT, "Straight, Ace high"),
        ("7s 7d 7c Kh 2s", HandClass.THREE_OF_A_KIND, "Three of a Kind, Sevens"),
        ("Ah Ad 7c 7d 2s 2d 3s", HandClass.TWO_PAIR, "Two Pair, Aces and Sevens"),
        ("Jh Jd 2c 5d 9s", HandClass.PAIR, "Pair of Jacks"),
        ("Ah 2c 5d 9s Jd", HandClass.HIGH_CARD, "High Card, Ace"),
    ],
)
def test_class_and_description(cards, hand_class, description):
    rank = ev(cards)
    assert rank.hand_class is hand_class
    assert rank.description == description == str(rank)


def test_hand_rank_is_a_shared_int_with_a_pasteable_repr():
    rank = ev("As Ks Qs Js Ts")
    assert rank == 7462 and isinstance(rank, int) and rank is HandRank(7462)
    assert repr(rank) == "HandRank(7462)" and eval(repr(rank)) is rank
    assert ev("7d 5c 4h 3s 2d") == 1
    assert HandClass.THREE_OF_A_KIND.label == "Three of a Kind"
    with pytest.raises(ValueError):
        HandRank(0)


@pytest.mark.parametrize(
    "better, worse",
    [
        ("As 2d 3c 4h 5s", "Ks Kd Kc 4h 5s"),  # the wheel is a straight, beats trips
        ("2s 3d 4c 5h 6s", "As 2d 3c 4h 5s"),  # six-high straight beats the wheel
        ("5d 4d 3d 2d Ad", "Ks Kd Kc Kh As"),  # steel wheel beats quads
        ("Ah Ad 9c 9d 5s", "Ah Ad 9c 9d 4s"),  # kicker
        ("Kh Kd 2c 2d Qs", "Qh Qd Jc Jd As"),  # higher top pair wins two pair
        ("3h 3d 3c 2d 2s", "Ah Kh Qh Jh 9h"),  # full house beats flush
    ],
)
def test_ordering_rules(better, worse):
    assert ev(better) > ev(worse)


def test_seven_cards_take_the_best_five():
    assert ev("2c 3c 4c 5c 7d 9h 6c") == ev("2c 3c 4c 5c 6c")
    assert ev("As Ad Ah Ks Kd Kh 2c") == ev("As Ad Ah Ks Kd")
    assert ev("2c 2d 2h 2s Ac Kd Qh") == ev("2c 2d 2h 2s Ac")


@pytest.mark.parametrize(
    "cards",
    [
        [0, 1, 2, 3],
        [0, 1, 2, 3, 4, 5, 6, 7],
        [0, 1, 2, 3, 4, 52],
        [0, 1, 2, 3, 0, 20, 30],
        ["As"] * 5,
    ],
)
def test_impossible_input_raises_card_error(cards):
    with pytest.raises(CardError):
        evaluate(cards)


def test_batch_rejects_bad_arrays():
    with pytest.raises(CardError):
        evaluate_batch(np.zeros((3, 4), dtype=np.int8))
    with pytest.raises(CardError):
        evaluate_batch(np.full((2, 7), 60))
    with pytest.raises(CardError):
        evaluate_batch(np.array([[0, 1, 2, 3, 4, 5, 6], [0, 0, 0, 0, 0, 0, 0]]))


# --- Omaha -----------------------------------------------------------------------------------


def omaha_by_brute_force(hole, board):
    return max(
        evaluate(list(two) + list(three))
        for two in combinations(hole, 2)
        for three in combinations(board, 3)
    )


def test_omaha_uses_exactly_two_hole_cards_and_three_board_cards():
    # Four hearts on the board and one in hand is no flush in Omaha.
    assert ev_omaha("Ah Kc Qd Js", "2h 5h 8h Th 3c").hand_class is not HandClass.FLUSH
    # Four aces in hand make only a pair of aces plus the board's trips: a full house.
    assert ev_omaha("As Ah Ad Ac", "Ks Kh Kd 2c 3c").description == "Full House, Kings over Aces"
    # A board straight does not play by itself.
    assert ev_omaha("2c 2d 7h 7s", "Ts Jh Qd Kc As").hand_class is HandClass.PAIR


def ev_omaha(hole, board):
    return evaluate_omaha(parse_cards(hole), parse_cards(board))


def test_omaha_matches_brute_force_on_random_deals():
    rng = random.Random(4)
    for _ in range(3000):
        cards = rng.sample(range(52), 4 + 5)
        board = cards[4 : 4 + rng.choice((3, 4, 5))]
        assert evaluate_omaha(cards[:4], board) == omaha_by_brute_force(cards[:4], board)
    with pytest.raises(CardError):
        evaluate_omaha([0, 1, 2, 3], [4, 5])


# --- ace-to-five low (Razz) -------------------------------------------------------------


def low_by_brute_force(cards):
    """Best low as a tuple where *smaller* is better: pairing pattern, then ranks from top."""

    def badness(five):
        ranks = [(c >> 2) + 1 if c >> 2 != 12 else 0 for c in five]  # ace low: A=0 .. K=12
        counts = Counter(ranks)
        groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
        return sorted(counts.values(), reverse=True), groups

    return min(badness(five) for five in combinations(cards, 5))


def test_low_wheel_is_best_and_pairs_count_against():
    assert evaluate_low(parse_cards("As 2s 3s 4s 5s")) == 6175  # straight flush is the nut low
    assert evaluate_low(parse_cards("As 2d 3c 4h 5s Kd Kc")).description == "5-4-3-2-A low"
    assert evaluate_low(parse_cards("Kd Qc Jh Ts 9d")) > evaluate_low(parse_cards("Ad Ac 2h 3s 4d"))
    assert evaluate_low(parse_cards("8d 5c 4h 3s 2d")) > evaluate_low(parse_cards("8d 6c 4h 3s 2d"))


def test_low_order_matches_brute_force_on_random_hands():
    rng = random.Random(5)
    hands = [rng.sample(range(52), rng.choice((5, 6, 7))) for _ in range(2000)]
    ours = [evaluate_low(hand) for hand in hands]
    theirs = [low_by_brute_force(hand) for hand in hands]
    for _ in range(20000):
        i, j = rng.randrange(len(hands)), rng.randrange(len(hands))
        assert (ours[i] > ours[j]) == (theirs[i] < theirs[j])
        assert (ours[i] == ours[j]) == (theirs[i] == theirs[j])


# --- the kata -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hands, expected",
    [
        (["4S 5S 7H 8D JC"], ["4S 5S 7H 8D JC"]),
        (["4D 5S 6S 8D 3C", "2S 4C 7S 9H 10H", "3S 4S 5D 6H JH"], ["3S 4S 5D 6H JH"]),
        (
            ["4D 5S 6S 8D 3C", "2S 4C 7S 9H 10H", "3S 4S 5D 6H JH", "3H 4H 5C 6C JD"],
            ["3S 4S 5D 6H JH", "3H 4H 5C 6C JD"],
        ),
        (["3S 5H 6S 8D 7H", "2S 5D 6D 8C 7S"], ["3S 5H 6S 8D 7H"]),  # kicker
        (["4S 5H 4C 8C 5C", "4H 4D 5S 5D 2S"], ["4S 5H 4C 8C 5C"]),  # two pair kicker
        (["4S 5H 6C 8D KH", "2S 4H 6S 4D JH"], ["2S 4H 6S 4D JH"]),
        (["4S 5H 4C 8D 4H", "10D JH QS KD AC"], ["10D JH QS KD AC"]),
        (["4S 5H 4C 8D 4H", "4D AH 3S 2D 5C"], ["4D AH 3S 2D 5C"]),  # wheel beats trips
        (["4D AH 3S 2D 5C", "TD JH QS KD AC"], ["TD JH QS KD AC"]),  # T and 10
        (["2H 3H 4H 5H 6H", "4D AD 3D 2D 5D"], ["2H 3H 4H 5H 6H"]),  # steel wheel loses
        (["10S 10H 10C 10D 2S", "TS TH TC TD 3S"], ["TS TH TC TD 3S"]),
    ],
)
def test_best_hands(hands, expected):
    assert best_hands(hands) == expected


@pytest.mark.parametrize(
    "hands, bad",
    [
        (["4S 5S 7H 8D JC", "1S 4C 7S 9H 10H"], "1S 4C 7S 9H 10H"),
        (["4S 5S 7H 8D"], "4S 5S 7H 8D"),
        (["4S 5S 7H 8D JC 2C"], "4S 5S 7H 8D JC 2C"),
        (["4S 4S 7H 8D JC"], "4S 4S 7H 8D JC"),
    ],
)
def test_best_hands_bad_input_names_the_hand(hands, bad):
    with pytest.raises(CardError, match=repr(bad).replace(" ", ".")):
        best_hands(hands)


def test_the_tiebreaks_kept_at_import_are_those_of_the_five_card_classes():
    """``kicker_over`` reads each value's tie-breaking ranks, taken at import from the classes
    the tables are built of (no rebuild of the classes at the first kicker named)."""
    from engine.evaluate import tables

    rebuilt = ((), *(key[1] for key, *_ in tables._five_card_classes()))
    assert rebuilt == tables._TIEBREAKS
    assert len(rebuilt) == tables.MAX_RANK + 1
