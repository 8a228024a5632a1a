"""What each viewer may see of a hand: the one place hidden information is filtered.

A viewer sees its own hole cards, the up-cards of seats still in the hand, the hands shown at
showdown, the cards a player chose to show once the hand was over (``reveal``: only those)
and, once nobody can bet any more with two or more hands live, every live hand face up for
the run-out. Never the deck, burn cards or mucked cards; ``legal`` only in the actor's own
view.
"""

from __future__ import annotations

from dataclasses import replace

from engine.cards import Card
from engine.errors import IllegalAction, PokerError
from engine.hand.betting import BettingRules
from engine.types import Event, EventKind, is_whole
from engine.view import SeatView, View

__all__ = ["Views"]

# Events whose cards only their seat sees (others see the count: ``amount`` of a draw).
_HIDDEN = frozenset({EventKind.DEAL_HOLE, EventKind.DISCARD, EventKind.DRAW})


class Views(BettingRules):
    """``view`` and ``visible_cards``: the hand as one seat (or a spectator) may see it."""

    def _check_viewer(self, viewer: int | None) -> None:
        if viewer is not None and not (is_whole(viewer) and 0 <= viewer < self._n):
            raise PokerError(f"no seat {viewer!r} in this hand")

    def _sees_hole(self, viewer: int | None, seat: int) -> bool:
        """The hidden-card rule: a viewer sees its own hole cards, the hands shown and, once
        nobody can bet any more, every live hand, face up for the run-out (not in the draw
        games, where the draws still to come are decisions; and, in stud,
        everyone's up-cards: ``_seen_cards``)."""
        return (
            seat == viewer
            or seat in self._shown
            # the draw games keep all-in hands down: the draws still to come are decisions
            or (self._betting_closed is not None and not self._folded[seat] and not self._draw)
        )

    def _seen_cards(self, viewer: int | None, seat: int) -> tuple[Card | None, ...]:
        """``seat``'s cards as ``viewer`` sees them: ``None`` for each hidden one."""
        if self._sees_hole(viewer, seat):
            return self.hole[seat]
        revealed = self._revealed.get(seat, ())
        return tuple(
            card if up or card in revealed else None
            for card, up in zip(self.hole[seat], self.up[seat], strict=True)
        )

    def visible_cards(self, seat: int | None = None) -> frozenset[Card]:
        """Every card ``seat`` (or a spectator, ``None``) may see now, by ``view``'s rule:
        the board, its own hole cards, the up-cards of seats still in the hand and the hands
        shown at showdown."""
        self._check_viewer(seat)
        seen = set(self.board) | set(self.second_board) | set(self.third_board)
        if seat is not None:
            seen.update(self._discarded[seat])
        for i in range(self._n):
            if self._sees_hole(seat, i) or not (self._folded[i] or i in self._mucked):
                seen.update(c for c in self._seen_cards(seat, i) if c is not None)
            seen.update(self._revealed.get(i, ()))
        return frozenset(seen)

    def history_cards(self, seat: int | None = None) -> frozenset[Card]:
        """Every card ``seat`` (or a spectator) saw at some point of the hand: what it may see
        now (``visible_cards``) and the up-cards of the seats that folded since (stud turns a
        folded hand down, but its up-cards were seen and decided who brought it in and who
        acted first). A viewer's own hand history names these and no others."""
        seen = set(self.visible_cards(seat))
        for i in range(self._n):
            seen.update(card for card, up in zip(self.hole[i], self.up[i], strict=True) if up)
        return frozenset(seen)

    def reveal(self, seat: int, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """Once the hand is over, ``seat`` shows ``cards`` of its own (all or some) to
        everyone: after a fold, winning without a showdown, or losing at one. Only those cards
        are seen (the hidden-card rule); a ``REVEAL`` event says so. Returns the cards newly
        shown, in the hand's order. ``IllegalAction`` (nothing changes) while the hand is
        played, for a card not in the seat's hand, or when every card given is seen already."""
        if not self._over:
            raise IllegalAction("cards are shown once the hand is over")
        if not (is_whole(seat) and 0 <= seat < self._n):
            raise PokerError(f"no seat {seat!r} in this hand")
        hole = self.hole[seat]
        wanted = set(cards)
        if not wanted or not wanted <= set(hole):
            raise IllegalAction("only cards of your own hand can be shown")
        seen = set(self._revealed.get(seat, ()))
        if seat in self._shown:
            seen.update(hole)
        seen.update(card for card, up in zip(hole, self.up[seat], strict=True) if up)
        new = tuple(card for card in hole if card in wanted and card not in seen)
        if not new:
            raise IllegalAction("everyone sees those cards already")
        self._revealed[seat] = tuple(card for card in hole if card in seen | wanted)
        self.events.append(Event(EventKind.REVEAL, seat, 0, new))
        return new

    def view(self, seat: int | None = None) -> View:
        """The hand as ``seat`` (or a spectator, ``None``) may see it.

        Shows the viewer's own hole cards and the hands shown at showdown; every other hole
        card is ``None`` in ``seats`` and absent from ``events``. Never the deck, burn cards
        or mucked cards. ``legal`` only in the actor's own view.
        """
        self._check_viewer(seat)
        public = self._public_view()
        if seat is None:
            return public
        events = public.events
        for own in self._deal_index[seat]:
            events = events[:own] + (self.events[own],) + events[own + 1 :]
        return View(
            seat,
            public.config,
            public.street,
            public.button,
            public.seats[:seat] + (self._seat_view(seat, seat),) + public.seats[seat + 1 :],
            public.board,
            public.pots,
            public.total_pot,
            public.current_bet,
            public.actor,
            self.legal if seat == self._actor else None,
            events,
            public.result,
            public.no_more_betting,
            public.runs_due,
            public.second_board,
            public.third_board,
            public.most_runs,
        )

    def own_seat(self, seat: int) -> SeatView:
        """``view(seat).seats[seat]``: the seat as its own player sees it, without the rest
        of their view (for a caller that only compares it with the one before)."""
        self._check_viewer(seat)
        return self._seat_view(seat, seat)

    def _public_view(self) -> View:
        """What a spectator sees, built once per state (each change appends events, so their
        count names the state): every viewer's view is this one with their own seat swapped
        in, as ``view`` is asked for every viewer after every change."""
        events = self.events
        cached = self._public
        if cached is not None and cached[0] == len(events):
            return cached[1]
        others_see = self._others_see
        for e in events[len(others_see) :]:  # events are only ever appended
            others_see.append(replace(e, cards=()) if e.kind in _HIDDEN else e)
        view = View(
            None,
            self.config,
            self.street,
            self.button,
            tuple(self._seat_view(i, None) for i in range(self._n)),
            tuple(self.board),
            tuple(self.pots),
            sum(self._committed),
            self._current_bet,
            self._actor,
            None,
            tuple(others_see),
            self._result,
            self.no_more_betting,
            self._runs_due,
            tuple(self.second_board),
            tuple(self.third_board),
            self.most_runs,
        )
        self._public = (len(events), view)
        return view

    def _seat_view(self, i: int, viewer: int | None) -> SeatView:
        cards: tuple[Card | None, ...]
        up = self.up[i]
        if self._sees_hole(viewer, i):
            cards = self.hole[i]
        elif self._folded[i] or i in self._mucked:
            # out of the hand: nothing, but the cards its player chose to show afterwards
            cards = self._revealed.get(i, ())
            up = tuple(True for _ in cards)
        else:
            cards = self._seen_cards(viewer, i)
        return SeatView(
            i,
            self.players[i],
            self._stacks[i],
            self._bets[i],
            self._committed[i],
            self._folded[i],
            self._all_in[i],
            cards,
            up if cards else (),
            i in self._shown,
            i == self.button,
            i == self.small_blind_seat,
            i == self.big_blind_seat,
            i in self.straddle_seats,
        )
