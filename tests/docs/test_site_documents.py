"""The docs' generated pages (``docs/site_documents.py``, the MkDocs hook) name everything the
site's own AsyncAPI and OpenAPI documents hold."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
METHODS = ("get", "post", "put", "patch", "delete")


def load_hook():
    spec = importlib.util.spec_from_file_location("site_documents", ROOT / "docs/site_documents.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hook():
    return load_hook()


@pytest.fixture(scope="module")
def documents(hook):
    return hook.served_documents()


def test_the_socket_page_names_every_message_error_and_close_code(hook, documents):
    asyncapi = documents["asyncapi"]
    page = hook.socket_markdown(asyncapi)
    for name in asyncapi["components"]["messages"]:
        assert f"#### {name}\n" in page, name
    for field in asyncapi["components"]["schemas"]["playState"]["properties"]:
        assert f"| `{field}` |" in page, field
    codes = asyncapi["components"]["schemas"]["answer"]["properties"]["code"]["examples"]
    assert "stale_version" in codes
    for code in codes:
        assert f"`{code}`" in page, code
    for close_code in asyncapi["x-close-codes"]:
        assert f"| {close_code} |" in page, close_code


def test_the_socket_page_keeps_angle_brackets_as_text(hook, documents):
    """A summary such as ``Authorization: Token <key>`` must not become an HTML tag."""
    page = hook.socket_markdown(documents["asyncapi"])
    prose = re.sub(r"`[^`\n]*`", "", page)  # code spans show <key> as written
    assert "<key>" not in prose
    assert "Token &lt;key&gt;" in prose


def test_the_rest_page_lists_every_endpoint_with_its_summary(hook, documents):
    openapi = documents["openapi"]
    page = hook.rest_markdown(openapi)
    operations = [
        (method, path, operation)
        for path, item in openapi["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]
    assert len(operations) > 40
    for method, path, operation in operations:
        assert f"| `{method.upper()}` | `{path}` | {operation['summary']} |" in page, (method, path)


def test_doctest_examples_become_code_blocks():
    spec = importlib.util.spec_from_file_location("doctest_blocks", ROOT / "docs/doctest_blocks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "Pots.\n\n>>> uncalled([0, 300, 120])\n(1, 180)\n\nAfter."
    assert module.fence_doctests(text) == (
        "Pots.\n\n```pycon\n>>> uncalled([0, 300, 120])\n(1, 180)\n```\n\nAfter."
    )
