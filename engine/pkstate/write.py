"""Writing any hand as pkstate YAML."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable

from engine.errors import FormatCannotHold
from engine.hand import Hand, HandConfig
from engine.pkstate.model import GAME_OF, Entry, ForcedBets, PKState, Seat


def check_can_write(config: HandConfig) -> None:
    """``FormatCannotHold`` when pkstate has no game for the config's game and betting (it
    has the board games but Omaha hi-lo and short deck, no stud or draw), or no field for one
    of its rules (a button straddle, a bomb pot, missed blinds posted)."""
    if (config.game, config.betting) not in GAME_OF:
        raise FormatCannotHold(
            f"pkstate has no game for {config.game} {config.betting}",
            "yaml",
            f"{config.game}_{config.betting}",
        )
    for what, used in (
        ("button-straddle", config.button_straddle),
        ("bomb-pot", config.bomb_pot),
        ("missed-blinds", config.posts),
    ):
        if used:
            raise FormatCannotHold(
                f"pkstate has no {what.replace('-', ' ')}: write PHH instead",
                "yaml",
                what,
            )


def from_hand(
    hand: Hand,
    *,
    known_cards: Collection[int] | None = None,
    id: str | None = None,
    datetime: dt.datetime | None = None,
) -> PKState:
    """The hand as a pkstate document. With ``known_cards`` (``Hand.visible_cards(seat)`` for
    a viewer, or the cards a file named), hole cards and streets not all among them are left
    out (a street's cards, and every later street's, as the board is dealt in order)."""

    def known(cards: Iterable[int]) -> bool:
        return known_cards is None or all(card in known_cards for card in cards)

    c = hand.config
    check_can_write(c)
    game = GAME_OF[(c.game, c.betting)]
    rounds: list[list[Entry]] = [[]]
    board_known = True
    for e in hand.events:
        k = e.kind
        if k == "deal_hole" and known(e.cards):
            rounds[0].append(Entry("Dealt", e.seat, tuple(e.cards)))
        elif k == "deal_board":
            board_known = board_known and known(e.cards)
            rounds.append([Entry("DealCommon", cards=tuple(e.cards))] if board_known else [])
        elif k in ("fold", "check"):
            rounds[-1].append(Entry(k.title(), e.seat))
        elif k in ("call", "bet", "raise"):
            rounds[-1].append(Entry("CBR", e.seat, amount=e.amount))
    if hand.result is not None:  # the hand is over
        for seat, net in enumerate(hand.result.net):
            if not hand.folded[seat]:
                rounds[-1].append(Entry("Wins" if net >= 0 else "Loses", seat, amount=abs(net)))
    big_blind_ante = c.ante_mode == "big-blind" and c.ante > 0
    limits = (c.fixed_small_bet, c.fixed_big_bet)
    return PKState(
        game=game,
        button=hand.button,
        forced_bets=ForcedBets(
            small=c.small_blind,
            big=c.big_blind,
            straddles=c.straddle_amounts or None,
            ante=c.ante if c.ante and not big_blind_ante else None,
            big_blind_ante=c.ante if big_blind_ante else None,
        ),
        players=[
            Seat(name, stack)
            for name, stack in zip(hand.players, hand.starting_stacks, strict=True)
        ],
        rounds=rounds,
        id=id,
        datetime=datetime,
        board=tuple(hand.board) if hand.board and board_known else None,
        limit_bets=limits
        if c.betting == "fixed-limit" and limits != (c.big_blind, 2 * c.big_blind)
        else None,
    )


def dumps(
    hand: Hand,
    *,
    known_cards: Collection[int] | None = None,
    id: str | None = None,
    datetime: dt.datetime | None = None,
) -> str:
    """The hand as pkstate YAML text (see ``from_hand``)."""
    return from_hand(hand, known_cards=known_cards, id=id, datetime=datetime).to_yaml()
