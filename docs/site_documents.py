"""MkDocs hook: the socket protocol's and the REST API's pages, made from the documents the
site itself serves.

Django is set up once per build (an in-memory SQLite database, no Redis) and its test client
asks for ``/api/asyncapi.json`` and ``/api/schema/``: the URLs, not the modules that build
them, so the pages follow the site. Both documents are shipped beside the pages
(``reference/asyncapi.json``, ``reference/openapi.json``), and a page's ``<!-- asyncapi -->``
or ``<!-- openapi -->`` line is replaced by the tables made from them.
"""

from __future__ import annotations

import json
import os
import re
import sys
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ASYNCAPI_FILE = "reference/asyncapi.json"
OPENAPI_FILE = "reference/openapi.json"
METHODS = ("get", "post", "put", "patch", "delete")

_documents: dict[str, dict[str, Any]] = {}


def _served(path: str, **query: str) -> dict[str, Any]:
    """The JSON document the site serves at ``path``."""
    from django.test import Client

    response = Client().get(path, query)
    if response.status_code != 200:
        raise RuntimeError(f"{path} answered {response.status_code}")
    return json.loads(response.content)


def served_documents() -> dict[str, dict[str, Any]]:
    """The AsyncAPI and OpenAPI documents, as a running site serves them (Django set up)."""
    return {
        "asyncapi": _served("/api/asyncapi.json"),
        "openapi": _served("/api/schema/", format="json"),
    }


def on_config(config):
    os.environ["DJANGO_SETTINGS_MODULE"] = "pokersite.settings"
    os.environ["DATABASE_URL"] = "sqlite://:memory:"  # the documents read no data
    os.environ.pop("REDIS_URL", None)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django

    # Static files are not collected for a docs build; WhiteNoise says so once per process.
    warnings.filterwarnings("ignore", "No directory at", UserWarning)
    django.setup()
    _documents.update(served_documents())
    return config


def on_files(files, config):
    from mkdocs.structure.files import File

    for name, path in (("asyncapi", ASYNCAPI_FILE), ("openapi", OPENAPI_FILE)):
        text = json.dumps(_documents[name], indent=2, ensure_ascii=False) + "\n"
        files.append(File.generated(config, path, content=text))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    if "<!-- asyncapi -->" in markdown:
        markdown = markdown.replace("<!-- asyncapi -->", socket_markdown(_documents["asyncapi"]))
    if "<!-- openapi -->" in markdown:
        markdown = markdown.replace("<!-- openapi -->", rest_markdown(_documents["openapi"]))
    return markdown


# ----------------------------------------------------------------------- the socket (AsyncAPI)
def _cell(text: Any) -> str:
    """Plain text on one line, for a table cell or a paragraph (``<key>`` stays text)."""
    text = " ".join(str(text).split())
    return text.replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def _paragraphs(markdown: str) -> str:
    """Markdown from the document, with the blank line Python-Markdown needs before a list."""
    return re.sub(r"(?m)^([^-\n][^\n]*)\n- ", r"\1\n\n- ", markdown)


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _type(schema: dict[str, Any]) -> str:
    """A JSON Schema's type in a few words (a reference links to its message)."""
    if "$ref" in schema:
        name = _ref_name(schema["$ref"])
        return f"[{name}](#{name.lower()})"
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return " \\| ".join(f"`{json.dumps(value)}`" for value in schema["enum"])
    for keyword in ("oneOf", "anyOf"):
        if keyword in schema:
            return " or ".join(dict.fromkeys(_type(option) for option in schema[keyword]))
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array" and "items" in schema:
        return f"array of {_type(schema['items'])}"
    return str(kind)


def _fields(schema: dict[str, Any]) -> list[str]:
    """A table of an object schema's fields, or nothing for a schema without them."""
    properties = schema.get("properties") or {}
    if not properties:
        return []
    required = set(schema.get("required", []))
    rows = ["| Field | Type | Required | Description |", "|---|---|---|---|"]
    for name, field in properties.items():
        mark = "yes" if name in required else ""
        rows.append(
            f"| `{name}` | {_type(field)} | {mark} | {_cell(field.get('description', ''))} |"
        )
    return rows + [""]


