"""What the site's admin pages share: ``tables.admin`` and each feature's own admin (a
feature cannot import the adapter, so this lives below both): read-only models, and an action
run over the selected rows through a service, reported in one message and one per refusal."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.contrib import admin, messages
from django.http import HttpRequest

from tables.services.errors import ServiceError

__all__ = ["ReadOnlyAdminMixin", "report", "run_on_each"]

Row = TypeVar("Row")


class ReadOnlyAdminMixin:
    """View-only: no add, change or delete through admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def report(
    modeladmin: admin.ModelAdmin[Any], request: HttpRequest, done: int, errors: list[str], what: str
) -> None:
    """``what: done.`` when any was done, then each refusal as an error."""
    if done:
        modeladmin.message_user(request, f"{what}: {done}.", messages.SUCCESS)
    for error in errors:
        modeladmin.message_user(request, error, messages.ERROR)


def run_on_each(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    rows: Iterable[Row],
    run: Callable[[Row], object],
    what: str,
) -> None:
    """``run(row)`` for each selected row; a service's refusal is named with its row and the
    others still run (each service call is its own transaction)."""
    done, errors = 0, []
    for row in rows:
        try:
            run(row)
            done += 1
        except ServiceError as error:
            errors.append(f"{row}: {error}")
    report(modeladmin, request, done, errors, what)
