"""Django's template comments ``{# ... #}`` end on their own line: one that runs on is shown to
the player as text (the hosting panel showed its own comment). Longer comments use
``{% comment %}``. The Jinja2 templates (``templates/jinja2``) allow both."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def django_templates() -> list[Path]:
    jinja = ROOT / "templates" / "jinja2"
    found = [p for p in (ROOT / "templates").rglob("*.html") if jinja not in p.parents]
    found += [p for p in ROOT.glob("*/templates/**/*.html") if ".venv" not in p.parts]
    return sorted(found)


def unclosed_comments(text: str) -> list[int]:
    """The lines where a ``{#`` comment opens and does not close."""
    return [
        number
        for number, line in enumerate(text.splitlines(), 1)
        if "{#" in line and "#}" not in line[line.index("{#") :]
    ]


def test_the_check_finds_a_comment_that_runs_on():
    assert unclosed_comments("a\n{# one\ntwo #}\n{# fine #}") == [2]
    assert unclosed_comments("{# fine #} {{ x }}") == []


@pytest.mark.parametrize("path", django_templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_django_template_comment_runs_past_its_line(path):
    assert unclosed_comments(path.read_text()) == [], path
