"""Requests that act at most once: the first answer to an ``Idempotency-Key`` is kept and
given again to every retry with that key (``IdempotencyKey``).

``idempotent_answer`` claims the key and runs the request in ONE transaction, and stores the
answer before it commits. A retry that arrives while the first is still running waits on the
key's unique index until the first commits (PostgreSQL; SQLite has one writer at a time),
then finds the stored answer: two concurrent retries act once. A request that fails with a
server error stores nothing (its transaction rolls back, key included), so it may be retried.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from tables.models import IdempotencyKey
from tables.services.errors import ServiceError

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class IdempotencyKeyReused(ServiceError):
    """The key was already used, by this user, for a different request."""

    code = "idempotency_key_reused"


@dataclass(frozen=True)
class Answer:
    """An HTTP answer as kept: its status and JSON body; ``replayed`` when it is a retry's."""

    status: int
    body: Any
    replayed: bool = False


def idempotent_answer(
    *,
    user: User,
    key: str,
    fingerprint: str,
    run: Callable[[], Answer],
    now: datetime | None = None,
) -> Answer:
    """``run()``'s answer, or the one kept for ``key`` if ``user`` sent it before.

    Lock: the key's row (its unique index), then whatever ``run`` locks. ``run`` may call
    services (their transactions nest in this one). Answers of 500 or more are not kept.
    Keys older than ``IdempotencyKey.KEEP_HOURS`` are forgotten (deleted) first.
    Raises ``IdempotencyKeyReused`` when ``key`` was used for another request (another
    ``fingerprint``): nothing is done.
    """
    now = now or timezone.now()
    with transaction.atomic():
        expired = now - timedelta(hours=IdempotencyKey.KEEP_HOURS)
        IdempotencyKey.objects.filter(user=user, created_at__lt=expired).delete()
        kept, created = IdempotencyKey.objects.get_or_create(
            user=user, key=key, defaults={"fingerprint": fingerprint, "status_code": 0, "body": {}}
        )
        if not created:
            if kept.fingerprint != fingerprint:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was already used for a different request: use a new "
                    "key for each request (and the same key only for its retries)."
                )
            return Answer(kept.status_code, kept.body, replayed=True)
        answer = run()
        if answer.status >= 500:
            transaction.set_rollback(True)
            return answer
        kept.status_code, kept.body = answer.status, answer.body
        kept.save(update_fields=["status_code", "body"])
        return answer
