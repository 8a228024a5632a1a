"""The Jinja2 environment of the table screen's partials (``templates/jinja2/``).

The partials are rendered for every viewer on every change of a table, hundreds of times a
second under load; Jinja2 compiles them to Python and renders them several times faster than
Django's template engine (bench/bench_load.py). Pages keep Django templates.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from jinja2 import Environment

from tables.text import chips


def url(name: str, *args: object) -> str:
    """``{{ url('tables:hand', table_id, number) }}``: Django's ``reverse``."""
    return reverse(name, args=args)


def environment(**options: Any) -> Environment:
    env = Environment(**options)
    env.globals["url"] = url
    env.filters["chips"] = chips
    return env
