"""Fixtures for the multi-process tests: a fresh PostgreSQL database and a private Redis.

These tests start real daphne processes, so they need PostgreSQL (``DATABASE_URL``, in the
PostgreSQL + Redis pass of ``make test``) and the ``redis-server`` binary. Without them they
skip — or fail under ``REQUIRE_SERVICES=1`` (CI), like every service test.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.conftest import missing_service
from tests.load.harness import FreshDatabase, RedisServer


@pytest.fixture
def fresh_db():
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        missing_service("the load tests need PostgreSQL: set DATABASE_URL=postgres://...")
    with FreshDatabase(url) as db:
        yield db


@pytest.fixture
def redis_server():
    if shutil.which("redis-server") is None:
        missing_service("the load tests need the redis-server binary")
    with RedisServer() as redis:
        yield redis
