"""Append-only rows: logs that only grow (ledger entries, hand actions, chat, notices)."""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

from django.db import models

M = TypeVar("M", bound=models.Model)


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a row of an append-only log."""


class AppendOnlyQuerySet(models.QuerySet[M]):
    """A queryset that refuses bulk updates and deletes: the log only grows."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: no update")

    def delete(self) -> NoReturn:
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: no delete")


class AppendOnlyModel(models.Model):
    """Base for log rows: ``save()`` only inserts, ``delete()`` refuses."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are append-only: no update")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only: no delete")
