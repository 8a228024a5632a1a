"""The checks of a ``Table``'s game settings (``Table.clean`` runs them): the seats a game
holds, the betting it is played with, and the forced bets each kind of game has (stud's
bring-in and bets, the blinds, straddles and bomb pots of the games with a board, a mixed
game's of each of its games)."""

from __future__ import annotations

from engine.errors import PokerError
from engine.types import check_straddle
from engine.variants import parse_game_pick, variant
from tables.models.table_games import BETTING_WORDS, FIXED_LIMIT, PER_PLAYER, TableGame


class TableGameChecks(TableGame):
    """``TableGame`` with the checks of its settings (a mixin of ``tables.models.Table``)."""

    def _clean_game(self, errors: dict[str, str]) -> None:
        game_name = self.get_game_display()
        most = self.MAX_SEATS.get(self.game, 10)
        if self.max_seats is not None and not 2 <= self.max_seats <= most:
            errors["max_seats"] = f"{game_name} seats 2 to {most} players."
        if self.mixed is not None:
            self._clean_mixed(errors)
        else:
            bettings = self.BETTINGS_OF.get(self.game, ())
            if self.betting not in bettings and self.game in self.BETTINGS_OF:
                names = " or ".join(BETTING_WORDS[b].lower() for b in bettings)
                errors["betting"] = f"{game_name} is played {names}."
            if self.is_stud:
                self._clean_stud(errors)
            else:
                self._clean_flop_game(errors)

    def _bomb_pot_field(self) -> str:
        """The bomb-pot setting an error names: the first one set."""
        return next((f for f in self.BOMB_POT_SETTINGS if getattr(self, f)), "bomb_pot_ante")

    def _clean_stud(self, errors: dict[str, str]) -> None:
        """Stud, stud hi-lo, razz: antes, a bring-in, small and big bets. They have no blinds
        (set to 0 here, so the blinds a form left at its defaults do not matter)."""
        name = self.get_game_display()
        self.small_blind = self.big_blind = 0
        if self.straddle or self.straddles or self.button_straddle:
            field = "button_straddle" if self.button_straddle else "straddle"
            errors[field] = f"{name} has no blinds, so no straddle: set it to 0."
        if self.ante_mode != PER_PLAYER:
            errors["ante_mode"] = f"{name} antes are paid by every player."
        if self.run_it_twice:
            errors["run_it_twice"] = f"{name} is not run twice: its cards are dealt to players."
        if self.bomb_pot_ante or self.bomb_pot_every or self.bomb_pot_double_board:
            errors[self._bomb_pot_field()] = f"{name} has no flop, so no bomb pots: set it to 0."
        if not self.small_bet:
            errors["small_bet"] = f"{name} needs its small bet (the bet on 3rd and 4th street)."
            return
        if self.big_bet is not None and self.big_bet < self.small_bet:
            errors["big_bet"] = "The big bet cannot be below the small bet."
        if not 1 <= (self.bring_in or 0) < self.small_bet:
            errors["bring_in"] = (
                f"The bring-in is at least 1 chip and below the small bet ({self.small_bet})."
            )

    def _clean_mixed(self, errors: dict[str, str]) -> None:
        """A mixed game: the blinds of its big-bet games, the bets of its fixed-limit games,
        the bring-in of its stud games; dealer's choice's list of games."""
        mixed = self.mixed
        assert mixed is not None
        if mixed.dealers_choice:
            if not isinstance(self.choice_games, list):
                errors["choice_games"] = "List the games the button may pick."
                return
            for text in self.choice_games:
                try:
                    parse_game_pick(text)
                except PokerError as error:
                    errors["choice_games"] = f"{str(error).capitalize()}."
                    return
            if self.choice_seconds is not None and self.choice_seconds < 5:
                errors["choice_seconds"] = "Give the button at least 5 seconds to pick."
        limit, studs = self._mixed_has_limit, [g for g, _ in self.choices if variant(g).is_stud]
        if self._mixed_has_big_bet and self.big_blind < 1:
            errors["big_blind"] = "The big blind must be at least 1 chip."
        if self.small_blind > self.big_blind:
            errors["small_blind"] = "The small blind cannot be more than the big blind."
        if limit and not self.small_bet:
            errors["small_bet"] = f"{mixed.label} needs its small bet (its fixed-limit games)."
            return
        if self.small_bet and self.big_bet and self.big_bet < self.small_bet:
            errors["big_bet"] = "The big bet cannot be below the small bet."
        if studs and not 1 <= (self.bring_in or 0) < (self.small_bet or 0):
            errors["bring_in"] = (
                f"The stud games' bring-in is at least 1 chip and below the small bet "
                f"({self.small_bet})."
            )
        if not studs and self.bring_in:
            errors["bring_in"] = "Only stud games have a bring-in: set it to 0."

    def _clean_flop_game(self, errors: dict[str, str]) -> None:
        """The games with blinds (hold'em, Omaha, the draw games; short deck's one button
        blind): antes, straddles and bomb pots where the game has them; fixed limit's bets."""
        rules = self.rules
        name = self.get_game_display()
        if self.bring_in:
            errors["bring_in"] = "Only stud games have a bring-in: set it to 0."
        if rules.button_blind:
            self.small_blind = 0  # one blind, the button's (``big_blind``)
            if self.ante_mode != PER_PLAYER:
                errors["ante_mode"] = f"{name} antes are paid by every player."
        if "straddles" not in rules.forced_bets and (self.straddle or self.straddles):
            errors["straddle"] = f"{name} has no straddles: set it to 0."
        bombs = self.bomb_pot_ante or self.bomb_pot_every or self.bomb_pot_double_board
        if "bomb-pot" not in rules.forced_bets and bombs:
            errors[self._bomb_pot_field()] = f"{name} has no bomb pots: set it to 0."
        if self.run_it_twice and not self.runs_twice(rules):
            errors["run_it_twice"] = f"{name} is not run twice."
        if self.betting != FIXED_LIMIT and (self.small_bet or self.big_bet):
            errors["small_bet" if self.small_bet else "big_bet"] = (
                "Only fixed-limit games have a small and a big bet: leave it empty."
            )
        if self.small_bet and self.big_bet and self.big_bet < self.small_bet:
            errors["big_bet"] = "The big bet cannot be below the small bet."
        if self.small_blind is None or self.big_blind is None:
            # full_clean() runs clean() even after clean_fields() found a blind left empty.
            return  # type: ignore[unreachable]
        if self.big_blind < 1:
            errors["big_blind"] = "The big blind must be at least 1 chip."
            return
        if self.small_blind > self.big_blind:
            errors["small_blind"] = "The small blind cannot be more than the big blind."
        try:
            check_straddle(self.big_blind, self.straddle or 0)
        except PokerError as error:
            errors["straddle"] = f"{str(error).capitalize()}."
        if self.straddle and not self.straddles:
            self.straddles = 1  # the one straddle of tables made before re-straddles
        if self.straddles and not self.straddle:
            errors["straddle"] = "Set the first straddle's amount (twice the big blind or more)."
        most = (self.max_seats or 2) - 2
        if self.straddles > most:
            errors["straddles"] = (
                f"At most {most} straddles at {self.max_seats} seats (every seat but the blinds)."
            )
        if self.button_straddle and self.straddles > 1:
            errors["button_straddle"] = (
                "The button straddle is the only straddle: set straddles to 1."
            )
