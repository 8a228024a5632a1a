"""The real hands the PHH and pkstate tests replay: 200 files in tests/engine/data/phh (where
they come from: its README.md). Imported at collection, so a missing or short folder fails
the run instead of parametrizing over nothing (pytest would skip an empty parameter set)."""

from pathlib import Path

PHH_DIR = Path(__file__).resolve().parent / "data" / "phh"
PHH_FILES = sorted(PHH_DIR.glob("*.phh"))
EXPECTED = 200

if len(PHH_FILES) != EXPECTED:
    raise RuntimeError(f"{PHH_DIR} holds {len(PHH_FILES)} .phh files, not {EXPECTED}")
