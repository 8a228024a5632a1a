"""engine/deck.py: unbiased shuffle, provably fair seeded decks, round-robin dealing."""

import hashlib
import random

import numpy as np
import pytest

from engine.cards import ALL_CARDS, check_deck, format_cards
from engine.deck import (
    SeedStream,
    commitment,
    deal_round_robin,
    fisher_yates,
    fresh_deck,
    new_seed,
    seeded_deck,
    shuffled_deck,
    verify,
)
from engine.errors import CardError

DECKS = 100_000


def naive_shuffle(items, randbelow):
    """The classic bug: swap each position with *any* position (n^n paths, not n!)."""
    n = len(items)
    for i in range(n):
        j = randbelow(n)
        items[i], items[j] = items[j], items[i]
    return items


def card_by_position_chi_square(shuffle, decks=DECKS, seed=20240601):
    """Chi-square statistic of the 52x52 table of (card, position) counts, and its df."""
    rng = random.Random(seed)
    order = np.empty((decks, 52), dtype=np.int64)
    for row in range(decks):
        order[row] = shuffle(list(range(52)), rng.randrange)
    cells = order * 52 + np.arange(52)  # card * 52 + position
    counts = np.bincount(cells.ravel(), minlength=52 * 52)
    expected = decks / 52
    return float(((counts - expected) ** 2 / expected).sum()), 51 * 51


def _critical(df, sigmas=5.0):
    # Chi-square with df ~ 2,600 is close to normal: mean df, standard deviation sqrt(2 df).
    return df + sigmas * (2 * df) ** 0.5


@pytest.mark.slow
def test_fisher_yates_card_by_position_passes_chi_square():
    statistic, df = card_by_position_chi_square(fisher_yates)
    assert statistic < _critical(df), statistic


@pytest.mark.slow
def test_naive_swap_any_position_shuffle_fails_the_same_chi_square():
    """Negative control: the same test must catch a biased shuffle."""
    statistic, df = card_by_position_chi_square(naive_shuffle)
    assert statistic > _critical(df), statistic


def test_shuffled_deck_is_a_whole_deck_and_injected_rng_reproduces():
    check_deck(shuffled_deck())
    assert shuffled_deck(random.Random(7)) == shuffled_deck(random.Random(7))
    assert shuffled_deck(random.Random(7)) != shuffled_deck(random.Random(8))
    assert fresh_deck() == list(ALL_CARDS)


def test_default_shuffle_uses_the_system_csprng(monkeypatch):
    import engine.deck as deck_module

    calls = []

    class Spy:
        def randrange(self, n):
            calls.append(n)
            return 0

    monkeypatch.setattr(deck_module, "_SYSTEM_RANDOM", Spy())
    shuffled_deck()
    assert calls == list(range(52, 1, -1))
    assert isinstance(deck_module.secrets.SystemRandom(), random.SystemRandom)


def test_seeded_deck_reproduces_and_depends_on_the_seed():
    seed = "0f" * 32
    deck = seeded_deck(seed)
    check_deck(deck)
    assert deck == seeded_deck(seed)
    assert deck != seeded_deck(seed[:-1] + "e")


def test_seeded_deck_derivation_is_pinned():
    """The derivation is public; changing it would break verification of old hands."""
    assert format_cards(seeded_deck("abc")[:8]) == "5s5c2c9sAs7cQsTh"


def test_seeded_deck_is_fisher_yates_on_the_seed_stream():
    """``seeded_deck`` reads the stream byte by byte: the very deck ``SeedStream`` draws,
    rejections (which run into later blocks) and short or odd seeds included."""
    for seed in ["abc", "0f" * 32, "é", *(f"seed {n}" * (n % 7 + 1) for n in range(300))]:
        assert seeded_deck(seed) == fisher_yates(fresh_deck(), SeedStream(seed).randbelow)


def test_commitment_is_sha256_of_the_seed():
    assert commitment("abc") == hashlib.sha256(b"abc").hexdigest()
    assert len(new_seed()) == 64 and new_seed() != new_seed()


def test_verify_accepts_the_honest_deal_and_rejects_tampering():
    seed = new_seed()
    published = commitment(seed)
    deck = seeded_deck(seed)
    assert verify(seed, published, deck)
    swapped = deck[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify(seed, published, swapped)  # tampered deck
    assert not verify(new_seed(), published, deck)  # tampered seed
    assert not verify(seed, commitment(seed + "x"), deck)  # wrong commitment
    assert not verify(seed, published, deck[:51])  # short deck
    assert not verify("", published, deck)  # not a seed


def test_seed_stream_randbelow_is_uniform_without_modulo_bias():
    stream = SeedStream("uniform")
    n = 52 * 3  # not a power of two: a modulo would favour small values
    counts = np.bincount([stream.randbelow(n) for _ in range(78_000)], minlength=n)
    expected = 78_000 / n
    statistic = float(((counts - expected) ** 2 / expected).sum())
    assert counts.size == n
    assert statistic < _critical(n - 1)
    assert all(SeedStream("x").randbelow(1) == 0 for _ in range(3))


def test_round_robin_deals_one_card_to_each_player_in_turn():
    deck = fresh_deck()
    hands = deal_round_robin(deck, players=4, cards_each=5)
    assert hands[0] == [deck[0], deck[4], deck[8], deck[12], deck[16]]
    assert hands[3] == [deck[3], deck[7], deck[11], deck[15], deck[19]]
    with pytest.raises(CardError):
        deal_round_robin(deck, players=11, cards_each=5)
    with pytest.raises(CardError):
        deal_round_robin(deck, players=0, cards_each=5)
