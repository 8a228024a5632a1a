"""The game parts of a ``Table``: which game and betting it deals (one game, a rotation, or
dealer's choice), its stakes in words and the ``HandConfig`` of its next hand (the checks of
its game settings are in ``table_game_checks``). Everything is asked of the engine's registry
(``engine.variants``): no game is named here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import PokerError
from engine.types import MAX_SEATS as ENGINE_MAX_SEATS
from engine.variants import (
    DEFAULT_GAME,
    MIXED_GAMES,
    VARIANTS,
    MixedGame,
    Pick,
    Stakes,
    Variant,
    mixed_game,
    parse_game_pick,
    pick_text,
    stakes_for,
    variant,
)

FIXED_LIMIT = "fixed-limit"
PER_PLAYER = "per-player"
BETTING_WORDS = {"no-limit": "No-limit", "pot-limit": "Pot-limit", "fixed-limit": "Fixed-limit"}


def game_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The registry's games grouped by family, then the mixed games (a form's optgroups)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name, game in VARIANTS.items():
        groups.setdefault(game.family, []).append((name, game.label))
    groups["Mixed"] = [(name, mixed.label) for name, mixed in MIXED_GAMES.items()]
    return list(groups.items())


def hand_game_choices() -> list[tuple[str, str]]:
    """The games one hand may be dealt in (no mixed game: a hand is dealt one game)."""
    return [(name, game.label) for name, game in VARIANTS.items()]


def pick_choices() -> list[tuple[str, str]]:
    """Every game and betting dealer's choice may deal, as ``game/betting`` and in words."""
    return [
        (pick_text(pick), TableGame.words_of(pick)) for pick in MIXED_GAMES["dealers-choice"].games
    ]


