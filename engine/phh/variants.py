"""The PHH variant codes the engine reads and writes, and the game and betting of each."""

from __future__ import annotations

VARIANTS = {
    "NT": ("holdem", "no-limit"),
    "FT": ("holdem", "fixed-limit"),
    "PO": ("omaha", "pot-limit"),
    "FO/8": ("omaha-hilo", "fixed-limit"),
    "PO/8": ("omaha-hilo", "pot-limit"),
    "F7S": ("stud", "fixed-limit"),
    "F7S/8": ("stud-hilo", "fixed-limit"),
    "FR": ("razz", "fixed-limit"),
}
VARIANT_OF = {v: k for k, v in VARIANTS.items()}
