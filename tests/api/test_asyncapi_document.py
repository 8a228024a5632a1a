"""The published socket protocol (``/api/asyncapi.json``) is a valid AsyncAPI 3.0 document by
the AsyncAPI Initiative's own JSON Schema (npm's ``@asyncapi/specs``, fetched by its client
and unpacked under the venv by ``make test-deps``, part of ``make test``: no PyPI package
ships it, and a copy in this repository would go stale unseen). Without it (pytest run
without ``make test-deps``) the tests that need it skip, saying so; under
``REQUIRE_SERVICES=1`` (CI) they fail."""

from __future__ import annotations

import copy
import json
import os
import sys
from pathlib import Path

import pytest
from django.test import Client
from jsonschema import Draft7Validator

from tests.conftest import missing_service

# Where `make test-deps` unpacks it (``ASYNCAPI_SPECS`` names another place).
SPECS = Path(os.environ.get("ASYNCAPI_SPECS") or Path(sys.prefix) / "share" / "asyncapi-specs")
# The bundle whose $refs are local ("#/definitions/..."): the one a validator resolves alone.
META_SCHEMA = SPECS / "schemas" / "3.0.0-without-$id.json"


@pytest.fixture(scope="module")
def specs() -> Path:
    """The unpacked package (skips, or fails when required, without it)."""
    if not (SPECS / "package.json").is_file() or not META_SCHEMA.is_file():
        missing_service(f"the AsyncAPI meta-schema is not installed ({SPECS}): make test-deps")
    return SPECS


@pytest.fixture(scope="module")
def meta_schema(specs) -> Draft7Validator:
    schema = json.loads(META_SCHEMA.read_text(encoding="utf-8"))
    assert schema["properties"]["asyncapi"]["const"] == "3.0.0"
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


@pytest.fixture
def document(db) -> dict:
    response = Client().get("/api/asyncapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_meta_schema_is_the_official_package(specs):
    package = json.loads((specs / "package.json").read_text(encoding="utf-8"))
    assert package["name"] == "@asyncapi/specs"
    assert package["repository"]["url"].endswith("asyncapi/spec-json-schemas.git")


def test_the_published_document_is_valid_asyncapi_3(meta_schema, document):
    errors = [f"{e.json_path}: {e.message[:200]}" for e in meta_schema.iter_errors(document)]
    assert errors == []
    assert document["asyncapi"] == "3.0.0"


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("operations", "request", "action"), "publish"),  # AsyncAPI 2's word
        (("components", "messages", "answer", "contentType"), 5),
        (("components", "schemas", "answer", "properties", "error"), {"type": "bool"}),
        (("channels", "table", "bindings", "ws", "method"), "PUT"),
    ],
)
def test_the_meta_schema_refuses_a_broken_document(meta_schema, document, where, value):
    """The check can fail: one wrong value anywhere in the document is found."""
    broken = copy.deepcopy(document)
    node = broken
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    assert not meta_schema.is_valid(broken)
