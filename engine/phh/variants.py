"""The PHH variant codes the engine reads and writes, and the game and betting of each (from
the registry: each game names its codes)."""

from __future__ import annotations

from engine.errors import FormatCannotHold
from engine.variants import VARIANTS as GAMES

VARIANTS = {
    code: (name, betting) for name, game in GAMES.items() for betting, code in game.phh.items()
}
VARIANT_OF = {v: k for k, v in VARIANTS.items()}


def phh_code(game: str, betting: str) -> str:
    """The PHH code of ``game`` played ``betting``, or a ``FormatCannotHold`` saying PHH has
    none (the hand cannot be written as PHH)."""
    code = VARIANT_OF.get((game, betting))
    if code is None:
        raise FormatCannotHold(
            f"PHH has no variant for {game} {betting}", "phh", f"{game}_{betting}"
        )
    return code