def _message(name: str, message: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    lines = [f"#### {name}", "", _cell(message.get("summary", "")), ""]
    lines.append(f"Content type: `{message.get('contentType', 'application/json')}`.")
    lines.append("")
    for base in schema.get("allOf", []):
        lines += [f"Every field of {_type(base)}, and:", ""]
    lines += _fields(schema)
    if "x-top-level-elements" in schema:
        lines += _elements(schema["x-top-level-elements"])
    return lines


def _elements(elements: dict[str, Any]) -> list[str]:
    """The HTML frame's top-level elements (their JSON Schema: ``x-top-level-elements``)."""
    items = elements["items"]
    rows = ["Its top-level elements, each swapped in by id:", ""]
    rows += ["| Element | `id` | `hx-swap-oob` |", "|---|---|---|"]
    for option in items.get("oneOf", [items]):
        fields = option["properties"]
        columns = (_values(fields[name]) for name in ("tag", "id", "hx-swap-oob"))
        rows.append("| " + " | ".join(columns) + " |")
    return rows + [""]


def _values(schema: dict[str, Any]) -> str:
    """The values a ``const`` or ``enum`` schema allows, as code."""
    values = [schema["const"]] if "const" in schema else schema.get("enum", [])
    return ", ".join(f"`{value}`" for value in values)


def socket_markdown(document: dict[str, Any]) -> str:
    """The AsyncAPI document as Markdown: the channel, each operation's messages with their
    fields, the error codes and the close codes."""
    components = document["components"]
    info = document["info"]
    lines = [f"## {info['title']}, protocol version {info['version']}", ""]
    for channel in document["channels"].values():
        lines += [f"Address: `{channel['address']}` ({_cell(channel.get('title', ''))}).", ""]
    lines += [_paragraphs(info["description"]), ""]
    for operation in document["operations"].values():
        direction = "client to server" if operation["action"] == "receive" else "server to client"
        lines += [f"### {operation['title']} ({direction})", ""]
        for ref in operation["messages"]:
            name = _ref_name(ref["$ref"])
            message = components["messages"][name]
            lines += _message(name, message, components["schemas"][name])
    state = components["schemas"]["playState"]
    lines += [
        "### playState",
        "",
        _cell(state.get("description", "")),
        "",
        "Its full JSON Schema is in the shipped document "
        "([asyncapi.json](asyncapi.json), `components.schemas.playState`).",
        "",
    ]
    lines += _fields(state)
    code = components["schemas"]["answer"]["properties"]["code"]
    lines += ["### Error codes", "", _cell(code["description"]), ""]
    lines += [", ".join(f"`{name}`" for name in code["examples"]), ""]
    lines += ["### Close codes", "", "| Code | Meaning |", "|---|---|"]
    lines += [f"| {code} | {_cell(text)} |" for code, text in document["x-close-codes"].items()]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------ the REST API (OpenAPI)
def rest_markdown(document: dict[str, Any]) -> str:
    """The OpenAPI document's endpoints as Markdown tables, one per tag."""
    by_tag: dict[str, list[str]] = {}
    for path, operations in document["paths"].items():
        for method in METHODS:
            operation = operations.get(method)
            if operation is None:
                continue
            tag = (operation.get("tags") or ["other"])[0]
            summary = _cell(operation.get("summary", ""))
            by_tag.setdefault(tag, []).append(f"| `{method.upper()}` | `{path}` | {summary} |")
    info = document["info"]
    lines = [f"## {info['title']} {info['version']}: every endpoint", ""]
    for tag, rows in by_tag.items():
        lines += [f"### {tag.capitalize()}", ""]
        lines += ["| Method | Path | What it does |", "|---|---|---|", *rows, ""]
    return "\n".join(lines) + "\n"
