"""Writing PHH: ``dumps(hand)`` for any hand, whole or as one viewer knows it."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence

from engine.cards import format_cards
from engine.errors import FormatCannotHold, HandHistoryError
from engine.hand import Hand, HandConfig
from engine.phh.variants import phh_code


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise HandHistoryError(f"cannot write {value!r} as TOML")


def check_can_write(config: HandConfig) -> None:
    """``FormatCannotHold`` when PHH has no variant for the config's game and betting (five-card
    draw, pot-limit hold'em, ...)."""
    phh_code(config.game, config.betting)


def dumps(
    hand: Hand, reveal_mucked: bool = True, known_cards: Collection[int] | None = None
) -> str:
    """The hand as PHH text (``finishing_stacks`` once it is over).

    Hole cards are written for every seat (PHH convention) unless ``reveal_mucked`` is false:
    then only shown hands are written and the others are ``????``, but for the cards a player
    chose to show after the hand (``reveal``: ``Ah??``). With ``known_cards``, each dealt or
    shown card not among them is written as ``??`` too (a viewer's history,
    ``Hand.visible_cards``, or a hand read from a file that did not name them).
    """

    def written(cards: Sequence[int]) -> str:
        if known_cards is None or all(card in known_cards for card in cards):
            return format_cards(cards)
        # each card as far as it is known (one card shown after the hand: ``As??``)
        return "".join(format_cards((card,)) if card in known_cards else "??" for card in cards)

    c = hand.config
    variant = phh_code(c.game, c.betting)
    n = hand.seats
    order = [(hand.button + 1 + k) % n for k in range(n)]  # PHH p1 is left of the button
    phh: dict[int | None, int] = {seat: i + 1 for i, seat in enumerate(order)}
    if c.ante_mode == "big-blind":
        antes = [0] * n
        if c.ante:
            antes[1] = c.ante
    else:
        antes = [c.ante] * n
    blinds = [0] * n
    if c.bomb_pot:
        antes = [c.bomb_pot] * n  # no blinds: the flop comes first (see HandHistory.config)
    elif c.variant.button_blind:
        blinds[n - 1] = c.big_blind  # heads-up pokerkit reverses it: p1 posts it
    else:
        blinds[0], blinds[1] = c.small_blind, c.big_blind
    if c.button_straddle:
        blinds[n - 1] = c.straddle
    else:
        blinds[2 : 2 + c.straddles] = c.straddle_amounts
    for seat, dead, live in c.posts:  # missed blinds: dead as an ante, live as a blind
        antes[phh[seat] - 1] += dead
        if live and blinds[phh[seat] - 1]:
            raise FormatCannotHold(
                f"PHH cannot write seat {seat}'s big blind besides its own blind",
                "phh",
                "missed-blinds",
            )
        blinds[phh[seat] - 1] = live or blinds[phh[seat] - 1]
    shown = set(hand.result.shown) if hand.result else set()
    revealed = {card for e in hand.events if e.kind == "reveal" for card in e.cards}

    def hidden_but_revealed(cards: Sequence[int]) -> str:
        return "".join(written((card,)) if card in revealed else "??" for card in cards)

    lines = []
    for e in hand.events:
        k = e.kind
        if k == "deal_hole":
            cards = written(e.cards)
            if not reveal_mucked and e.seat not in shown:
                cards = hidden_but_revealed(e.cards)
            lines.append(f"d dh p{phh[e.seat]} {cards}")
        elif k == "discard":
            thrown = written(e.cards) if reveal_mucked or known_cards else "??" * e.amount
            lines.append(f"p{phh[e.seat]} sd {thrown}".rstrip())
        elif k == "draw":
            cards = written(e.cards)
            if not reveal_mucked and e.seat not in shown:
                cards = "??" * len(e.cards)
            lines.append(f"d dh p{phh[e.seat]} {cards}")
        elif k == "deal_up":
            lines.append(f"d dh p{phh[e.seat]} {written(e.cards)}")
        elif k == "bring_in":
            lines.append(f"p{phh[e.seat]} pb")
        elif k in ("deal_board", "deal_second_board", "deal_third_board", "deal_board_two"):
            lines.append(f"d db {written(e.cards)}")
        elif k == "fold":
            lines.append(f"p{phh[e.seat]} f")
        elif k in ("check", "call"):
            lines.append(f"p{phh[e.seat]} cc")
        elif k in ("bet", "raise"):
            lines.append(f"p{phh[e.seat]} cbr {e.amount}")
        elif k == "show":
            lines.append(f"p{phh[e.seat]} sm {written(e.cards)}")
        elif k == "muck":
            lines.append(f"p{phh[e.seat]} sm")
    if c.is_stud:
        fields = [("variant", variant), ("antes", antes), ("bring_in", c.bring_in)]
    else:
        fields = [
            ("variant", variant),
            ("antes", antes),
            ("blinds_or_straddles", blinds),
            ("min_bet", c.big_blind),
        ]
    if c.betting == "fixed-limit":
        fields += [("small_bet", c.fixed_small_bet), ("big_bet", c.fixed_big_bet)]
    fields += [
        ("starting_stacks", [hand.starting_stacks[s] for s in order]),
        ("actions", lines),
        ("players", [hand.players[s] for s in order]),
    ]
    if hand.is_over:
        fields.append(("finishing_stacks", [hand.stacks[s] for s in order]))
    return "".join(f"{k} = {_toml_value(v)}\n" for k, v in fields)


def seat_of_phh(hand_button: int, seats: int, player: int) -> int:
    """Our seat index of PHH player ``player`` (1-based) for a hand with this button."""
    return (hand_button + player) % seats
