"""The OpenAPI schema is generated without a warning (the deploy check fails on one)."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_the_openapi_schema_has_no_warnings(tmp_path):
    # --fail-on-warn: drf-spectacular's warnings (two components with one name, an
    # unresolvable field...) become an error naming them.
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(tmp_path / "s.yaml"))
    assert (tmp_path / "s.yaml").read_text().startswith("openapi:")
