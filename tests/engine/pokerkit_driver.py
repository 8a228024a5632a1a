"""Replay a ``HandSpec`` through pokerkit 0.7 (the independent reference) with the same
stacks, deck order and decisions, and return pokerkit's final stacks in our seat order.

pokerkit numbers players from the seat left of the button (heads-up: the big blind first),
deals hole cards one at a time round-robin from player 0 - the same order as ``engine.hand`` -
and we burn and deal the board cards ourselves from the same deck.
"""

from __future__ import annotations

from pokerkit import (
    Automation,
    FixedLimitTexasHoldem,
    Mode,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)

from engine.cards import format_cards
from engine.randomhands import HandSpec

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def supported(spec: HandSpec) -> bool:
    c = spec.config
    return (c.game, c.betting) in {
        ("holdem", "no-limit"),
        ("holdem", "fixed-limit"),
        ("omaha", "pot-limit"),
    }


def pokerkit_state(spec: HandSpec):
    c = spec.config
    n = len(spec.stacks)
    order = [(spec.button + 1 + p) % n for p in range(n)]  # pokerkit player p -> our seat
    stacks = tuple(spec.stacks[s] for s in order)
    if c.button_straddle:
        blinds = (c.small_blind, c.big_blind) + (0,) * (n - 3) + (c.straddle,)
    else:
        blinds = (c.small_blind, c.big_blind, *c.straddle_amounts)
    # pokerkit swaps heads-up antes with the blinds
    antes = {1: c.ante} if c.ante and c.ante_mode == "big-blind" else c.ante
    if c.betting == "fixed-limit":
        return FixedLimitTexasHoldem.create_state(
            AUTOMATIONS,
            False,
            antes,
            blinds,
            c.fixed_small_bet,
            c.fixed_big_bet,
            stacks,
            n,
            mode=Mode.CASH_GAME,
        ), order
    game = NoLimitTexasHoldem if c.game == "holdem" else PotLimitOmahaHoldem
    return game.create_state(
        AUTOMATIONS, False, antes, blinds, c.big_blind, stacks, n, mode=Mode.CASH_GAME
    ), order


def pokerkit_final_stacks(spec: HandSpec) -> list[int]:
    state, order = pokerkit_state(spec)
    deck = [format_cards([c]) for c in spec.deck]
    position = 0
    ops = iter(spec.ops)
    while state.status:
        if state.can_deal_hole():
            state.deal_hole(deck[position])
            position += 1
        elif state.can_burn_card():
            state.burn_card(deck[position])
            position += 1
        elif state.can_deal_board():
            count = 3 if not state.board_cards else 1
            state.deal_board("".join(deck[position : position + count]))
            position += count
        else:
            op = next(ops, None)
            if op is None:
                # We skip a decision nobody needs (the only seat left who can act facing no
                # chips it has not matched); pokerkit asks for it: it is a check.
                if state.checking_or_calling_amount != 0:
                    raise AssertionError("pokerkit wants a decision the engine did not ask for")
                state.check_or_call()
                continue
            if op[0] == "f":
                state.fold()
            elif op[0] == "cc":
                state.check_or_call()
            else:
                # We allow betting more than anyone can call (the excess comes back
                # uncalled); pokerkit caps the bet at the largest stack that can call it.
                most = state.max_completion_betting_or_raising_to_amount
                if most is None:
                    raise ValueError(f"pokerkit allows no bet or raise to {op[1]} here")
                amount = min(op[1], most)
                state.complete_bet_or_raise_to(amount)
    final = [0] * len(order)
    for p, seat in enumerate(order):
        final[seat] = state.stacks[p]
    return final
