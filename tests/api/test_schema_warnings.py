"""The OpenAPI schema is generated without a warning (the deploy check fails on one)."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_the_openapi_schema_has_no_warnings(tmp_path):
    # --fail-on-warn: drf-spectacular's warnings (two components with one name, an
    # unresolvable field...) become an error naming them.
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(tmp_path / "s.yaml"))
    assert (tmp_path / "s.yaml").read_text().startswith("openapi:")


def _shape(schema):
    """The objects' field names and required lists, nested (enums and their refs aside)."""
    if isinstance(schema, list):
        return [_shape(item) for item in schema]
    if not isinstance(schema, dict):
        return None
    shape = {key: _shape(value) for key, value in schema.get("properties", {}).items()}
    for key in ("items", "oneOf"):
        if key in schema:
            shape[key] = _shape(schema[key])
    return {"fields": shape, "required": sorted(schema.get("required", []))}


PLAY_ENDPOINTS = {
    ("/api/tables/{id}/state/", "get"),
    ("/api/tables/{id}/actions/", "post"),
    ("/api/tables/{id}/seat/", "post"),
    ("/api/tables/{id}/seat/", "delete"),
    ("/api/tables/{id}/sit-out/", "post"),
    ("/api/tables/{id}/sit-in/", "post"),
    ("/api/tables/{id}/sit-out-next/", "post"),
    ("/api/tables/{id}/post-now/", "post"),
    ("/api/tables/{id}/top-up/", "post"),
    ("/api/tables/{id}/rabbit/", "post"),
    ("/api/tables/{id}/game/", "post"),
    ("/api/tables/{id}/show/", "post"),
    ("/api/tables/{id}/pre-action/", "post"),
    ("/api/tables/{id}/broadcast/", "post"),
}


@pytest.mark.django_db
def test_the_play_state_is_one_component_every_play_endpoint_refers_to():
    """Named once (``PlayState``, made from ``tables/presenters/play_state.json``), not
    restated per endpoint: a client generator gets one type for it."""
    import json

    from drf_spectacular.generators import SchemaGenerator

    from tables.api.schema import as_openapi
    from tables.presenters.play_state import PLAY_STATE

    document = SchemaGenerator().get_schema(request=None, public=True)
    component = document["components"]["schemas"]["PlayState"]
    # drf-spectacular moves enums into components of their own; every object keeps its fields.
    assert _shape(component) == _shape(as_openapi(PLAY_STATE))
    assert set(component["required"]) == set(PLAY_STATE["required"])
    answering = {
        (path, method)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if operation.get("responses", {}).get("200", {}).get("content", {}).get("application/json")
        == {"schema": {"$ref": "#/components/schemas/PlayState"}}
    }
    assert answering == PLAY_ENDPOINTS
    # Nowhere else: the play state's own properties appear in the component alone.
    rest = json.dumps({**document, "components": {}})
    assert '"hand_number"' not in rest and '"top_up_room"' not in rest
