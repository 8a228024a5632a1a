"""Card <-> Cactus Kev's 32-bit card integer, checked against treys for all 52 cards."""

import pytest
import treys

from engine.cards import ALL_CARDS, Card
from engine.errors import CardError


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_card_encodes_as_treys_does(card):
    assert card.to_cactus_kev() == treys.Card.new(str(card))


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_decoding_gives_the_card_back(card):
    decoded = Card.from_cactus_kev(card.to_cactus_kev())
    assert decoded == card and type(decoded) is Card and str(decoded) == str(card)


def test_fields_of_the_layout_xxxbbbbb_bbbbbbbb_cdhsrrrr_xxpppppp():
    number = Card("Kd").to_cactus_kev()
    assert number >> 16 == 1 << 11  # rank bit: king is the 12th rank from the deuce
    assert (number >> 12) & 0xF == 0b0100  # c d h s: diamonds
    assert (number >> 8) & 0xF == 11  # rank 0..12
    assert number & 0x3F == 37  # the king's prime
    assert Card("2c").to_cactus_kev() == 0x18002  # deuce bit, clubs bit, rank 0, prime 2
    assert len({c.to_cactus_kev() for c in ALL_CARDS}) == 52


@pytest.mark.parametrize(
    "number",
    [
        0,
        -1,
        Card("As").to_cactus_kev() | 1 << 31,  # a stray high bit
        Card("As").to_cactus_kev() ^ 0x3F ^ 37,  # the king's prime with the ace's rank
        Card("As").to_cactus_kev() | 0x2000,  # two suit bits
        0x1D0F | 1 << 28,  # rank 13: no such rank
        Card("As").to_cactus_kev() + 2**32,  # more than 32 bits
    ],
)
def test_a_number_that_is_no_card_is_refused_by_name(number):
    named = rf"not a Cactus-Kev card integer: {number} \({number:#x}\)"
    with pytest.raises(CardError, match=named):
        Card.from_cactus_kev(number)


@pytest.mark.parametrize("value", ["0x18002", 98306.0, True, None])
def test_something_that_is_no_integer_is_refused_by_name(value):
    with pytest.raises(CardError, match="not a Cactus-Kev card integer: " + repr(value)[:4]):
        Card.from_cactus_kev(value)
