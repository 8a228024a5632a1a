"""Request fields that take JSON's own types only: a typo or a wrong type is an error, never
read as something else (DRF would turn ``5`` into ``"5"`` or ``"yes"`` into true)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tables.api.serializers import WholeNumberField


class StrictBooleanField(serializers.BooleanField):
    """JSON ``true`` or ``false`` only (not ``0``, ``"yes"``...): a typo is an error."""

    def to_internal_value(self, data: Any) -> bool:
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)


class StrictWholeNumberField(WholeNumberField):
    """A JSON integer (not a string of digits, not ``true``) in the field's range."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise serializers.ValidationError("A whole number is required.")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string (DRF would turn ``5`` into ``"5"``)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
