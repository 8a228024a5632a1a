"""Hypothesis state machine: random legal and illegal actions, invariants after every step."""

import json
import random
import re

from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine.errors import IllegalAction
from engine.hand import Action, Hand, HandConfig

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![a-z])")


class HandMachine(RuleBasedStateMachine):
    @initialize(
        seed=st.integers(0, 2**32),
        players=st.integers(2, 9),
        betting=st.sampled_from(["no-limit", "pot-limit", "fixed-limit"]),
        game=st.sampled_from(["holdem", "omaha"]),
        ante=st.sampled_from([0, 1, 3]),
    )
    def start(self, seed, players, betting, game, ante):
        rng = random.Random(seed)
        stacks = [rng.choice([1, 2, 5, 30, 100, 400]) for _ in range(players)]
        deck = list(range(52))
        rng.shuffle(deck)
        self.config = HandConfig(
            game=game,
            betting=betting,
            small_blind=1,
            big_blind=2,
            ante=ante,
            ante_mode=rng.choice(["per-player", "big-blind"]),
        )
        self.hand = Hand(self.config, stacks, rng.randrange(players), deck)
        self.total = sum(stacks)

    @rule(pick=st.integers(0, 10**6))
    def legal_action(self, pick):
        h = self.hand
        if h.is_over:
            return
        legal = h.legal
        options = [Action("check")] if legal.check else [Action("fold"), Action("call")]
        if legal.min_raise_to is not None:
            lo, hi = legal.min_raise_to, legal.max_raise_to
            options += [Action("raise", lo), Action("raise", lo + pick % (hi - lo + 1))]
            if hi == h.bets[h.actor] + h.stacks[h.actor]:
                options.append(Action("all_in"))
        elif legal.call and legal.call == h.stacks[h.actor]:
            options.append(Action("all_in"))
        h.act(options[pick % len(options)])

    @rule(
        kind=st.sampled_from(["fold", "check", "call", "raise", "seat"]),
        amount=st.integers(-5, 1000),
    )
    def illegal_action(self, kind, amount):
        h = self.hand
        before = (h.view(None), h.stacks, h.actions, len(h.events))
        legal = h.legal
        try:
            if kind == "seat":
                wrong = ((h.actor or 0) + 1) % h.seats
                h.fold(seat=wrong)
            elif kind == "fold" and legal is not None and legal.check:
                h.fold()
            elif kind == "check" and legal is not None and not legal.check:
                h.check()
            elif kind == "call" and legal is not None and legal.check:
                h.call()
            elif (
                kind == "raise"
                and legal is not None
                and (
                    legal.min_raise_to is None
                    or amount < legal.min_raise_to
                    or amount > legal.max_raise_to
                )
            ):
                if legal.min_raise_to is not None and amount == legal.max_raise_to:
                    return
                h.bet_or_raise_to(amount)
            elif legal is None:
                h.check()
            else:
                return
        except IllegalAction:
            assert (h.view(None), h.stacks, h.actions, len(h.events)) == before
        else:
            raise AssertionError(f"illegal {kind} {amount} was accepted")

    @invariant()
    def chips_are_conserved(self):
        h = self.hand
        if h.is_over:
            assert sum(h.stacks) == self.total
        else:
            assert sum(h.stacks) + sum(h.committed) == self.total
        assert all(s >= 0 for s in h.stacks)

    @invariant()
    def no_card_twice(self):
        h = self.hand
        cards = [c for hole in h.hole for c in hole] + list(h.board)
        assert len(cards) == len(set(cards))

    @invariant()
    def one_actor_or_hand_over(self):
        h = self.hand
        assert (h.actor is None) == h.is_over
        if h.actor is not None:
            assert not h.folded[h.actor] and not h.all_in_seats[h.actor]

    @invariant()
    def view_never_leaks_hidden_cards(self):
        h = self.hand
        shown = set(h.result.shown) if h.result else set()
        for viewer in [None, *range(h.seats)]:
            view = h.view(viewer)
            visible = {str(c) for c in h.board}
            for seat in shown | ({viewer} - {None}):
                visible |= {str(c) for c in h.hole[seat]}
            text = json.dumps(view.to_dict())
            assert set(CARD.findall(text)) <= visible
            typed = {str(c) for e in view.events for c in e.cards}
            typed |= {str(c) for s in view.seats for c in s.cards if c is not None}
            assert typed <= visible
            for seat, info in enumerate(view.seats):
                if seat != viewer and seat not in shown:
                    assert all(c is None for c in info.cards)


HandMachine.TestCase.settings = settings(max_examples=80, stateful_step_count=30, deadline=None)
TestHandMachine = HandMachine.TestCase
