"""The engine's docstring examples run and hold (``doctest``), module by module."""

import doctest
import importlib
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(
    ".".join(path.relative_to(ENGINE.parent).with_suffix("").parts).removesuffix(".__init__")
    for path in ENGINE.rglob("*.py")
    if ">>>" in path.read_text()
)


def test_the_engine_has_examples():
    assert len(MODULES) >= 6


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
