"""engine/cards.py: a card is a small int that parses and prints itself back."""

import pytest

from engine.cards import ALL_CARDS, Card, check_deck, ensure_distinct, format_cards, parse_cards
from engine.errors import CardError, DuplicateCardError


@pytest.mark.parametrize(
    "text, expected",
    [
        ("As", "As"),
        ("Td", "Td"),
        ("10d", "Td"),
        ("ah", "Ah"),
        ("A♠", "As"),
        ("2c", "2c"),
        ("kH", "Kh"),
        ("q♦", "Qd"),
        (" 9s ", "9s"),
    ],
)
def test_parse_accepts_common_spellings_and_prints_canonically(text, expected):
    assert str(Card.parse(text)) == expected


def test_encoding_is_rank_times_four_plus_suit():
    assert int(Card.parse("2c")) == 0 and int(Card.parse("As")) == 51
    assert Card.parse("Qh").rank == 10 and Card.parse("Qh").suit == 2


def test_repr_recreates_the_card():
    card = Card.parse("Kd")
    assert repr(card) == "Card('Kd')" and eval(repr(card)) == card


@pytest.mark.parametrize("text", ["1s", "Ax", "", "AsK", "11h", "A", "♠A"])
def test_malformed_card_raises_value_error_naming_the_text(text):
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", ["AsKd", "As Kd", "as,kd", "A♠K♦", "AsKd "])
def test_parse_cards_splits_runs_and_separators(text):
    assert format_cards(parse_cards(text)) == "AsKd"


def test_parse_cards_handles_ten_as_two_characters():
    assert format_cards(parse_cards("10h10s Jc")) == "ThTsJc"


def test_parse_cards_names_the_bad_part():
    with pytest.raises(CardError, match="'Zz"):
        parse_cards("As Zz Kd")


@pytest.mark.parametrize(
    "text, bad",
    [
        ("1xKh", "'1x'"),
        ("Kh1x", "'1x'"),
        ("10xKh", "'10x'"),
        ("AsK", "'K'"),
        ("AsZzZz", "'Zz'"),
    ],
)
def test_parse_cards_names_exactly_the_bad_card_in_a_run(text, bad):
    """A card is a rank and a suit (``10`` is one rank): the error names that much, not the
    next card's first character with it ("1xKh" once said '1xK')."""
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert str(info.value) == f"not a card: {bad} in {text!r}"


def test_duplicate_cards_raise_naming_the_card():
    with pytest.raises(DuplicateCardError, match="As"):
        parse_cards("As Kd as")
    assert len(parse_cards("As As", distinct=False)) == 2
    with pytest.raises(DuplicateCardError):
        ensure_distinct([5, 6, 5])


def test_whole_deck_check_proves_52_distinct_cards():
    check_deck(ALL_CARDS)
    with pytest.raises(CardError, match="52"):
        check_deck(ALL_CARDS[:51])
    with pytest.raises(DuplicateCardError):
        check_deck(list(ALL_CARDS[:51]) + [ALL_CARDS[0]])
    with pytest.raises(CardError):
        check_deck(list(ALL_CARDS[:51]) + [52])


def test_card_from_int_checks_range():
    assert Card(51) == Card.parse("As")
    for bad in (-1, 52, True, 3.0):
        with pytest.raises(CardError):
            Card(bad)
