"""The README is a short front page (issue 29: at most 200 lines) whose links into the docs
resolve; the manual is the docs site."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_the_readme_is_at_most_200_lines():
    assert len(README.read_text().splitlines()) <= 200


def test_every_link_and_image_of_the_readme_into_docs_exists():
    targets = re.findall(r"\]\((docs/[^)#\s]+)", README.read_text())
    assert len(targets) > 10, "the README links into the docs"
    missing = [target for target in targets if not (ROOT / target).is_file()]
    assert missing == []


def test_the_readme_names_the_commands():
    readme = README.read_text()
    for command in ("make run", "make test", "make check", "make docs"):
        assert f"`{command}`" in readme, command


def test_the_first_paragraph_names_every_game_the_site_deals():
    """Issue 49, item 13: it named six of the eleven games (and no mixed game)."""
    from engine.variants import MIXED_GAMES, VARIANTS

    text = README.read_text().split("\n\n")[1].replace("\n", " ")
    labels = [game.label for game in VARIANTS.values()] + [
        mixed.label for mixed in MIXED_GAMES.values()
    ]
    assert len(VARIANTS) == 11
    assert [label for label in labels if label not in text] == []
