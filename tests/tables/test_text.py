"""The one strict parser for numbers from outside (``tables.text``)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from tables.text import LARGEST, NumberError, parse_optional_number, parse_whole_number

ASCII_NUMBER = re.compile(r"[ \t]*(-?[0-9]+)[ \t]*")
# Characters that str.isdigit() or int() take for digits, and the usual near misses.
TRICKY = "0123456789²³¹⁰⁴٠١٢٣٤٥٦٧٨٩۰۱੧१०𝟎𝟗①＋+-_ .,eE\t\n\u00a0\u2007"


@pytest.mark.parametrize(
    "text, number",
    [("0", 0), ("7", 7), ("0042", 42), (" 12\t", 12), ("-3", -3), (str(LARGEST), LARGEST), (9, 9)],
)
def test_whole_numbers_in_ascii_digits_are_read(text, number):
    assert parse_whole_number(text, what="n", minimum=-10) == number


@pytest.mark.parametrize(
    "value",
    [
        "²",
        "¹²",
        "١",
        "٣",
        "۱",
        "𝟗",
        "①",
        "５",
        "+5",
        "1_000",
        "1e3",
        "5.0",
        "0x10",
        "",
        " ",
        "-",
        "--1",
        "1 2",
        "\u00a05",
        "5\n",
        None,
        True,
        5.0,
        [5],
        b"5",
    ],
)
def test_anything_else_is_not_a_whole_number(value):
    with pytest.raises(NumberError) as error:
        parse_whole_number(value, what="page_size")
    assert str(error.value) == "page_size must be a whole number."
    assert error.value.problem == "must be a whole number."


@pytest.mark.parametrize(
    "value, message",
    [
        ("0", "page_size must be between 1 and 200."),
        ("201", "page_size must be between 1 and 200."),
        ("-1", "page_size must be between 1 and 200."),
        ("9" * 5000, "page_size must be between 1 and 200."),
    ],
)
def test_a_range_names_both_ends(value, message):
    with pytest.raises(NumberError, match=re.escape(message)):
        parse_whole_number(value, what="page_size", minimum=1, maximum=200)


def test_without_a_maximum_the_message_names_the_end_that_was_passed():
    with pytest.raises(NumberError, match="table must be at least 1."):
        parse_whole_number("0", what="table", minimum=1)
    with pytest.raises(NumberError, match=f"table must be at most {LARGEST}."):
        parse_whole_number("9" * 40, what="table", minimum=1)
    with pytest.raises(NumberError, match=f"table must be at most {LARGEST}."):
        parse_whole_number(LARGEST + 1, what="table", minimum=1)


@pytest.mark.parametrize("value", [None, "", " ", "\t"])
def test_optional_numbers_may_be_left_out(value):
    assert parse_optional_number(value, what="table", minimum=1) is None


def test_an_optional_number_given_is_checked_like_any_other():
    assert parse_optional_number("3", what="table", minimum=1) == 3
    with pytest.raises(NumberError, match="table must be a whole number."):
        parse_optional_number("²", what="table", minimum=1)


def ascii_number_in_range(text: str, minimum: int, maximum: int) -> int | None:
    """The model: the int of the text's ASCII digits when it is that and in range, else None."""
    match = ASCII_NUMBER.fullmatch(text)
    if match is None:
        return None
    number = int(match[1])
    return number if minimum <= number <= maximum else None


@given(
    text=st.one_of(st.text(), st.text(alphabet=TRICKY, max_size=25)),
    minimum=st.integers(-(10**6), 10**6),
    span=st.one_of(st.integers(0, 10**6), st.just(None)),
)
def test_any_text_is_its_ascii_number_in_range_or_a_number_error(text, minimum, span):
    maximum = LARGEST if span is None else minimum + span
    expected = ascii_number_in_range(text, minimum, maximum)
    try:
        number = parse_whole_number(text, what="n", minimum=minimum, maximum=maximum)
    except NumberError as error:  # any other exception fails the test
        assert expected is None, (text, error)
        assert str(error).startswith("n must be ")
    else:
        assert number == expected
        assert type(number) is int
