"""Griffe extension for the docs build: a docstring's doctest examples (``>>>`` lines up to the
next blank line) become ``pycon`` code blocks, so Markdown shows them as code instead of
reading ``>>>`` as nested quotes and ``[...]`` as links. The docstrings stay plain doctests,
which ``tests/engine/test_doctests.py`` runs."""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with each run of doctest lines fenced as a ``pycon`` block."""
    lines: list[str] = []
    in_example = False
    for line in text.split("\n"):
        if not in_example and line.lstrip().startswith(">>>"):
            lines.append("```pycon")
            in_example = True
        elif in_example and not line.strip():
            lines.append("```")
            in_example = False
        lines.append(line)
    if in_example:
        lines.append("```")
    return "\n".join(lines)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