class TableGame:
    """The game parts of ``tables.models.Table`` (a mixin: the fields are the model's)."""

    #: Most seats per game: the engine's limit; a mixed game's is its smallest game's.
    MAX_SEATS = {
        **ENGINE_MAX_SEATS,
        **{
            name: min(ENGINE_MAX_SEATS[game] for game, _ in mixed.games)
            for name, mixed in MIXED_GAMES.items()
        },
    }
    #: The bettings each game is played with (the first is the one a new table gets); a mixed
    #: game's bettings are its games' own, so it takes any.
    BETTINGS_OF = {
        **{name: game.bettings for name, game in VARIANTS.items()},
        **dict.fromkeys(MIXED_GAMES, ("no-limit", "pot-limit", "fixed-limit")),
    }

    if TYPE_CHECKING:
        game: str
        betting: str
        small_blind: int
        big_blind: int
        ante: int
        ante_mode: str
        straddle: int
        straddles: int
        button_straddle: bool
        bring_in: int
        small_bet: int | None
        big_bet: int | None
        max_seats: int
        run_it_twice: bool
        bomb_pot_ante: int
        bomb_pot_every: int
        bomb_pot_next: bool
        bomb_pot_double_board: bool
        choice_games: Any
        choice_seconds: int
        dealt_game: str
        dealt_game_hands: int
        rotation_hands: int

        def get_game_display(self) -> str: ...

    #: Settings that apply only to some games: the blinds, straddles, run-outs and bomb
    #: pots of the games that have them, stud's bring-in, fixed limit's bets, the mixed
    #: games' rotation and dealer's choice. Forms show them only where they apply.
    BLIND_SETTINGS = ("small_blind", "big_blind", "ante_mode")
    STRADDLE_SETTINGS = ("straddle", "straddles", "button_straddle")
    BOMB_POT_SETTINGS = ("bomb_pot_ante", "bomb_pot_every", "bomb_pot_double_board")
    STUD_SETTINGS = ("bring_in",)
    FIXED_LIMIT_SETTINGS = ("small_bet", "big_bet")
    MIXED_SETTINGS = ("rotation_hands",)
    CHOICE_SETTINGS = ("choice_games", "choice_seconds")

    @classmethod
    def settings_not_for(cls, game: str, betting: str) -> frozenset[str]:
        """The settings that do not apply to ``game`` played ``betting`` (a form leaves
        them at their defaults). Asks the registry: what opens the pot, which forced bets
        the game has, whether it has a board to run twice."""
        mixed = mixed_game(game)
        if mixed is not None:
            apart = {
                "betting",
                "ante_mode",
                "run_it_twice",
                *cls.STRADDLE_SETTINGS,
                *cls.BOMB_POT_SETTINGS,
            }
            if not mixed.dealers_choice:
                apart.update(cls.CHOICE_SETTINGS)
            return frozenset(apart)
        rules = VARIANTS.get(game) or variant(DEFAULT_GAME)
        apart = {*cls.MIXED_SETTINGS, *cls.CHOICE_SETTINGS}
        if rules.forced == "bring-in":
            apart.update(cls.BLIND_SETTINGS)
        else:
            apart.update(cls.STUD_SETTINGS)
        if rules.forced == "button-blind":
            apart.update(("small_blind", "ante_mode"))
        if "straddles" not in rules.forced_bets:
            apart.update(cls.STRADDLE_SETTINGS)
        if "bomb-pot" not in rules.forced_bets:
            apart.update(cls.BOMB_POT_SETTINGS)
        if not cls.runs_twice(rules):
            apart.add("run_it_twice")
        if rules.forced != "bring-in" and betting != FIXED_LIMIT:
            apart.update(cls.FIXED_LIMIT_SETTINGS)
        return frozenset(apart)

    @staticmethod
    def runs_twice(rules: Variant) -> bool:
        """Whether the game may run the rest of its board twice (a board and two blinds)."""
        return rules.structure == "board" and rules.forced == "blinds"

    # --- derived values ------------------------------------------------------------------
    @property
    def mixed(self) -> MixedGame | None:
        """The mixed game dealt here, or None for a single game."""
        return mixed_game(self.game)

    @property
    def pick(self) -> Pick:
        """The game and betting of the next hand: the table's own, or the mixed game's
        game being dealt (its first before any hand)."""
        mixed = self.mixed
        if mixed is None:
            return self.game, self.betting
        if self.dealt_game:
            try:
                return parse_game_pick(self.dealt_game)
            except PokerError:
                pass  # a game the registry no longer has: start the rotation again
        return self.choices[0] if mixed.dealers_choice else mixed.games[0]

    @property
    def choices(self) -> tuple[Pick, ...]:
        """Dealer's choice: the games the button may pick (the host's list, else every
        game); a rotation's games otherwise."""
        mixed = self.mixed
        if mixed is None:
            return ((self.game, self.betting),)
        picks = []
        for text in (self.choice_games or []) if mixed.dealers_choice else []:
            try:
                picks.append(parse_game_pick(text))
            except PokerError:
                continue
        return tuple(picks) or mixed.games

    @property
    def rules(self) -> Variant:
        """The rules of the game the next hand deals (``pick``)."""
        return variant(self.pick[0])

    @property
    def is_stud(self) -> bool:
        """The next hand opens with a bring-in (no blinds): a stud game."""
        return self.rules.forced == "bring-in"

    @property
    def is_hilo(self) -> bool:
        return self.rules.is_split

    @property
    def unit(self) -> int:
        """The stake buy-ins and bb/100 count in: the big blind, or the small bet where the
        game has no blinds (stud; its small bet is what fixed-limit hold'em's big blind is)
        or a mixed game plays fixed limit."""
        if self.mixed is not None:
            return (self.small_bet or 0) if self._mixed_has_limit else self.big_blind
        if self.is_stud:
            return self.small_bet or 0
        return self.big_blind

    @property
    def _mixed_has_limit(self) -> bool:
        return any(betting == FIXED_LIMIT for _, betting in self.choices)

    @property
    def _mixed_has_big_bet(self) -> bool:
        return any(betting != FIXED_LIMIT for _, betting in self.choices)

    @property
    def stakes(self) -> str:
        """The stakes in one line: "1/2/4/8 ante 1" (blinds, then each straddle), "1/2/4
        button straddle", stud's "5/10 ante 1 bring-in 2" (small/big bet); a mixed game's
        blinds and bets ("1/2, 2/4 ante 1 bring-in 1")."""
        if self.mixed is not None:
            parts = []
            if self._mixed_has_big_bet:
                parts.append(f"{self.small_blind}/{self.big_blind}")
            if self._mixed_has_limit:
                small = self.small_bet or 0
                parts.append(f"{small}/{self.big_bet or 2 * small}")
            text = ", ".join(parts)
            if self.ante:
                text += f" ante {self.ante}"
            if any(variant(game).forced == "bring-in" for game, _ in self.choices):
                text += f" bring-in {self.bring_in}"
            return text
        if self.is_stud:
            small = self.small_bet or 0
            text = f"{small}/{self.big_bet or 2 * small}"
            if self.ante:
                text += f" ante {self.ante}"
            return f"{text} bring-in {self.bring_in}"
        if self.rules.forced == "button-blind":
            text = f"button blind {self.big_blind}"
            return f"{text} ante {self.ante}" if self.ante else text
        text = f"{self.small_blind}/{self.big_blind}"
        if self.straddle:
            count = 1 if self.button_straddle else max(self.straddles, 1)
            text += "".join(f"/{self.straddle << k}" for k in range(count))
            if self.button_straddle:
                text += " button straddle"
        if self.ante:
            text += f" ante {self.ante}"
        return text

    @property
    def dealt_stakes(self) -> str:
        """The stakes of the game being dealt: a single game's ``stakes``; at a mixed table
        only what its game has, from its ``hand_config`` ("2/4" in fixed-limit badugi, with
        no bring-in; "2/4 ante 1 bring-in 1" in razz)."""
        if self.mixed is None:
            return self.stakes
        config = self.hand_config()
        if self.is_stud or config["betting"] == FIXED_LIMIT:
            text = f"{config['small_bet']}/{config['big_bet']}"
        elif not config["small_blind"]:
            text = f"button blind {config['big_blind']}"
        else:
            text = f"{config['small_blind']}/{config['big_blind']}"
        if config.get("ante"):
            text += f" ante {config['ante']}"
        if self.is_stud:
            text += f" bring-in {config['bring_in']}"
        return text

    def orbit_over(self, players: int) -> bool:
        """A mixed table: the game being dealt has had its hands (or none is dealt yet);
        ``players``: how many are dealt in (an orbit's hands when ``rotation_hands`` is 0)."""
        return not self.dealt_game or self.dealt_game_hands >= (self.rotation_hands or players)

    def next_game(self, players: int) -> tuple[str, int] | None:
        """What the table shows of a rotation: the next game in words and how many hands of
        the current one are left (None at a single game's table or dealer's choice)."""
        mixed = self.mixed
        if mixed is None or mixed.dealers_choice or not self.dealt_game:
            return None
        left = max((self.rotation_hands or players) - self.dealt_game_hands, 0)
        return self.words_of(mixed.next_pick(self.pick)), left

    @staticmethod
    def words_of(pick: Pick) -> str:
        """A game and betting in words: "Fixed-limit Razz"."""
        game, betting = pick
        return f"{BETTING_WORDS[betting]} {variant(game).label}"

    @property
    def variant(self) -> str:
        """The game in words: "No-limit Hold'em", or a mixed game's name and the game being
        dealt ("HORSE: Fixed-limit Razz")."""
        words = self.words_of(self.pick)
        if self.mixed is not None:
            return f"{self.mixed.label}: {words}"
        return words

    def hand_config(self, pick: Pick | None = None) -> dict[str, Any]:
        """The engine ``HandConfig`` (as a dict) for the next hand at this table (of
        ``pick``, a mixed table's game and betting; its ``pick`` by default)."""
        game, betting = pick or self.pick
        rules = variant(game)
        if self.mixed is not None:
            small_bet = self.small_bet or self.big_blind
            stakes = Stakes(
                small_blind=self.small_blind,
                big_blind=self.big_blind,
                small_bet=small_bet,
                big_bet=self.big_bet or 2 * small_bet,
                ante=self.ante,
                bring_in=self.bring_in,
            )
            return stakes_for(rules, betting, stakes)
        fixed = betting == FIXED_LIMIT
        if rules.forced == "bring-in":
            return {
                "game": game,
                "betting": betting,
                "small_blind": 0,
                "big_blind": 0,
                "ante": self.ante,
                "ante_mode": PER_PLAYER,
                "small_bet": self.small_bet,
                "big_bet": self.big_bet,
                "bring_in": self.bring_in,
            }
        straddles = "straddles" in rules.forced_bets and bool(self.straddle)
        return {
            "game": game,
            "betting": betting,
            "small_blind": 0 if rules.button_blind else self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "ante_mode": self.ante_mode if not rules.button_blind else PER_PLAYER,
            "straddle": self.straddle if straddles else 0,
            "straddles": (self.straddles or 1) if straddles else 0,
            "button_straddle": self.button_straddle and straddles,
            "small_bet": self.small_bet if fixed else None,
            "big_bet": self.big_bet if fixed else None,
            "run_it_twice": self.run_it_twice and self.runs_twice(rules),
        }

    def level_stakes(self, small_blind: int, big_blind: int, ante: int) -> dict[str, Any]:
        """A tournament level's blinds as this table's stakes, by the usual convention: the
        games with blinds play them; a fixed-limit game (and every game of a mixed one) bets
        the big blind and twice it; a stud game's bring-in is a quarter of its small bet."""
        fields: dict[str, Any] = {
            "small_blind": small_blind,
            "big_blind": big_blind,
            "ante": ante,
            "small_bet": None,
            "big_bet": None,
            "bring_in": 0,
        }
        if self.mixed is not None or self.is_stud or self.betting == FIXED_LIMIT:
            fields.update(small_bet=big_blind, big_bet=2 * big_blind)
        if any(variant(game).forced == "bring-in" for game, _ in self.choices):
            fields["bring_in"] = max(1, big_blind // 4)
        if self.mixed is None and self.is_stud:
            fields.update(small_blind=0, big_blind=0)
        return fields

    @property
    def has_bomb_pots(self) -> bool:
        """Bomb pots are played here: an ante is set and the game has them (a flop)."""
        return bool(self.bomb_pot_ante) and "bomb-pot" in self.rules.forced_bets

    def bomb_pot_due(self, number: int) -> bool:
        """Whether hand ``number`` here is a bomb pot: the host called one, or every
        ``bomb_pot_every`` hands (stud games have no bomb pots)."""
        if not self.has_bomb_pots:
            return False
        return self.bomb_pot_next or bool(self.bomb_pot_every and number % self.bomb_pot_every == 0)
